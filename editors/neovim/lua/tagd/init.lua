-- tagd.nvim: a tag input field backed by the tagd daemon. This module is the public Lua API
-- (:help tagd-lua); the work is done by
--   tagd.daemon  the process, :TagdRestart and the restart policy   (tagd.rpc: its JSON-RPC stream)
--   tagd.sync    the client rules of Protocol/sync.md
--   tagd.field   field state (---@class tagd.Field), layout, announcements, events
--   tagd.suggest suggestions as you type (tagd.cmp, tagd.blink: completion plugins)
--   tagd.render  chips as extmarks;  tagd.window  buffer and window;  tagd.keys  mappings
--   tagd.info    :TagdInfo;  tagd.frontmatter  :TagFieldFrontMatter, :TagFieldOrgHeading
--   tagd.health  :checkhealth;  tagd.vault  the vaults, :TagdTags, :TagdRename;  tagd.lsp  lsp = true
local config = require("tagd.config")
local suggest = require("tagd.suggest")
local daemon = require("tagd.daemon")
local field = require("tagd.field")
local notice = require("tagd.notice")
local render = require("tagd.render")
local sync = require("tagd.sync")
local text = require("tagd.text")
local window = require("tagd.window")

local M = {}

M.version = config.version

daemon.hooks.notification = sync.on_notification
sync.on_draft_change = suggest.update
daemon.hooks.lost = field.lost
daemon.hooks.has_fields = field.any
notice.hooks.crash = function(msg, level)
  for f in field.each() do
    if f.buf and vim.fn.bufwinid(f.buf) ~= -1 then
      notice.show_in(f.buf, msg, level, notice.shown_ms, function()
        field.redraw(f)
      end)
    end
  end
end
daemon.hooks.started = function(d)
  for f in field.each() do
    if f.buf and vim.api.nvim_buf_is_valid(f.buf) and not f.hold then
      if f.problem then -- opened while tagd could not start: why is past now
        f.problem = nil
        notice.clear(f.buf)
      end
      sync.open_on_server(f, d)
    end
  end
end

function M.setup(opts)
  config.set(opts)
  render.define_highlights()
  if config.options.lsp then
    require("tagd.lsp").setup()
  end
  return M
end

-- tagd cannot start (not found, not a program, exits at once): the field opens all the same and
-- says why in its window (one line in the echo area, never a hit-enter prompt), so the keys typed
-- right after :TagField land in it, not in the user's buffer. :TagdRestart, once tagd is there,
-- opens it on tagd with what was typed.
local function open_without_tagd(name, opts, problem)
  local f = field.get(name) or field.new(name, opts)
  if not (f.buf and vim.api.nvim_buf_is_valid(f.buf)) then
    window.make_buffer(f)
  end
  window.open(f, opts.window or config.options.window, opts)
  f.hold, f.problem = opts.hold, problem
  notice.show_in(f.buf, "tagd: " .. problem, "error", 0, function()
    field.redraw(f)
  end)
  notice.echo(problem, "error")
  if opts.insert then
    vim.cmd("startinsert!")
  end
  return f.buf
end

local function open_now(name, opts)
  local d = daemon.get()
  local f = field.get(name)
  if not f then
    f = field.new(name, opts)
  end
  if not (f.buf and vim.api.nvim_buf_is_valid(f.buf)) then
    window.make_buffer(f) -- new, or its buffer was deleted (:bdelete)
  end
  window.open(f, opts.window or config.options.window, opts)
  f.hold = opts.hold
  if d and d.ready and not f.on_server and not f.hold then
    sync.open_on_server(f, d)
  end
  field.redraw(f)
  if opts.insert then
    vim.cmd("startinsert!")
  end
  return f.buf
end

-- Open (or focus) field `name` (default "default"). opts: tags (initial tags of a new field),
-- options (tagd field options), window ("split", "float", "none"), width (float width, or the
-- layout width without a window), insert (start Insert mode), hold (do not open it on tagd yet:
-- the caller does, see tagd.frontmatter). Returns the field's buffer, or nil when it is not open
-- (yet). When tagd is not running it is started first: the field opens once tagd answers
-- (waiting at most `start_wait` ms, so keys typed right after :TagField land in the field; a
-- slower tagd opens it later without blocking Neovim); a tagd that cannot be found, exits or does
-- not answer within `timeout` gives one message and no field.
function M.open(name, opts)
  opts = opts or {}
  name = name or "default"
  render.define_highlights()
  if daemon.running() then
    return open_now(name, opts)
  end
  local buf
  local waiting = true
  daemon.ensure(function(d, err)
    if d then
      buf = open_now(name, opts)
    elseif waiting and not opts.hold then
      buf = open_without_tagd(name, opts, tostring(err))
    else -- failed after start_wait (or a document field): said on one line, never a prompt
      notice.echo(tostring(err), "error")
    end
  end, true, config.options.start_wait)
  waiting = false
  return buf
end

-- Close field `name`: closes it on tagd and wipes its buffer. Returns its last tags (nil when
-- there is no such field).
function M.close(name)
  name = name or "default"
  local f = field.get(name)
  if not f then
    return nil
  end
  field.forget(name)
  local d = daemon.get()
  if d and d.ready and f.on_server then
    d:request("field/close", { field = name })
  end
  suggest.hide(f)
  if f.buf and vim.api.nvim_buf_is_valid(f.buf) then
    vim.api.nvim_buf_delete(f.buf, { force = true })
  end
  return f.tags
end

-- The names of the open fields, sorted.
function M.fields()
  return field.names()
end

-- The field's tags (a copy), or nil when no such field.
function M.tags(name)
  local f = field.get(name or "default")
  return f and vim.deepcopy(f.tags) or nil
end

-- What the plugin knows about a field (a copy): for statuslines, other plugins and tests.
function M.state(name)
  local f = field.get(name or "default")
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
    win = f.win,
    outcome = vim.deepcopy(f.outcome),
    dropped = vim.deepcopy(f.dropped),
    selected = f.selected,
    suggestions = suggest.state(f),
    flash = f.flash,
    display = vim.deepcopy(f.display),
    on_server = f.on_server,
    running = daemon.running(),
  }
end

-- Add tags from outside the box (field/addTags: same trimming/duplicate rules, no splitting).
function M.add(name, tags, cb)
  local f = field.get(name or "default")
  return f ~= nil and sync.request(f, "field/addTags", { tags = type(tags) == "table" and tags or { tags } }, cb)
end

-- Remove a tag by 1-based index (number) or by value (string, compared by tagd's rules).
function M.remove(name, which, cb)
  local f = field.get(name or "default")
  local extra = type(which) == "number" and { index = which - 1 } or { tag = which }
  return f ~= nil and sync.request(f, "field/removeTag", extra, cb)
end

function M.submit(name, cb)
  local f = field.get(name or "default")
  return f ~= nil and sync.request(f, "field/submit", nil, cb)
end

-- Replace the field's vocabulary for Insert-mode completion (field/setSuggestions).
function M.set_suggestions(name, list, cb)
  local f = field.get(name or "default")
  local d = daemon.get()
  if not (f and f.on_server and d and d.ready) then
    return false
  end
  f.options = vim.tbl_extend("force", f.options or {}, { suggestions = list }) -- kept for a restart
  return d:request("field/setSuggestions", { field = f.name, suggestions = list }, cb)
end

-- Any tagd request (Protocol/README.md), e.g. request("field/state", {field = "x"}, cb).
-- A FieldState answer is not applied to the field: use the functions above to change fields.
-- Returns false when tagd is not running.
function M.request(method, params, cb)
  local d = daemon.get()
  if not (d and d.ready) then
    return false
  end
  return d:request(method, params, cb)
end

-- Daemon status (:checkhealth, :TagdInfo).
function M.status()
  local cmd, searched, why = config.find(config.options)
  local d = daemon.get()
  local up = daemon.running()
  return {
    cmd = cmd,
    searched = searched,
    why = why,
    running = up,
    pid = up and d.pid or nil,
    started_cmd = d and d.cmd,
    encoding = up and d.encoding or nil,
    server = d and d.info and d.info.serverInfo,
    language = up and d.info.language or nil,
    locale = config.locale(),
    last_exit = d and d.last_exit,
    restarts = daemon.restart_count,
    stderr = d and d.stderr ~= "" and d.stderr or nil,
    fields = field.names(),
  }
end

-- A new tagd in place of the running one; every field is re-opened with its tags and text.
-- cb(ok, err) once it is ready (or failed; the failure is also shown).
function M.restart(cb)
  return daemon.restart(cb)
end

function M.stop()
  daemon.stop()
end

return M
