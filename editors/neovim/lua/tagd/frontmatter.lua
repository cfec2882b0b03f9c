-- :TagFieldFrontMatter — a tag field bound to the `tags:` of a Markdown buffer's YAML front
-- matter. Both YAML list styles are read: flow (`tags: [a, b]`) and block (`tags:` then `- a`
-- lines); a plain `tags: a` is one tag. Every change of the field's tags is written back into the
-- buffer in the style it had (flow when there was none); saving the file is left to the user.
local M = {}

-- Filetypes where a missing front matter is created (any buffer that has one can be bound).
M.filetypes = { markdown = true, pandoc = true, quarto = true, rmd = true, mdx = true, vimwiki = true }

-- A YAML scalar as written in the file -> the string (quotes removed, escapes read).
local function unquote(s)
  s = vim.trim(s)
  local dq = s:match('^"(.*)"$')
  if dq then
    return (dq:gsub('\\(.)', { n = "\n", t = "\t", ['"'] = '"', ["\\"] = "\\" }))
  end
  local sq = s:match("^'(.*)'$")
  if sq then
    return (sq:gsub("''", "'"))
  end
  return (s:gsub("%s+#.*$", "")) -- a comment after a plain scalar
end

-- The items of a flow sequence body (between the brackets), respecting quotes.
local function flow_items(body)
  local items, cur, quote = {}, "", nil
  local i = 1
  while i <= #body do
    local c = body:sub(i, i)
    if quote then
      cur = cur .. c
      if c == "\\" and quote == '"' then
        cur = cur .. body:sub(i + 1, i + 1)
        i = i + 1
      elseif c == quote then
        quote = nil
      end
    elseif (c == '"' or c == "'") and vim.trim(cur) == "" then -- a quote opens only an item
      quote = c
      cur = cur .. c
    elseif c == "," then
      table.insert(items, cur)
      cur = ""
    else
      cur = cur .. c
    end
    i = i + 1
  end
  table.insert(items, cur)
  local out = {}
  for _, it in ipairs(items) do
    if vim.trim(it) ~= "" then
      table.insert(out, unquote(it))
    end
  end
  return out
end

-- A tag as a YAML scalar: plain when that reads back as the same string, else double-quoted.
function M.scalar(tag)
  local plain = tag:match("^[^%s%-%?:,%[%]{}#&%*!|>'\"%%@`][^,%[%]{}#:\"]*$") and not tag:match("%s$")
    and not tag:find("%c")
  local lower = tag:lower()
  local special = ({ ["true"] = 1, ["false"] = 1, ["yes"] = 1, ["no"] = 1, ["on"] = 1, ["off"] = 1, ["null"] = 1,
    ["~"] = 1, y = 1, n = 1 })[lower] or tag:match("^[%d%.%+]") ~= nil -- numbers, dates, .inf
  if plain and not special then
    return tag
  end
  return '"' .. tag:gsub('[\\"]', "\\%0"):gsub("\n", "\\n"):gsub("\t", "\\t") .. '"'
end

---@class tagd.FrontMatter
---@field start integer|nil     0-based line of the opening ---, nil when there is no front matter
---@field stop integer|nil      0-based line of the closing --- (or ...)
---@field key integer|nil       0-based line of `tags:`
---@field last integer|nil      0-based last line of the tags value (the key line for flow)
---@field style "flow"|"block"
---@field indent string         a block item's prefix (e.g. "  - ")
---@field tags string[]

-- Read the front matter of `lines` (a list of strings).
---@return tagd.FrontMatter
function M.parse(lines)
  local fm = { style = "flow", indent = "  - ", tags = {} }
  if lines[1] ~= "---" then
    return fm
  end
  for i = 2, #lines do
    if lines[i] == "---" or lines[i] == "..." then
      fm.start, fm.stop = 0, i - 1
      break
    end
  end
  if not fm.stop then
    return fm
  end
  for i = 2, fm.stop do
    local rest = lines[i]:match("^tags:(.*)$")
    if rest then
      fm.key, fm.last = i - 1, i - 1
      rest = vim.trim(rest)
      local flow = rest:match("^(%[.*%])%s+#.*$") or rest:match("^%[.*%]$")
      if flow then
        fm.tags = flow_items(flow:sub(2, -2))
      elseif rest ~= "" and not rest:match("^#") then
        fm.tags = { unquote(rest) }
      else
        fm.style = "block"
        for j = i + 1, fm.stop do
          local prefix, item = lines[j]:match("^(%s*%-%s+)(.*)$")
          if item then
            fm.indent = prefix
            table.insert(fm.tags, unquote(item))
            fm.last = j - 1
          elseif not (lines[j]:match("^%s*$") or lines[j]:match("^%s+#")) then
            break -- the next key (blank and comment lines inside the list are skipped)
          end
        end
      end
      break
    end
  end
  return fm
end

-- The lines that hold `tags` in the style of `fm`.
function M.render(fm, tags)
  local quoted = vim.tbl_map(M.scalar, tags)
  if fm.style == "block" then
    local out = { "tags:" }
    for _, q in ipairs(quoted) do
      table.insert(out, fm.indent .. q)
    end
    return out
  end
  return { "tags: [" .. table.concat(quoted, ", ") .. "]" }
end

-- Write `tags` into buffer `buf`'s front matter (creating the key or the front matter).
function M.write(buf, tags)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local fm = M.parse(lines)
  local new = M.render(fm, tags)
  if fm.key then
    vim.api.nvim_buf_set_lines(buf, fm.key, fm.last + 1, false, new)
  elseif fm.stop then
    vim.api.nvim_buf_set_lines(buf, fm.stop, fm.stop, false, new)
  else
    local block = { "---" }
    vim.list_extend(block, new)
    table.insert(block, "---")
    vim.api.nvim_buf_set_lines(buf, 0, 0, false, block)
  end
end

-- Bind a tag field to buffer `buf`'s front matter and open it (Insert mode).
function M.bind(buf)
  local tagd = require("tagd")
  local field = require("tagd.field")
  if buf == 0 then
    buf = vim.api.nvim_get_current_buf()
  end
  if vim.b[buf].tagd_field then
    require("tagd.notice").error(":TagFieldFrontMatter: this is a tag field; run it in a Markdown buffer")
    return nil
  end
  local path = vim.api.nvim_buf_get_name(buf)
  local name = "frontmatter:" .. (path ~= "" and vim.fn.fnamemodify(path, ":~:.") or ("buffer " .. buf))
  local fm = M.parse(vim.api.nvim_buf_get_lines(buf, 0, -1, false))
  local ft = vim.bo[buf].filetype
  if not fm.stop and not M.filetypes[ft] then
    require("tagd.notice").error(string.format(":TagFieldFrontMatter: not a Markdown buffer (filetype %q) "
      .. "and no front matter", ft))
    return nil
  end
  local existing = field.get(name)
  tagd.open(name, { tags = fm.tags, insert = true })
  local f = field.get(name)
  if not f then
    return nil
  end
  if not existing then
    f.on_change = function(fl)
      if vim.api.nvim_buf_is_valid(buf) then
        M.write(buf, fl.tags)
      end
    end
    -- The file's own spelling stays until the tags change (tagd dropping a duplicate from the
    -- front matter is such a change: its field/open answer then writes the list back).
  end
  return name
end

return M
