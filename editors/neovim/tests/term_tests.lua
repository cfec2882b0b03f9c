-- Tests in a real terminal (tmux): what a user types and what the screen shows.
return function(H, T)
  local test, eq = H.test, H.eq
  local inline = vim.fn.has("nvim-0.10") == 1

  -- The line of the screen that starts with `prefix`, or nil.
  local function line_starting(term, prefix)
    for i, l in ipairs(term:lines()) do
      if l:sub(1, #prefix) == prefix then
        return l, i
      end
    end
  end

  -- The tagd process under the terminal's Neovim (from 0.10 the TUI and the editor are two
  -- processes, so tagd is a grandchild of the pane's process).
  local function tagd_pid(term)
    local queue = { term:pid() }
    while #queue > 0 do
      local pid = table.remove(queue, 1)
      for _, kid in ipairs(T.children(pid)) do
        local f = io.open("/proc/" .. kid .. "/comm")
        local comm = f and f:read("*l")
        if f then
          f:close()
        end
        if comm == "tagd" then
          return kid
        end
        table.insert(queue, kid)
      end
    end
  end

  test("terminal: :TagdRestart while tagd runs leaves a working daemon (bug 1)", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("a,b,")
      term:wait_for("[a ×] [b ×]")
      term:escape()
      local before = tagd_pid(term)
      H.truthy(before, "tagd runs")
      term:cmd("TagdRestart")
      term:wait(function()
        local now = tagd_pid(term)
        return now and now ~= before
      end, "a new tagd process")
      term:keys("A")
      term:wait_for("-- INSERT --")
      term:type("c,")
      term:wait_for("[a ×] [b ×] [c ×]")
      H.truthy(not line_starting(term, "c,"), "no 'c,' left as text:\n" .. term:screen())
    end)
  end)

  test("terminal: reopening a field window shows its chips at once (bug 2)", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("a,b,")
      term:wait_for("[a ×] [b ×]")
      term:escape()
      term:cmd("q")
      term:wait(function(s)
        return not s:find("[a ×]", 1, true)
      end, "the field window to close")
      term:cmd("TagField")
      term:wait_for("-- INSERT --")
      term:wait_for("[a ×] [b ×]")
    end)
  end)

  test("terminal: a multi-line bracketed paste into an empty field shows the chips (bug 3)", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:wait_for("-- INSERT --")
      term:paste("x1\nx2\nx3\n")
      term:wait_for("[x1 ×] [x2 ×] [x3 ×]")
      local l, row = line_starting(term, "[x1 ×]")
      eq("[x1 ×] [x2 ×] [x3 ×]" .. (inline and " Add a tag" or ""), l, "chip row")
      if not inline then
        eq("Add a tag", term:lines()[row + 1], "the draft row below the chips")
      end
    end)
  end)

  test("terminal: after tagd is killed, every chip row is back on screen (bug 4)", function()
    T.with({}, function(term)
      local tags, rows = {}, {}
      for i = 1, 28 do
        tags[i] = string.format("tag%02d", i)
      end
      for r = 0, 3 do -- 8 chips of 9 cells + 1 space per 80-cell row
        local chips = {}
        for i = r * 8 + 1, math.min(28, r * 8 + 8) do
          table.insert(chips, "[" .. tags[i] .. " ×]")
        end
        rows[r + 1] = table.concat(chips, " ")
      end
      term:cmd("TagField")
      term:type(table.concat(tags, ",") .. ",")
      local function all_rows(s)
        local at = 1
        for _, r in ipairs(rows) do
          local found = s:find("\n" .. r, at, true)
          if not found then
            return false
          end
          at = found + 1
        end
        return true
      end
      term:wait(all_rows, "4 chip rows")
      local pid = tagd_pid(term)
      H.truthy(pid, "tagd runs")
      T.kill(pid, 9)
      term:wait(function()
        local now = tagd_pid(term)
        return now and now ~= pid
      end, "tagd restarted")
      term:wait(all_rows, "4 chip rows after the restart")
      -- and it still works
      term:type("more,")
      term:wait_for("[more ×]")
    end)
  end)

  -- The rows inside the first bordered float on the screen (trailing spaces removed).
  local function float_rows(term)
    local rows, inside = {}, false
    for _, l in ipairs(term:lines()) do
      if l:find("╭", 1, true) then
        inside = true
      elseif inside and l:find("╰", 1, true) then
        break
      elseif inside then
        local row = (l:match("│(.-)│") or ""):gsub("%s+$", "")
        table.insert(rows, row)
      end
    end
    return rows
  end

  test("terminal: chips wrap by display width: CJK 2 cells, combining marks 0, emoji 2", function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("w", { window = "float", width = 20,]]
        .. [[ tags = { "日本語", "cafe\u{301}", "😀" } })]])
      -- [日本語 ×] is 10 cells, [café ×] 8 (x 11, ends at 19), [😀 ×] 6 does not fit: next row.
      local want = inline and { "[日本語 ×] [cafe\u{301} ×]", "[😀 ×] Add a tag" }
        or { "[日本語 ×] [cafe\u{301} ×]", "[😀 ×]", "Add a tag" }
      term:wait(function()
        return vim.deep_equal(float_rows(term), want)
      end, "the float to show " .. vim.inspect(want))
    end)
  end)

  H.test12("languages", "terminal: a chip wider than the window is narrowed to it: tagd's label, the tag cut with …",
    function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("w", { window = "float", width = 20, tags = { string.rep("x", 30) } })]])
      -- No room beside the chip for the draft's minimum width: the draft gets the next row.
      -- 20 cells: "[" (1) + 15 x + "…" (1) + " ×]" (3).
      local want = { "[" .. string.rep("x", 15) .. "… ×]", "Add a tag" }
      term:wait(function()
        return vim.deep_equal(float_rows(term), want)
      end, "the float to show " .. vim.inspect(want))
    end)
  end)

  test("terminal: a dropped duplicate flashes the existing chip and tagd's announcement is shown", function()
    T.with({ setup = "{ flash_ms = 2500 }" }, function(term)
      term:cmd("TagField")
      term:type("red,blue,")
      term:wait_for("[red ×] [blue ×]")
      local normal = term:attr_of("[blue ×]")
      eq(normal, term:attr_of("[red ×]"), "both chips drawn alike")
      term:type("RED,")
      term:wait(function()
        return term:attr_of("[red ×]") ~= normal
      end, "the red chip to flash")
      eq(normal, term:attr_of("[blue ×]"), "the other chip does not flash")
      term:wait_said("RED is already a tag")
      term:wait(function()
        return term:attr_of("[red ×]") == normal
      end, "the flash to end")
      local l = line_starting(term, "[red ×]")
      eq("[red ×] [blue ×]" .. (inline and " Add a tag" or ""), l, "still two chips")
    end)
  end)

  test("terminal: the crash notice is on screen, not only in :messages", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("one,two,")
      term:wait_for("[one ×] [two ×]")
      local pid = tagd_pid(term)
      T.kill(pid, 9)
      term:wait_for("tagd stopped (signal 9); restarted, tags restored")
      term:type("three,")
      term:wait_for("[one ×] [two ×] [three ×]")
    end)
  end)

  test("terminal: :TagFieldClose prints the tags it closes", function()
    T.with({}, function(term)
      term:cmd("TagField topics")
      term:type("vim,lua,")
      term:wait_for("[vim ×] [lua ×]")
      term:escape()
      term:cmd("TagFieldClose")
      term:wait_for("tagd: closed topics: vim, lua")
      H.truthy(not term:screen():find("[vim ×]", 1, true), "the field window is gone")
    end)
  end)

  test("terminal: field names complete on the command line; :TagdInfo shows the daemon", function()
    T.with({}, function(term)
      term:cmd("TagField topics")
      term:type("x,")
      term:wait_for("[x ×]")
      term:escape()
      term:cmd("TagField notes")
      term:wait_for("-- INSERT --")
      term:escape()
      term:type(":TagFieldTags to")
      term:keys("Tab")
      term:wait_for(":TagFieldTags topics")
      term:keys("Enter")
      term:wait(function(s)
        return s:match("\nx\n?$") ~= nil or s:match("\nx$") ~= nil
      end, "the tags printed")
      term:type(":TagFieldClose ")
      term:keys("Tab")
      term:wait_for(":TagFieldClose notes")
      term:keys("Escape")
      term:cmd("TagdInfo")
      local pid = tagd_pid(term)
      term:wait_for("tagd.nvim " .. require("tagd").version .. " on Neovim ")
      term:wait_for("daemon:    running, pid " .. pid)
      term:wait_for("topics: 1 tag [x]")
      term:wait_for("notes: 0 tags")
      term:keys("q")
      term:wait(function(s)
        return not s:find("daemon:", 1, true)
      end, "q to close the info window")
    end)
  end)

  test("terminal: :help tagd opens the plugin's help", function()
    T.with({ lua = 'vim.cmd("helptags " .. vim.fn.fnameescape(' .. string.format("%q", T.root .. "/doc") .. "))" },
      function(term)
        term:cmd("help tagd")
        term:wait_for("tagd.txt [Help]")
        term:wait_for("tagd.nvim turns a small buffer into a tag input")
        term:cmd("help :TagFieldFrontMatter")
        term:wait(function(s)
          return s:find("^:TagFieldFrontMatter%s+:TagFieldFrontMatter") or s:find("\n:TagFieldFrontMatter%s+:TagF")
        end, "the :TagFieldFrontMatter entry")
      end)
  end)

  local function md_file(lines)
    local path = vim.fn.tempname() .. ".md"
    vim.fn.writefile(lines, path)
    return path
  end

  H.test12("documents", "terminal: :TagFieldFrontMatter edits a flow list and writes every change back", function()
    local path = md_file({ "---", "title: Post", "tags: [draft, vim]", "---", "", "Body." })
    T.with({ file = path }, function(term)
      term:wait_for("tags: [draft, vim]")
      term:cmd("TagFieldFrontMatter")
      term:wait_for("[draft ×] [vim ×]")
      term:type("a: b,")
      term:wait(function(scr) -- quoted, as YAML needs (in tagd's choice of quotes)
        return scr:find("\ntags: %[draft, vim, (['\"])a: b%1%]\n") ~= nil
      end, "the new tag quoted in the front matter")
      term:keys("BSpace")
      term:wait_for("tags: [draft, vim]")
      term:type("lua,")
      term:wait_for("tags: [draft, vim, lua]")
      term:escape()
      term:cmd("wall")
      term:wait(function()
        return vim.fn.readfile(path)[3] == "tags: [draft, vim, lua]"
      end, "the file to be saved")
      eq({ "---", "title: Post", "tags: [draft, vim, lua]", "---", "", "Body." }, vim.fn.readfile(path), "file")
    end)
    vim.fn.delete(path)
  end)

  H.test12("documents", "terminal: :TagFieldFrontMatter keeps a block list a block list", function()
    local path = md_file({ "---", "tags:", "  - one", "  - 'two'", "date: 2026-12-01", "---", "Text." })
    T.with({ file = path }, function(term)
      term:cmd("TagFieldFrontMatter")
      term:wait_for("[one ×] [two ×]")
      term:type("three,")
      term:wait_for("  - three")
      local lines = term:lines()
      local at
      for i, l in ipairs(lines) do
        if l == "tags:" then
          at = i
        end
      end
      H.truthy(at, "a tags: line on screen:\n" .. term:screen())
      eq({ "tags:", "  - one", "  - 'two'", "  - three", "date: 2026-12-01", "---" },
        vim.list_slice(lines, at, at + 5), "front matter on screen (the file's own spelling kept)")
    end)
    vim.fn.delete(path)
  end)

  test("terminal: leaving the field window is field/blur: with commitOnBlur the draft becomes a tag", function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("b", { insert = true, options = { commitOnBlur = true } })]])
      term:wait_for("-- INSERT --")
      term:type("one,draft")
      term:wait_for("[one ×]")
      term:escape()
      term:keys("C-w", "k")
      term:wait_for("[one ×] [draft ×]")
    end)
  end)

  -- What PyYAML (Debian's /usr/bin/python3) reads as the `tags` of a file's front matter.
  local function yaml_tags(path)
    local py = [[import sys, json, yaml
t = open(sys.argv[1]).read().split("---\n")[1]
print(json.dumps(yaml.safe_load(t)["tags"]))]]
    local out = vim.fn.system({ "/usr/bin/python3", "-c", py, path })
    return vim.v.shell_error == 0 and vim.json.decode(out) or out
  end

  H.test12("documents",
    "terminal: :TagFieldFrontMatter reads a flow list over two lines as YAML does, and writes YAML back",
    function()
      local path = md_file({ "---", "tags: [a,", "  b]", "title: x", "---", "Body." })
      T.with({ file = path }, function(term)
        term:cmd("TagFieldFrontMatter")
        term:wait_for("[a ×] [b ×]")
        term:type("c: d,")
        term:wait_for("[a ×] [b ×] [c: d ×]")
        term:escape()
        term:cmd("wall")
        term:wait(function()
          return vim.deep_equal(yaml_tags(path), { "a", "b", "c: d" })
        end, "the saved file to read back as [a, b, 'c: d']")
        eq("Body.", vim.fn.readfile(path)[#vim.fn.readfile(path)], "the body untouched")
      end)
      vim.fn.delete(path)
    end)

  H.test12("documents", "terminal: :TagFieldFrontMatter on Markdown without front matter: tagd's edits add one",
    function()
      local path = md_file({ "Just text." })
      T.with({ file = path }, function(term)
        term:cmd("TagFieldFrontMatter")
        term:wait_for("-- INSERT --")
        term:type("new,")
        term:wait_for("[new ×]")
        term:escape()
        term:cmd("wall")
        term:wait(function()
          return vim.deep_equal(yaml_tags(path), { "new" })
        end, "front matter with the tag")
        local lines = vim.fn.readfile(path)
        eq({ "---", "Just text." }, { lines[1], lines[#lines] }, "at the top, the text kept")
      end)
      vim.fn.delete(path)
    end)

  local function org_file(lines)
    local path = vim.fn.tempname() .. ".org"
    vim.fn.writefile(lines, path)
    return path
  end

  H.test12("documents", "terminal: :TagFieldFrontMatter in an Org file edits #+FILETAGS: (created, never YAML); "
    .. "a tag Org cannot hold is refused while typing, in tagd's words", function()
    local path = org_file({ "#+TITLE: Trip", "", "* Lisbon", "Text." })
    T.with({ file = path }, function(term)
      term:wait_for("#+TITLE: Trip")
      term:cmd("TagFieldFrontMatter")
      term:wait_for("-- INSERT --")
      term:type("travel,x-y,food,")
      term:wait_for("[travel ×] [food ×]")
      term:wait_said("x-y")
      H.truthy(not term:screen():find("[x-y ×]", 1, true), "no x-y chip:\n" .. term:screen())
      term:wait_for("#+FILETAGS: :travel:food:")
      term:escape()
      term:cmd("wall")
      term:wait(function()
        return vim.fn.readfile(path)[2] == "#+FILETAGS: :travel:food:"
      end, "the file to be saved")
      eq({ "#+TITLE: Trip", "#+FILETAGS: :travel:food:", "", "* Lisbon", "Text." }, vim.fn.readfile(path),
        "the file: #+FILETAGS: after the keyword lines, no front matter")
    end)
    vim.fn.delete(path)
  end)

  H.test12("documents", "terminal: :TagFieldOrgHeading edits the tags of the Org heading at the cursor", function()
    local path = org_file({ "#+FILETAGS: :trip:", "* Lisbon :food:", "Text.", "* Porto", "More." })
    T.with({ file = path }, function(term)
      term:wait_for("* Porto")
      term:type("5G")
      term:cmd("TagFieldOrgHeading")
      term:wait_for("-- INSERT --")
      term:type("wine,x-y,port ")
      term:wait_for("[wine ×] [port ×]")
      term:wait_said("x-y")
      term:escape()
      term:keys("C-w", "k")
      term:type("ggOnew first line")
      term:keys("Escape")
      term:type("3G") -- a line went above the headings: Lisbon is line 3 now
      term:cmd("TagFieldOrgHeading")
      term:wait_for("[food ×]")
      term:type("fish,")
      term:wait_for("[food ×] [fish ×]")
      term:escape()
      term:keys("C-w", "k") -- Porto's field, followed to its heading's new line
      term:keys("A")
      term:type("cheap,")
      term:wait_for("[wine ×] [port ×] [cheap ×]")
      term:escape()
      term:cmd("wall")
      local lines
      term:wait(function()
        lines = vim.fn.readfile(path)
        return lines[5] and lines[5]:find(":wine:port:cheap:$") and lines[3]:find(":food:fish:$")
      end, "the file to be saved")
      eq({ "new first line", "#+FILETAGS: :trip:" }, { lines[1], lines[2] }, "the file's tags untouched")
      H.truthy(lines[3]:match("^%* Lisbon +:food:fish:$"), "Lisbon's tags: " .. lines[3])
      H.truthy(lines[5]:match("^%* Porto +:wine:port:cheap:$"), "Porto's tags: " .. lines[5])
      eq({ "Text.", "More." }, { lines[4], lines[6] }, "the text untouched")
    end)
    vim.fn.delete(path)
  end)

  H.test12("documents", "terminal: a document write that fails is said on screen and leaves no chip the note lacks",
    function()
      local path = md_file({ "---", "tags: [a, b]", "---", "Body." })
      T.with({ file = path }, function(term)
        term:cmd("TagFieldFrontMatter")
        term:wait_for("[a ×] [b ×]")
        term:escape()
        term:keys("C-w", "k")
        term:type("2G$x") -- the front matter broken by hand: `[` never closed
        term:wait_for("tags: [a, b\n")
        term:keys("C-w", "j")
        term:keys("A")
        term:wait_for("-- INSERT --")
        term:type("c,")
        term:wait(function(scr)
          return scr:find("is never closed by", 1, true) and scr:find("[a ×] [b ×]", 1, true)
            and not scr:find("[c ×]", 1, true)
        end, "tagd's message on screen and no c chip")
        vim.wait(300)
        H.truthy(not term:screen():find("[c ×]", 1, true), "still no c chip:\n" .. term:screen())
      end)
      vim.fn.delete(path)
    end)

  H.test12("documents", "terminal: a hand edit of the note's tags while the field is open is merged, never lost",
    function()
      local path = md_file({ "---", "tags: [a, b]", "---", "Body." })
      T.with({ file = path }, function(term)
        term:cmd("TagFieldFrontMatter")
        term:wait_for("[a ×] [b ×]")
        term:escape()
        term:keys("C-w", "k")
        term:type("2G0f[ldf f]i, c") -- by hand: a removed, c added
        term:keys("Escape")
        term:wait_for("tags: [b, c]")
        term:keys("C-w", "j")
        term:keys("A")
        term:wait_for("-- INSERT --")
        term:type("d,")
        -- c (merged when the field's window is entered) and d (typed at once) in either order
        local order
        term:wait(function(scr)
          for _, o in ipairs({ { "b", "c", "d" }, { "b", "d", "c" } }) do
            if scr:find(string.format("[%s ×] [%s ×] [%s ×]", unpack(o)), 1, true)
              and scr:find(string.format("tags: [%s, %s, %s]", unpack(o)), 1, true) then
              order = o
              return true
            end
          end
        end, "the chips and the note's tags: b, c and d")
        term:escape()
        term:cmd("wall")
        term:wait(function()
          return vim.fn.readfile(path)[2] == string.format("tags: [%s, %s, %s]", unpack(order))
        end, "the saved file to carry the hand edit and the field's tag")
      end)
      vim.fn.delete(path)
    end)

  H.test12("vault", "terminal: the vault: a note's field suggests the vault's tags; :TagdTags lists them; "
    .. ":TagdRename renames in the loaded buffers and in the files", function()
    local dir = vim.fn.tempname()
    vim.fn.mkdir(dir, "p")
    vim.fn.writefile({ "---", "tags: [travel, food]", "---", "A." }, dir .. "/a.md")
    vim.fn.writefile({ "---", "tags: [travel]", "---", "B." }, dir .. "/b.md")
    vim.fn.writefile({ "* Trip :travel:", "C." }, dir .. "/c.org")
    vim.fn.writefile({ "---", "title: New", "---", "Text." }, dir .. "/new.md")
    T.with({ file = dir .. "/new.md", setup = string.format("{ vaults = { %q } }", dir) }, function(term)
      term:wait_for("title: New")
      term:cmd("TagFieldFrontMatter")
      term:wait_for("-- INSERT --")
      term:type("tr")
      term:wait_for("\n travel") -- the vault's tag, suggested
      term:keys("Tab")
      term:wait_for("[travel ×]")
      term:escape()
      term:keys("C-w", "k")
      term:cmd("TagdTags")
      term:wait_for("3  travel")
      term:wait_for("1  food")
      term:keys("q")
      term:cmd("TagdRename travel trip")
      term:wait_for("renamed travel to trip in 4 notes")
      term:wait_for("  - trip") -- the loaded (unsaved) note's buffer
      eq({ "---", "tags: [trip, food]", "---", "A." }, vim.fn.readfile(dir .. "/a.md"), "a.md on disk")
      eq({ "---", "tags: [trip]", "---", "B." }, vim.fn.readfile(dir .. "/b.md"), "b.md on disk")
      H.truthy(vim.fn.readfile(dir .. "/c.org")[1]:match("^%* Trip +:trip:$"), "c.org on disk")
      eq({ "---", "title: New", "---", "Text." }, vim.fn.readfile(dir .. "/new.md"), "the loaded note not written")
      term:keys("C-w", "j") -- the field reads its note back: the chip is renamed too
      term:wait_for("[trip ×]")
    end)
    vim.fn.delete(dir, "rf")
  end)

  H.test12("vault", "terminal: setup({ lsp = true }): tagd is the language server of markdown buffers; it reads "
    .. "the text typed, not saved", function()
    local dir = vim.fn.tempname()
    vim.fn.mkdir(dir, "p")
    vim.fn.writefile({ "---", "tags: [travel]", "---", "A." }, dir .. "/a.md")
    T.with({ file = dir .. "/a.md", setup = string.format("{ lsp = true, vaults = { %q } }", dir) }, function(term)
      term:wait_for("tags: [travel]")
      term:type("2G$i, unsaved")
      term:keys("Escape")
      term:wait_for("tags: [travel, unsaved]")
      -- Ask the LSP client's tagd for the vault's tags (as the LSP features do).
      local ask = [[lua local get = vim.lsp.get_clients or vim.lsp.get_active_clients; for _, c in ipairs(get()) do ]]
        .. [[if c.name == "tagd" then local function h(_, r) print("lsp tags: " .. table.concat(vim.tbl_map(]]
        .. [[function(t) return t.tag end, r.tags), ",")) end; if vim.fn.has("nvim-0.11") == 1 then ]]
        .. [[c:request("vault/tags", {}, h, 0) else c.request("vault/tags", {}, h, 0) end end end]]
      local ok = false
      for _ = 1, 15 do -- the client starts, then sends changes after its debounce
        term:cmd(ask)
        ok = pcall(term.wait, term, function(scr)
          return scr:find("lsp tags: [^\n]*unsaved") ~= nil
        end, "unsaved among the tags", 1500)
        if ok then
          break
        end
      end
      H.truthy(ok, "tagd, as the buffer's language server, read the unsaved tag:\n" .. term:screen())
    end)
    vim.fn.delete(dir, "rf")
  end)

  H.test12("languages", "terminal: tagd speaks the user's language: initialize gets $LANG as locale", function()
    T.with({ env = { LANG = "de_DE.UTF-8", LC_ALL = false, LC_MESSAGES = false } }, function(term)
      term:cmd("TagField")
      term:type("rot,")
      term:wait_for("[rot ×]")
      local init
      for _, json in ipairs(vim.fn.readfile(T.sent_file)) do
        local msg = vim.json.decode(json)
        if msg.method == "initialize" then
          init = msg
        end
      end
      eq("de_DE.UTF-8", init and init.params.locale, "the locale sent")
      local language
      for _, json in ipairs(vim.fn.readfile(term.recv_file)) do
        local msg = vim.json.decode(json)
        if type(msg.result) == "table" and msg.result.serverInfo then
          language = msg.result.language
        end
      end
      eq("de", language, "the language tagd chose")
      local said = term:announcements()
      H.truthy(#said > 0 and not said[#said]:find("Added", 1, true), "a German sentence: " .. vim.inspect(said))
      term:wait_for(said[#said])
    end)
  end)

  test("terminal: after max_restarts a minute tagd is left stopped, with a notice; :TagdRestart recovers", function()
    T.with({ setup = "{ max_restarts = 2 }" }, function(term)
      term:cmd("TagField")
      term:type("keep,")
      term:wait_for("[keep ×]")
      for i = 1, 2 do
        local pid = tagd_pid(term)
        T.kill(pid, 9)
        term:wait(function()
          local now = tagd_pid(term)
          return now and now ~= pid
        end, "restart " .. i)
        term:type("k" .. i .. ",") -- the new tagd is up once it has made this a chip
        term:wait_for("[k" .. i .. " ×]")
      end
      T.kill(tagd_pid(term), 9)
      term:wait_for("tagd stopped (signal 9); keeps stopping: :TagdRestart")
      H.truthy(not tagd_pid(term), "no tagd after the third exit")
      term:wait_for("[keep ×] [k1 ×] [k2 ×]") -- the tags are kept
      term:type("draft")
      term:escape()
      term:cmd("TagdRestart")
      term:wait(function()
        return tagd_pid(term) ~= nil
      end, "a tagd again")
      term:keys("A")
      term:wait_for("-- INSERT --")
      term:type(",")
      term:wait_for("[keep ×] [k1 ×] [k2 ×] [draft ×]")
    end)
  end)

  test("terminal: resizing the terminal re-wraps the chips to the new width", function()
    T.with({}, function(term)
      local tags = {}
      for i = 1, 6 do
        tags[i] = string.format("tag%02d", i)
      end
      term:cmd("TagField")
      term:type(table.concat(tags, ",") .. ",")
      term:wait_for("[tag01 ×] [tag02 ×] [tag03 ×] [tag04 ×] [tag05 ×] [tag06 ×]")
      term:escape()
      term:keys("C-w", "k") -- the cursor in the other window: the resize is still seen
      term:tmux("resize-window", "-t", "t", "-x", "40", "-y", "24")
      -- 40 cells: 4 chips of 9 cells + 1 space per row
      term:wait(function(s)
        return s:find("\n%[tag01 ×%] %[tag02 ×%] %[tag03 ×%] %[tag04 ×%]\n%[tag05 ×%] %[tag06 ×%]") ~= nil
      end, "the chips in rows of four")
    end)
  end)

  test("terminal: <Left> selects b of a, b, c (tagd's selection, drawn); <BS> removes b, not c", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("a1,b2,c3,")
      term:wait_for("[a1 ×] [b2 ×] [c3 ×]")
      local normal = term:attr_of("[a1 ×]")
      term:keys("Left", "Left") -- Insert mode, at the start of the empty draft: c3, then b2
      term:wait(function()
        return term:attr_of("[b2 ×]") ~= normal and term:attr_of("[c3 ×]") == normal
      end, "b2 highlighted")
      term:wait_said("b2 selected")
      term:keys("BSpace")
      term:wait(function()
        local l = line_starting(term, "[a1 ×]")
        return l and l:find("^%[a1 ×%] %[c3 ×%]") ~= nil
      end, "b2 to be removed")
      term:wait_said("Removed b2")
      eq(normal, term:attr_of("[c3 ×]"), "no chip selected after the removal")
      term:escape()
      term:keys("0", "Left", "DC") -- Normal mode: <Del> on the selected chip
      term:wait(function()
        local l = line_starting(term, "[a1 ×]")
        return l and not l:find("c3", 1, true)
      end, "c3 removed with <Del>")
    end)
  end)

  test("terminal: <CR> on a selected chip edits it (field/editTag): its text is the draft", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("a1,b2,c3,")
      term:wait_for("[a1 ×] [b2 ×] [c3 ×]")
      term:keys("Left", "Left", "Enter")
      term:wait_said("Editing b2")
      if inline then
        term:wait_for("[a1 ×] [c3 ×] b2")
      else
        term:wait_for("[a1 ×] [c3 ×]\nb2")
      end
      term:type("x,")
      term:wait_for("[a1 ×] [c3 ×] [b2x ×]")
    end)
  end)

  test("terminal: backspace = \"select\": the first <BS> shows the last chip selected, the next removes it", function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("s", { insert = true, options = { backspace = "select" } })]])
      term:wait_for("-- INSERT --")
      term:type("a1,b2,")
      term:wait_for("[a1 ×] [b2 ×]")
      local normal = term:attr_of("[a1 ×]")
      term:keys("BSpace")
      term:wait(function()
        return term:attr_of("[b2 ×]") ~= normal
      end, "b2 shown selected")
      term:keys("BSpace")
      term:wait(function(scr)
        return not scr:find("b2", 1, true) and scr:find("[a1 ×]", 1, true)
      end, "b2 removed")
    end)
  end)

  test("terminal: every change is said in tagd's words: drops of each reason, additions, removals, moves, undo",
    function()
    T.with({ cols = 100 }, function(term)
      term:cmd([[lua require("tagd").open("v", { insert = true, options = { pattern = "[a-z0-9]+", ]]
        .. [[deny = { "spam" }, maxTagLength = 8, maxTags = 3 } })]])
      term:wait_for("-- INSERT --")
      local n
      term:type("Bad!,")
      n = term:wait_said("Bad!")
      term:type("spam,")
      n = term:wait_said("spam", n)
      term:type("verylongtag,")
      n = term:wait_said("verylongtag", n)
      term:type("a,b,")
      n = term:wait_said("Added a and b", n)
      term:type("c,d,")
      n = term:wait_said(" d ", n) -- c added, d over the limit
      term:keys("BSpace")
      n = term:wait_said("Removed c", n)
      term:keys("Left", "M-Left")
      n = term:wait_said("Moved b", n)
      term:escape()
      term:keys("u")
      n = term:wait_said("Undid", n)
      term:keys("C-r")
      n = term:wait_said("Redid", n)
      term:cmd([[lua require("tagd").open("w", { insert = true, options = { allow = { "yes" } } })]])
      term:wait_for("-- INSERT --")
      term:type("no,yes,")
      term:wait_said("no is not one of the allowed tags", n)
    end)
  end)

  test("terminal: after :bdelete of the field buffer, :TagField brings back its chips and draft", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("a,b,xy")
      term:wait_for("[a ×] [b ×]")
      term:escape()
      term:cmd("bdelete")
      term:wait(function(s)
        return not s:find("[a ×]", 1, true)
      end, "the field window to go")
      term:cmd("TagField")
      term:wait_for("-- INSERT --")
      if inline then
        term:wait_for("\n[a ×] [b ×] xy\n")
      else
        term:wait_for("\n[a ×] [b ×]\nxy\n")
      end
      term:type(",c,")
      term:wait_for("[a ×] [b ×] [xy ×] [c ×]")
      H.truthy(not line_starting(term, "c,"), "no 'c,' left as text:\n" .. term:screen())
    end)
  end)

  -- SPEC §6 (tagd with field/suggest, field/undo, field/moveTag)

  test("terminal: suggestions show as you type, matched letters highlighted; <Tab> takes the best", function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("s", { insert = true, ]]
        .. [[options = { suggestions = { "neovim", "network", "lua", "New York" } } })]])
      term:wait_for("-- INSERT --")
      term:type("ne")
      term:wait(function(scr)
        return scr:find("\n neovim") and scr:find("\n network") and scr:find("\n New York") and not scr:find("\n lua")
      end, "the three suggestions for 'ne'")
      -- "ne" is highlighted in "neovim", the rest is not
      H.truthy(term:attr_of("neovim") ~= term:attr_of("ovim"), "matched letters highlighted")
      term:keys("Tab")
      term:wait_for("[neovim ×]")
      term:wait(function(scr)
        return not scr:find("\n network")
      end, "the suggestions to go with the draft")
      term:type("ne")
      term:wait_for("\n New York")
      term:keys("C-n") -- the second one, then <Tab> takes it
      term:keys("Tab")
      term:wait_for("[neovim ×] [New York ×]")
      term:type("lu\t") -- typed and taken at full speed: <Tab> asks tagd itself
      term:wait_for("[neovim ×] [New York ×] [lua ×]")
    end)
  end)

  test("terminal: the suggestion float goes when <Tab> takes a suggestion, when <BS> empties the draft, "
    .. "and in Normal mode", function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("s", { insert = true, ]]
        .. [[options = { suggestions = { "neovim", "network" } } })]])
      term:wait_for("-- INSERT --")
      local function float_gone(what)
        term:wait(function(scr)
          return not scr:find("\n neovim") and not scr:find("\n network")
        end, "the float to go " .. what)
        vim.wait(400) -- and no late answer brings it back
        local scr = term:screen()
        H.truthy(not scr:find("\n neovim") and not scr:find("\n network"), "still gone " .. what .. ":\n" .. scr)
      end
      term:type("ne")
      term:wait_for("\n network")
      term:keys("Tab")
      term:wait_for("[neovim ×]")
      float_gone("after <Tab>")
      term:type("ne")
      term:wait_for("\n network")
      term:keys("BSpace", "BSpace")
      float_gone("after <BS> emptied the draft")
      term:type("ne")
      term:wait_for("\n network")
      term:escape()
      float_gone("in Normal mode")
    end)
  end)

  test("terminal: chip rows beyond max_height give way to a \"… N more tags\" line; the draft stays in view", function()
    T.with({ setup = "{ max_height = 3 }" }, function(term)
      term:cmd("TagField")
      local tags = {}
      for i = 1, 40 do
        tags[i] = string.format("tag%02d", i)
      end
      term:type(table.concat(tags, ",") .. ",dr")
      local n
      term:wait(function(scr)
        n = tonumber(scr:match("… (%d+) more tags %(:TagFieldTags%)"))
        return n and scr:find("[tag40 ×]", 1, true) and scr:find("\n?[^\n]*dr\n")
      end, "the count of hidden chips, the last chip and the draft")
      local shown = 0
      for _ in term:screen():gmatch("%[tag%d%d ×%]") do
        shown = shown + 1
      end
      eq(40, n + shown, "hidden + shown chips (" .. n .. " hidden)")
    end)
  end)

  test("terminal: u and CTRL-R undo and redo tagd's steps (a paste of three tags is one)", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("a,")
      term:wait_for("[a ×]")
      term:paste("x1\nx2\nx3\n")
      term:wait_for("[a ×] [x1 ×] [x2 ×] [x3 ×]")
      term:escape()
      term:keys("u")
      term:wait(function(s)
        return s:find("[a ×]", 1, true) and not s:find("[x1 ×]", 1, true)
      end, "the paste undone in one step")
      term:keys("C-r")
      term:wait_for("[a ×] [x1 ×] [x2 ×] [x3 ×]")
      term:keys("u", "u")
      term:wait(function(s)
        return not s:find("[a ×]", 1, true)
      end, "every tag undone")
    end)
  end)

  test("terminal: Alt-Left and Alt-Right move the selected chip", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("a1,b2,c3,")
      term:wait_for("[a1 ×] [b2 ×] [c3 ×]")
      term:escape()
      term:keys("0", "Left")
      term:keys("M-Left")
      term:wait_for("[a1 ×] [c3 ×] [b2 ×]")
      term:keys("M-Left")
      term:wait_for("[c3 ×] [a1 ×] [b2 ×]")
      H.truthy(term:attr_of("[c3 ×]") ~= term:attr_of("[a1 ×]"), "the moved chip stays selected")
      term:keys("M-Right")
      term:wait_for("[a1 ×] [c3 ×] [b2 ×]")
    end)
  end)
end
