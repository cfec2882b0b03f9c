-- A tiny test runner for headless Neovim: test(name, fn), assertions, waiting helpers.
local H = { passed = 0, failed = 0, failures = {} }

local function out(s)
  io.stdout:write(s .. "\n")
  io.stdout:flush()
end
H.out = out

-- TAGD_TEST="<plain text>;<plain text>..." runs only the tests whose names contain one of them.
local only = os.getenv("TAGD_TEST")

local function wanted(name)
  if not only or only == "" then
    return true
  end
  for part in only:gmatch("[^;]+") do
    if name:find(part, 1, true) then
      return true
    end
  end
  return false
end

function H.test(name, fn)
  if not wanted(name) then
    return
  end
  local names = { "PATH", "TAGD", "LANG", "LC_ALL", "LC_MESSAGES" }
  local env = {}
  for _, k in ipairs(names) do
    env[k] = vim.env[k]
  end
  local ok, err = xpcall(fn, debug.traceback)
  for _, k in ipairs(names) do
    vim.env[k] = env[k]
  end
  if ok then
    H.passed = H.passed + 1
    out("ok   " .. name)
  else
    H.failed = H.failed + 1
    table.insert(H.failures, name)
    out("FAIL " .. name .. "\n     " .. tostring(err):gsub("\n", "\n     "))
  end
  -- Leave insert mode and let pending messages land before the next test.
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<C-\\><C-n>", true, false, true), "nx", false)
  vim.wait(20)
end

-- Tests of Protocol 1.2 features: skipped, saying so, with a tagd that does not have them
-- (run.lua sets H.has from tagd's initialize result: `documents` = document/tags, `languages`
-- = the languages and cell labels of the lead's 1.2).
H.has = { documents = true, languages = true, vault = true }

function H.test12(feature, name, fn)
  if not H.has[feature] then
    if wanted(name) then
      out("skip " .. name .. " (this tagd has no " .. feature .. " of Protocol 1.2)")
    end
    return
  end
  H.test(name, fn)
end

function H.eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    error(string.format("%s: expected %s, got %s", what or "value", vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

function H.truthy(v, what)
  if not v then
    error((what or "condition") .. " is false", 2)
  end
end

-- Wait until pred() is true (processing events meanwhile); fail with describe() when it is not.
function H.wait(pred, what, ms, describe)
  local ok = vim.wait(ms or 4000, pred, 5)
  if not ok then
    error("timed out waiting for " .. (what or "condition") .. (describe and (": " .. describe()) or ""), 2)
  end
end

-- Type keys synchronously: the whole string is processed before any server message is handled
-- (the fastest possible typist). Mappings apply.
function H.feed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "mtx", false)
end

function H.summary()
  if H.failed > 0 then
    out("failed: " .. table.concat(H.failures, "; "))
  end
  out(string.format("%d passed, %d failed", H.passed, H.failed))
end

return H
