-- The vault (SPEC §6d): the folders of notes named by the `vaults` option, sent to tagd at
-- `initialize` as `workspaceFolders`. A field on a note inside one suggests the vault's tags
-- (field option `suggestFromVault`); :TagdTags lists them (vault/tags); :TagdRename renames one
-- in every note (vault/rename), the edits applied to the note buffers Neovim has loaded and to
-- the files of the others.
local config = require("tagd.config")
local daemon = require("tagd.daemon")
local notice = require("tagd.notice")

local uv = vim.uv or vim.loop

local M = {}

-- The vault folders: absolute, symlinks resolved, without a trailing slash.
function M.roots()
  local out = {}
  local list = config.options.vaults
  if type(list) == "string" then
    list = { list }
  end
  for _, dir in ipairs(list or {}) do
    local full = vim.fn.fnamemodify(vim.fn.expand(dir), ":p"):gsub("/$", "")
    table.insert(out, uv.fs_realpath(full) or full)
  end
  return out
end

-- initialize's `workspaceFolders` (nil when no vault is named).
function M.workspace_folders()
  local folders = {}
  for _, root in ipairs(M.roots()) do
    table.insert(folders, { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ":t") })
  end
  return #folders > 0 and folders or nil
end

-- Is the file of buffer `buf` inside a vault?
function M.holds(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  if name == "" then
    return false
  end
  local path = uv.fs_realpath(name) or vim.fn.fnamemodify(name, ":p")
  for _, root in ipairs(M.roots()) do
    if path:sub(1, #root + 1) == root .. "/" then
      return true
    end
  end
  return false
end

local function running(then_do)
  daemon.ensure(function(d, why)
    if not d then
      return notice.echo(tostring(why), "error")
    end
    if #M.roots() == 0 then
      return notice.echo("no vault: name your notes' folders with setup({ vaults = { \"~/notes\" } })", "warn")
    end
    then_do(d)
  end, true)
end

-- :TagdTags [prefix]: the vault's tags, most used first, with the notes carrying each (and its
-- other spellings), in a float closed with `q`.
function M.tags(prefix)
  running(function(d)
    local params = prefix ~= "" and { prefix = prefix } or vim.empty_dict() -- an object, not []
    d:request("vault/tags", params, function(err, res)
      if err or type(res) ~= "table" then
        return notice.echo("vault/tags: " .. tostring(err and err.message or "no answer"), "error")
      end
      local lines = {}
      for _, t in ipairs(res.tags or {}) do
        local others = {}
        for _, s in ipairs(t.spellings or {}) do
          if s.text ~= t.tag then
            table.insert(others, string.format("%s %d", s.text, s.notes))
          end
        end
        table.insert(lines, string.format("%5d  %s%s", t.notes, t.tag,
          #others > 0 and ("  (also " .. table.concat(others, ", ") .. ")") or ""))
      end
      if #lines == 0 then
        return notice.echo("the vault has no tags" .. (prefix ~= "" and (" starting " .. prefix) or ""), "info")
      end
      require("tagd.info").float(lines, string.format("%d tags (notes  tag)", #lines))
    end)
  end)
end

-- The text edits of one note: to its buffer when Neovim has it loaded (saving stays the user's
-- act), else to its file (written whole, then renamed over the old one).
local function apply(uri, edits, encoding)
  local path = vim.uri_to_fname(uri)
  local buf = vim.fn.bufnr(path)
  if buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) then
    vim.lsp.util.apply_text_edits(edits, buf, encoding)
    return true
  end
  local lines = vim.fn.readfile(path, "b")
  local scratch = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, lines)
  vim.lsp.util.apply_text_edits(edits, scratch, encoding)
  local new = vim.api.nvim_buf_get_lines(scratch, 0, -1, false)
  vim.api.nvim_buf_delete(scratch, { force = true })
  local tmp = path .. ".tagd-rename"
  local stat = uv.fs_stat(path)
  if vim.fn.writefile(new, tmp, "b") ~= 0 or not (stat and uv.fs_chmod(tmp, stat.mode % 4096))
    or not uv.fs_rename(tmp, path) then
    os.remove(tmp)
    return false
  end
  return true
end

-- The notes Neovim has loaded, as tagd should read them (their text, not their files).
local function open_notes(d)
  local opened = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].buftype == "" and M.holds(buf) then
      local uri = vim.uri_from_fname(uv.fs_realpath(vim.api.nvim_buf_get_name(buf)) or vim.api.nvim_buf_get_name(buf))
      d:notify("textDocument/didOpen", { textDocument = { uri = uri, version = vim.api.nvim_buf_get_changedtick(buf),
        languageId = vim.bo[buf].filetype == "org" and "org" or "markdown",
        text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n" } })
      table.insert(opened, uri)
    end
  end
  return opened
end

-- :TagdRename OLD NEW: tagd's vault/rename, applied.
function M.rename(from, to)
  running(function(d)
    local opened = open_notes(d)
    d:request("vault/rename", { from = from, to = to }, function(err, res)
      for _, uri in ipairs(opened) do
        d:notify("textDocument/didClose", { textDocument = { uri = uri } })
      end
      if err or type(res) ~= "table" or type(res.edit) ~= "table" then
        return notice.echo("vault/rename: " .. tostring(err and err.message or "no answer"), "error")
      end
      local failed = {}
      local changes = {}
      for uri, edits in pairs(res.edit.changes or {}) do
        changes[uri] = edits
      end
      for _, dc in ipairs(res.edit.documentChanges or {}) do
        if dc.textDocument and dc.edits then
          changes[dc.textDocument.uri] = dc.edits
        end
      end
      for uri, edits in pairs(changes) do
        if not apply(uri, edits, d.encoding) then
          table.insert(failed, vim.uri_to_fname(uri))
        end
      end
      if #failed > 0 then
        notice.echo("could not write " .. table.concat(failed, ", "), "error")
      else
        notice.echo(string.format("renamed %s to %s in %d note%s%s", from, to, res.notes or 0,
          res.notes == 1 and "" or "s", res.merged and (" (" .. to .. " was a tag already: merged)") or ""), "info")
      end
    end)
  end)
end

return M
