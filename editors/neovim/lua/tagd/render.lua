-- Chips as extmarks. Positions come from tagd's cell layout (`frames`), never from Lua string lengths.
--
-- Rows: the layout's distinct `y` values, top to bottom, become display rows (the vertical spacing
-- tagd adds between lines is not drawn: one terminal row per line of chips).
-- Neovim >= 0.10 draws the chips that share the draft's row inline before it (virt_text_pos
-- "inline") and the rows above as virtual lines. Older releases (0.7-0.9) have no inline virtual
-- text, so the plugin asks tagd for a layout whose text field is as wide as the window
-- (`fieldMinWidth = width`): the draft then always gets its own row and every chip row is a
-- virtual line above it, exactly where tagd put it.
local text = require("tagd.text")

local M = {}

M.ns = vim.api.nvim_create_namespace("tagd")

function M.inline_supported()
  return vim.fn.has("nvim-0.10") == 1
end

function M.define_highlights()
  vim.cmd([[
    highlight default link TagdChip Visual
    highlight default link TagdChipSelected IncSearch
    highlight default link TagdPrompt Comment
  ]])
end

function M.chip_text(tag, chip)
  return chip.left .. tag .. chip.right
end

-- The cells padding to send in `cells: {padding}`: the chip decoration's display width.
function M.padding(chip)
  return text.width(chip.left .. chip.right)
end

-- Build the display model: { rows = { {y=, chips = {{index, x, width, text}}} }, field = frame,
-- inline_row = row index drawn inline or nil }. Returns nil when frames do not match the tags.
function M.model(tags, frames, chip)
  if type(frames) ~= "table" or #frames ~= #tags + 1 then
    return nil
  end
  local field = frames[#frames]
  local by_y, ys = {}, {}
  for i, tag in ipairs(tags) do
    local fr = frames[i]
    if not by_y[fr.y] then
      by_y[fr.y] = {}
      table.insert(ys, fr.y)
    end
    table.insert(by_y[fr.y], {
      index = i,
      x = fr.x,
      width = fr.width,
      text = text.truncate(M.chip_text(tag, chip), math.max(1, math.floor(fr.width))),
    })
  end
  if not by_y[field.y] then
    by_y[field.y] = {}
    table.insert(ys, field.y)
  end
  table.sort(ys)
  local model = { rows = {}, field = field }
  for _, y in ipairs(ys) do
    local chips = by_y[y]
    table.sort(chips, function(a, b)
      return a.x < b.x
    end)
    table.insert(model.rows, { y = y, chips = chips, field = (y == field.y) })
  end
  return model
end

-- Chunks for one row: chips at their x, gaps filled with spaces. `upto`: pad to this cell.
local function chunks(row, selected, upto)
  local out, col = {}, 0
  for _, c in ipairs(row.chips) do
    local x = math.floor(c.x)
    if x > col then
      table.insert(out, { string.rep(" ", x - col), "Normal" })
      col = x
    end
    table.insert(out, { c.text, c.index == selected and "TagdChipSelected" or "TagdChip" })
    col = col + text.width(c.text)
  end
  if upto and upto > col then
    table.insert(out, { string.rep(" ", upto - col), "Normal" })
  end
  return out
end

-- Draw field `f` ({buf, tags, frames, selected, prompt, win}) with options `opts`.
-- Stores the drawn model in f.display and returns it.
function M.draw(f, opts)
  local buf = f.buf
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    return nil
  end
  vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
  local model = M.model(f.tags, f.frames, opts.chip)
  if not model then
    -- No matching layout yet (it is on its way): draw the chips on one virtual line.
    local row = { chips = {} }
    local x = 0
    for i, tag in ipairs(f.tags) do
      local t = M.chip_text(tag, opts.chip)
      table.insert(row.chips, { index = i, x = x, width = text.width(t), text = t })
      x = x + text.width(t) + opts.spacing
    end
    model = { rows = { row, { chips = {}, field = true } }, field = { x = 0, y = 1 }, provisional = true }
  end
  local inline = M.inline_supported()
  local virt_lines, inline_chunks = {}, nil
  for _, row in ipairs(model.rows) do
    if row.field and inline then
      inline_chunks = chunks(row, f.selected, math.floor(model.field.x))
    elseif row.field then
      if #row.chips > 0 then
        table.insert(virt_lines, chunks(row, f.selected))
      end
    else
      table.insert(virt_lines, chunks(row, f.selected))
    end
  end
  model.virt_lines = virt_lines
  model.inline = inline_chunks
  if #virt_lines > 0 then
    vim.api.nvim_buf_set_extmark(buf, M.ns, 0, 0, { virt_lines = virt_lines, virt_lines_above = true })
  end
  if inline_chunks and #inline_chunks > 0 then
    vim.api.nvim_buf_set_extmark(buf, M.ns, 0, 0, { virt_text = inline_chunks, virt_text_pos = "inline", right_gravity = false })
  end
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  if #lines == 1 and lines[1] == "" and f.prompt and f.prompt ~= "" then
    vim.api.nvim_buf_set_extmark(buf, M.ns, 0, 0, {
      virt_text = { { f.prompt, "TagdPrompt" } },
      virt_text_pos = inline and "inline" or "overlay",
    })
  end
  f.display = model
  -- Show the virtual lines above line 1 (they are "filler" lines: topfill) and fit the window.
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.api.nvim_win_call(win, function()
      local view = vim.fn.winsaveview()
      if view.topline == 1 then
        vim.fn.winrestview({ topline = 1, topfill = #virt_lines })
      end
    end)
    if win == f.win and opts.window ~= "none" then
      local height = math.min(opts.max_height, #virt_lines + #lines)
      pcall(vim.api.nvim_win_set_height, win, math.max(1, height))
    end
  end
  return model
end

return M
