-- A blink.cmp source for tag fields (optional: blink.cmp loads it when configured as a provider
-- with `module = "tagd.blink"`, see :help tagd-completion). It follows blink.cmp's documented
-- source API (new, enabled, get_completions).
local suggest = require("tagd.suggest")

local source = {}
source.__index = source

function source.new(opts)
  return setmetatable({ opts = opts or {} }, source)
end

function source:enabled() -- luacheck: no unused args
  return vim.b.tagd_field ~= nil
end

function source:get_completions(ctx, callback) -- luacheck: no unused args
  local buf = ctx and ctx.bufnr or vim.api.nvim_get_current_buf()
  local cancelled = false
  suggest.completion_items(buf, function(items)
    if not cancelled then
      callback({ items = items, is_incomplete_forward = true, is_incomplete_backward = true })
    end
  end)
  return function()
    cancelled = true
  end
end

return source
