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

-- `cmd --version`, at most 3 s (a binary that never answers must not hang :checkhealth).
local function version_of(exe)
  local out = {}
  local job = vim.fn.jobstart({ exe, "--version" }, {
    stdout_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
  })
  if job <= 0 then
    return nil, "could not run it"
  end
  local rc = vim.fn.jobwait({ job }, 3000)[1]
  if rc == -1 then
    vim.fn.jobstop(job)
    return nil, "no answer within 3 s"
  end
  local text = vim.trim(table.concat(out or {}, "\n"))
  if rc ~= 0 then
    return nil, "exit " .. rc .. (text ~= "" and (": " .. text) or "")
  end
  return text
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
    r.error(st.why or "tagd not found", {
      "Searched: " .. table.concat(st.searched or {}, ", "),
      "Build it with `swift build` in the tagd repository, put tagd on $PATH, set $TAGD, or "
        .. "require('tagd').setup({cmd = '/path/to/tagd'})",
    })
  else
    r.ok("tagd found: " .. table.concat(st.cmd, " "))
    local version, err = version_of(st.cmd[1])
    if version then
      r.ok("tagd --version: " .. version)
    else
      r.error("tagd --version failed: " .. err)
    end
  end
  r.info("Announcements in: " .. (st.locale or "English (no locale set)")
    .. (st.language and (" (tagd speaks " .. st.language .. ")") or ""))
  if st.running then
    local server = st.server and (st.server.name .. " " .. tostring(st.server.version)) or "?"
    r.ok(string.format("tagd is running (%s%s), position encoding %s, fields: %s", server,
      st.pid and (", pid " .. st.pid) or "", tostring(st.encoding),
      #st.fields > 0 and table.concat(st.fields, ", ") or "none"))
    local d = require("tagd.daemon").get()
    for _, m in ipairs({ "field/didChange", "field/select", "field/suggest", "document/tags", "document/setTags" }) do
      if not d:supports(m) then
        r.warn("this tagd has no " .. m .. ": update tagd (this plugin needs Protocol 1.2)")
      end
    end
  elseif st.last_exit then
    r.error(string.format("tagd is not running: it exited with code %s, signal %s", tostring(st.last_exit.code),
      tostring(st.last_exit.signal)), { "Run :TagdRestart" })
  else
    r.info("tagd is not running (it starts with the first :TagField)")
  end
end

return M
