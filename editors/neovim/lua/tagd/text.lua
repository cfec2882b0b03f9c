-- Buffer text <-> protocol positions and changes.
--
-- The field's text is the buffer's lines joined with "\n" (no trailing newline). Positions are
-- {line, character} where character counts in the negotiated encoding: "utf-8" (bytes, what
-- Neovim uses natively, so no conversion), "utf-16" or "utf-32".
local M = {}

local function is_cont(s, i)
  local b = s:byte(i)
  return b ~= nil and b >= 0x80 and b < 0xC0
end

-- Byte column (0-based) in `line` -> character in `encoding`.
function M.to_char(line, col, encoding)
  if encoding == "utf-8" or col == 0 then
    return col
  end
  if vim.fn.has("nvim-0.11") == 1 then -- str_utfindex(s, encoding, index) from 0.11
    return vim.str_utfindex(line, encoding, col, false)
  end
  local u32, u16 = vim.str_utfindex(line, col)
  return encoding == "utf-16" and u16 or u32
end

-- Character in `encoding` -> byte column (0-based) in `line`; nil when outside the line.
function M.to_byte(line, char, encoding)
  if encoding == "utf-8" then
    if char > #line then
      return nil
    end
    return char
  end
  if char == 0 then
    return 0
  end
  local ok, b
  if vim.fn.has("nvim-0.11") == 1 then -- str_byteindex(s, encoding, index) from 0.11
    ok, b = pcall(vim.str_byteindex, line, encoding, char, true)
  else
    ok, b = pcall(vim.str_byteindex, line, char, encoding == "utf-16")
  end
  if not ok then
    return nil
  end
  return b
end

-- Byte offset (0-based) in the whole text -> {line, character}.
function M.offset_to_pos(text, offset, encoding)
  local line, line_start = 0, 1
  local i = 1
  while true do
    local nl = text:find("\n", i, true)
    if not nl or nl > offset then
      break
    end
    line = line + 1
    line_start = nl + 1
    i = nl + 1
  end
  local line_end = text:find("\n", line_start, true)
  local ltext = text:sub(line_start, (line_end or #text + 1) - 1)
  return { line = line, character = M.to_char(ltext, offset - (line_start - 1), encoding) }
end

-- The single change taking `old` to `new`: common prefix and suffix removed, both cut at
-- UTF-8 character boundaries. The prefix is taken greedily, so deleting the last of several
-- equal characters is reported at the end of the text (the server's Backspace rule looks there).
-- Returns nil when equal. Text with a CR is sent whole: CR/CRLF are line breaks for the server
-- but not for a Neovim line, so positions would not agree.
function M.diff(old, new, encoding)
  if old == new then
    return nil
  end
  if old:find("\r", 1, true) or new:find("\r", 1, true) then
    return { text = new }
  end
  local n = math.min(#old, #new)
  local p = 0
  while p < n and old:byte(p + 1) == new:byte(p + 1) do
    p = p + 1
  end
  while p > 0 and (is_cont(old, p + 1) or is_cont(new, p + 1)) do
    p = p - 1
  end
  local s = 0
  while s < n - p and old:byte(#old - s) == new:byte(#new - s) do
    s = s + 1
  end
  while s > 0 and is_cont(old, #old - s + 1) do
    s = s - 1
  end
  return {
    range = { start = M.offset_to_pos(old, p, encoding), ["end"] = M.offset_to_pos(old, #old - s, encoding) },
    text = new:sub(p + 1, #new - s),
  }
end

function M.buf_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

-- A protocol range -> byte positions {row, col} in the buffer; nil when outside the buffer.
function M.range_to_bytes(buf, range, encoding)
  local function conv(pos)
    local line = vim.api.nvim_buf_get_lines(buf, pos.line, pos.line + 1, false)[1]
    if not line then
      return nil
    end
    local col = M.to_byte(line, pos.character, encoding)
    if not col then
      return nil
    end
    return { pos.line, col }
  end
  local s, e = conv(range.start), conv(range["end"])
  if not s or not e then
    return nil
  end
  return s, e
end

return M
