-- Commands for tagd.nvim. Everything else is in lua/tagd/ and loads on first use.
if vim.g.loaded_tagd then
  return
end
vim.g.loaded_tagd = true

vim.api.nvim_create_user_command("TagField", function(a)
  require("tagd").open(a.args ~= "" and a.args or nil, { insert = true })
end, { nargs = "?", desc = "Open a tagd tag field (default name: default)" })

vim.api.nvim_create_user_command("TagFieldClose", function(a)
  require("tagd").close(a.args ~= "" and a.args or vim.b.tagd_field or "default")
end, { nargs = "?", desc = "Close a tagd tag field" })

vim.api.nvim_create_user_command("TagFieldTags", function(a)
  local tags = require("tagd").tags(a.args ~= "" and a.args or vim.b.tagd_field or "default")
  print(tags and table.concat(tags, ", ") or "no such field")
end, { nargs = "?", desc = "Print a tag field's tags" })

vim.api.nvim_create_user_command("TagdRestart", function()
  require("tagd").restart()
end, { desc = "Restart tagd and restore every field" })

vim.api.nvim_create_autocmd("VimLeavePre", {
  callback = function()
    if package.loaded["tagd"] then
      require("tagd").stop()
    end
  end,
})
