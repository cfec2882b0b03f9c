-- The field's scratch buffer and the window that shows it.
local field = require("tagd.field")
local keys = require("tagd.keys")
local sync = require("tagd.sync")

local M = {}

-- A buffer for field `f`. After :bdelete or :bwipeout of the old one (which also clears its
-- mappings and options) the field lives on and gets a new buffer holding the draft it had.
---@param f tagd.Field
function M.make_buffer(f)
  local buf = vim.api.nvim_create_buf(false, true)
  f.buf = buf
  if f.saved_text then
    f.applying = true -- the same text tagd's mirror has: nothing to report
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(f.saved_text, "\n", { plain = true }))
    f.applying = false
    f.saved_text = nil
  end
  vim.api.nvim_buf_set_name(buf, "tagd://" .. f.name)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = "tagd"
  vim.b[buf].tagd_field = f.name
  vim.api.nvim_buf_attach(buf, false, {
    on_lines = function()
      if field.get(f.name) ~= f or f.buf ~= buf then
        return true -- closed, or the buffer was replaced: detach
      end
      sync.on_buffer_change(f)
    end,
  })
  keys.map(f)
  vim.api.nvim_create_autocmd({ "BufWinEnter", "WinEnter" }, {
    buffer = buf,
    callback = function()
      M.refresh(f)
    end,
  })
  vim.api.nvim_create_autocmd("BufEnter", { -- nvim-cmp, when it is loaded, gets tagd's source here
    buffer = buf,
    callback = function()
      if package.loaded["cmp"] and not f.menu_plugin then
        f.menu_plugin = require("tagd.cmp").attach(buf)
      end
    end,
  })
  vim.api.nvim_create_autocmd({ "InsertLeave", "BufLeave", "WinLeave" }, {
    buffer = buf,
    callback = function()
      require("tagd.suggest").hide(f)
    end,
  })
  -- The field lost focus: field/blur (tagd clears the selection; with the field option
  -- commitOnBlur it commits the draft). The suggestion float never takes the focus.
  vim.api.nvim_create_autocmd("WinLeave", {
    buffer = buf,
    callback = function()
      local d = require("tagd.daemon").get()
      if d and d.ready and f.on_server and field.get(f.name) == f then
        sync.request(f, "field/blur")
      end
    end,
  })
  vim.api.nvim_create_autocmd({ "BufUnload", "BufWipeout" }, {
    buffer = buf,
    once = true,
    callback = function()
      if f.buf ~= buf then
        return
      end
      f.saved_text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
      f.buf, f.win = nil, nil
      vim.schedule(function() -- free the name tagd://<field> for the next buffer
        if vim.api.nvim_buf_is_valid(buf) then
          pcall(vim.api.nvim_buf_delete, buf, { force = true })
        end
      end)
    end,
  })
  M.watch_sizes()
end

-- After a window or the terminal changed size: the layout for the new width, and the window's
-- height and view of the virtual lines.
---@param f tagd.Field
function M.refresh(f)
  if not (f.buf and vim.api.nvim_buf_is_valid(f.buf)) then
    return
  end
  if not (f.win and vim.api.nvim_win_is_valid(f.win) and vim.api.nvim_win_get_buf(f.win) == f.buf) then
    local win = vim.fn.bufwinid(f.buf)
    if win == -1 then
      return
    end
    f.win = win
  end
  local p = field.layout_params(f)
  if p.width ~= f.last_width then
    f.last_width = p.width
    field.request_layout(f) -- a field/layout with cells also replaces the sync layout
  end
  field.redraw(f)
end

-- Size changes are global events (a resize with the cursor in another window counts too).
local group = nil
function M.watch_sizes()
  if group then
    return
  end
  group = vim.api.nvim_create_augroup("tagd.window", { clear = true })
  local events = { "VimResized", "WinScrolled" }
  if vim.fn.exists("##WinResized") == 1 then -- 0.9+
    table.insert(events, "WinResized")
  end
  vim.api.nvim_create_autocmd(events, {
    group = group,
    callback = function()
      for f in field.each() do
        M.refresh(f)
      end
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
