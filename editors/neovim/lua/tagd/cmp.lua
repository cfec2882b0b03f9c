-- An nvim-cmp source for tag fields (optional: loaded only when nvim-cmp is). Registered by the
-- plugin as "tagd" when nvim-cmp is loaded and a field buffer is entered; the field buffer then
-- gets `sources = {{name = "tagd"}}` (cmp.setup.buffer), and the plugin's own suggestion float
-- stays hidden. The source follows nvim-cmp's documented source API (new, is_available,
-- get_debug_name, get_keyword_pattern, complete).
local suggest = require("tagd.suggest")

local source = {}
source.__index = source

function source.new()
  return setmetatable({}, source)
end

function source:is_available() -- luacheck: no unused args
  return vim.b.tagd_field ~= nil
end

function source:get_debug_name() -- luacheck: no unused args
  return "tagd"
end

-- The whole draft is the word being completed (a tag may hold spaces).
function source:get_keyword_pattern() -- luacheck: no unused args
  return [[.\+]]
end

function source:complete(params, callback) -- luacheck: no unused args
  local buf = params and params.context and params.context.bufnr or vim.api.nvim_get_current_buf()
  suggest.completion_items(buf, function(items)
    callback({ items = items, isIncomplete = true }) -- tagd ranks again for the next letter
  end)
end

local M = { source = source }

local registered = false

-- Register the source (once) and use it in field buffer `buf` (the current buffer).
function M.attach(buf)
  local ok, cmp = pcall(require, "cmp")
  if not ok then
    return false
  end
  if not registered then
    cmp.register_source("tagd", source.new())
    registered = true
  end
  if buf == vim.api.nvim_get_current_buf() and cmp.setup and cmp.setup.buffer then
    cmp.setup.buffer({ sources = { { name = "tagd" } } })
  end
  return true
end

-- <CR> while nvim-cmp's menu shows: take its item into the draft, then `done` (the submit).
-- Returns false when nvim-cmp is not loaded or shows nothing.
function M.confirm(done)
  local cmp = package.loaded["cmp"]
  if not (cmp and cmp.visible and cmp.visible()) then
    return false
  end
  cmp.confirm({ select = true }, done)
  return true
end

return M
