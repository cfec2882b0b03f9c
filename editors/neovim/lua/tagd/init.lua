-- tagd.nvim: a tag input field backed by the tagd daemon.
--
-- One daemon per Neovim, many fields. Each field is a scratch buffer holding the draft; tags are
-- drawn as chips (lua/tagd/render.lua). The buffer is kept in sync with tagd by the client rules
-- of Protocol/sync.md (see on_buffer_change and on_did_update below).
local config = require("tagd.config")
local rpc = require("tagd.rpc")
local text = require("tagd.text")
local render = require("tagd.render")

local M = {}

local fields = {} -- name -> field state
local daemon = nil
local restarts = {} -- times of automatic restarts (for the restart limit)
M._fields = fields

local function notify(msg, level)
  vim.notify("tagd: " .. msg, level or vim.log.levels.INFO)
end

local function same_list(a, b)
  if #a ~= #b then
    return false
  end
  for i = 1, #a do
    if a[i] ~= b[i] then
      return false
    end
  end
  return true
end

local function synced()
  return daemon and daemon:supports("field/didChange")
end

-- ---------------------------------------------------------------------------------------------
-- Drawing and events

local function redraw(f)
  if f.buf and vim.api.nvim_buf_is_valid(f.buf) then
    render.draw(f, config.options)
  end
end

-- Tell other plugins: User TagdTagsChanged with data {field, tags}. `data` on autocmds exists from
-- Neovim 0.8; on 0.7 the same table is in g:tagd_event (and b:tagd_tags on the field's buffer).
local function fire_changed(f)
  local data = { field = f.name, tags = vim.deepcopy(f.tags) }
  vim.g.tagd_event = data
  if f.buf and vim.api.nvim_buf_is_valid(f.buf) then
    vim.b[f.buf].tagd_tags = data.tags
  end
  local ok = pcall(vim.api.nvim_exec_autocmds, "User", { pattern = "TagdTagsChanged", modeline = false, data = data })
  if not ok then
    pcall(vim.api.nvim_exec_autocmds, "User", { pattern = "TagdTagsChanged", modeline = false })
  end
end

-- Take tags/prompt/frames from a FieldState or a field/didUpdate. `version` is the FieldState
-- version (stateVersion in updates): older states arriving late are ignored.
local function take_state(f, st)
  if type(st) ~= "table" or type(st.tags) ~= "table" then
    return
  end
  if st.version and st.version < (f.state_version or 0) then
    return
  end
  f.state_version = st.version or f.state_version
  local changed = not same_list(f.tags, st.tags)
  f.tags = st.tags
  f.prompt = st.prompt or f.prompt
  f.draft = st.text
  if st.outcome then
    f.outcome = st.outcome
    for _, d in ipairs(st.outcome.dropped or {}) do
      table.insert(f.dropped, d) -- recent dropped candidates, for front ends that announce them
      if #f.dropped > 20 then
        table.remove(f.dropped, 1)
      end
    end
  end
  if st.frames then
    f.frames, f.size = st.frames, st.size
  end
  if f.selected and f.selected > #f.tags then
    f.selected = nil
  end
  if type(f.frames) ~= "table" or #f.frames ~= #f.tags + 1 then
    M._request_layout(f)
  end
  redraw(f)
  if changed then
    fire_changed(f)
  end
end

-- ---------------------------------------------------------------------------------------------
-- Layout

local function layout_params(f)
  local width = f.width or 80
  if f.win and vim.api.nvim_win_is_valid(f.win) then
    local info = vim.fn.getwininfo(f.win)[1]
    width = vim.api.nvim_win_get_width(f.win) - ((info and info.textoff) or 0)
  end
  width = math.max(1, width)
  local o = config.options
  return {
    width = width,
    cells = { padding = render.padding(o.chip) },
    fieldHeight = 1,
    spacing = o.spacing,
    -- Without inline virtual text the draft needs a row of its own (see render.lua).
    fieldMinWidth = render.inline_supported() and math.min(o.field_min_width, width) or width,
  }
end

function M._request_layout(f)
  if not (daemon and daemon.running and f.on_server) then
    return
  end
  if f.layout_inflight then
    f.layout_again = true
    return
  end
  f.layout_inflight = true
  local params = layout_params(f)
  params.field = f.name
  daemon:request("field/layout", params, function(err, res)
    f.layout_inflight = false
    if not err and type(res) == "table" and res.frames then
      f.frames, f.size = res.frames, res.size
      redraw(f)
    end
    if f.layout_again or (type(f.frames) == "table" and #f.frames ~= #f.tags + 1 and not err) then
      f.layout_again = false
      M._request_layout(f)
    end
  end)
end

-- ---------------------------------------------------------------------------------------------
-- Text sync (Protocol/sync.md, "The client's rules")

local function send_whole_text(f)
  -- A full-text change with a new version: used after a resync request or a failed edit.
  f.shadow = text.buf_text(f.buf)
  f.version = f.version + 1
  daemon:notify("field/didChange", { field = f.name, version = f.version, contentChanges = { { text = f.shadow } } })
end

-- Rule 1: every buffer change is reported, in order, with an increasing version. The change is
-- computed by diffing against the text last reported (f.shadow), which keeps positions exact
-- whatever Neovim did (insert, paste, undo, :s).
local function on_buffer_change(f)
  if f.applying then
    return -- our own application of server edits: reported by on_did_update with `applied`
  end
  local new = text.buf_text(f.buf)
  if new == f.shadow then
    return
  end
  f.selected = nil
  local enc = daemon and daemon.encoding or "utf-8"
  local change = text.diff(f.shadow, new, enc)
  f.shadow = new
  f.version = f.version + 1
  vim.schedule(function()
    redraw(f) -- the prompt shows only on an empty buffer
  end)
  if not (daemon and daemon.running and f.on_server) then
    return -- kept in the buffer; the re-open after a restart sends the whole text
  end
  if synced() then
    daemon:notify("field/didChange", { field = f.name, version = f.version, contentChanges = { change } })
  else
    -- tagd without field/didChange: the older request path with the whole draft.
    daemon:request("field/change", { field = f.name, text = new }, function(err, st)
      if err or type(st) ~= "table" then
        return
      end
      take_state(f, st)
      if text.buf_text(f.buf) == new and st.text ~= new then
        f.applying = true
        vim.api.nvim_buf_set_lines(f.buf, 0, -1, false, vim.split(st.text, "\n", { plain = true }))
        f.applying = false
        f.shadow = st.text
        f.version = f.version + 1
        redraw(f)
      end
    end)
  end
end

-- Rule 2: apply an update's edits only if the buffer is still at the update's version, in the
-- listed order (last to first), then report them with a didChange carrying `applied`.
-- Otherwise ignore the edits (still take tags and frames): tagd answers the newer change.
local function on_did_update(p)
  local f = fields[p.field]
  if not f or not f.on_server or not (f.buf and vim.api.nvim_buf_is_valid(f.buf)) then
    return
  end
  take_state(f, {
    version = p.stateVersion,
    tags = p.tags,
    text = p.text,
    outcome = p.outcome,
    frames = p.frames,
    size = p.size,
  })
  if p.resync then
    send_whole_text(f)
    return
  end
  if p.version ~= f.version or type(p.edits) ~= "table" or #p.edits == 0 then
    return
  end
  local enc = daemon.encoding
  f.applying = true
  local ok = pcall(function()
    for _, e in ipairs(p.edits) do
      local s, en = text.range_to_bytes(f.buf, e.range, enc)
      if not s then
        error("edit outside the buffer")
      end
      vim.api.nvim_buf_set_text(f.buf, s[1], s[2], en[1], en[2], vim.split(e.newText or "", "\n", { plain = true }))
    end
  end)
  f.applying = false
  if not ok then
    send_whole_text(f) -- should not happen: the buffer was at the right version
    return
  end
  f.shadow = text.buf_text(f.buf)
  f.version = f.version + 1
  local changes = {}
  for _, e in ipairs(p.edits) do
    table.insert(changes, { range = e.range, text = e.newText or "" })
  end
  daemon:notify("field/didChange", { field = f.name, version = f.version, contentChanges = changes, applied = p.version })
  redraw(f)
end

-- ---------------------------------------------------------------------------------------------
-- The daemon

local open_on_server

local function on_notification(method, params)
  if method == "field/didUpdate" and type(params) == "table" then
    on_did_update(params)
  end
end

local function start_daemon()
  local cmd, searched = config.find(config.options)
  if not cmd then
    return nil, "tagd not found. Set require('tagd').setup({cmd = '/path/to/tagd'}), put tagd on $PATH, or run "
      .. "`swift build` in the tagd repo. Searched: " .. table.concat(searched or {}, ", ")
  end
  local d = daemon or rpc.new({ on_notification = on_notification, on_exit = function(...) M._on_exit(...) end })
  daemon = d
  local ok, err = d:start(cmd, config.options.timeout)
  if not ok then
    return nil, err
  end
  return d
end

local function ensure_daemon()
  if daemon and daemon.running then
    return daemon
  end
  local d, err = start_daemon()
  if not d then
    notify(err, vim.log.levels.ERROR)
    return nil, err
  end
  return d
end

-- (Re)create field `f` on the daemon with its last known tags. The buffer's text goes as a
-- didChange after an empty open, so committed text left in the buffer is handled by the normal
-- update path (and never added twice).
open_on_server = function(f)
  local d = daemon
  f.on_server = false
  f.state_version = 0
  f.frames = nil
  local params = { field = f.name, tags = f.tags, text = "" }
  if f.options and next(f.options) then
    params.options = f.options
  end
  local sync = d:supports("field/didChange")
  local buftext = text.buf_text(f.buf)
  if sync then
    params.sync = { version = f.version, layout = layout_params(f) }
  else
    params.text = buftext
  end
  local done, err_out = false, nil
  d:request("field/open", params, function(err, st)
    done = true
    if err then
      err_out = err
      notify("field/open " .. f.name .. " failed: " .. tostring(err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    take_state(f, st)
  end)
  f.on_server = true
  if sync then
    f.shadow = ""
    if buftext ~= "" then
      send_whole_text(f)
    end
  else
    f.shadow = buftext
    M._request_layout(f)
  end
  return true
end

function M._on_exit(code, signal, expected)
  for _, f in pairs(fields) do
    f.on_server = false
    f.layout_inflight = false
  end
  if expected then
    return
  end
  local now = (vim.uv or vim.loop).now()
  local recent = {}
  for _, t in ipairs(restarts) do
    if now - t < 60000 then
      table.insert(recent, t)
    end
  end
  restarts = recent
  local what = string.format("tagd exited (code %s%s)", tostring(code), signal and signal ~= 0 and (", signal " .. signal) or "")
  if next(fields) == nil then
    notify(what, vim.log.levels.WARN)
    return
  end
  if #restarts >= config.options.max_restarts then
    notify(what .. "; it keeps exiting, not restarting. Your tags are kept: run :TagdRestart", vim.log.levels.ERROR)
    return
  end
  table.insert(restarts, now)
  notify(what .. "; restarting and restoring the fields", vim.log.levels.WARN)
  M.restart()
end

-- Start a fresh daemon and re-open every field with its last known tags and buffer text.
function M.restart()
  if daemon and daemon.running then
    daemon:stop(true)
  end
  local d = ensure_daemon()
  if not d then
    return false
  end
  for _, f in pairs(fields) do
    open_on_server(f)
  end
  return true
end

-- ---------------------------------------------------------------------------------------------
-- Requests that act on the field (responses are FieldStates; updates arrive first in sync mode)

local function field_request(f, method, extra, cb)
  if not (daemon and daemon.running and f.on_server) then
    notify("tagd is not running (:TagdRestart)", vim.log.levels.WARN)
    return
  end
  local params = { field = f.name }
  for k, v in pairs(extra or {}) do
    params[k] = v
  end
  daemon:request(method, params, function(err, st)
    if err then
      notify(method .. ": " .. tostring(err.message), vim.log.levels.WARN)
    else
      take_state(f, st)
      -- Without text sync (an older tagd) the response's draft replaces an unchanged buffer.
      if not synced() and type(st) == "table" and st.text and text.buf_text(f.buf) == f.shadow and st.text ~= f.shadow then
        f.applying = true
        vim.api.nvim_buf_set_lines(f.buf, 0, -1, false, vim.split(st.text, "\n", { plain = true }))
        f.applying = false
        f.shadow = st.text
        f.version = f.version + 1
        redraw(f)
      end
    end
    if cb then
      cb(err, st)
    end
  end)
end

local function buffer_empty(f)
  local lines = vim.api.nvim_buf_get_lines(f.buf, 0, -1, false)
  return #lines == 1 and lines[1] == ""
end

-- The chip the remove key acts on: the selected one, else the last chip when the cursor is at
-- the very start of the draft (the chip "under" it).
local function chip_at_cursor(f)
  if f.selected then
    return f.selected
  end
  local win = vim.fn.bufwinid(f.buf)
  if win ~= -1 and #f.tags > 0 then
    local pos = vim.api.nvim_win_get_cursor(win)
    if pos[1] == 1 and pos[2] == 0 then
      return #f.tags
    end
  end
  return nil
end

local function map_keys(f)
  local keys = config.options.keys
  local buf = f.buf
  local function each(list, fn)
    if not list then
      return
    end
    if type(list) == "string" then
      list = { list }
    end
    for _, k in ipairs(list) do
      fn(k)
    end
  end
  -- Rule 4: Return submits.
  each(keys.submit, function(k)
    vim.keymap.set({ "i", "n" }, k, function()
      field_request(f, "field/submit")
    end, { buffer = buf, desc = "tagd: submit the draft" })
  end)
  -- Rule 3: Backspace on an empty buffer is field/deleteBackward; otherwise an ordinary Backspace
  -- (even over committed text tagd has not removed yet: tagd reads that as deleteBackward).
  -- Not an <expr> mapping: Neovim evaluates expr mappings when it peeks at typeahead, i.e.
  -- before the keys typed just ahead of the Backspace are in the buffer. A Lua callback runs
  -- when the key is executed, so it sees the buffer the user sees.
  local bs = vim.api.nvim_replace_termcodes("<BS>", true, false, true)
  each(keys.backspace, function(k)
    vim.keymap.set({ "i", "n" }, k, function()
      if buffer_empty(f) then
        field_request(f, "field/deleteBackward")
      else
        vim.api.nvim_feedkeys(bs, "in", false) -- an ordinary Backspace, ahead of later typeahead
      end
    end, { buffer = buf, desc = "tagd: backspace / remove the last tag" })
  end)
  each(keys.remove, function(k)
    vim.keymap.set({ "i", "n" }, k, function()
      local idx = chip_at_cursor(f)
      if idx then
        f.selected = nil
        M.remove(f.name, idx)
      end
    end, { buffer = buf, desc = "tagd: remove the selected tag" })
  end)
  -- Chip selection (callbacks, not <expr>: see Backspace). Keys that do not act fall through.
  local function fallthrough(k)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(k, true, false, true), "in", false)
  end
  each(keys.prev_chip, function(k)
    vim.keymap.set("n", k, function()
      local pos = vim.api.nvim_win_get_cursor(0)
      if f.selected then
        f.selected = math.max(1, f.selected - 1)
      elseif #f.tags > 0 and pos[1] == 1 and pos[2] == 0 then
        f.selected = #f.tags
      else
        return fallthrough(k)
      end
      redraw(f)
    end, { buffer = buf, desc = "tagd: select the chip to the left" })
  end)
  each(keys.next_chip, function(k)
    vim.keymap.set("n", k, function()
      if not f.selected then
        return fallthrough(k)
      end
      f.selected = f.selected < #f.tags and f.selected + 1 or nil
      redraw(f)
    end, { buffer = buf, desc = "tagd: select the chip to the right" })
  end)
end

-- ---------------------------------------------------------------------------------------------
-- Public API

function M.setup(opts)
  config.set(opts)
  render.define_highlights()
  return M
end

local function make_buffer(f)
  local buf = vim.api.nvim_create_buf(false, true)
  f.buf = buf
  vim.api.nvim_buf_set_name(buf, "tagd://" .. f.name)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = "tagd"
  vim.b[buf].tagd_field = f.name
  vim.api.nvim_buf_attach(buf, false, {
    on_lines = function()
      if not fields[f.name] or fields[f.name] ~= f then
        return true -- detach
      end
      on_buffer_change(f)
    end,
  })
  map_keys(f)
  vim.api.nvim_create_autocmd({ "VimResized", "WinScrolled", "BufWinEnter" }, {
    buffer = buf,
    callback = function()
      local win = vim.fn.bufwinid(buf)
      if win ~= -1 then
        f.win = win
      end
      local p = layout_params(f)
      if p.width ~= f.last_width then
        f.last_width = p.width
        M._request_layout(f) -- a field/layout with cells also replaces the sync layout
      end
    end,
  })
end

local function open_window(f, how, opts)
  if how == "none" then
    return
  end
  local win = vim.fn.bufwinid(f.buf)
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
    f.win = win
    return
  end
  if how == "float" then
    local width = opts.width or math.min(60, vim.o.columns - 4)
    f.win = vim.api.nvim_open_win(f.buf, true, {
      relative = "editor",
      row = math.floor(vim.o.lines / 3),
      col = math.floor((vim.o.columns - width) / 2),
      width = width,
      height = 1,
      style = "minimal",
      border = "rounded",
    })
  else
    vim.cmd("botright 1split")
    f.win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(f.win, f.buf)
  end
  local wo = vim.wo[f.win]
  wo.number, wo.relativenumber, wo.signcolumn, wo.foldcolumn = false, false, "no", "0"
  wo.wrap, wo.winfixheight = true, true
  f.last_width = vim.api.nvim_win_get_width(f.win)
end

-- Open (or focus) field `name`. opts: tags (initial tags when the field is new), options (field
-- options, see Protocol/README.md), window ("split", "float", "none"), width (layout width
-- when there is no window), insert (start in insert mode).
function M.open(name, opts)
  opts = opts or {}
  name = name or "default"
  render.define_highlights()
  local d = ensure_daemon()
  local f = fields[name]
  if not f then
    f = {
      name = name,
      tags = vim.deepcopy(opts.tags or {}),
      options = opts.options or config.options.field_options,
      version = 0,
      shadow = "",
      dropped = {},
      width = opts.width,
    }
    fields[name] = f
    make_buffer(f)
  end
  open_window(f, opts.window or config.options.window, opts)
  if d and not f.on_server then
    open_on_server(f)
  end
  redraw(f)
  if opts.insert then
    vim.cmd("startinsert!")
  end
  return f.buf
end

-- Close field `name`: closes it on tagd and wipes its buffer. Returns its last tags.
function M.close(name)
  name = name or "default"
  local f = fields[name]
  if not f then
    return nil
  end
  fields[name] = nil
  if daemon and daemon.running and f.on_server then
    daemon:request("field/close", { field = name }, nil)
  end
  if f.buf and vim.api.nvim_buf_is_valid(f.buf) then
    vim.api.nvim_buf_delete(f.buf, { force = true })
  end
  return f.tags
end

-- The field's tags (a copy), or nil when no such field.
function M.tags(name)
  local f = fields[name or "default"]
  return f and vim.deepcopy(f.tags) or nil
end

-- The field's buffer text and its drawn chips (for statuslines and tests).
function M.state(name)
  local f = fields[name or "default"]
  if not f then
    return nil
  end
  return {
    field = f.name,
    tags = vim.deepcopy(f.tags),
    text = text.buf_text(f.buf),
    draft = f.draft,
    version = f.version,
    buf = f.buf,
    outcome = f.outcome,
    dropped = vim.deepcopy(f.dropped),
    display = f.display,
    running = daemon ~= nil and daemon.running,
  }
end

-- Add tags from outside the box (field/addTags: same trimming/duplicate rules, no splitting).
function M.add(name, tags, cb)
  local f = fields[name or "default"]
  if not f then
    return false
  end
  field_request(f, "field/addTags", { tags = type(tags) == "table" and tags or { tags } }, cb)
  return true
end

-- Remove a tag by 1-based index (number) or by value (string, compared by tagd's rules).
function M.remove(name, which, cb)
  local f = fields[name or "default"]
  if not f then
    return false
  end
  local extra = type(which) == "number" and { index = which - 1 } or { tag = which }
  field_request(f, "field/removeTag", extra, cb)
  return true
end

function M.submit(name, cb)
  local f = fields[name or "default"]
  if f then
    field_request(f, "field/submit", nil, cb)
  end
end

-- Daemon status for :checkhealth and tests.
function M.status()
  local cmd, searched = config.find(config.options)
  return {
    cmd = cmd,
    searched = searched,
    running = daemon ~= nil and daemon.running,
    pid = daemon and daemon.pid,
    encoding = daemon and daemon.encoding,
    server = daemon and daemon.info and daemon.info.serverInfo,
    synced = synced() or false,
    last_exit = daemon and daemon.last_exit,
    fields = vim.tbl_keys(fields),
  }
end

function M._daemon()
  return daemon
end

function M.stop()
  if daemon then
    daemon:stop(false)
  end
end

return M
