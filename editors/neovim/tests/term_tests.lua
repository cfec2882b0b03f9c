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

  test("terminal: a chip wider than the window is narrowed to it", function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("w", { window = "float", width = 20, tags = { string.rep("x", 30) } })]])
      -- No room beside the chip for the draft's minimum width: the draft gets the next row.
      local want = { "[" .. string.rep("x", 18) .. "…", "Add a tag" }
      term:wait(function()
        return vim.deep_equal(float_rows(term), want)
      end, "the float to show " .. vim.inspect(want))
    end)
  end)
end
