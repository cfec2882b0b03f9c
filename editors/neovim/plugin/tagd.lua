-- Commands for tagd.nvim (:help tagd-commands). Everything else is in lua/tagd/ and loads on
-- first use.
if vim.g.loaded_tagd then
  return
end
vim.g.loaded_tagd = true

-- :help tagd without a manual :helptags: the plugin builds its own help tags when doc/tags is
-- missing or older than doc/tagd.txt (a package, a runtimepath entry or a plugin manager's
-- `dir` plugin is used straight from its directory). Nothing happens when the directory is
-- read-only or the tags are current.
do
  local uv = vim.uv or vim.loop
  local here = debug.getinfo(1, "S").source:gsub("^@", "")
  local doc = vim.fn.fnamemodify(uv.fs_realpath(here) or here, ":p:h:h") .. "/doc"
  local txt, tags = uv.fs_stat(doc .. "/tagd.txt"), uv.fs_stat(doc .. "/tags")
  if txt and (not tags or tags.mtime.sec < txt.mtime.sec) and vim.fn.filewritable(doc) == 2 then
    pcall(vim.cmd, "silent! helptags " .. vim.fn.fnameescape(doc))
  end
end

-- :colorscheme clears every highlight group: link the plugin's again.
vim.api.nvim_create_autocmd("ColorScheme", {
  group = vim.api.nvim_create_augroup("tagd.highlights", { clear = true }),
  callback = function()
    require("tagd.render").define_highlights()
  end,
})

local function tagd()
  return require("tagd")
end

-- Completion of field names: the open fields (none open: "default").
local function complete_fields(arglead)
  local names = package.loaded["tagd"] and tagd().fields() or {}
  if #names == 0 then
    names = { "default" }
  end
  return vim.tbl_filter(function(n)
    return n:sub(1, #arglead) == arglead
  end, names)
end

-- The field a command acts on: its argument, else the current field buffer's, else "default".
local function target(a)
  return a.args ~= "" and a.args or vim.b.tagd_field or "default"
end

vim.api.nvim_create_user_command("TagField", function(a)
  tagd().open(a.args ~= "" and a.args or nil, { insert = true })
end, { nargs = "?", complete = complete_fields, desc = "tagd: open a tag field (default name: default)" })

vim.api.nvim_create_user_command("TagFieldClose", function(a)
  local name = target(a)
  local tags = tagd().close(name)
  if tags then
    local list = #tags > 0 and table.concat(tags, ", ") or "no tags"
    vim.api.nvim_echo({ { string.format("tagd: closed %s: %s", name, list) } }, true, {})
  else
    vim.api.nvim_echo({ { "tagd: no field " .. name, "WarningMsg" } }, true, {})
  end
end, { nargs = "?", complete = complete_fields, desc = "tagd: close a tag field and print its tags" })

-- The tags on one line of the echo area when they fit, else in a float (never "Press ENTER").
vim.api.nvim_create_user_command("TagFieldTags", function(a)
  local tags = tagd().tags(target(a))
  if not tags then
    return vim.api.nvim_echo({ { "tagd: no field " .. target(a), "WarningMsg" } }, false, {})
  end
  local line = table.concat(tags, ", ")
  if vim.fn.strdisplaywidth(line) < (vim.v.echospace or vim.o.columns - 12) then
    vim.api.nvim_echo({ { line } }, true, {})
  else
    require("tagd.info").float(tags, target(a) .. ": " .. #tags .. " tags")
  end
end, { nargs = "?", complete = complete_fields, desc = "tagd: print a tag field's tags" })

vim.api.nvim_create_user_command("TagFieldFrontMatter", function()
  require("tagd.frontmatter").bind(0)
end, { desc = "tagd: edit this note's tags (front matter, or an Org file's #+FILETAGS:) in a tag field" })

vim.api.nvim_create_user_command("TagFieldOrgHeading", function()
  require("tagd.frontmatter").bind_heading(0)
end, { desc = "tagd: edit the tags of the Org heading at the cursor in a tag field" })

vim.api.nvim_create_user_command("TagdTags", function(a)
  require("tagd.vault").tags(a.args)
end, { nargs = "?", desc = "tagd: the vault's tags, most used first (optionally those starting with the argument)" })

vim.api.nvim_create_user_command("TagdRename", function(a)
  if #a.fargs ~= 2 then
    return vim.api.nvim_echo({ { "tagd: :TagdRename OLD NEW", "ErrorMsg" } }, false, {})
  end
  require("tagd.vault").rename(a.fargs[1], a.fargs[2])
end, { nargs = "+", desc = "tagd: rename a tag in every note of the vault" })

vim.api.nvim_create_user_command("TagdRestart", function()
  tagd().restart()
end, { desc = "tagd: restart tagd and restore every field" })

vim.api.nvim_create_user_command("TagdInfo", function()
  require("tagd.info").show()
end, { desc = "tagd: the daemon and the open fields" })

vim.api.nvim_create_autocmd("VimLeavePre", {
  callback = function()
    if package.loaded["tagd"] then
      tagd().stop()
    end
  end,
})
