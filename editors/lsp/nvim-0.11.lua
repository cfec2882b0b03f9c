-- tagd as Neovim's language server for Markdown and Org notes: Neovim 0.11 and later
-- (init.lua; nothing else to install). The vault is the folder holding .tagd.toml or .git
-- above the note. `tagd` must be on PATH (or give its full path).
vim.lsp.config('tagd', {
  cmd = { 'tagd' },
  filetypes = { 'markdown', 'org' },
  root_markers = { '.tagd.toml', '.git' },
})
vim.lsp.enable('tagd')
