-- A real Neovim in a real terminal: tmux runs `nvim` (the same binary as the test run) with the
-- plugin, keys are typed with `tmux send-keys` and the screen is read with `tmux capture-pane`.
-- Every session gets its own tmux server (-L), so nothing is shared with a user's tmux.
local T = {}

local root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:gsub("^@", ""), ":p:h:h") -- editors/neovim

local uv = vim.uv or vim.loop
local count = 0

T.root = root
-- Every message the terminal Neovims send to tagd, one JSON text a line (checked against the
-- schema at the end of the run).
T.sent_file = vim.fn.tempname()

local Term = {}
Term.__index = Term

function T.available()
  return vim.fn.executable("tmux") == 1
end

local function run(args)
  local out = vim.fn.system(args)
  return out, vim.v.shell_error
end

-- Start nvim in a tmux window of `cols` x `rows` cells. `lua` is extra Lua run after setup.
-- opts.env: environment for nvim ({NAME = value}; false unsets). opts.config: instead of the test
-- setup, run nvim as a user would (no --clean) with this text as $XDG_CONFIG_HOME/nvim/init.lua
-- in fresh XDG directories (opts.data: files to create under $XDG_DATA_HOME first, path -> target
-- of a symlink). Every session traces what its Neovim sends and receives (T.sent_file,
-- term.recv_file).
function T.start(opts)
  opts = opts or {}
  count = count + 1
  local self = setmetatable({}, Term)
  self.socket = string.format("tagd-test-%d-%d", vim.fn.getpid(), count)
  self.cols, self.rows = opts.cols or 80, opts.rows or 24
  self.recv_file = vim.fn.tempname()
  local trace = string.format([[require("tagd.rpc").trace = function(d, json) local f = io.open(d == "send" and %q ]]
    .. [[or %q, "a"); f:write(json, "\n"); f:close() end]], T.sent_file, self.recv_file)
  local env = vim.deepcopy(opts.env or {})
  local args
  if opts.config then
    local home = vim.fn.tempname()
    self.home = home
    for _, d in ipairs({ "config/nvim", "data", "state", "cache" }) do
      vim.fn.mkdir(home .. "/" .. d, "p")
    end
    env.XDG_CONFIG_HOME, env.XDG_DATA_HOME = home .. "/config", home .. "/data"
    env.XDG_STATE_HOME, env.XDG_CACHE_HOME = home .. "/state", home .. "/cache"
    for path, target in pairs(opts.data or {}) do
      local full = home .. "/data/" .. path
      vim.fn.mkdir(vim.fn.fnamemodify(full, ":h"), "p")
      uv.fs_symlink(target, full)
    end
    -- The user's init.lua, then (in a file of the test's, not the user's config) the trace.
    vim.fn.writefile(vim.split(opts.config, "\n", { plain = true }), home .. "/config/nvim/init.lua")
    self.init = vim.fn.tempname() .. ".lua"
    vim.fn.writefile({ trace, opts.lua or "" }, self.init)
    args = "-i NONE -c " .. vim.fn.shellescape("luafile " .. self.init)
  else
    local init = vim.fn.tempname() .. ".lua"
    local lines = {
      string.format("vim.opt.runtimepath:prepend(%q)", root),
      'vim.cmd("runtime plugin/tagd.lua")',
      string.format("require('tagd').setup(vim.tbl_extend('force', { cmd = %q }, %s))", os.getenv("TAGD"),
        opts.setup or "{}"),
      trace,
      opts.lua or "",
    }
    vim.fn.writefile(lines, init)
    self.init = init
    args = "--clean -i NONE -u " .. vim.fn.shellescape(init)
  end
  local prefix, sets = {}, {}
  for k, v in pairs(env) do -- env's -u options before its assignments
    table.insert(v == false and prefix or sets, v == false and ("-u " .. k) or (k .. "=" .. vim.fn.shellescape(v)))
  end
  vim.list_extend(prefix, sets)
  local nvim = vim.v.progpath
  local cmd = string.format("exec env %s %s %s %s", table.concat(prefix, " "), vim.fn.shellescape(nvim), args,
    opts.file and vim.fn.shellescape(opts.file) or "")
  local _, rc = run({ "tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x",
    tostring(self.cols), "-y", tostring(self.rows), cmd })
  if rc ~= 0 then
    error("tmux new-session failed", 2)
  end
  -- Ready when Neovim has drawn its first screen (the ruler/empty-buffer tildes). A Neovim that
  -- does not start still has its tmux server stopped.
  local ok, err = pcall(self.wait, self, function(s)
    return s:find("~", 1, true) ~= nil or s:find("All", 1, true) ~= nil
  end, "nvim started")
  if not ok then
    self:stop()
    error(err, 2)
  end
  return self
end

-- The announcements tagd sent this Neovim so far about the field, in order: those of field
-- states and updates. A field/suggest result ({items, announcement}) is left out: the plugin
-- shows suggestions in their float and does not echo their sentence.
function Term:announcements()
  local out = {}
  if vim.fn.filereadable(self.recv_file) == 1 then
    for _, json in ipairs(vim.fn.readfile(self.recv_file)) do
      local ok, msg = pcall(vim.json.decode, json)
      local a = ok and type(msg) == "table" and ((type(msg.params) == "table" and msg.params.announcement)
        or (type(msg.result) == "table" and msg.result.items == nil and msg.result.announcement))
      if type(a) == "string" then
        table.insert(out, a)
      end
    end
  end
  return out
end

-- Wait until tagd has sent an announcement after the `after`-th containing `part` (plain text),
-- then until the screen shows that whole sentence. Returns its number and the sentence.
function Term:wait_said(part, after)
  local said, n
  local ok = vim.wait(6000, function()
    for i, a in ipairs(self:announcements()) do
      if i > (after or 0) and a:find(part, 1, true) then
        said, n = a, i
        return true
      end
    end
    return false
  end, 20)
  if not ok then
    error("tagd announced nothing with " .. vim.inspect(part) .. "; it said: " .. vim.inspect(self:announcements()), 2)
  end
  self:wait_for(said)
  return n, said
end

function Term:tmux(...)
  local args = { "tmux", "-L", self.socket, ... }
  local out, rc = run(args)
  if rc ~= 0 then
    error("tmux " .. table.concat({ ... }, " ") .. " failed: " .. out, 3)
  end
  return out
end

-- The screen as a list of lines (trailing spaces removed).
function Term:lines()
  local out = self:tmux("capture-pane", "-p", "-t", "t")
  local lines = vim.split(out, "\n", { plain = true })
  for i, l in ipairs(lines) do
    lines[i] = l:gsub("%s+$", "")
  end
  while #lines > 0 and lines[#lines] == "" do
    table.remove(lines)
  end
  return lines
end

-- The display attributes (from the SGR escape sequences) in effect where `needle` first appears
-- on the screen, as a string "fg|bg|flags"; nil when it is not on the screen.
local function sgr_apply(st, params)
  local p = {}
  for n in (params == "" and "0" or params):gmatch("[^;]+") do
    table.insert(p, tonumber(n) or 0)
  end
  local i = 1
  while i <= #p do
    local n = p[i]
    if n == 0 then
      st.fg, st.bg, st.flags = "d", "d", {}
    elseif n == 38 or n == 48 then
      local color
      if p[i + 1] == 5 then
        color, i = "5:" .. tostring(p[i + 2]), i + 2
      elseif p[i + 1] == 2 then
        color, i = string.format("2:%s:%s:%s", p[i + 2], p[i + 3], p[i + 4]), i + 4
      end
      if n == 38 then
        st.fg = color
      else
        st.bg = color
      end
    elseif n == 39 then
      st.fg = "d"
    elseif n == 49 then
      st.bg = "d"
    elseif (n >= 30 and n <= 37) or (n >= 90 and n <= 97) then
      st.fg = tostring(n)
    elseif (n >= 40 and n <= 47) or (n >= 100 and n <= 107) then
      st.bg = tostring(n)
    elseif n >= 1 and n <= 9 then
      st.flags[n] = true
    elseif n >= 21 and n <= 29 then
      st.flags[n - 20] = nil
      if n == 22 then
        st.flags[2] = nil
      end
    end
    i = i + 1
  end
end

function Term:attr_of(needle)
  local out = self:tmux("capture-pane", "-p", "-e", "-t", "t")
  for _, l in ipairs(vim.split(out, "\n", { plain = true })) do
    local at = l:find(needle, 1, true)
    if at then
      local st = { fg = "d", bg = "d", flags = {} }
      for sgr in l:sub(1, at - 1):gmatch("\27%[([%d;]*)m") do
        sgr_apply(st, sgr)
      end
      local flags = {}
      for k in pairs(st.flags) do
        table.insert(flags, k)
      end
      table.sort(flags)
      return st.fg .. "|" .. st.bg .. "|" .. table.concat(flags, ",")
    end
  end
  return nil
end

function Term:screen()
  return table.concat(self:lines(), "\n")
end

-- Wait until pred(screen_text) holds; fail showing the screen. `ms` is an upper bound only.
function Term:wait(pred, what, ms)
  local last = ""
  local ok = vim.wait(ms or 6000, function()
    last = self:screen()
    return pred(last) and true or false
  end, 40)
  if not ok then
    error("timed out waiting for " .. what .. "; the screen is:\n" .. last, 2)
  end
  return last
end

-- Wait until the screen contains `s` (a plain string).
function Term:wait_for(s, ms)
  return self:wait(function(scr)
    return scr:find(s, 1, true) ~= nil
  end, vim.inspect(s), ms)
end

-- Type text literally, all at once (one write to the terminal: full typing speed).
function Term:type(s)
  self:tmux("send-keys", "-t", "t", "-l", s)
end

-- Press named keys (tmux key names: Enter, Escape, BSpace, C-x, ...).
function Term:keys(...)
  self:tmux("send-keys", "-t", "t", ...)
end

-- Escape, then wait until Insert mode has ended (the mode message is gone), so a following ':'
-- is not read as Alt-: by the terminal input parser.
function Term:escape()
  self:keys("Escape")
  self:wait(function(s)
    return not s:find("-- INSERT --", 1, true)
  end, "Insert mode to end")
end

-- An Ex command, typed and entered.
function Term:cmd(c)
  self:type(":" .. c)
  self:keys("Enter")
end

-- Paste text as a terminal paste (bracketed paste when the application asked for it).
function Term:paste(s)
  self:tmux("set-buffer", "-b", "tagdtest", s)
  self:tmux("paste-buffer", "-p", "-d", "-b", "tagdtest", "-t", "t")
end

-- The pid of the Neovim in the terminal, and its child processes (tagd).
function Term:pid()
  return tonumber(vim.trim(self:tmux("display-message", "-p", "-t", "t", "#{pane_pid}")))
end

function T.children(pid)
  local kids = {}
  for _, task in ipairs(vim.fn.glob("/proc/" .. pid .. "/task/*/children", false, true)) do
    local f = io.open(task)
    if f then
      for k in f:read("*a"):gmatch("%d+") do
        table.insert(kids, tonumber(k))
      end
      f:close()
    end
  end
  return kids
end

function T.kill(pid, signal)
  uv.kill(pid, signal or 9)
end

function Term:stop()
  pcall(run, { "tmux", "-L", self.socket, "kill-server" })
  vim.fn.delete(self.init)
  vim.fn.delete(self.recv_file)
  if self.home then
    vim.fn.delete(self.home, "rf")
  end
end

-- Run fn(term) with a fresh terminal, always closing it.
function T.with(opts, fn)
  local term = T.start(opts)
  local ok, err = xpcall(fn, debug.traceback, term)
  term:stop()
  if not ok then
    error(err, 0)
  end
end

return T
