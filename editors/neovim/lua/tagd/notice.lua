-- Messages to the user. Events that arrive while the user types (tagd stopped, a tag dropped)
-- are echoed on one line that fits the command line (`v:echospace`), so Neovim never stops for
-- "Press ENTER" in the middle of typing, and they are kept in :messages. The crash notice is also
-- drawn in every field window for a few seconds, where Insert mode's "-- INSERT --" cannot hide it.
local M = {}

M.ns = vim.api.nvim_create_namespace("tagd.notice")
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

local timers = {} -- buffer -> the timer that clears its notice

-- Field buffers shown in a window.
local function field_buffers()
  local bufs = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    local buf = vim.api.nvim_win_get_buf(win)
    if vim.b[buf].tagd_field then
      bufs[buf] = true
    end
  end
  return bufs
end

-- Show `msg` at the right end of the first line of field buffer `buf` for `ms` milliseconds.
function M.show_in(buf, msg, level, ms)
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    return
  end
  vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
  pcall(vim.api.nvim_buf_set_extmark, buf, M.ns, 0, 0, {
    virt_text = { { msg, hl_of[level] or "WarningMsg" } },
    virt_text_pos = "right_align",
    hl_mode = "combine",
  })
  if timers[buf] then
    timers[buf]:stop()
    timers[buf]:close()
  end
  local timer = uv.new_timer()
  timers[buf] = timer
  timer:start(ms or M.shown_ms, 0, vim.schedule_wrap(function()
    if timers[buf] == timer then
      timers[buf] = nil
      if vim.api.nvim_buf_is_valid(buf) then
        vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
      end
    end
    timer:close()
  end))
end

-- tagd stopped: echo it and show it in the field windows for M.shown_ms.
function M.crash(msg, level)
  M.echo(msg, level)
  for buf in pairs(field_buffers()) do
    M.show_in(buf, msg, level, M.shown_ms)
  end
end

return M
