-- Insert-mode completion of tags from the field's vocabulary (field/suggest, SPEC §6): the
-- field buffer's 'omnifunc', i.e. CTRL-X CTRL-O. The vocabulary is the field option
-- `suggestions` or tagd.set_suggestions(); tags already present are left out by tagd.
local config = require("tagd.config")
local daemon = require("tagd.daemon")
local field = require("tagd.field")

local M = {}

M.omnifunc_name = "v:lua.require'tagd.complete'.omnifunc"

function M.omnifunc(findstart, base)
  local name = vim.b.tagd_field
  if findstart == 1 then
    return name and 0 or -3 -- the draft is the whole line
  end
  local f = name and field.get(name)
  local d = daemon.get()
  if not (f and f.on_server and d and d.running and d:supports("field/suggest")) then
    return {}
  end
  local done, res = false, nil
  d:request("field/suggest", { field = name, query = base, limit = config.options.suggest_limit }, function(err, r)
    done, res = true, (not err) and r or nil
  end)
  vim.wait(config.options.timeout, function()
    return done
  end, 5)
  local items = {}
  for _, it in ipairs(type(res) == "table" and res.items or {}) do
    table.insert(items, { word = it.text, menu = "[tagd]", icase = 1 })
  end
  return items
end

return M
