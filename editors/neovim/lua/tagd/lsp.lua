-- setup({ lsp = true }): tagd as the language server of Markdown and Org buffers (SPEC §6e),
-- through Neovim's own LSP client: one client (its own tagd process, as for any language
-- server) for the vaults, attached to every markdown and org buffer. The client sends the
-- buffers' text (textDocument/didOpen, didChange), so the vault reads what you typed, not only
-- what you saved; what tagd offers on top (completion, hover, ...) is Neovim's LSP UI.
local config = require("tagd.config")

local M = {}

M.filetypes = { "markdown", "org" }

local client_id = nil

local function client_config()
  local cmd = config.find(config.options)
  if not cmd then
    return nil
  end
  local vault = require("tagd.vault")
  local roots = vault.roots()
  local folders = vault.workspace_folders()
  return {
    name = "tagd",
    cmd = cmd,
    root_dir = roots[1] or vim.fn.getcwd(),
    workspace_folders = folders,
  }
end

-- Attach buffer `buf` to tagd's client (started on first use).
function M.attach(buf)
  local cfg = client_config()
  if not cfg then
    return nil
  end
  if vim.lsp.start then -- 0.8+: one client per name and root, reused
    client_id = vim.lsp.start(cfg, { bufnr = buf })
    return client_id
  end
  if not (client_id and vim.lsp.get_client_by_id(client_id)) then
    client_id = vim.lsp.start_client(cfg)
  end
  if client_id then
    vim.lsp.buf_attach_client(buf, client_id)
  end
  return client_id
end

function M.setup()
  local group = vim.api.nvim_create_augroup("tagd.lsp", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.filetypes,
    callback = function(a)
      M.attach(a.buf)
    end,
  })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do -- buffers already open
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(M.filetypes, vim.bo[buf].filetype) then
      M.attach(buf)
    end
  end
end

return M
