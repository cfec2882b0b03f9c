-- Field state: the registry of open fields, what tagd last said about each (tags, draft,
-- layout), and what the user is told when that changes (redraw, drop feedback, events).
local config = require("tagd.config")
local daemon = require("tagd.daemon")
local render = require("tagd.render")
local notice = require("tagd.notice")

local uv = vim.uv or vim.loop

---@class tagd.Frame
---@field x number
---@field y number
---@field label string|nil  the chip's text as tagd cut it (cells layout)
---@field width number
---@field height number

---@class tagd.Dropped
---@field text string
---@field reason string         empty, duplicate, tooLong, tooMany, pattern, notAllowed, denied
---@field duplicateOf integer|nil  0-based index of the equal tag
---@field limit integer|nil

---@class tagd.Field
---@field name string              the field id sent to tagd
---@field tags string[]            the last known tags (kept across restarts)
---@field options table|nil        field options for field/open
---@field buf integer|nil          the scratch buffer holding the draft
---@field saved_text string|nil   the draft of a deleted buffer, for the next one
---@field win integer|nil          the window showing it (the last one seen)
---@field width integer|nil        layout width when there is no window
---@field version integer          the buffer's version (sync.md rule 1)
---@field shadow string            the buffer text last reported to tagd
---@field applying boolean         true while the plugin applies tagd's edits
---@field on_server boolean        opened on the running tagd
---@field state_version integer    the newest FieldState version taken
---@field draft string|nil         tagd's draft
---@field prompt string|nil
---@field outcome table|nil        the last outcome
---@field updates integer         field/didUpdate notifications received
---@field last_update table|nil    {seq, version, outcome} of the last one
---@field dropped tagd.Dropped[]   recent dropped candidates (at most 20)
---@field frames tagd.Frame[]|nil  the cells layout: one frame per tag, then the text field
---@field size table|nil
---@field layout_inflight boolean
---@field layout_again boolean
---@field last_width integer|nil
---@field selected integer|nil     1-based index of the chip tagd says is selected
---@field flash integer|nil        1-based index of the chip being flashed
---@field display table|nil        the model last drawn (render.model)
---@field on_change fun(f: tagd.Field)|nil  called after the tags changed (front matter binding)
---@field problem string|nil       why tagd could not start when the field opened (shown in it)

local M = {}

---@type table<string, tagd.Field>
local fields = {}

---@return tagd.Field|nil
function M.get(name)
  return fields[name]
end

---@return string[]
function M.names()
  local names = vim.tbl_keys(fields)
  table.sort(names)
  return names
end

function M.any()
  return next(fields) ~= nil
end

---@return fun(): tagd.Field|nil
function M.each()
  local names = M.names()
  local i = 0
  return function()
    i = i + 1
    return names[i] and fields[names[i]]
  end
end

---@return tagd.Field
function M.new(name, opts)
  ---@type tagd.Field
  local f = {
    name = name,
    tags = vim.deepcopy(opts.tags or {}),
    options = opts.options or config.options.field_options,
    width = opts.width,
    version = 0,
    shadow = "",
    applying = false,
    on_server = false,
    state_version = 0,
    dropped = {},
    layout_inflight = false,
    layout_again = false,
  }
  fields[name] = f
  return f
end

function M.forget(name)
  fields[name] = nil
end

function M.redraw(f)
  if f.buf and vim.api.nvim_buf_is_valid(f.buf) then
    render.draw(f, config.options)
  end
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

-- User TagdTagsChanged with data {field, tags}. `data` on autocmds exists from Neovim 0.8; on 0.7
-- the same table is in g:tagd_event (and b:tagd_tags on the field's buffer).
local function fire_changed(f)
  local data = { field = f.name, tags = vim.deepcopy(f.tags) }
  vim.g.tagd_event = data
  if f.buf and vim.api.nvim_buf_is_valid(f.buf) then
    vim.b[f.buf].tagd_tags = data.tags
  end
  if f.on_change then
    f.on_change(f)
  end
  if vim.fn.has("nvim-0.8") == 1 then
    vim.api.nvim_exec_autocmds("User", { pattern = "TagdTagsChanged", modeline = false, data = data })
  else
    vim.api.nvim_exec_autocmds("User", { pattern = "TagdTagsChanged", modeline = false })
  end
end

local flash_timer = nil

-- Flash the chip a dropped duplicate repeats (what is said about it is tagd's announcement).
local function flash_duplicate(f, dropped)
  for _, d in ipairs(dropped) do
    if d.reason == "duplicate" and d.duplicateOf and f.tags[d.duplicateOf + 1] then
      f.flash = d.duplicateOf + 1
    end
  end
  if not f.flash then
    return
  end
  if flash_timer then
    flash_timer:stop()
    flash_timer:close()
  end
  flash_timer = uv.new_timer()
  flash_timer:start(config.options.flash_ms, 0, vim.schedule_wrap(function()
    if flash_timer then
      flash_timer:close()
      flash_timer = nil
    end
    f.flash = nil
    M.redraw(f)
  end))
end

-- Take tags/prompt/frames from a FieldState or a field/didUpdate. `st.version` is the FieldState
-- version (stateVersion in updates): older states arriving late are ignored.
function M.take_state(f, st, how)
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
  local fresh = st.outcome ~= nil
  if fresh then
    f.outcome = st.outcome
    for _, d in ipairs(st.outcome.dropped or {}) do
      table.insert(f.dropped, d)
      if #f.dropped > 20 then
        table.remove(f.dropped, 1)
      end
    end
  end
  if st.frames then
    f.frames, f.size = st.frames, st.size
  end
  f.selected = st.selected and st.selected + 1 or nil -- tagd's selection (absent: none)
  if f.flash and f.flash > #f.tags then
    f.flash = nil
  end
  if fresh and st.outcome.dropped and #st.outcome.dropped > 0 then
    flash_duplicate(f, st.outcome.dropped)
  end
  if st.announcement and st.announcement ~= "" and not (how and how.quiet) then
    local warn = fresh and st.outcome.dropped and #st.outcome.dropped > 0
    notice.announce(f.buf, st.announcement, warn and "warn" or "info", function()
      M.redraw(f)
    end)
  end
  if type(f.frames) ~= "table" or #f.frames ~= #f.tags + 1 then
    M.request_layout(f)
  end
  M.redraw(f)
  if changed then
    fire_changed(f)
  end
end

-- field/layout params (without `field`) for the field's window width.
function M.layout_params(f)
  local width = f.width or 80
  if f.win and vim.api.nvim_win_is_valid(f.win) then
    local info = vim.fn.getwininfo(f.win)[1]
    width = vim.api.nvim_win_get_width(f.win) - ((info and info.textoff) or 0)
  end
  width = math.max(1, width)
  local o = config.options
  return {
    width = width,
    cells = { left = o.chip.left, right = o.chip.right }, -- tagd measures, cuts and labels the chips
    fieldHeight = 1,
    spacing = o.spacing,
    -- Without inline virtual text the draft needs a row of its own (see render.lua).
    fieldMinWidth = render.inline_supported() and math.min(o.field_min_width, width) or width,
  }
end

-- Ask for a layout (one request in flight per field; a second ask is queued behind it).
function M.request_layout(f)
  local d = daemon.get()
  if not (d and d.ready and f.on_server) then
    return
  end
  if f.layout_inflight then
    f.layout_again = true
    return
  end
  f.layout_inflight = true
  local params = M.layout_params(f)
  params.field = f.name
  d:request("field/layout", params, function(err, res)
    f.layout_inflight = false
    if not err and type(res) == "table" and res.frames then
      f.frames, f.size = res.frames, res.size
      M.redraw(f)
    end
    if f.layout_again or (not err and type(f.frames) == "table" and #f.frames ~= #f.tags + 1) then
      f.layout_again = false
      M.request_layout(f)
    end
  end)
end

-- The process is gone: nothing is on the server any more.
function M.lost()
  for _, f in pairs(fields) do
    f.on_server = false
    f.layout_inflight = false
    f.layout_again = false
  end
end

return M
