-- The one tagd per Neovim: starting it on demand, :TagdRestart, and the policy when it exits
-- unexpectedly (restart and restore every field, at most `max_restarts` times a minute).
local config = require("tagd.config")
local rpc = require("tagd.rpc")
local notice = require("tagd.notice")

local uv = vim.uv or vim.loop

local M = {}

-- Set by tagd/init.lua (the modules that act on fields sit above this one).
M.hooks = {
  notification = function(_, _) end, -- (method, params)
  lost = function() end, -- the process is gone: fields are no longer on the server
  started = function(_) end, -- (daemon) a new process is ready: re-open the fields
  has_fields = function()
    return false
  end,
}

---@type tagd.Daemon|nil
local current = nil
local restarts = {} -- uv.now() of recent automatic restarts
M.restart_count = 0 -- automatic restarts since Neovim started (shown by :TagdInfo)

---@return tagd.Daemon|nil
function M.get()
  return current
end

function M.running()
  return current ~= nil and current.running
end

local on_exit

local function start()
  local cmd, searched = config.find(config.options)
  if not cmd then
    return nil, "tagd not found. Set require('tagd').setup({cmd = '/path/to/tagd'}), put tagd on $PATH, or run "
      .. "`swift build` in the tagd repo. Searched: " .. table.concat(searched or {}, ", ")
  end
  current = current or rpc.new({
    client_version = config.version,
    on_notification = function(method, params)
      M.hooks.notification(method, params)
    end,
    on_exit = function(...)
      on_exit(...)
    end,
  })
  local ok, err = current:start(cmd, config.options.timeout)
  if not ok then
    return nil, err
  end
  M.hooks.started(current)
  return current
end

-- The running daemon, starting one if needed; nil and a message when it cannot start (shown
-- unless `quiet`: the automatic restart says it in its own one-line notice).
function M.ensure(quiet)
  if current and current.running then
    return current
  end
  local d, err = start()
  if not d and not quiet then
    notice.error(err)
  end
  return d, err
end

-- A new process in place of the running one (or of none); the fields are re-opened on it.
-- Returns true, or false and why not.
function M.restart(quiet)
  if current and current.running then
    current:stop(true) -- waits for the process to go: the next start cannot find it "running"
  end
  M.hooks.lost()
  local d, err = M.ensure(quiet)
  return d ~= nil, err
end

function M.stop()
  if current then
    current:stop(false)
  end
end

local function exit_text(code, signal)
  if signal and signal ~= 0 then
    return "signal " .. signal
  end
  return "exit code " .. tostring(code)
end

on_exit = function(code, signal, expected)
  M.hooks.lost()
  if expected then
    return
  end
  local what = "tagd stopped (" .. exit_text(code, signal) .. ")"
  if not M.hooks.has_fields() then
    notice.warn(what)
    return
  end
  local now = uv.now()
  local recent = {}
  for _, t in ipairs(restarts) do
    if now - t < 60000 then
      table.insert(recent, t)
    end
  end
  restarts = recent
  if #restarts >= config.options.max_restarts then
    notice.crash(what .. "; keeps stopping: :TagdRestart", "error")
    return
  end
  table.insert(restarts, now)
  M.restart_count = M.restart_count + 1
  local ok, err = M.restart(true)
  if ok then
    notice.crash(what .. "; restarted, tags restored", "warn")
  else
    notice.crash(what .. "; could not restart (" .. tostring(err) .. "): :TagdRestart", "error")
  end
end

return M
