-- :TagdInfo — the daemon and the open fields in a floating window, in the spirit of :LspInfo.
local M = {}

function M.lines()
  local tagd = require("tagd")
  local st = tagd.status()
  local v = vim.version()
  local out = { string.format("tagd.nvim %s on Neovim %d.%d.%d", require("tagd.config").version, v.major, v.minor,
    v.patch), "" }
  local function add(fmt, ...)
    table.insert(out, string.format(fmt, ...))
  end
  add("command:   %s", st.cmd and table.concat(st.cmd, " ") or ("not found (searched " ..
    table.concat(st.searched or {}, ", ") .. ")"))
  if st.running then
    local server = st.server and (tostring(st.server.name) .. " " .. tostring(st.server.version)) or "?"
    add("daemon:    running, pid %s, %s", tostring(st.pid), server)
    add("positions: %s; announcements in %s", tostring(st.encoding), tostring(st.language or "English"))
  else
    add("daemon:    not running%s", next(st.fields) and " (:TagdRestart)" or " (starts with :TagField)")
  end
  add("restarts:  %d automatic", st.restarts or 0)
  if st.last_exit then
    add("last exit: code %s, signal %s", tostring(st.last_exit.code), tostring(st.last_exit.signal))
  end
  table.insert(out, "")
  add("fields (%d):", #st.fields)
  for _, name in ipairs(st.fields) do
    local s = tagd.state(name)
    add("  %s: %d tag%s%s%s", name, #s.tags, #s.tags == 1 and "" or "s",
      #s.tags > 0 and (" [" .. table.concat(s.tags, ", ") .. "]") or "",
      s.text ~= "" and (", draft " .. vim.inspect(s.text)) or "")
  end
  if st.stderr then
    table.insert(out, "")
    table.insert(out, "tagd stderr (last lines):")
    local lines = vim.split(vim.trim(st.stderr), "\n", { plain = true })
    for i = math.max(1, #lines - 5), #lines do
      table.insert(out, "  " .. lines[i])
    end
  end
  return out
end

-- A read-only float with `lines` (and `title` as its first line), closed with q or <Esc>.
function M.float(lines, title)
  if title then
    lines = vim.list_extend({ title, "" }, lines)
  end
  local width = 0
  for _, l in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(l))
  end
  width = math.max(1, math.min(width + 2, vim.o.columns - 4))
  local height = math.max(1, math.min(#lines, vim.o.lines - 4))
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].filetype = "tagdinfo"
  local win = vim.api.nvim_open_win(buf, true, {
    relative = "editor",
    row = math.floor((vim.o.lines - height) / 2) - 1,
    col = math.floor((vim.o.columns - width) / 2),
    width = width,
    height = height,
    style = "minimal",
    border = "rounded",
  })
  vim.wo[win].wrap = false
  vim.keymap.set("n", "q", "<cmd>close<cr>", { buffer = buf, nowait = true })
  vim.keymap.set("n", "<Esc>", "<cmd>close<cr>", { buffer = buf, nowait = true })
  return buf, win
end

function M.show()
  local lines = M.lines()
  table.insert(lines, "")
  table.insert(lines, "q closes; :help tagd; :checkhealth tagd")
  return M.float(lines)
end

return M
