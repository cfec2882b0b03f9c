-- Chips as extmarks. Positions come from tagd's cell layout (`frames`), never from Lua string lengths.
--
-- Rows: the layout's distinct `y` values, top to bottom, become display rows (the vertical spacing
-- tagd adds between lines is not drawn: one terminal row per line of chips).
-- Neovim >= 0.10 draws the chips that share the draft's row inline before it (virt_text_pos
-- "inline") and the rows above as virtual lines. Older releases (0.7-0.9) have no inline virtual
-- text, so the plugin asks tagd for a layout whose text field is as wide as the window
-- (`fieldMinWidth = width`): the draft then always gets its own row and every chip row is a
-- virtual line above it, exactly where tagd put it.
local notice = require("tagd.notice")

local M = {}

M.ns = vim.api.nvim_create_namespace("tagd")

function M.inline_supported()
  return vim.fn.has("nvim-0.10") == 1
end

-- Default links (again after every :colorscheme, which clears them: see plugin/tagd.lua).
function M.define_highlights()
  vim.cmd([[
    highlight default link TagdChip Visual
    highlight default link TagdChipSelected IncSearch
    highlight default link TagdPrompt Comment
    highlight default link TagdChipFlash Search
    highlight default link TagdSuggestion Pmenu
    highlight default link TagdSuggestionSelected PmenuSel
    highlight default link TagdMore Comment
    highlight default TagdSuggestionMatch cterm=bold,underline gui=bold,underline
  ]])
end

-- Build the display model: { rows = { {y=, chips = {{index, x, width, text}}} }, field = frame }.
-- A chip's text is its frame's `label` (tagd cut it to the frame). Returns nil when the frames
-- do not match the tags.
function M.model(tags, frames)
  if type(frames) ~= "table" or #frames ~= #tags + 1 then
    return nil
  end
  local field = frames[#frames]
  local by_y, ys = {}, {}
  for i = 1, #tags do
    local fr = frames[i]
    if type(fr.label) ~= "string" then
      return nil
    end
    if not by_y[fr.y] then
      by_y[fr.y] = {}
      table.insert(ys, fr.y)
    end
    table.insert(by_y[fr.y], { index = i, x = fr.x, width = fr.width, text = fr.label })
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
local function chunks(row, selected, flash, upto)
  local out, col = {}, 0
  for _, c in ipairs(row.chips) do
    local x = math.floor(c.x)
    if x > col then
      table.insert(out, { string.rep(" ", x - col), "Normal" })
    end
    local hl = "TagdChip"
    if c.index == flash then
      hl = "TagdChipFlash"
    elseif c.index == selected then
      hl = "TagdChipSelected"
    end
    table.insert(out, { c.text, hl })
    col = x + math.floor(c.width) -- the frame's end: tagd measured the label (cells layout)
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
  local model = M.model(f.tags, f.frames)
  if not model then
    -- No matching layout yet (it is on its way): the chips' labels one after the other.
    local row = {}
    for i, tag in ipairs(f.tags) do
      local hl = i == f.selected and "TagdChipSelected" or "TagdChip"
      table.insert(row, { opts.chip.left .. tag .. opts.chip.right, hl })
      table.insert(row, { " ", "Normal" })
    end
    model = { rows = {}, field = { x = 0, y = 1 }, provisional = true }
    if #row > 0 then
      model.rows[1] = { raw = row }
    end
    table.insert(model.rows, { chips = {}, field = true })
  end
  local inline = M.inline_supported()
  local virt_lines, counts, inline_chunks = {}, {}, nil
  for _, row in ipairs(model.rows) do
    if row.raw then
      table.insert(virt_lines, row.raw)
      table.insert(counts, #f.tags)
    elseif row.field and inline then
      inline_chunks = chunks(row, f.selected, f.flash, math.floor(model.field.x))
    elseif row.field then
      if #row.chips > 0 then
        table.insert(virt_lines, chunks(row, f.selected, f.flash))
        table.insert(counts, #row.chips)
      end
    else
      table.insert(virt_lines, chunks(row, f.selected, f.flash))
      table.insert(counts, #row.chips)
    end
  end
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local note = notice.get(buf)
  local note_lines = {}
  if note then -- a notice (tagd's announcement, tagd restarted) below the draft, wrapped at words
    local win = vim.fn.bufwinid(buf)
    local width = win ~= -1 and vim.api.nvim_win_get_width(win) or 80
    for _, l in ipairs(notice.wrap(note.text, width)) do
      table.insert(note_lines, { { l, note.hl } })
    end
  end
  -- More chip rows than the window may grow to: the first rows give way to one line counting
  -- the chips left out, so the draft (and the notice) stay in view.
  model.hidden = 0
  local room = opts.max_height - #lines - #note_lines
  if f.win and vim.api.nvim_win_is_valid(f.win) and #virt_lines > math.max(room, 1) then
    local keep = math.max(room, 1) - 1
    local more = {}
    for i = 1, #virt_lines - keep do
      model.hidden = model.hidden + counts[i]
    end
    for i = #virt_lines - keep + 1, #virt_lines do
      table.insert(more, virt_lines[i])
    end
    table.insert(more, 1, { { string.format(opts.more_text, model.hidden), "TagdMore" } })
    virt_lines = more
  end
  model.virt_lines = virt_lines
  model.inline = inline_chunks
  if #virt_lines > 0 then
    vim.api.nvim_buf_set_extmark(buf, M.ns, 0, 0, { virt_lines = virt_lines, virt_lines_above = true })
  end
  if inline_chunks and #inline_chunks > 0 then
    vim.api.nvim_buf_set_extmark(buf, M.ns, 0, 0, {
      virt_text = inline_chunks,
      virt_text_pos = "inline",
      right_gravity = false,
    })
  end
  if #lines == 1 and lines[1] == "" and f.prompt and f.prompt ~= "" then
    vim.api.nvim_buf_set_extmark(buf, M.ns, 0, 0, {
      virt_text = { { f.prompt, "TagdPrompt" } },
      virt_text_pos = inline and "inline" or "overlay",
    })
  end
  if note then
    vim.api.nvim_buf_set_extmark(buf, M.ns, #lines - 1, 0, { virt_lines = note_lines })
  end
  model.notice = note and note.text
  f.display = model
  M.fit(f, opts, #virt_lines, #note_lines, #lines)
  return model
end

-- Size the field's window to its rows (up to max_height) and scroll the virtual lines above
-- line 1 into view. They are "filler" lines (the view's topfill), which Neovim does not count
-- when it scrolls: a window that was 1 line high, or was scrolled down by a multi-line paste,
-- would otherwise keep showing line 1 with the chips above it out of sight. The height goes
-- first: Neovim clamps topfill to the window's height at the moment it is set.
-- `above`: virtual lines above line 1, `below`: below the last line, `nlines`: buffer lines.
function M.fit(f, opts, above, below, nlines)
  for _, win in ipairs(vim.fn.win_findbuf(f.buf)) do
    if win == f.win and opts.window ~= "none" then
      local height = math.max(1, math.min(opts.max_height, above + nlines + below))
      if vim.api.nvim_win_get_height(win) ~= height then
        pcall(vim.api.nvim_win_set_height, win, height)
      end
    end
    vim.api.nvim_win_call(win, function()
      local view = vim.fn.winsaveview()
      if (nlines == 1 or view.topline == 1) and (view.topline ~= 1 or view.topfill ~= above) then
        vim.fn.winrestview({ topline = 1, topfill = above })
      end
    end)
  end
end

return M
