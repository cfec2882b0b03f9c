-- The tagd daemon as a child process, driven through Neovim's own vim.lsp.rpc client.
--
-- vim.lsp.rpc.start changed shape across releases, so it is feature-detected:
--   0.7-0.9: start(cmd, cmd_args, dispatchers, extra) -> {pid, handle, request, notify} (0.7)
--                                                    or {request, notify, is_closing, terminate} (0.8+)
--   0.10+:   start(cmd_list, dispatchers, extra)
local M = {}

local Daemon = {}
Daemon.__index = Daemon

-- Run fn on the main loop: callbacks from libuv (on_exit in 0.7) are "fast" and may not touch buffers.
local function main(fn)
  if vim.in_fast_event() then
    vim.schedule(fn)
  else
    fn()
  end
end

local function new_api()
  return vim.fn.has("nvim-0.10") == 1
end

-- handlers: on_notification(method, params), on_exit(code, signal, expected)
function M.new(handlers)
  return setmetatable({
    handlers = handlers,
    client = nil,
    pid = nil,
    generation = 0,
    running = false,
    stopping = false,
    info = nil, -- initialize result
    encoding = "utf-16",
    methods = {},
    cmd = nil,
    last_exit = nil,
  }, Daemon)
end

-- Start the process and run `initialize` synchronously. Returns true, or false and a message.
function Daemon:start(cmd, timeout)
  self.generation = self.generation + 1
  local gen = self.generation
  self.cmd = cmd
  self.stopping = false
  local dispatchers = {
    notification = function(method, params)
      main(function()
        if gen == self.generation then
          self.handlers.on_notification(method, params)
        end
      end)
    end,
    -- tagd sends no requests today; answer any with MethodNotFound (Neovim 0.7 only accepts known codes).
    server_request = function(method)
      return nil, { code = -32601, message = "tagd.nvim does not handle " .. tostring(method) }
    end,
    on_error = function(code, err)
      main(function()
        if gen == self.generation then
          self.last_error = tostring(err)
        end
      end)
    end,
    on_exit = function(code, signal)
      main(function()
        if gen ~= self.generation then
          return
        end
        local expected = self.stopping
        self.running = false
        self.client = nil
        self.last_exit = { code = code, signal = signal }
        self.handlers.on_exit(code, signal, expected)
      end)
    end,
  }
  local ok, client
  if new_api() then
    ok, client = pcall(vim.lsp.rpc.start, cmd, dispatchers, {})
  else
    ok, client = pcall(vim.lsp.rpc.start, cmd[1], vim.list_slice(cmd, 2), dispatchers, {})
  end
  if not ok or not client then
    return false, "could not start " .. table.concat(cmd, " ") .. ": " .. tostring(client or "spawn failed")
  end
  self.client = client
  self.pid = client.pid -- 0.7 only; nil later
  self.running = true

  local done, result, rerr = false, nil, nil
  client.request("initialize", {
    processId = vim.fn.getpid(),
    clientInfo = { name = "tagd.nvim", version = tostring(vim.version().major .. "." .. vim.version().minor) },
    -- Neovim buffers index columns by bytes: ask for utf-8 positions (tagd supports it; utf-16 is the fallback).
    capabilities = { general = { positionEncodings = { "utf-8", "utf-16" } } },
  }, function(err, res)
    done, result, rerr = true, res, err
  end)
  local waited = vim.wait(timeout or 5000, function()
    return done or not self.running
  end, 5)
  if not done or rerr or type(result) ~= "table" then
    local why = rerr and vim.inspect(rerr) or (not self.running and "tagd exited during initialize")
      or (waited and "bad initialize result") or "initialize timed out"
    self:stop(true)
    return false, why
  end
  self.info = result
  self.encoding = (result.capabilities or {}).positionEncoding or "utf-16"
  self.methods = {}
  for _, m in ipairs((result.capabilities or {}).methods or {}) do
    self.methods[m] = true
  end
  client.notify("initialized", vim.empty_dict())
  return true
end

function Daemon:supports(method)
  return self.methods[method] == true
end

function Daemon:request(method, params, callback)
  if not self.client then
    return false
  end
  local ok = self.client.request(method, params, function(err, res)
    if callback then
      callback(err, res)
    end
  end)
  return ok
end

function Daemon:notify(method, params)
  if not self.client then
    return false
  end
  return self.client.notify(method, params)
end

-- Stop the daemon: shutdown + exit when graceful, else kill it.
function Daemon:stop(force)
  local client = self.client
  if not client then
    return
  end
  self.stopping = true
  if not force then
    local done = false
    client.request("shutdown", nil, function()
      done = true
    end)
    vim.wait(500, function()
      return done
    end, 5)
    client.notify("exit", nil)
    vim.wait(200, function()
      return not self.running
    end, 5)
  end
  if self.running then
    if client.terminate then
      client.terminate()
    elseif client.handle then
      pcall(client.handle.kill, client.handle, 15)
    end
  end
end

-- For tests and :TagdRestart: simulate a crash (SIGKILL when the pid is known).
function Daemon:kill()
  if self.pid then
    (vim.uv or vim.loop).kill(self.pid, 9)
  elseif self.client and self.client.terminate then
    self.client.terminate()
  end
end

return M
