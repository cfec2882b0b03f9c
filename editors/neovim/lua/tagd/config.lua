-- Options and locating the tagd binary.
local M = {}

-- The plugin's version (sent as initialize's clientInfo, shown by :TagdInfo).
M.version = "1.1.0"

M.defaults = {
  -- The daemon: a string (path or name) or a list {path, args...}. nil = search (see M.find).
  cmd = nil,
  -- Extra arguments passed to tagd (e.g. {"--log=debug", "--log-file=/tmp/tagd.log"}).
  args = {},
  -- Field options sent with field/open (separators, maxTags, maxTagLength, caseSensitive, transform, prompt).
  field_options = nil,
  -- Chip look: the chip text is left .. tag .. right; its padding (in cells) is measured from these.
  chip = { left = "[", right = " ×]" },
  -- Layout in cells (field/layout params): spacing between chips, the draft's minimum width.
  spacing = 1,
  field_min_width = 10,
  -- The window :TagField opens: "split" (a bottom split), "float" or "none" (buffer only).
  window = "split",
  max_height = 10,
  -- Keys in the field buffer; false disables one. Lists map several keys.
  keys = {
    submit = { "<CR>" }, -- insert and normal: field/submit
    backspace = { "<BS>" }, -- insert (and normal): field/deleteBackward when the buffer is empty
    remove = { "<C-x>" }, -- insert and normal: remove the selected chip (or the one before the cursor)
    prev_chip = { "<S-Tab>", "<Left>" }, -- normal: select the chip to the left (from column 0)
    next_chip = { "<Tab>", "<Right>" }, -- normal: select the chip to the right / back to the draft
    -- Need a tagd with the SPEC §6 methods; otherwise the key does what it always does.
    complete = { "<Tab>" }, -- insert: open the completion menu (field/suggest), then the next item
    undo = { "u" }, -- normal: field/undo (one step per user action: a paste of many tags is one)
    redo = { "<C-r>" }, -- normal: field/redo
    move_left = { "<M-Left>" }, -- normal: move the selected chip one place left (field/moveTag)
    move_right = { "<M-Right>" }, -- normal: ... right
  },
  -- At most this many items in Insert-mode completion (CTRL-X CTRL-O, field/suggest).
  suggest_limit = 50,
  -- Milliseconds a chip stays highlighted (TagdChipFlash) when a duplicate of it was dropped.
  flash_ms = 800,
  -- Restart policy when tagd exits unexpectedly: at most this many restarts per minute.
  max_restarts = 5,
  -- Milliseconds to wait for `initialize`.
  timeout = 5000,
}

M.options = vim.deepcopy(M.defaults)

function M.set(opts)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts or {})
  return M.options
end

-- The repository root, if this plugin lives in the tagd repo (editors/neovim/lua/tagd/config.lua).
local function repo_root()
  local src = debug.getinfo(1, "S").source:gsub("^@", "")
  local root = vim.fn.fnamemodify(src, ":p:h:h:h:h:h")
  return root
end

-- Find tagd: the `cmd` option, else `tagd` on PATH, else the repo's .build/{debug,release}/tagd
-- (the newer one when both exist). Returns a command list, or nil and the places searched.
function M.find(opts)
  opts = opts or M.options
  local searched = {}
  local cmd = opts.cmd
  if type(cmd) == "string" then
    cmd = { cmd }
  end
  if type(cmd) == "table" and cmd[1] then
    local exe = vim.fn.exepath(cmd[1])
    if exe ~= "" then
      local full = vim.deepcopy(cmd)
      full[1] = exe
      return vim.list_extend(full, opts.args or {})
    end
    return nil, { "cmd = " .. cmd[1] .. " (not executable)" }
  end
  local exe = vim.fn.exepath("tagd")
  if exe ~= "" then
    return vim.list_extend({ exe }, opts.args or {})
  end
  table.insert(searched, "tagd on $PATH")
  local root = repo_root()
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
    return vim.list_extend({ best }, opts.args or {})
  end
  return nil, searched
end

return M
