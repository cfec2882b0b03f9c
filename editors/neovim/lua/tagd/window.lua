-- The field's scratch buffer and the window that shows it.
local field = require("tagd.field")
local keys = require("tagd.keys")
local sync = require("tagd.sync")

local M = {}

---@param f tagd.Field
function M.make_buffer(f)
  local buf = vim.api.nvim_create_buf(false, true)
  f.buf = buf
  vim.api.nvim_buf_set_name(buf, "tagd://" .. f.name)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = "tagd"
  vim.b[buf].tagd_field = f.name
  vim.api.nvim_buf_attach(buf, false, {
    on_lines = function()
      if field.get(f.name) ~= f then
        return true -- closed: detach
      end
      sync.on_buffer_change(f)
    end,
  })
  keys.map(f)
  vim.api.nvim_create_autocmd({ "VimResized", "WinScrolled", "BufWinEnter", "WinEnter" }, {
    buffer = buf,
    callback = function()
      local win = vim.fn.bufwinid(buf)
      if win ~= -1 then
        f.win = win
      end
      local p = field.layout_params(f)
      if p.width ~= f.last_width then
        f.last_width = p.width
        field.request_layout(f) -- a field/layout with cells also replaces the sync layout
      end
      field.redraw(f) -- the window's size and its view of the virtual lines
    end,
  })
end

-- Show the field's buffer: focus its window, or open a bottom split / a float.
---@param f tagd.Field
function M.open(f, how, opts)
  if how == "none" then
    return
  end
  local win = vim.fn.bufwinid(f.buf)
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
    f.win = win
    return
  end
  if how == "float" then
    local width = opts.width or math.min(60, vim.o.columns - 4)
    f.win = vim.api.nvim_open_win(f.buf, true, {
      relative = "editor",
      row = math.floor(vim.o.lines / 3),
      col = math.floor((vim.o.columns - width) / 2),
      width = width,
      height = 1,
      style = "minimal",
      border = "rounded",
    })
  else
    vim.cmd("botright 1split")
    f.win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(f.win, f.buf)
  end
  local wo = vim.wo[f.win]
  wo.number, wo.relativenumber, wo.signcolumn, wo.foldcolumn = false, false, "no", "0"
  wo.wrap, wo.winfixheight = true, true
  f.last_width = field.layout_params(f).width
end

return M
