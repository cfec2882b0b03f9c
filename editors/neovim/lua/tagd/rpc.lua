-- The tagd process and its JSON-RPC stream (LSP Content-Length framing over stdin/stdout).
--
-- The plugin owns its transport (libuv spawn + framing) instead of borrowing vim.lsp.rpc: that
-- client changed its signature in 0.8 and 0.10, hides the process id from 0.8 on, and treats
-- the peer as a language server. Owning the ~150 lines keeps 0.7 and 0.12 on the same code path.
local uv = vim.uv or vim.loop

local M = {}

-- Debugging aid: when set, trace(direction, json) sees every message ("send" or "recv") as the
-- JSON text on the wire, e.g. require("tagd.rpc").trace = function(d, j) vim.print(d, j) end.
M.trace = nil

---@class tagd.Exit
---@field code integer
---@field signal integer

---@class tagd.Handlers
---@field on_notification fun(method: string, params: table|nil)
---@field on_exit fun(code: integer, signal: integer, expected: boolean)
---@field client_version string|nil

---@class tagd.Daemon
---@field handlers tagd.Handlers
---@field cmd string[]|nil      the command line it was started with
---@field pid integer|nil
---@field running boolean      the process is alive
---@field ready boolean        it answered initialize
---@field stopping boolean      an exit now is expected (stop() was called)
---@field generation integer    bumped on every start: callbacks of an older process are ignored
---@field info table|nil        the initialize result
---@field encoding string       the negotiated positionEncoding
---@field methods table<string, boolean>
---@field last_exit tagd.Exit|nil
---@field stderr string         the tail of tagd's stderr (diagnostics)
---@field started_at integer|nil
---@field client_version string  sent as clientInfo.version
local Daemon = {}
Daemon.__index = Daemon

-- vim.NIL (JSON null) -> nil, so `x.y == nil` tests work on decoded messages.
local function strip_null(v)
  if type(v) ~= "table" then
    return v
  end
  for k, x in pairs(v) do
    if x == vim.NIL then
      v[k] = nil
    else
      strip_null(x)
    end
  end
  return v
end

---@param handlers tagd.Handlers
---@return tagd.Daemon
function M.new(handlers)
  return setmetatable({
    handlers = handlers,
    running = false,
    ready = false,
    stopping = false,
    generation = 0,
    encoding = "utf-16",
    methods = {},
    stderr = "",
    client_version = handlers.client_version or "?",
  }, Daemon)
end

local function close(h)
  if h and not h:is_closing() then
    h:close()
  end
end

-- Split complete Content-Length frames off `buf`; returns the bodies and the rest.
function M.frames(buf)
  local bodies = {}
  while true do
    local hend = buf:find("\r\n\r\n", 1, true)
    if not hend then
      break
    end
    local len = tonumber(buf:sub(1, hend - 1):lower():match("content%-length:%s*(%d+)"))
    if not len then
      buf = buf:sub(hend + 4) -- not a header block: skip it (tagd only writes valid ones)
    elseif #buf < hend + 3 + len then
      break
    else
      table.insert(bodies, buf:sub(hend + 4, hend + 3 + len))
      buf = buf:sub(hend + 4 + len)
    end
  end
  return bodies, buf
end

-- Start the process and send `initialize`; never waits. on_ready(true) once tagd answered, or
-- on_ready(false, message) when it could not start, exited first or did not answer within
-- `timeout` ms (then the process is stopped). `locale` is sent as initialize's `locale`.
function Daemon:start(cmd, timeout, locale, on_ready, folders)
  self.generation = self.generation + 1
  local gen = self.generation
  self.cmd, self.stopping, self.stderr, self.ready = cmd, false, "", false
  self.next_id, self.pending, self.info, self.methods = 0, {}, nil, {}
  local settled = false
  local timer = uv.new_timer()
  local function finish(ok, err)
    if settled then
      return
    end
    settled = true
    timer:stop()
    if not timer:is_closing() then
      timer:close()
    end
    on_ready(ok, err)
  end
  local name = table.concat(cmd, " ")
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local handle, pid_or_err
  handle, pid_or_err = uv.spawn(cmd[1], { args = vim.list_slice(cmd, 2), stdio = { stdin, stdout, stderr } },
    function(code, signal)
      close(stdin)
      close(stdout)
      close(stderr)
      close(handle)
      vim.schedule(function()
        if gen ~= self.generation then
          return -- an older process (already replaced or given up by stop())
        end
        local expected = self.stopping
        local was_ready = self.ready
        self.running, self.ready, self.pid, self.handle, self.stdin = false, false, nil, nil, nil
        self.last_exit = { code = code, signal = signal }
        if not was_ready and not settled then
          local last = vim.trim(self.stderr):match("([^\n]*)$") or ""
          finish(false, string.format("%s exited before answering initialize (%s)%s", name,
            signal ~= 0 and ("signal " .. signal) or ("exit code " .. code), last ~= "" and (": " .. last) or ""))
          return
        end
        self.handlers.on_exit(code, signal, expected)
      end)
    end)
  if not handle then
    close(stdin)
    close(stdout)
    close(stderr)
    finish(false, "could not start " .. name .. ": " .. tostring(pid_or_err))
    return
  end
  self.handle, self.pid, self.stdin, self.running = handle, pid_or_err, stdin, true
  self.started_at = uv.now()
  local pending = ""
  stdout:read_start(function(err, data)
    if err or not data then
      return
    end
    pending = pending .. data
    local bodies
    bodies, pending = M.frames(pending)
    if #bodies > 0 then
      vim.schedule(function()
        if gen == self.generation then
          for _, b in ipairs(bodies) do
            self:dispatch(b)
          end
        end
      end)
    end
  end)
  stderr:read_start(function(_, data)
    if data then
      self.stderr = (self.stderr .. data):sub(-4000)
    end
  end)
  timer:start(timeout or 5000, 0, vim.schedule_wrap(function()
    if not settled and gen == self.generation then
      finish(false, string.format("%s did not answer initialize within %d ms", name, timeout or 5000))
      self:stop(true)
    end
  end))
  local params = {
    processId = vim.fn.getpid(),
    clientInfo = { name = "tagd.nvim", version = self.client_version },
    -- Neovim buffers index columns by bytes: ask for utf-8 positions (utf-16 is the fallback).
    capabilities = { general = { positionEncodings = { "utf-8", "utf-16" } } },
    locale = locale,
    workspaceFolders = folders, -- the vaults (SPEC §6d), when any
  }
  self:request("initialize", params, function(rerr, result)
    if settled or gen ~= self.generation then
      return
    end
    if rerr or type(result) ~= "table" then
      finish(false, name .. ": initialize failed: " .. (rerr and tostring(rerr.message) or "bad result"))
      self:stop(true)
      return
    end
    self.info = result
    self.encoding = (result.capabilities or {}).positionEncoding or "utf-16"
    for _, m in ipairs((result.capabilities or {}).methods or {}) do
      self.methods[m] = true
    end
    self:notify("initialized", vim.empty_dict())
    self.ready = true
    finish(true)
  end)
end

function Daemon:dispatch(body)
  if M.trace then
    M.trace("recv", body)
  end
  local ok, msg = pcall(vim.json.decode, body)
  if not ok or type(msg) ~= "table" then
    return
  end
  strip_null(msg)
  if msg.method then
    if msg.id ~= nil then -- a request from tagd (it sends none today)
      local err = { code = -32601, message = "tagd.nvim does not handle " .. msg.method }
      self:send({ jsonrpc = "2.0", id = msg.id, error = err })
    else
      self.handlers.on_notification(msg.method, msg.params)
    end
    return
  end
  local cb = msg.id ~= nil and self.pending[msg.id]
  if cb then
    self.pending[msg.id] = nil
    cb(msg.error, msg.result)
  end
end

function Daemon:send(msg)
  if not (self.running and self.stdin) then
    return false
  end
  local body = vim.json.encode(msg)
  if M.trace then
    M.trace("send", body)
  end
  self.stdin:write("Content-Length: " .. #body .. "\r\n\r\n" .. body)
  return true
end

function Daemon:supports(method)
  return self.methods[method] == true
end

-- Send a request; callback(err, result) runs on the main loop. Returns false when not running.
function Daemon:request(method, params, callback)
  self.next_id = self.next_id + 1
  local id = self.next_id
  local msg = { jsonrpc = "2.0", id = id, method = method }
  if params ~= nil then
    msg.params = params
  end
  if not self:send(msg) then
    return false
  end
  self.pending[id] = callback or function() end
  return true
end

function Daemon:notify(method, params)
  local msg = { jsonrpc = "2.0", method = method }
  if params ~= nil then
    msg.params = params
  end
  return self:send(msg)
end

-- Stop the process and wait (briefly) for it to go: shutdown + exit when graceful, then SIGTERM,
-- then SIGKILL. When this returns the daemon is not running and its exit will not be reported
-- as unexpected, so a new one can be started at once.
function Daemon:stop(force)
  if not self.running then
    return
  end
  self.stopping = true
  if not force then
    local done = false
    self:request("shutdown", nil, function()
      done = true
    end)
    vim.wait(500, function()
      return done or not self.running
    end, 5)
    self:notify("exit", nil)
    vim.wait(500, function()
      return not self.running
    end, 5)
  end
  for _, sig in ipairs({ 15, 9 }) do
    if self.running and self.handle then
      pcall(self.handle.kill, self.handle, sig)
      vim.wait(500, function()
        return not self.running
      end, 5)
    end
  end
  if self.running then -- the exit callback has not arrived: give the process up
    self.generation = self.generation + 1
    self.running, self.ready, self.pid, self.handle, self.stdin = false, false, nil, nil, nil
  end
end

return M
