-- Key mappings in a field's buffer: every action is a buffer-local <Plug>(tagd-...) mapping, and
-- the `keys` option maps keys to them (SPEC §6a fixes the defaults). An action that has nothing
-- to act on does what its default key always does (<Left> inside the draft moves the cursor).
-- All are Lua callbacks, not <expr> mappings: Neovim evaluates an <expr> mapping when it peeks at
-- typeahead, i.e. before the keys typed just ahead of it are in the buffer. A callback runs when
-- the key is executed, so it sees the buffer the user sees (Protocol/sync.md rule 3).
local config = require("tagd.config")
local suggest = require("tagd.suggest")
local sync = require("tagd.sync")

local M = {}

local function termcodes(k)
  return vim.api.nvim_replace_termcodes(k, true, false, true)
end

-- What the key does without the plugin, ahead of the keys typed after it.
local function fallthrough(k)
  vim.api.nvim_feedkeys(termcodes(k), "in", false)
end

local function buffer_empty(f)
  local lines = vim.api.nvim_buf_get_lines(f.buf, 0, -1, false)
  return #lines == 1 and lines[1] == ""
end

local function at_draft_start(f)
  local win = vim.fn.bufwinid(f.buf)
  if win == -1 then
    return false
  end
  local pos = vim.api.nvim_win_get_cursor(win)
  return pos[1] == 1 and pos[2] == 0
end

-- The selection the keys act on: tagd's `selected`, or, while requests that change it are on
-- their way, what tagd will answer (keys typed at full speed: <Left><Left> selects two chips to
-- the left, not one). It is never drawn: the chips show tagd's `selected`.
local function sel(f)
  if f.sel_expect ~= nil then
    return f.sel_expect or nil
  end
  return f.selected
end

-- A request that leaves chip `after` (1-based, or false: none) selected.
local function request(f, method, params, after)
  f.sel_inflight = (f.sel_inflight or 0) + 1
  f.sel_expect = after
  local function done()
    f.sel_inflight = f.sel_inflight - 1
    if f.sel_inflight == 0 then
      f.sel_expect = nil
    end
  end
  if not sync.request(f, method, params, done) then
    done()
  end
end

-- field/select with a 1-based index, or nil to clear (JSON null).
local function select(f, index)
  request(f, "field/select", { index = index and index - 1 or vim.NIL }, index or false)
end

-- name -> {modes, default key, action(f) returning false to fall through, description}
M.actions = {
  submit = { { "i", "n" }, "<CR>", function(f)
    if vim.fn.pumvisible() == 1 then -- Neovim's completion menu: take its item
      vim.api.nvim_feedkeys(termcodes("<C-y>"), "n", false)
    elseif f.menu_plugin and require("tagd.cmp").confirm(function()
      sync.request(f, "field/submit")
    end) then
      return -- nvim-cmp's item, then submitted
    elseif sel(f) then
      request(f, "field/editTag", { index = sel(f) - 1 }, false)
    else
      sync.request(f, "field/submit")
    end
  end, "the draft becomes a tag; on a selected chip: edit it" },
  backspace = { { "i", "n" }, "<BS>", function(f)
    if not (sel(f) or buffer_empty(f)) then
      return false -- an ordinary Backspace, even over committed text tagd has not removed yet
    end
    -- tagd removes the selected chip, or applies the field's backspace option to the empty draft
    request(f, "field/deleteBackward", nil, false)
  end, "remove the selected chip; on an empty draft the field's backspace option" },
  delete = { { "i", "n" }, "<Del>", function(f)
    if not sel(f) then
      return false
    end
    request(f, "field/removeTag", { index = sel(f) - 1 }, false)
  end, "remove the selected chip" },
  select_prev = { { "i", "n" }, "<Left>", function(f)
    if sel(f) then
      select(f, math.max(1, sel(f) - 1))
    elseif #f.tags > 0 and at_draft_start(f) then
      select(f, #f.tags)
    else
      return false
    end
  end, "select the chip to the left (at the start of the draft: the last chip)" },
  select_next = { { "i", "n" }, "<Right>", function(f)
    local i = sel(f)
    if not i then
      return false
    end
    select(f, i < #f.tags and i + 1 or nil)
  end, "select the chip to the right; past the last one, back to the draft" },
  move_left = { { "i", "n" }, "<M-Left>", function(f)
    local i = sel(f)
    if not (i and i > 1) then
      return i ~= nil -- at the first place already: nothing to do
    end
    request(f, "field/moveTag", { from = i - 1, to = i - 2 }, i - 1) -- the selection moves with it
  end, "move the selected chip one place left" },
  move_right = { { "i", "n" }, "<M-Right>", function(f)
    local i = sel(f)
    if not (i and i < #f.tags) then
      return i ~= nil
    end
    request(f, "field/moveTag", { from = i - 1, to = i }, i + 1)
  end, "move the selected chip one place right" },
  accept = { { "i" }, "<Tab>", function(f)
    return suggest.accept(f)
  end, "the best (or highlighted) suggestion for the draft becomes a tag" },
  suggestion_next = { { "i" }, "<C-n>", function(f)
    return suggest.move(f, 1)
  end, "highlight the next suggestion" },
  suggestion_prev = { { "i" }, "<C-p>", function(f)
    return suggest.move(f, -1)
  end, "highlight the previous suggestion" },
  undo = { { "n" }, "u", function(f)
    sync.request(f, "field/undo")
  end, "undo the last change of the tags (field/undo)" },
  redo = { { "n" }, "<C-r>", function(f)
    sync.request(f, "field/redo")
  end, "redo (field/redo)" },
}

-- The <Plug> name of an action: select_prev -> <Plug>(tagd-select-prev).
function M.plug(name)
  return "<Plug>(tagd-" .. name:gsub("_", "-") .. ")"
end

local function each(list, fn)
  if type(list) == "string" then
    list = { list }
  end
  for _, k in ipairs(list or {}) do
    fn(k)
  end
end

---@param f tagd.Field
function M.map(f)
  local keys = config.options.keys
  local buf = f.buf
  -- With a completion plugin's menu (nvim-cmp loaded, or suggest = false for blink.cmp) its own
  -- keys move through it: <C-n>/<C-p> are left to it.
  local own_menu = config.options.suggest and not package.loaded["cmp"]
  for name, a in pairs(M.actions) do
    local modes, default, action, desc = a[1], a[2], a[3], a[4]
    if not own_menu and (name == "suggestion_next" or name == "suggestion_prev") then
      goto continue
    end
    vim.keymap.set(modes, M.plug(name), function()
      if action(f) == false then
        fallthrough(default)
      end
    end, { buffer = buf, desc = "tagd: " .. desc })
    each(keys[name], function(k)
      vim.keymap.set(modes, k, M.plug(name), { buffer = buf, remap = true, desc = "tagd: " .. desc })
    end)
    ::continue::
  end
end

return M
