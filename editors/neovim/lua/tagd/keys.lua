-- Key mappings in a field's buffer (the sync.md rules 3 and 4, chip selection and removal).
-- All are Lua callbacks, not <expr> mappings: Neovim evaluates an <expr> mapping when it peeks at
-- typeahead, i.e. before the keys typed just ahead of it are in the buffer. A callback runs when
-- the key is executed, so it sees the buffer the user sees.
local config = require("tagd.config")
local daemon = require("tagd.daemon")
local field = require("tagd.field")
local sync = require("tagd.sync")

local M = {}

local function termcodes(k)
  return vim.api.nvim_replace_termcodes(k, true, false, true)
end

local function buffer_empty(f)
  local lines = vim.api.nvim_buf_get_lines(f.buf, 0, -1, false)
  return #lines == 1 and lines[1] == ""
end

-- The chip the remove key acts on: the selected one, else the last chip when the cursor is at
-- the very start of the draft (the chip "under" it).
local function chip_at_cursor(f)
  if f.selected then
    return f.selected
  end
  local win = vim.fn.bufwinid(f.buf)
  if win ~= -1 and #f.tags > 0 then
    local pos = vim.api.nvim_win_get_cursor(win)
    if pos[1] == 1 and pos[2] == 0 then
      return #f.tags
    end
  end
  return nil
end

local function each(list, fn)
  if not list then
    return
  end
  if type(list) == "string" then
    list = { list }
  end
  for _, k in ipairs(list) do
    fn(k)
  end
end

-- A key that does not act here does what it normally does.
local function fallthrough(k)
  vim.api.nvim_feedkeys(termcodes(k), "in", false)
end

---@param f tagd.Field
function M.map(f)
  local keys = config.options.keys
  local buf = f.buf
  -- Rule 4: Return submits. With the completion menu open it takes the item shown and submits it.
  vim.keymap.set({ "i", "n" }, "<Plug>(tagd-submit)", function()
    sync.request(f, "field/submit")
  end, { buffer = buf, desc = "tagd: submit the draft" })
  each(keys.submit, function(k)
    vim.keymap.set({ "i", "n" }, k, function()
      if vim.fn.pumvisible() == 1 then
        vim.api.nvim_feedkeys(termcodes("<C-y><Plug>(tagd-submit)"), "m", false)
      else
        sync.request(f, "field/submit")
      end
    end, { buffer = buf, desc = "tagd: submit the draft" })
  end)
  local function supported(method)
    local d = daemon.get()
    return d and d.running and d:supports(method)
  end
  -- Insert mode: <Tab> opens the completion menu (field/suggest), then moves through it.
  each(keys.complete, function(k)
    vim.keymap.set("i", k, function()
      if vim.fn.pumvisible() == 1 then
        vim.api.nvim_feedkeys(termcodes("<C-n>"), "n", false)
      elseif supported("field/suggest") then
        vim.api.nvim_feedkeys(termcodes("<C-x><C-o>"), "n", false)
      else
        fallthrough(k)
      end
    end, { buffer = buf, desc = "tagd: complete from the suggestions" })
  end)
  -- SPEC §6: undo/redo by tagd (one step per user action), moving the selected chip.
  for key, method in pairs({ undo = "field/undo", redo = "field/redo" }) do
    each(keys[key], function(k)
      vim.keymap.set("n", k, function()
        if not supported(method) then
          return fallthrough(k)
        end
        f.selected = nil
        sync.request(f, method)
      end, { buffer = buf, desc = "tagd: " .. key })
    end)
  end
  for key, delta in pairs({ move_left = -1, move_right = 1 }) do
    each(keys[key], function(k)
      vim.keymap.set("n", k, function()
        local to = f.selected and f.selected + delta
        if not (to and to >= 1 and to <= #f.tags and supported("field/moveTag")) then
          return fallthrough(k)
        end
        local from = f.selected
        sync.request(f, "field/moveTag", { from = from - 1, to = to - 1 }, function(err)
          if not err then
            f.selected = to
            field.redraw(f)
          end
        end)
      end, { buffer = buf, desc = "tagd: move the selected chip" })
    end)
  end
  -- Rule 3: Backspace on an empty buffer is field/deleteBackward; otherwise an ordinary Backspace
  -- (even over committed text tagd has not removed yet: tagd reads that as deleteBackward).
  local bs = termcodes("<BS>")
  each(keys.backspace, function(k)
    vim.keymap.set({ "i", "n" }, k, function()
      if buffer_empty(f) then
        sync.request(f, "field/deleteBackward")
      else
        vim.api.nvim_feedkeys(bs, "in", false) -- an ordinary Backspace, ahead of later typeahead
      end
    end, { buffer = buf, desc = "tagd: backspace / remove the last tag" })
  end)
  each(keys.remove, function(k)
    vim.keymap.set({ "i", "n" }, k, function()
      local idx = chip_at_cursor(f)
      if idx then
        f.selected = nil
        sync.request(f, "field/removeTag", { index = idx - 1 })
      else
        fallthrough(k) -- e.g. Insert mode's CTRL-X CTRL-O completion inside the draft
      end
    end, { buffer = buf, desc = "tagd: remove the selected tag" })
  end)
  each(keys.prev_chip, function(k)
    vim.keymap.set("n", k, function()
      local pos = vim.api.nvim_win_get_cursor(0)
      if f.selected then
        f.selected = math.max(1, f.selected - 1)
      elseif #f.tags > 0 and pos[1] == 1 and pos[2] == 0 then
        f.selected = #f.tags
      else
        return fallthrough(k)
      end
      field.redraw(f)
    end, { buffer = buf, desc = "tagd: select the chip to the left" })
  end)
  each(keys.next_chip, function(k)
    vim.keymap.set("n", k, function()
      if not f.selected then
        return fallthrough(k)
      end
      f.selected = f.selected < #f.tags and f.selected + 1 or nil
      field.redraw(f)
    end, { buffer = buf, desc = "tagd: select the chip to the right" })
  end)
end

return M
