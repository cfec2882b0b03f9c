-- The README's installs, each from a fresh config in a real Neovim (tmux), and what happens when
-- tagd cannot start. No test here uses the suite's `cmd`: tagd is found as a user's Neovim finds it.
return function(H, T)
  local test, eq = H.test, H.eq
  local uv = vim.uv or vim.loop
  local repo = uv.fs_realpath(T.root .. "/../..")

  -- $PATH without any directory holding a tagd.
  local function path_without_tagd()
    local dirs = vim.tbl_filter(function(d)
      return vim.fn.executable(d .. "/tagd") == 0
    end, vim.split(vim.env.PATH or "", ":", { plain = true }))
    return table.concat(dirs, ":")
  end

  -- The lazy.nvim spec in the README (the first ```lua block holding `dir =`), as a table, with
  -- its placeholder path replaced by this checkout's editors/neovim.
  local function readme_lazy_spec()
    local readme = table.concat(vim.fn.readfile(T.root .. "/README.md"), "\n")
    for block in readme:gmatch("```lua\n(.-)```") do
      if block:find("dir = ", 1, true) then
        local code = block:gsub("/path/to/tagd/editors/neovim", T.root)
        return assert(loadstring("return " .. code))(), block
      end
    end
  end

  test("install: the README's package recipe (a symlink in pack/*/opt) finds the repository's tagd, "
    .. ":checkhealth tagd and :help tagd work before any field", function()
    vim.fn.delete(T.root .. "/doc/tags") -- the plugin builds its help tags itself
    local built = vim.tbl_filter(function(p)
      return vim.fn.executable(p) == 1
    end, { repo .. "/.build/debug/tagd", repo .. "/.build/release/tagd" })
    T.with({
      cols = 200,
      config = 'vim.cmd("packadd tagd.nvim")',
      data = { ["nvim/site/pack/tagd/opt/tagd.nvim"] = T.root },
      env = { TAGD = false, PATH = path_without_tagd() },
    }, function(term)
      term:cmd("checkhealth tagd")
      if #built > 0 then -- CI: .ci/run built .build/debug/tagd
        term:wait_for("tagd found: " .. repo .. "/.build/")
        term:wait_for("tagd --version: tagd")
      else -- not built here: the search looked in the repository, not beside the symlink
        term:wait_for(repo .. "/.build/debug/tagd")
      end
      H.truthy(not term:screen():find("site/pack/tagd/.build", 1, true), "no path beside the symlink")
      term:wait_for("tagd is not running (it starts with the first :TagField)")
      term:cmd("help tagd")
      term:wait_for("tagd.txt [Help]")
      term:wait_for("tagd.nvim turns a small buffer into a tag input")
    end)
    H.truthy(vim.fn.filereadable(T.root .. "/doc/tags") == 1, "doc/tags built by the plugin")
  end)

  test("install: the README's runtimepath recipe, with $TAGD naming the binary", function()
    vim.fn.delete(T.root .. "/doc/tags")
    T.with({
      config = string.format("vim.opt.runtimepath:append(%q)", T.root),
      env = { TAGD = os.getenv("TAGD"), PATH = path_without_tagd() },
    }, function(term)
      term:cmd("TagField")
      term:type("one,two,")
      term:wait_for("[one ×] [two ×]")
      term:escape()
      term:cmd("help :TagFieldFrontMatter")
      term:wait_for("tagd.txt [Help]")
    end)
  end)

  test("install: the README's lazy.nvim spec: name tagd.nvim, main tagd, build, loaded as lazy loads a dir "
    .. "plugin", function()
    local spec, text = readme_lazy_spec()
    H.truthy(spec, "a lazy.nvim spec with dir = in the README")
    -- lazy.nvim itself needs Neovim 0.8: the recipe says so (Debian 12's 0.7.2 cannot use it).
    local readme = table.concat(vim.fn.readfile(T.root .. "/README.md"), "\n")
    local bullet = readme:match("\n%- %*%*lazy%.nvim%*%*([^\n]*)")
    H.truthy(bullet and bullet:find("Neovim 0.8", 1, true),
      "the lazy.nvim recipe names Neovim 0.8: " .. tostring(bullet))
    eq("tagd.nvim", spec.name, "name")
    eq("tagd", spec.main, "main")
    eq(T.root, spec.dir, "dir")
    H.truthy(type(spec.build) == "string" and spec.build:find("swift build", 1, true), "build: " .. text)
    H.truthy(spec.lazy == false or spec.cmd == nil, "loaded at start-up, so :checkhealth tagd finds it")
    -- `build` runs in the plugin's directory: it must build the repository's tagd, where the
    -- plugin looks (asked with --show-bin-path, which builds nothing).
    if vim.fn.executable("swift") == 1 then
      local out = vim.fn.system("cd " .. vim.fn.shellescape(spec.dir) .. " && " .. spec.build .. " --show-bin-path")
      H.truthy(vim.v.shell_error == 0, "build command: " .. out)
      local bin = vim.trim(vim.split(vim.trim(out), "\n", { plain = true })[#vim.split(vim.trim(out), "\n")])
      eq(repo .. "/.build", vim.fn.fnamemodify(bin, ":h:h"), "built into the repository's .build")
    else
      H.out("     (swift not on $PATH: the build command was not checked)")
    end
    -- What lazy.nvim does with a dir plugin: the directory on 'runtimepath', its plugin/ scripts
    -- sourced, then require(main).setup(opts).
    vim.fn.delete(T.root .. "/doc/tags")
    T.with({
      config = string.format([[vim.opt.runtimepath:prepend(%q)
vim.cmd("runtime! plugin/**/*.lua")
require(%q).setup(%s)]], spec.dir, spec.main, vim.inspect(spec.opts or {})),
      env = { TAGD = os.getenv("TAGD"), PATH = path_without_tagd() },
    }, function(term)
      term:cmd("checkhealth tagd")
      term:wait_for("tagd found: " .. os.getenv("TAGD"))
      term:cmd("help tagd")
      term:wait_for("tagd.txt [Help]")
      term:cmd("TagField")
      term:type("x,")
      term:wait_for("[x ×]")
    end)
  end)

  -- No field (asked of the plugin), and Normal mode (the command is typed as a command).
  local function no_field(term)
    if term:screen():find("Press ENTER", 1, true) then
      term:keys("Enter")
    end
    term:cmd([[lua print("fields: " .. #require("tagd").fields() .. ", windows: " .. #vim.api.nvim_list_wins())]])
    term:wait_for("fields: 0, windows: 1")
  end

  -- tagd could not start: the field is open (not on tagd), saying why, and no hit-enter prompt.
  local function field_says_why(term)
    H.truthy(not term:screen():find("Press ENTER", 1, true), "no hit-enter prompt:\n" .. term:screen())
    term:escape()
    term:cmd([[lua print("fields: " .. #require("tagd").fields() .. ", on tagd: " ]]
      .. [[.. tostring(require("tagd").state("default").on_server))]])
    term:wait_for("fields: 1, on tagd: false")
  end

  test("start: a tagd that exits at once (cmd = /bin/true): the field says why, no hit-enter prompt", function()
    T.with({ setup = '{ cmd = "/bin/true" }' }, function(term)
      term:cmd("TagField")
      term:wait_for("exited before answering initialize (exit code 0)")
      field_says_why(term)
    end)
  end)

  test("start: a tagd that never answers does not freeze Neovim; after `timeout` one message, no field",
    function()
      T.with({ setup = '{ cmd = { "sleep", "30" }, timeout = 1500 }' }, function(term)
        term:cmd("TagField")
        term:cmd("echo 'still typing'") -- answered while tagd is silent
        term:wait_for("still typing", 1400)
        H.truthy(not term:screen():find("Add a tag", 1, true), "no field while tagd says nothing")
        term:wait_for("did not answer initialize within 1500 ms")
        no_field(term)
        term:cmd([[lua print("children: " .. #vim.api.nvim_get_proc_children(vim.fn.getpid()))]])
        term:wait_for("children: 0") -- the silent process was stopped
      end)
    end)

  test("start: a cmd that is not a program: the field says so, no hit-enter prompt", function()
    T.with({ setup = '{ cmd = "/nonexistent/tagd" }' }, function(term)
      term:cmd("TagField")
      term:wait_for("/nonexistent/tagd is not an executable")
      field_says_why(term)
    end)
  end)

  test("start: with tagd missing, :TagField and keys typed right after it: no hit-enter prompt, the reason in the "
    .. "field, the keys in the field and not in the user's buffer; :TagdRestart once tagd is there", function()
    local path = vim.fn.tempname() .. ".md"
    vim.fn.writefile({ "user text" }, path)
    T.with({ setup = '{ cmd = "/nonexistent/tagd" }', file = path }, function(term)
      term:wait_for("user text")
      term:type(":TagField\rabc,def,") -- one burst, as a user types it
      term:wait_for("/nonexistent/tagd is not an executable")
      vim.wait(300)
      H.truthy(not term:screen():find("Press ENTER", 1, true), "no hit-enter prompt:\n" .. term:screen())
      term:escape()
      term:cmd([[lua print("user buffer: " .. table.concat(vim.api.nvim_buf_get_lines(vim.fn.bufnr("]] .. path
        .. [["), 0, -1, false), "|") .. "; field: " .. table.concat(vim.api.nvim_buf_get_lines(]]
        .. [[vim.fn.bufnr("tagd://default"), 0, -1, false), "|"))]])
      term:wait_for("user buffer: user text; field: abc,def,")
      term:cmd(string.format([[lua require("tagd").setup({ cmd = %q })]], os.getenv("TAGD")))
      term:cmd("TagdRestart")
      term:wait_for("[abc ×] [def ×]")
      H.truthy(not term:screen():find("is not an executable", 1, true), "the reason is gone once tagd runs")
    end)
    vim.fn.delete(path)
  end)

  test("highlights are set again after :colorscheme (which clears the plugin's own attributes)", function()
    T.with({}, function(term)
      term:cmd([[lua require("tagd").open("s", { insert = true, options = { suggestions = { "neovim" } } })]])
      term:wait_for("-- INSERT --")
      term:type("chip,")
      term:wait_for("[chip ×]")
      term:escape()
      term:cmd("colorscheme blue")
      term:keys("A")
      term:wait_for("-- INSERT --")
      term:type("ne")
      term:wait_for("\n neovim")
      H.truthy(term:attr_of("neovim") ~= term:attr_of("ovim"), "matched letters still highlighted")
    end)
  end)

  test(":TagFieldTags prints a short list; a long one shows in a float, never \"Press ENTER\"", function()
    T.with({}, function(term)
      term:cmd("TagField")
      term:type("alpha,beta,")
      term:wait_for("[alpha ×] [beta ×]")
      term:escape()
      term:cmd("TagFieldTags")
      term:wait(function(scr)
        return scr:match("\nalpha, beta%s*$") ~= nil
      end, "the tags on the command line")
      term:keys("i")
      local many = {}
      for i = 1, 30 do
        many[i] = string.format("tag%02d", i)
      end
      term:type(table.concat(many, ",") .. ",")
      term:wait_for("[tag30 ×]")
      term:escape()
      term:cmd("TagFieldTags")
      term:wait_for("default: 32 tags")
      term:wait_for("tag30")
      H.truthy(not term:screen():find("Press ENTER", 1, true), "no hit-enter prompt:\n" .. term:screen())
      term:keys("q")
      term:wait(function(scr)
        return not scr:find("default: 32 tags", 1, true)
      end, "q closes the float")
    end)
  end)

  -- The real nvim-cmp, from a local checkout named by $TAGD_NVIM_CMP (CI has none: GitHub is
  -- out of reach there, and nvim-cmp is not vendored). nvim-cmp needs a recent Neovim.
  local cmp_dir = os.getenv("TAGD_NVIM_CMP")
  if cmp_dir and cmp_dir ~= "" and vim.fn.has("nvim-0.10") == 1 then
    test("nvim-cmp (the real plugin, $TAGD_NVIM_CMP): tagd's suggestions in its menu; <CR> takes one", function()
      T.with({ lua = string.format([[vim.opt.runtimepath:prepend(%q); vim.cmd("runtime plugin/cmp.lua"); ]]
        .. [[local cmp = require("cmp"); cmp.setup({ mapping = cmp.mapping.preset.insert({}) })]], cmp_dir) },
        function(term)
        term:cmd([[lua require("tagd").open("s", { insert = true, ]]
          .. [[options = { suggestions = { "neovim", "network", "lua", "New York" } } })]])
        term:wait_for("-- INSERT --")
        term:type("ne")
        term:wait(function(scr)
          return scr:find("\n neovim +Text tagd") and scr:find("\n network +Text tagd")
            and scr:find("\n New York +Text tagd")
        end, "nvim-cmp's menu with tagd's suggestions")
        term:keys("C-n") -- nvim-cmp's own keys: its first item into the draft, then the second
        term:wait_for("\nneovim\n")
        term:keys("C-n")
        term:wait_for("\nnetwork\n")
        term:keys("Enter") -- confirmed and submitted
        term:wait_for("[network ×]")
      end)
    end)
  else
    H.out("skip nvim-cmp with the real plugin (set TAGD_NVIM_CMP to a checkout; Neovim 0.10+)")
  end
  -- The real blink.cmp (v1), from a checkout named by $TAGD_BLINK_CMP, with its Lua matcher.
  local blink_dir = os.getenv("TAGD_BLINK_CMP")
  if blink_dir and blink_dir ~= "" and vim.fn.has("nvim-0.10") == 1 then
    test("blink.cmp (the real plugin, $TAGD_BLINK_CMP): tagd's suggestions in its menu; <C-y> takes one", function()
      T.with({ setup = "{ suggest = false }", lua = string.format([[vim.opt.runtimepath:prepend(%q); ]]
        .. [[vim.cmd("runtime plugin/blink-cmp.lua"); ]]
        .. [[require("blink.cmp").setup({ fuzzy = { implementation = "lua" }, ]]
        .. [[sources = { default = {}, per_filetype = { tagd = { "tagd" } }, ]]
        .. [[providers = { tagd = { name = "tagd", module = "tagd.blink" } } } })]], blink_dir) },
        function(term)
          term:cmd([[lua require("tagd").open("s", { insert = true, ]]
            .. [[options = { suggestions = { "neovim", "network", "lua", "New York" } } })]])
          term:wait_for("-- INSERT --")
          term:type("ne")
          term:wait(function(scr)
            return scr:find("neovim +tagd") and scr:find("network +tagd") and scr:find("New York +tagd")
          end, "blink.cmp's menu with tagd's suggestions")
          term:keys("C-n") -- blink.cmp's own keys: the second item, accepted into the draft
          term:keys("C-y")
          term:wait_for("\nnetwork\n")
          term:keys("Enter")
          term:wait_for("[network ×]")
        end)
    end)
  else
    H.out("skip blink.cmp with the real plugin (set TAGD_BLINK_CMP to a v1 checkout; Neovim 0.10+)")
  end
end
