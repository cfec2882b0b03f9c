-- The one tagd per Neovim: starting it on demand (without ever blocking Neovim), :TagdRestart,
-- and the policy when it exits unexpectedly (restart and restore every field, at most
-- `max_restarts` times a minute).
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
local waiting = nil -- callbacks of a start in progress
local restarts = {} -- uv.now() of recent automatic restarts
M.restart_count = 0 -- automatic restarts since Neovim started (shown by :TagdInfo)

---@return tagd.Daemon|nil
function M.get()
  return current
end

-- tagd runs and has answered initialize.
function M.running()
  return current ~= nil and current.ready
end

function M.starting()
  return waiting ~= nil
end

local on_exit

-- Call cb(daemon) once tagd is ready, or cb(nil, message) when it cannot start; the message is
-- shown (once per start) unless `quiet`. Starts tagd when it is not running. `wait` (ms): wait
-- that long for the answer before returning (keys typed meanwhile stay queued for what opens);
-- after it the start goes on without blocking.
function M.ensure(cb, quiet, wait)
  cb = cb or function() end
  if current and current.ready then
    return cb(current)
  end
  if waiting then
    table.insert(waiting, cb)
    return
  end
  local cmd, searched, why = config.find(config.options)
  if not cmd then
    local msg = config.not_found_message(searched, why)
    if not quiet then
      notice.error(msg)
    end
    return cb(nil, msg)
  end
  waiting = { cb }
  current = current or rpc.new({
    client_version = config.version,
    on_notification = function(method, params)
      M.hooks.notification(method, params)
    end,
    on_exit = function(...)
      on_exit(...)
    end,
  })
  local d = current
  local started = waiting
  d:start(cmd, config.options.timeout, config.locale(), function(ok, err)
    local cbs = waiting or {}
    waiting = nil
    if ok then
      M.hooks.started(d)
    elseif not quiet then
      notice.error(err)
    end
    for _, c in ipairs(cbs) do
      if ok then
        c(d)
      else
        c(nil, err)
      end
    end
  end, require("tagd.vault").workspace_folders())
  if wait and wait > 0 then
    vim.wait(wait, function()
      return waiting ~= started
    end, 2)
  end
end

-- A new process in place of the running one (or of none); the fields are re-opened on it.
-- cb(ok, err) when it is ready or failed.
function M.restart(cb, quiet)
  if current and current.running then
    current:stop(true) -- waits for the process to go: the next start cannot find it "running"
  end
  M.hooks.lost()
  M.ensure(function(d, err)
    if cb then
      cb(d ~= nil, err)
    end
  end, quiet)
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
  M.restart(function(ok, err)
    if ok then
      notice.crash(what .. "; restarted, tags restored", "warn")
    else
      notice.crash(what .. "; could not restart (" .. tostring(err) .. "): :TagdRestart", "error")
    end
  end, true)
end

return M
