-- Headless tests of tagd.nvim against the real tagd. Run by editors/neovim/run-tests.
local here = vim.fn.fnamemodify(debug.getinfo(1, "S").source:gsub("^@", ""), ":p:h")
local root = vim.fn.fnamemodify(here, ":h") -- editors/neovim
vim.opt.runtimepath:prepend(root)
vim.cmd("runtime plugin/tagd.lua")
vim.o.columns, vim.o.lines = 80, 24

local H = dofile(here .. "/harness.lua")
local test, eq, wait, feed = H.test, H.eq, H.wait, H.feed

-- Does this tagd speak Protocol 1.2 (languages, document/tags)? Asked once, in NDJSON.
do
  local out = vim.fn.system({ "timeout", "5", os.getenv("TAGD") },
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n')
  local ok, msg = pcall(vim.json.decode, vim.split(out, "\n", { plain = true })[1])
  local res = ok and type(msg) == "table" and msg.result or {}
  H.has.languages = res.languages ~= nil
  H.has.documents = vim.tbl_contains((res.capabilities or {}).methods or {}, "document/tags")
  H.has.vault = vim.tbl_contains((res.capabilities or {}).methods or {}, "vault/tags")
  if not (H.has.languages and H.has.documents and H.has.vault) then
    H.out("note: this tagd lacks parts of Protocol 1.2: " .. vim.inspect(H.has))
  end
end

-- Capture notifications (error messages are part of what we test).
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
end

local tagd = require("tagd")
local TAGD = os.getenv("TAGD") -- tests that change $TAGD put it back (H.test restores it too)

-- Every message the plugin sends, as JSON text, for the schema test at the end.
local sent = {}
require("tagd.rpc").trace = function(direction, json)
  if direction == "send" then
    table.insert(sent, json)
  end
end
local text = require("tagd.text")
local uv = vim.uv or vim.loop
local inline = vim.fn.has("nvim-0.10") == 1 -- chips inline on the draft's row
tagd.setup({ cmd = os.getenv("TAGD"), window = "split" })

local function state(name)
  return tagd.state(name)
end

local function describe(name)
  return function()
    local s = state(name)
    return s and vim.inspect({ tags = s.tags, text = s.text, draft = s.draft, version = s.version }) or "no field"
  end
end

-- Wait until the field shows `tags` and the buffer holds exactly `buftext`, which is also tagd's
-- draft, and the chips are drawn from a layout that matches the tags.
local function settled(name, tags, buftext)
  wait(function()
    local s = state(name)
    return s and vim.deep_equal(s.tags, tags) and s.text == buftext and s.display and not s.display.provisional
  end, "tags " .. vim.inspect(tags) .. " and text " .. vim.inspect(buftext), 4000, describe(name))
  -- And tagd agrees: its FieldState (asked after everything sent so far) has the same tags and draft.
  local got
  tagd.request("field/state", { field = name }, function(err, res)
    got = err or res
  end)
  wait(function()
    return got ~= nil
  end, "field/state")
  eq({ tags, buftext }, { got.tags, got.text }, "tagd's field/state")
  vim.wait(30) -- no late update may change the picture
  eq({ tags, buftext }, { state(name).tags, state(name).text }, "state after a pause")
end

-- What the screen shows in window `win`, rows 1..n (trailing spaces removed).
local function screen(win, n)
  vim.cmd("redraw!")
  local pos = vim.fn.win_screenpos(win)
  local width = vim.api.nvim_win_get_width(win)
  local rows = {}
  for r = 0, n - 1 do
    local s = ""
    for c = 0, width - 1 do
      s = s .. vim.fn.screenstring(pos[1] + r, pos[2] + c)
    end
    table.insert(rows, (s:gsub("%s+$", "")))
  end
  return rows
end

local n = 0
local function fresh(opts)
  n = n + 1
  local name = "t" .. n
  tagd.open(name, opts)
  wait(function()
    local s = state(name)
    return s and s.display and not s.display.provisional
  end, "field open", 4000, describe(name))
  return name, state(name).buf
end

local function close(name)
  tagd.close(name)
end

-- ---------------------------------------------------------------------------------------------
test("rpc framing: Content-Length counts bytes; partial frames wait for the rest", function()
  local rpc = require("tagd.rpc")
  local body = '{"a":"é😀"}' -- 14 bytes, 10 characters
  local bodies, rest = rpc.frames("Content-Length: 14\r\n\r\n" .. body .. "Content-Length: 2\r\n\r\n{")
  eq({ { body }, "Content-Length: 2\r\n\r\n{" }, { bodies, rest }, "one whole frame, the next kept")
  bodies, rest = rpc.frames(rest .. "}content-length:2\r\n\r\n[]")
  eq({ { "{}", "[]" }, "" }, { bodies, rest }, "completed, and a lower-case header")
  bodies, rest = rpc.frames("Content-Len")
  eq({ {}, "Content-Len" }, { bodies, rest }, "a header cut short")
end)

H.test12("documents", "front matter: a buffer that is not Markdown and has none is refused with a message", function()
  vim.cmd("enew")
  vim.bo.filetype = "lua"
  vim.api.nvim_buf_set_lines(0, 0, -1, false, { "local x = 1" })
  notes = {}
  require("tagd.frontmatter").bind(0)
  wait(function()
    return #notes > 0
  end, "a message")
  H.truthy(notes[1].msg:find("no tags in this buffer, and it is not Markdown", 1, true),
    "message: " .. vim.inspect(notes))
  eq(1, #notes, "one message")
  eq({}, vim.tbl_filter(function(name)
    return name:find("^frontmatter:")
  end, tagd.fields()), "no front matter field")
  vim.cmd("bwipeout!")
end)

test("tagd is found, starts, and negotiates utf-8", function()
  local name = fresh()
  local st = tagd.status()
  H.truthy(st.cmd, "cmd")
  H.truthy(st.running, "running")
  eq("utf-8", st.encoding, "positionEncoding")
  eq("tagd", st.server.name, "serverInfo.name")
  H.out("     tagd: " .. table.concat(st.cmd, " ") .. ", language: " .. tostring(st.language))
  close(name)
end)

test("slow typing: a separator commits, Return submits", function()
  local name = fresh()
  feed("ired,")
  settled(name, { "red" }, "")
  feed("igreen")
  settled(name, { "red" }, "green")
  feed("a<CR>")
  settled(name, { "red", "green" }, "")
  close(name)
end)

test("the buffer's changes go to tagd as its whole text (tagd diffs; the plugin has no diff of its own)", function()
  local from = #sent
  local name = fresh()
  feed("ia,bé<BS>c<Esc>")
  settled(name, { "a" }, "bc")
  local typed = 0
  for i = from + 1, #sent do
    local msg = vim.json.decode(sent[i])
    if msg.method == "field/didChange" and msg.params.field == name and msg.params.applied == nil then
      typed = typed + 1
      for _, c in ipairs(msg.params.contentChanges) do
        eq(nil, c.range, "a range in " .. sent[i])
        H.truthy(type(c.text) == "string", "the text in " .. sent[i])
      end
    end
  end
  H.truthy(typed > 0, "changes were sent")
  eq(nil, text.diff, "no diff code left in tagd.text")
  close(name)
end)

test("burst: 'red, green,blue<CR>' typed before tagd can answer", function()
  local name = fresh()
  feed("ired, green,blue<CR>")
  settled(name, { "red", "green", "blue" }, "")
  close(name)
end)

test("bursts interleaved with updates landing between them", function()
  local name = fresh()
  feed("ione,two")
  vim.wait(15) -- the update for "one," lands while "two" is in the buffer
  feed("a,three,fo")
  vim.wait(1)
  feed("aur")
  settled(name, { "one", "two", "three" }, "four")
  close(name)
end)

test("burst with Backspace over committed text equals slow typing", function()
  local name = fresh()
  -- slow: red, -> [red] ""; gr; BS BS -> ""; BS on empty -> removes red
  feed("ired,gr<BS><BS><BS>")
  settled(name, {}, "")
  feed("iblue,red,<BS>x")
  settled(name, { "blue" }, "x")
  close(name)
end)

test("Backspace on an empty buffer removes the last tag; otherwise edits text", function()
  local name = fresh({ tags = { "a", "b", "c" } })
  settled(name, { "a", "b", "c" }, "")
  feed("i<BS>")
  settled(name, { "a", "b" }, "")
  feed("ixy<BS>")
  settled(name, { "a", "b" }, "x")
  close(name)
end)

test("duplicates are dropped (caseless) and reported", function()
  local name = fresh()
  feed("ired,RED,Red<CR>")
  settled(name, { "red" }, "")
  local dropped = state(name).dropped
  eq({ "RED", "duplicate", 0 }, { dropped[1].text, dropped[1].reason, dropped[1].duplicateOf }, "first drop")
  eq({ "Red", "duplicate", 0 }, { dropped[2].text, dropped[2].reason, dropped[2].duplicateOf }, "second drop")
  eq(2, #dropped, "each drop reported once (the update and the response of <CR> carry the same outcome)")
  close(name)
end)

test("a burst of 200 keys (40 tags) arrives intact", function()
  local name = fresh()
  local keys, want = "i", {}
  for i = 1, 40 do
    keys = keys .. "tag" .. i .. ","
    table.insert(want, "tag" .. i)
  end
  feed(keys .. "end")
  settled(name, want, "end")
  close(name)
end)

test("chips render at tagd's positions and are on screen", function()
  local name, buf = fresh({ tags = { "red", "green", "blue" } })
  settled(name, { "red", "green", "blue" }, "")
  local d = state(name).display
  eq({ 0, 8, 18 }, { d.rows[1].chips[1].x, d.rows[1].chips[2].x, d.rows[1].chips[3].x }, "chip x from frames")
  local win = vim.fn.bufwinid(buf)
  if inline then -- one row: the chips, then the prompt where the draft goes
    eq({ "[red ×] [green ×] [blue ×] Add a tag" }, screen(win, 1), "screen")
    eq(1, vim.api.nvim_win_get_height(win), "window height")
  else -- the chips on a virtual line above the draft's own row
    eq({ "[red ×] [green ×] [blue ×]", "Add a tag" }, screen(win, 2), "screen")
    eq(2, vim.api.nvim_win_get_height(win), "window height")
  end
  feed("ipurple")
  settled(name, { "red", "green", "blue" }, "purple")
  eq(inline and { "[red ×] [green ×] [blue ×] purple" } or { "[red ×] [green ×] [blue ×]", "purple" },
    screen(win, inline and 1 or 2), "screen after typing")
  close(name)
end)

test("selection is tagd's: <Left> at the draft's start selects (field/select), <BS> and <Del> remove it", function()
  local name = fresh({ tags = { "a", "b", "c", "d" } })
  settled(name, { "a", "b", "c", "d" }, "")
  feed("<Left><Left>") -- Normal mode, column 0: d, then c
  wait(function()
    return state(name).selected == 3
  end, "c selected")
  local got
  tagd.request("field/state", { field = name }, function(_, res)
    got = res
  end)
  wait(function()
    return got
  end, "field/state")
  eq(2, got.selected, "tagd's selected (0-based)")
  feed("<BS>")
  settled(name, { "a", "b", "d" }, "")
  eq(nil, state(name).selected, "nothing selected after the removal")
  feed("ixy<Left><Left><Left>") -- Insert mode: to the draft's start, then the last chip
  wait(function()
    return state(name).selected == 3
  end, "d selected from Insert mode")
  feed("<Left><Del>")
  settled(name, { "a", "d" }, "xy")
  feed("0<Left><Left><Right>") -- Normal mode: d, a, then d again; past the last: the draft
  wait(function()
    return state(name).selected == 2
  end, "d selected again with <Right>")
  feed("<Right>")
  wait(function()
    return state(name).selected == nil
  end, "back to the draft")
  close(name)
end)

test("Lua API: add, remove, tags and the TagdTagsChanged event", function()
  local name = fresh()
  local seen = {}
  local id = vim.api.nvim_create_autocmd("User", {
    pattern = "TagdTagsChanged",
    callback = function(a)
      table.insert(seen, a.data or vim.g.tagd_event)
    end,
  })
  tagd.add(name, { " x ", "y", "X" })
  settled(name, { "x", "y" }, "")
  eq({ "X" }, vim.tbl_map(function(d)
    return d.text
  end, state(name).dropped), "the drop, reported once")
  local answered = false
  tagd.add(name, { "x" }, function() -- changes nothing: no didUpdate, only the answer says so
    answered = true
  end)
  wait(function()
    return answered
  end, "the addTags answer")
  eq({ "X", "x" }, vim.tbl_map(function(d)
    return d.text
  end, state(name).dropped), "a drop only the answer reports")
  tagd.remove(name, "Y")
  settled(name, { "x" }, "")
  eq({ field = name, tags = { "x" } }, seen[#seen], "event data")
  eq({ "x" }, vim.b[state(name).buf].tagd_tags, "b:tagd_tags")
  vim.api.nvim_del_autocmd(id)
  close(name)
end)

test("a killed tagd is restarted with the tags and the draft", function()
  local name = fresh()
  feed("ikeep,these,draft")
  settled(name, { "keep", "these" }, "draft")
  local old = tagd.status().pid
  H.truthy(old, "tagd's pid")
  uv.kill(old, 9)
  wait(function()
    local st = tagd.status()
    return st.running and st.pid ~= old and state(name).display and not state(name).display.provisional
  end, "restart")
  settled(name, { "keep", "these" }, "draft")
  feed("A<CR>")
  settled(name, { "keep", "these", "draft" }, "")
  close(name)
end)

test("restart while committed text is still in the buffer adds nothing twice", function()
  local name = fresh()
  feed("ione,two")
  local old = tagd.status().pid
  uv.kill(old, 9) -- before any update could be applied
  wait(function()
    return tagd.status().running and tagd.status().pid ~= old
  end, "restart")
  settled(name, { "one" }, "two")
  close(name)
end)

test("real user input: nvim_input into an embedded Neovim while updates arrive", function()
  -- Keys go through the child's input queue and main loop, interleaved with tagd's messages,
  -- exactly as typed keys do.
  local child = { vim.v.progpath, "--embed", "--headless", "--clean", "-u", "NONE", "-i", "NONE" }
  local chan = vim.fn.jobstart(child, { rpc = true })
  H.truthy(chan > 0, "child nvim")
  local function exec(code)
    return vim.rpcrequest(chan, "nvim_exec_lua", code, {})
  end
  exec(string.format([[vim.opt.runtimepath:prepend(%q); vim.cmd("runtime plugin/tagd.lua")
    require("tagd").setup({ cmd = %q }); require("tagd").open("live", { insert = true })]], root, os.getenv("TAGD")))
  -- slow typing would give: red, green, blue; "xy"; two Backspaces; Backspace on empty removes blue
  for _, chunk in ipairs({ "red,", " green", ",blue", "<CR>", "x", "y<BS><BS>", "<BS>", "purple,pink", "<BS><BS>" }) do
    vim.rpcrequest(chan, "nvim_input", chunk)
  end
  local got
  local ok = vim.wait(4000, function()
    got = exec([[local s = require("tagd").state("live"); return { s.tags, s.text }]])
    return vim.deep_equal(got, { { "red", "green", "purple" }, "pi" })
  end, 20)
  vim.fn.jobstop(chan)
  H.truthy(ok, "child state " .. vim.inspect(got))
end)

test(":checkhealth tagd reports the binary, its version and the running daemon", function()
  local name = fresh()
  vim.cmd("checkhealth tagd")
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  vim.cmd("bwipeout!")
  H.truthy(report:find("tagd found"), "found line in:\n" .. report)
  H.truthy(report:find("tagd %-%-version: tagd"), "version line in:\n" .. report)
  H.truthy(report:find("tagd is running"), "running line in:\n" .. report)
  H.truthy(report:find(":help |?tagd"), "a pointer to :help tagd in:\n" .. report)
  close(name)
end)

test("without cmd: tagd on $PATH, else the repository's .build/{debug,release}/tagd", function()
  local config = require("tagd.config")
  local repo = vim.fn.fnamemodify(root, ":h:h")
  local saved, saved_tagd = vim.env.PATH, TAGD
  vim.env.PATH, vim.env.TAGD = "/nonexistent", nil
  local cmd, searched = config.find({ args = {} })
  vim.env.PATH = saved
  local built = vim.tbl_filter(function(p)
    return vim.fn.executable(p) == 1
  end, { repo .. "/.build/debug/tagd", repo .. "/.build/release/tagd" })
  if #built > 0 then -- CI: .ci/run built .build/debug/tagd
    H.truthy(cmd and vim.tbl_contains(built, cmd[1]), "found in .build: " .. vim.inspect(cmd))
  else
    eq(nil, cmd, "nothing found")
    eq({ "$TAGD (not set)", "tagd on $PATH", repo .. "/.build/debug/tagd", repo .. "/.build/release/tagd" }, searched,
      "searched")
  end
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, "p")
  uv.fs_symlink(TAGD, dir .. "/tagd")
  vim.env.PATH = dir .. ":" .. saved
  cmd = config.find({ args = { "--log=error" } })
  vim.env.PATH = saved
  eq({ dir .. "/tagd", "--log=error" }, cmd, "tagd on $PATH, with args")
  vim.env.TAGD = saved_tagd
  vim.env.PATH = dir .. ":" .. saved
  cmd = config.find({ args = {} })
  eq({ saved_tagd }, cmd, "$TAGD before $PATH")
  cmd = config.find({ cmd = dir .. "/tagd", args = {} })
  eq({ dir .. "/tagd" }, cmd, "the cmd option before $TAGD")
  vim.env.PATH = saved
  vim.fn.delete(dir, "rf")
end)

test("the user's locale: the option, else v:lang, else $LC_ALL, $LC_MESSAGES, $LANG (C and POSIX skipped)", function()
  local config = require("tagd.config")
  eq("es", config.locale({ locale = "es" }), "the option")
  local lang = vim.v.lang
  if lang == "" or lang == "C" or lang == "POSIX" or lang:match("^C%.") then
    vim.env.LC_ALL, vim.env.LC_MESSAGES, vim.env.LANG = nil, nil, "fr_FR.UTF-8"
    eq("fr_FR.UTF-8", config.locale({}), "$LANG after unset variables")
    vim.env.LC_MESSAGES = "de_CH.UTF-8"
    eq("de_CH.UTF-8", config.locale({}), "$LC_MESSAGES before $LANG")
    vim.env.LANG, vim.env.LC_MESSAGES = "C.UTF-8", nil
    eq(nil, config.locale({}), "C.UTF-8 is no language")
  else
    eq(lang, config.locale({}), "v:lang")
  end
end)

test("a missing tagd: the field opens and says why", function()
  tagd.stop()
  wait(function()
    return not tagd.status().running
  end, "stop")
  tagd.setup({ cmd = "/nonexistent/tagd" })
  notes = {}
  local buf = tagd.open("missing", { window = "none" })
  eq({}, notes, "no vim.notify (whose long message would raise a hit-enter prompt)")
  eq({ "missing" }, tagd.fields(), "the field is open, for the keys typed next")
  eq(false, state("missing").on_server, "not on tagd")
  local shown = require("tagd.notice").get(buf)
  H.truthy(shown and shown.text:find("the cmd option /nonexistent/tagd is not an executable", 1, true),
    "the reason in the field: " .. vim.inspect(shown))
  eq(nil, tagd.status().cmd, "cmd")
  close("missing")
  tagd.setup({ cmd = os.getenv("TAGD") })
end)

local vocabulary = { suggestions = { "neovim", "network", "lua", "New York" } }

test("nvim-cmp source (its documented source API): registered once nvim-cmp is loaded; tagd's order", function()
  eq(nil, package.loaded["tagd.cmp"], "tagd.cmp not loaded without nvim-cmp")
  local registered, buffer_cfg = {}, nil
  package.loaded["cmp"] = { -- nvim-cmp's documented entry points: register_source, setup.buffer
    register_source = function(source_name, src)
      registered[source_name] = src
    end,
    setup = { buffer = function(cfg)
      buffer_cfg = cfg
    end },
  }
  local ok, err = pcall(function()
    local name, buf = fresh({ options = vocabulary })
    local src = registered.tagd
    H.truthy(src, "registered as tagd")
    eq({ sources = { { name = "tagd" } } }, buffer_cfg, "the field buffer uses it")
    eq(true, src:is_available(), "available in a field buffer")
    eq("tagd", src:get_debug_name(), "name")
    feed("ine")
    settled(name, {}, "ne")
    local got
    src:complete({ context = { bufnr = buf, cursor_before_line = "ne" } }, function(r)
      got = r
    end)
    wait(function()
      return got
    end, "the answer")
    eq({ "neovim", "network", "New York" }, vim.tbl_map(function(i)
      return i.label
    end, got.items), "labels")
    eq({ "00001", "00002", "00003" }, vim.tbl_map(function(i)
      return i.sortText
    end, got.items), "tagd's order kept")
    eq({ "ne", "ne", "ne" }, vim.tbl_map(function(i)
      return i.filterText
    end, got.items), "none filtered out again")
    eq(true, got.isIncomplete, "asked again for the next letter")
    close(name)
  end)
  package.loaded["cmp"] = nil
  assert(ok, err)
end)

test("blink.cmp source (its documented source API): tagd's suggestions replace the whole draft", function()
  local name, buf = fresh({ options = vocabulary })
  feed("iNew y")
  settled(name, {}, "New y")
  local src = require("tagd.blink").new({})
  eq(true, src:enabled(), "enabled in a field buffer")
  local got
  local cancel = src:get_completions({ bufnr = buf, line = "New y", cursor = { 1, 5 } }, function(r)
    got = r
  end)
  eq("function", type(cancel), "returns a cancel function")
  wait(function()
    return got
  end, "the answer")
  eq({ "New York" }, vim.tbl_map(function(i)
    return i.label
  end, got.items), "labels")
  eq({ newText = "New York", range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 5 } } },
    got.items[1].textEdit, "the edit")
  eq(true, got.is_incomplete_forward, "asked again")
  vim.cmd("enew")
  eq(false, src:enabled(), "not in other buffers")
  close(name)
end)

local T = dofile(here .. "/term.lua")
if T.available() then
  dofile(here .. "/term_tests.lua")(H, T)
  dofile(here .. "/install_tests.lua")(H, T)
else
  test("terminal tests", function()
    error("tmux not found (Debian: apt-get install -y tmux)")
  end)
end

test("every message the plugin sent is valid under Protocol/schemas/tagd.schema.json", function()
  local repo = vim.fn.fnamemodify(root, ":h:h")
  local schema = vim.json.decode(table.concat(vim.fn.readfile(repo .. "/Protocol/schemas/tagd.schema.json"), "\n"))
  local S = dofile(here .. "/schema.lua")
  -- the checker can fail: an unknown member and a wrong type are caught
  local bad = S.check_message(schema, vim.json.decode('{"jsonrpc":"2.0","id":1,"method":"field/open",'
    .. '"params":{"field":"x","tags":"a","bogus":1}}'))
  eq(2, #bad, "errors in a bad field/open: " .. vim.inspect(bad))
  local methods, errors = {}, {}
  if vim.fn.filereadable(T.sent_file) == 1 then -- and what the Neovims in tmux sent
    vim.list_extend(sent, vim.fn.readfile(T.sent_file))
    vim.fn.delete(T.sent_file)
  end
  for _, json in ipairs(sent) do
    local msg = vim.json.decode(json)
    methods[msg.method] = (methods[msg.method] or 0) + 1
    for _, e in ipairs(S.check_message(schema, msg)) do
      if #errors < 10 then
        table.insert(errors, e .. "  in " .. json:sub(1, 300))
      end
    end
  end
  eq({}, errors, "schema errors")
  local names = vim.tbl_keys(methods)
  table.sort(names)
  H.out(string.format("     %d messages checked: %s", #sent, table.concat(vim.tbl_map(function(m)
    return m .. " " .. methods[m]
  end, names), ", ")))
  for _, m in ipairs({ "initialize", "initialized", "field/open", "field/didChange", "field/layout", "field/submit",
    "field/deleteBackward", "field/addTags", "field/removeTag", "field/state", "field/close", "field/select",
    "field/suggest", "field/editTag", "field/moveTag", "field/undo", "field/redo",
    H.has.documents and "document/tags" or "exit", H.has.documents and "document/setTags" or "exit", "shutdown",
    H.has.vault and "vault/tags" or "exit", H.has.vault and "vault/rename" or "exit",
    H.has.vault and "textDocument/didOpen" or "exit", "exit" }) do
    H.truthy(methods[m], m .. " was sent and checked")
  end
end)

H.summary()
tagd.stop()
vim.cmd(H.failed == 0 and "qall!" or "cquit 1")
