-- Options and locating the tagd binary.
local M = {}

local uv = vim.uv or vim.loop

-- The plugin's version (sent as initialize's clientInfo, shown by :TagdInfo).
M.version = "1.2.0"

M.defaults = {
  -- The daemon: a string (path or name) or a list {path, args...}. nil = search (see M.find).
  cmd = nil,
  -- Extra arguments passed to tagd (e.g. {"--log=debug", "--log-file=/tmp/tagd.log"}).
  args = {},
  -- The language of tagd's announcements (initialize's `locale`); nil = v:lang, else $LC_ALL,
  -- $LC_MESSAGES, $LANG.
  locale = nil,
  -- The folders of your notes (a list, or one folder), sent to tagd as initialize's
  -- workspaceFolders: a field on a note inside one suggests the vault's tags; :TagdTags and
  -- :TagdRename work on them. nil: none.
  vaults = nil,
  -- true: tagd is also the language server of markdown and org buffers, through Neovim's own LSP
  -- client (its own tagd process).
  lsp = false,
  -- Field options sent with field/open (separators, maxTags, pattern, allow, deny, suggestions,
  -- backspace, ...: Protocol/README.md).
  field_options = nil,
  -- Chip decoration, drawn around each tag; tagd measures the chip and cuts the tag (cells.left/right).
  chip = { left = "[", right = " ×]" },
  -- Layout in cells (field/layout params): spacing between chips, the draft's minimum width.
  spacing = 1,
  field_min_width = 10,
  -- The window :TagField opens: "split" (a bottom split), "float" or "none" (buffer only).
  window = "split",
  max_height = 10,
  -- When the chips need more rows than that, the first rows give way to this line (a
  -- string.format() format with the number of chips left out).
  more_text = "… %d more tags (:TagFieldTags)",
  -- Where tagd's announcements go: "echo" (the echo area, one line, and under the field for a
  -- few seconds) or "notify" (vim.notify with vim.log.levels, for notification plugins).
  announce = "echo",
  -- Suggestions while typing (field/suggest): shown in a float above the field; false: none.
  suggest = true,
  suggest_limit = 8,
  -- Keys in the field buffer (each runs a <Plug>(tagd-...) mapping; :help tagd-keys). A key or
  -- a list of keys; false disables one.
  keys = {
    submit = "<CR>", -- Insert, Normal: field/submit; on a selected chip field/editTag
    backspace = "<BS>", -- Insert, Normal: remove the selected chip; on an empty draft field/deleteBackward
    delete = "<Del>", -- Insert, Normal: remove the selected chip
    select_prev = "<Left>", -- Insert, Normal: at the start of the draft, select the chip to the left
    select_next = "<Right>", -- Insert, Normal: with a chip selected, select the next one (past the last: none)
    move_left = "<M-Left>", -- Insert, Normal: move the selected chip left (field/moveTag)
    move_right = "<M-Right>",
    accept = "<Tab>", -- Insert: the best (or highlighted) suggestion becomes a tag
    suggestion_next = "<C-n>", -- Insert, while suggestions show: highlight the next / previous one
    suggestion_prev = "<C-p>",
    undo = "u", -- Normal: field/undo
    redo = "<C-r>", -- Normal: field/redo
  },
  -- Milliseconds a chip stays highlighted (TagdChipFlash) when a duplicate of it was dropped.
  flash_ms = 800,
  -- How long an announcement stays under the field (announce = "echo").
  notice_ms = 3000,
  -- Restart policy when tagd exits unexpectedly: at most this many restarts per minute.
  max_restarts = 5,
  -- Milliseconds to wait for tagd's `initialize` answer before giving up (and saying so).
  timeout = 5000,
  -- Of those, how many Neovim waits for it when a field opens (keys typed meanwhile go into the
  -- field); after that the field opens when tagd answers, and Neovim is not blocked.
  start_wait = 500,
}

M.options = vim.deepcopy(M.defaults)

function M.set(opts)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts or {})
  return M.options
end

-- The user's language for tagd (initialize `locale`): the option, else v:lang, else the POSIX
-- locale variables (v:lang is "C" when the locale is not installed on this system).
function M.locale(opts)
  opts = opts or M.options
  if opts.locale then
    return opts.locale
  end
  local candidates = { vim.v.lang, vim.env.LC_ALL, vim.env.LC_MESSAGES, vim.env.LANG }
  for i = 1, 4 do -- (not ipairs: unset variables are holes)
    local v = candidates[i]
    if v and v ~= "" and v ~= "C" and v ~= "POSIX" and not v:match("^C%.") then
      return v
    end
  end
  return nil
end

-- The repository root when this plugin lives in the tagd repository
-- (<root>/editors/neovim/lua/tagd/config.lua), with symlinks resolved: a package directory or a
-- plugin manager may link to editors/neovim.
function M.repo_root()
  local src = debug.getinfo(1, "S").source:gsub("^@", "")
  src = uv.fs_realpath(src) or vim.fn.resolve(vim.fn.fnamemodify(src, ":p"))
  return vim.fn.fnamemodify(src, ":h:h:h:h:h")
end

local function with_args(list, opts)
  return vim.list_extend(list, vim.deepcopy(opts.args or {}))
end

-- Find tagd: the `cmd` option, else $TAGD, else `tagd` on $PATH, else the repository's
-- .build/{debug,release}/tagd (the newer one when both exist). Returns a command list, or nil,
-- the places searched and why it failed.
function M.find(opts)
  opts = opts or M.options
  local cmd = opts.cmd
  if type(cmd) == "string" then
    cmd = { cmd }
  end
  if type(cmd) == "table" and cmd[1] then
    local exe = vim.fn.exepath(cmd[1])
    if exe == "" then
      return nil, { "cmd = " .. cmd[1] }, "the cmd option " .. cmd[1] .. " is not an executable"
    end
    local full = vim.deepcopy(cmd)
    full[1] = exe
    return with_args(full, opts)
  end
  local env = vim.env.TAGD
  if env and env ~= "" then
    local exe = vim.fn.exepath(env)
    if exe == "" then
      return nil, { "$TAGD = " .. env }, "$TAGD (" .. env .. ") is not an executable"
    end
    return with_args({ exe }, opts)
  end
  local searched = { "$TAGD (not set)", "tagd on $PATH" }
  local exe = vim.fn.exepath("tagd")
  if exe ~= "" then
    return with_args({ exe }, opts)
  end
  local root = M.repo_root()
  local best, best_time
  for _, kind in ipairs({ "debug", "release" }) do
    local path = root .. "/.build/" .. kind .. "/tagd"
    table.insert(searched, path)
    if vim.fn.executable(path) == 1 then
      local t = vim.fn.getftime(path)
      if not best_time or t > best_time then
        best, best_time = path, t
      end
    end
  end
  if best then
    return with_args({ best }, opts)
  end
  return nil, searched, "tagd not found"
end

-- The one message for a tagd that cannot be found.
function M.not_found_message(searched, why)
  return (why or "tagd not found") .. " (searched: " .. table.concat(searched or {}, ", ")
    .. "). Build it with `swift build` in the tagd repository, put tagd on $PATH, set $TAGD, or "
    .. "require('tagd').setup({cmd = '/path/to/tagd'})."
end

return M
