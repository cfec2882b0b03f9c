-- :checkhealth tagd
local M = {}

-- vim.health.start/ok/warn/error (0.9+), vim.health.report_* (0.8), require("health").report_* (0.7)
local function reporter()
  local h = vim.health
  if not (h and (h.start or h.report_start)) then
    h = require("health")
  end
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
    info = h.info or h.report_info,
  }
end

function M.check()
  local r = reporter()
  local tagd = require("tagd")
  local st = tagd.status()
  r.start("tagd")
  r.info("Documentation: :help tagd")
  if vim.fn.has("nvim-0.7") == 1 then
    r.ok("Neovim " .. tostring(vim.version().major) .. "." .. vim.version().minor .. "." .. vim.version().patch)
  else
    r.error("Neovim 0.7 or later is required")
  end
  if not st.cmd then
    r.error("tagd not found", {
      "Searched: " .. table.concat(st.searched or {}, ", "),
      "Set require('tagd').setup({cmd = '/path/to/tagd'}), put tagd on $PATH, or run `swift build` in the tagd repo",
    })
  else
    r.ok("tagd found: " .. table.concat(st.cmd, " "))
    local out = vim.fn.system({ st.cmd[1], "--version" })
    if vim.v.shell_error == 0 then
      r.ok("tagd --version: " .. vim.trim(out))
    else
      r.error("tagd --version failed (exit " .. vim.v.shell_error .. "): " .. vim.trim(out))
    end
  end
  if st.running then
    local server = st.server and (st.server.name .. " " .. tostring(st.server.version)) or "?"
    r.ok(string.format("tagd is running (%s%s), position encoding %s, text sync %s, fields: %s", server,
      st.pid and (", pid " .. st.pid) or "", tostring(st.encoding),
      st.synced and "field/didChange" or "unavailable (using field/change)",
      #st.fields > 0 and table.concat(st.fields, ", ") or "none"))
    if not st.synced then
      r.warn("this tagd has no field/didChange: fast typing may misbehave; update tagd")
    end
  elseif st.last_exit then
    r.error(string.format("tagd is not running: it exited with code %s, signal %s", tostring(st.last_exit.code),
      tostring(st.last_exit.signal)), { "Run :TagdRestart" })
  else
    r.info("tagd is not running (it starts with the first :TagField)")
  end
end

return M
