-- tagd as Neovim's language server for Markdown and Org notes: Neovim 0.7 to 0.10
-- (init.lua; nothing else to install). The vault is the folder holding .tagd.toml or .git
-- above the note, else the current directory. `tagd` must be on PATH (or give its full path).
local tagd_clients = {} -- one tagd per vault
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'markdown', 'org' },
  callback = function(args)
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h')
    local root = vim.fn.getcwd()
    local toml = vim.fn.findfile('.tagd.toml', dir .. ';')
    local git = vim.fn.finddir('.git', dir .. ';')
    if toml ~= '' then
      root = vim.fn.fnamemodify(toml, ':p:h')
    elseif git ~= '' then
      root = vim.fn.fnamemodify(git, ':p:h:h')
    end
    local id = tagd_clients[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client({
        name = 'tagd',
        cmd = { 'tagd' },
        root_dir = root,
        workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
        on_attach = function(_, bufnr)
          -- Completion with <C-x><C-o>; Neovim 0.10 sets this by itself.
          vim.api.nvim_buf_set_option(bufnr, 'omnifunc', 'v:lua.vim.lsp.omnifunc')
        end,
      })
      tagd_clients[root] = id
    end
    if id then vim.lsp.buf_attach_client(args.buf, id) end
  end,
})
