-- Messages to the user. Events that arrive while the user types (tagd stopped, a tag dropped)
-- are echoed on one line that fits the command line (`v:echospace`), so Neovim never stops for
-- "Press ENTER" in the middle of typing, and they are kept in :messages. Insert mode's
-- "-- INSERT --" covers such an echo at the next redraw, so the crash notice and drop reasons are
-- also shown in the field windows for a few seconds.
local M = {}

M.shown_ms = 6000

local uv = vim.uv or vim.loop

local function fit(msg, cells)
  if vim.fn.strdisplaywidth(msg) <= cells then
    return msg
  end
  local out = ""
  for i = 0, vim.fn.strchars(msg) - 1 do
    local ch = vim.fn.strcharpart(msg, i, 1)
    if vim.fn.strdisplaywidth(out .. ch) > cells - 1 then
      break
    end
    out = out .. ch
  end
  return out .. "…"
end

-- `msg` in lines of at most `cells` display cells, broken between words (a word longer than a
-- line is cut by the window).
function M.wrap(msg, cells)
  local out, cur = {}, ""
  for word in msg:gmatch("%S+") do
    local try = cur == "" and word or (cur .. " " .. word)
    if cur ~= "" and vim.fn.strdisplaywidth(try) > cells then
      table.insert(out, cur)
      cur = word
    else
      cur = try
    end
  end
  if cur ~= "" then
    table.insert(out, cur)
  end
  return out
end

local hl_of = { error = "ErrorMsg", warn = "WarningMsg", info = "None" }

-- One line in the message area (and :messages), never a hit-enter prompt.
function M.echo(msg, level)
  msg = "tagd: " .. msg
  local space = math.max(10, (vim.v.echospace or (vim.o.columns - 12)) - 1)
  vim.api.nvim_echo({ { fit(msg, space), hl_of[level or "info"] } }, true, {})
end

-- The result of a command the user just ran: the whole message (may be long), via vim.notify.
function M.error(msg)
  vim.notify("tagd: " .. msg, vim.log.levels.ERROR)
end

function M.warn(msg)
  M.echo(msg, "warn")
end

function M.info(msg)
  M.echo(msg, "info")
end

-- Notices shown in field windows: buffer -> {text, hl}. render.lua draws one as a virtual line
-- below the draft (so it never covers a chip) and counts it in the window's height.
local shown = {}
local timers = {}

-- Set by tagd/init.lua: show a crash notice in every field window.
M.hooks = {
  crash = function(_, _) end,
}

function M.get(buf)
  return shown[buf]
end

-- Show `msg` in field buffer `buf` for `ms` milliseconds (0: until M.clear); redraw() draws the
-- field again.
function M.show_in(buf, msg, level, ms, redraw)
  local entry = { text = msg, hl = hl_of[level] or "WarningMsg", redraw = redraw }
  shown[buf] = entry
  redraw()
  if timers[buf] then
    timers[buf]:stop()
    timers[buf]:close()
    timers[buf] = nil
  end
  if ms == 0 then
    return
  end
  local timer = uv.new_timer()
  timers[buf] = timer
  timer:start(ms or M.shown_ms, 0, vim.schedule_wrap(function()
    if timers[buf] == timer then
      timers[buf] = nil
    end
    timer:close()
    if shown[buf] == entry then
      shown[buf] = nil
      redraw()
    end
  end))
end

-- Take the notice out of field buffer `buf` (tagd runs again: why it did not is past).
function M.clear(buf)
  local entry = shown[buf]
  if entry then
    shown[buf] = nil
    entry.redraw()
  end
end

-- tagd's announcement of a change in field buffer `buf` (level "info", or "warn" when something
-- was dropped), shown as tagd wrote it: with announce = "notify" through vim.notify, else echoed
-- on one line and shown under the field for `notice_ms` ("-- INSERT --" soon covers the echo).
function M.announce(buf, msg, level, redraw)
  local o = require("tagd.config").options
  if o.announce == "notify" then
    vim.notify(msg, level == "warn" and vim.log.levels.WARN or vim.log.levels.INFO, { title = "tagd" })
    return
  end
  local space = math.max(10, (vim.v.echospace or (vim.o.columns - 12)) - 1)
  vim.api.nvim_echo({ { fit(msg, space), hl_of[level] } }, true, {})
  if buf and vim.api.nvim_buf_is_valid(buf) and vim.fn.bufwinid(buf) ~= -1 then
    M.show_in(buf, msg, level, o.notice_ms, redraw)
  end
end

-- tagd stopped: echo it and show it in the field windows for M.shown_ms.
function M.crash(msg, level)
  M.echo(msg, level)
  M.hooks.crash(msg, level)
end

return M
