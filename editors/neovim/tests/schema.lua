-- A small JSON Schema checker for the keywords Protocol/schemas/tagd.schema.json uses ($ref to
-- $defs, type, enum, minimum, maximum, properties, required, additionalProperties: false, items,
-- allOf, oneOf). Values are what vim.json.decode gives: vim.NIL for null, vim.empty_dict() for {}.
local S = {}

local empty_mt = getmetatable(vim.empty_dict())

local function kind(v)
  if v == vim.NIL or v == nil then
    return "null"
  end
  local t = type(v)
  if t == "table" then
    if getmetatable(v) == empty_mt then
      return "object"
    end
    local n = 0
    for _ in pairs(v) do
      n = n + 1
    end
    return (n == #v) and "array" or "object"
  end
  return t -- "string", "number", "boolean"
end

local function type_ok(want, v)
  local k = kind(v)
  if want == "integer" then
    return k == "number" and math.floor(v) == v
  end
  return want == k
end

-- Errors of `v` against `schema` appended to `errs` as "path: message".
function S.check(schema, v, root, path, errs)
  path = path or "$"
  if schema["$ref"] then
    local name = schema["$ref"]:match("^#/%$defs/(.+)$")
    local def = name and root["$defs"][name]
    if not def then
      table.insert(errs, path .. ": unknown $ref " .. schema["$ref"])
    else
      S.check(def, v, root, path, errs)
    end
  end
  if schema.type ~= nil then
    local types = type(schema.type) == "table" and schema.type or { schema.type }
    local ok = false
    for _, t in ipairs(types) do
      ok = ok or type_ok(t, v)
    end
    if not ok then
      table.insert(errs, string.format("%s: %s is not %s", path, kind(v), table.concat(types, "|")))
      return errs
    end
  end
  if schema.enum and not vim.tbl_contains(vim.tbl_map(function(e)
    return vim.deep_equal(e, v)
  end, schema.enum), true) then
    table.insert(errs, path .. ": " .. vim.inspect(v) .. " is not one of " .. vim.inspect(schema.enum))
  end
  if kind(v) == "number" then
    if schema.minimum and v < schema.minimum then
      table.insert(errs, path .. ": below " .. schema.minimum)
    end
    if schema.maximum and v > schema.maximum then
      table.insert(errs, path .. ": above " .. schema.maximum)
    end
  end
  if kind(v) == "object" then
    local props = schema.properties or {}
    for k, sub in pairs(props) do
      if v[k] ~= nil then
        S.check(sub, v[k], root, path .. "." .. k, errs)
      end
    end
    if schema.additionalProperties == false then
      for k in pairs(v) do
        if props[k] == nil then
          table.insert(errs, path .. ": unknown member " .. tostring(k))
        end
      end
    end
    for _, k in ipairs(schema.required or {}) do
      if v[k] == nil then
        table.insert(errs, path .. ": missing " .. k)
      end
    end
  end
  if kind(v) == "array" and schema.items then
    for i, x in ipairs(v) do
      S.check(schema.items, x, root, path .. "[" .. (i - 1) .. "]", errs)
    end
  end
  for _, sub in ipairs(schema.allOf or {}) do
    S.check(sub, v, root, path, errs)
  end
  if schema.oneOf then
    local passing = 0
    for _, sub in ipairs(schema.oneOf) do
      local e = {}
      S.check(sub, v, root, path, e)
      if #e == 0 then
        passing = passing + 1
      end
    end
    if passing ~= 1 then
      table.insert(errs, string.format("%s: matches %d of oneOf's %d schemas", path, passing, #schema.oneOf))
    end
  end
  return errs
end

-- Errors of one client -> server message (a decoded JSON-RPC object) against the schema.
function S.check_message(root, msg)
  local errs = {}
  local m = msg.method
  local params = msg.params
  if msg.id ~= nil then
    local r = root.requests[m]
    if not r then
      return { m .. ": not a request in the schema" }
    end
    return S.check(r.params or {}, params, root, m .. " params", errs)
  end
  local n = root.notifications[m]
  if not n then
    return { m .. ": not a notification in the schema" }
  end
  return S.check(n, params, root, m .. " params", errs)
end

return S
