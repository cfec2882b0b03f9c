-- The client rules of Protocol/sync.md: every buffer change goes to tagd as field/didChange;
-- tagd's field/didUpdate edits are applied only to the buffer version they were computed for.
-- Also opening a field on (a new) tagd and the requests that act on a field.
local daemon = require("tagd.daemon")
local field = require("tagd.field")
local notice = require("tagd.notice")
local text = require("tagd.text")

local M = {}

local function live(f)
  local d = daemon.get()
  if d and d.ready and f.on_server then
    return d
  end
end

-- A full-text change with a new version: after a resync request or a failed edit.
local function send_whole_text(f, d)
  f.shadow = text.buf_text(f.buf)
  f.version = f.version + 1
  d:notify("field/didChange", { field = f.name, version = f.version, contentChanges = { { text = f.shadow } } })
end

-- Rule 1: every buffer change is reported, in order, with an increasing version, as the whole
-- text (a range-less change): tagd finds the edit against its mirror of the buffer (sync.md,
-- "Range-less changes"), whatever Neovim did (insert, paste, undo, :s). f.shadow is the text
-- last reported.
---@param f tagd.Field
function M.on_buffer_change(f)
  if f.applying then
    return -- our own application of tagd's edits: reported by on_did_update with `applied`
  end
  local new = text.buf_text(f.buf)
  if new == f.shadow then
    return
  end
  local d = live(f)
  f.shadow = new
  f.version = f.version + 1
  vim.schedule(function()
    field.redraw(f) -- the prompt shows only on an empty buffer
  end)
  if not d then
    return -- kept in the buffer; the re-open after a restart sends the whole text
  end
  d:notify("field/didChange", { field = f.name, version = f.version, contentChanges = { { text = new } } })
  if M.on_draft_change then
    M.on_draft_change(f)
  end
end

-- Rule 2: apply an update's edits only if the buffer is still at the update's version, in the
-- listed order (last to first), then report them with a didChange carrying `applied`.
-- Otherwise ignore the edits (still take tags and frames): tagd answers the newer change.
function M.on_did_update(p)
  local f = field.get(p.field)
  local d = daemon.get()
  if not (f and d and d.ready and f.on_server and f.buf and vim.api.nvim_buf_is_valid(f.buf)) then
    return
  end
  f.updates = (f.updates or 0) + 1
  f.last_update = { seq = f.updates, version = p.stateVersion, outcome = p.outcome }
  field.take_state(f, {
    version = p.stateVersion,
    tags = p.tags,
    text = p.text,
    outcome = p.outcome,
    announcement = p.announcement,
    selected = p.selected,
    frames = p.frames,
    size = p.size,
  })
  if p.resync then
    send_whole_text(f, d)
    return
  end
  if p.version ~= f.version or type(p.edits) ~= "table" or #p.edits == 0 then
    return
  end
  f.applying = true
  local ok = pcall(function()
    for _, e in ipairs(p.edits) do
      local s, en = text.range_to_bytes(f.buf, e.range, d.encoding)
      if not s then
        error("edit outside the buffer")
      end
      vim.api.nvim_buf_set_text(f.buf, s[1], s[2], en[1], en[2], vim.split(e.newText or "", "\n", { plain = true }))
    end
  end)
  f.applying = false
  if not ok then
    send_whole_text(f, d) -- should not happen: the buffer was at the right version
    return
  end
  f.shadow = text.buf_text(f.buf)
  f.version = f.version + 1
  -- Text tagd put into the draft (an edited tag, undo): the caret goes after it, at the end of
  -- the buffer, where a slow typist's would be.
  local inserted = false
  for _, e in ipairs(p.edits) do
    inserted = inserted or (e.newText or "") ~= ""
  end
  local win = vim.fn.bufwinid(f.buf)
  if inserted and win ~= -1 then
    local n = vim.api.nvim_buf_line_count(f.buf)
    local last = vim.api.nvim_buf_get_lines(f.buf, n - 1, n, false)[1] or ""
    pcall(vim.api.nvim_win_set_cursor, win, { n, #last })
  end
  local changes = {}
  for _, e in ipairs(p.edits) do
    table.insert(changes, { range = e.range, text = e.newText or "" })
  end
  d:notify("field/didChange", { field = f.name, version = f.version, contentChanges = changes, applied = p.version })
  field.redraw(f)
  if M.on_draft_change then
    M.on_draft_change(f) -- the draft tagd left: its suggestions, or none (an empty draft hides them)
  end
end

function M.on_notification(method, params)
  if method == "field/didUpdate" and type(params) == "table" then
    M.on_did_update(params)
  end
end

-- (Re)create field `f` on the running daemon with its last known tags. In sync mode the buffer's
-- text goes as a didChange after an empty open, so committed text left in the buffer is handled
-- by the normal update path (and never added twice).
---@param f tagd.Field
---@param d tagd.Daemon
function M.open_on_server(f, d)
  f.on_server = false
  f.state_version = 0
  f.frames = nil
  local params = { field = f.name, tags = f.tags, text = "" }
  if f.options and next(f.options) then
    params.options = f.options
  end
  local buftext = text.buf_text(f.buf)
  params.sync = { version = f.version, layout = field.layout_params(f) }
  d:request("field/open", params, function(err, st)
    if err then
      notice.warn("field/open " .. f.name .. " failed: " .. tostring(err.message or vim.inspect(err)))
      return
    end
    field.take_state(f, st, { quiet = true }) -- its outcome is the initial tags: nothing to say
  end)
  f.on_server = true
  f.shadow = ""
  if buftext ~= "" then
    send_whole_text(f, d)
    if M.on_draft_change then
      M.on_draft_change(f)
    end
  end
  field.redraw(f)
end

-- A request acting on the field; its FieldState is taken (in sync mode tagd's update came first).
function M.request(f, method, extra, cb)
  local d = live(f)
  if not d and daemon.starting() then -- keys typed while tagd starts: sent, in order, once it runs
    daemon.ensure(function(started)
      if started then
        M.request(f, method, extra, cb)
      end
    end, true)
    return true
  elseif not d then
    notice.warn("tagd is not running (:TagdRestart)")
    return false
  end
  local params = { field = f.name }
  for k, v in pairs(extra or {}) do
    params[k] = v
  end
  local sent = f.updates or 0
  d:request(method, params, function(err, st)
    if err then
      notice.warn(method .. ": " .. tostring(err.message))
    else
      -- When the request changed the buffer or the tags, tagd wrote a didUpdate with the same
      -- outcome just before this answer: report the outcome (drops) once.
      local u = f.last_update
      if type(st) == "table" and u and u.seq > sent and u.version == st.version
        and vim.deep_equal(u.outcome, st.outcome) then
        st = vim.tbl_extend("force", {}, st)
        st.outcome, st.announcement = nil, nil
      end
      field.take_state(f, st)
    end
    if cb then
      cb(err, st)
    end
  end)
  return true
end

return M
