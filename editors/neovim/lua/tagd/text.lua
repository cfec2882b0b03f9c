-- Buffer text and protocol positions, to apply tagd's edits (the changes Neovim makes go to tagd
-- as the whole text: tagd finds the edit itself).
--
-- The field's text is the buffer's lines joined with "\n" (no trailing newline). Positions are
-- {line, character} where character counts in the negotiated encoding: "utf-8" (bytes, what
-- Neovim uses natively, so no conversion), "utf-16" or "utf-32".
local M = {}

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
