-- Suggestions as you type (field/suggest, SPEC §6): after every change of the draft the field
-- asks tagd, without waiting, and shows the answer in a float above the field window, best first,
-- the matched letters highlighted (TagdSuggestionMatch). An answer for an older draft is dropped.
-- <Tab> takes the highlighted suggestion (the best unless <C-n>/<C-p> moved it) as a tag.
local config = require("tagd.config")
local daemon = require("tagd.daemon")
local text = require("tagd.text")

local M = {}

M.ns = vim.api.nvim_create_namespace("tagd.suggest")

-- field name -> {seq, query, items, index, win, buf}
local shown = {}
local seq = 0

local function live(f)
  local d = daemon.get()
  if d and d.ready and f.on_server and d:supports("field/suggest") then
    return d
  end
end

-- Close the float. Called from a buffer's on_lines callback (typing), where Neovim refuses to
-- close windows (textlock): then it closes as soon as the callback is over. An answer still on
-- its way is dropped (`seq`).
function M.hide(f)
  local s = shown[f.name]
  if not s then
    return
  end
  s.seq, s.items = nil, nil
  local win = s.win
  if win and vim.api.nvim_win_is_valid(win) and not pcall(vim.api.nvim_win_close, win, true) then
    vim.schedule(function()
      if vim.api.nvim_win_is_valid(win) and s.win == win and not s.items then
        pcall(vim.api.nvim_win_close, win, true)
      end
    end)
    return
  end
  s.win = nil
end

-- What is shown: {query, items, index} or nil (for tests and statuslines).
function M.state(f)
  local s = shown[f.name]
  if s and s.items and s.win then
    return { query = s.query, items = vim.deepcopy(s.items), index = s.index }
  end
end

local function draw(f, s)
  local win = f.buf and vim.fn.bufwinid(f.buf) or -1
  if not s.items or #s.items == 0 or win == -1 or vim.fn.mode() ~= "i" then
    return M.hide(f)
  end
  local lines, width = {}, 1
  for i, it in ipairs(s.items) do
    lines[i] = " " .. it.text .. " "
    width = math.max(width, vim.fn.strdisplaywidth(lines[i]))
  end
  if not (s.buf and vim.api.nvim_buf_is_valid(s.buf)) then
    s.buf = vim.api.nvim_create_buf(false, true)
    vim.bo[s.buf].bufhidden = "hide"
  end
  vim.api.nvim_buf_set_lines(s.buf, 0, -1, false, lines)
  vim.api.nvim_buf_clear_namespace(s.buf, M.ns, 0, -1)
  local d = daemon.get()
  for i, it in ipairs(s.items) do
    if i == s.index then
      vim.api.nvim_buf_set_extmark(s.buf, M.ns, i - 1, 0, { end_col = #lines[i], hl_group = "TagdSuggestionSelected",
        priority = 100 })
    end
    for _, m in ipairs(it.matches or {}) do -- in the negotiated encoding: to bytes (+1: the leading space)
      local b0 = text.to_byte(it.text, m.start, d and d.encoding or "utf-8")
      local b1 = text.to_byte(it.text, m["end"], d and d.encoding or "utf-8")
      if b0 and b1 and b1 > b0 then
        vim.api.nvim_buf_set_extmark(s.buf, M.ns, i - 1, b0 + 1, { end_col = b1 + 1,
          hl_group = "TagdSuggestionMatch", priority = 200 })
      end
    end
  end
  local cfg = { relative = "win", win = win, anchor = "SW", row = 0, col = 0, width = width, height = #lines,
    style = "minimal", focusable = false, zindex = 60 }
  if s.win and vim.api.nvim_win_is_valid(s.win) then
    vim.api.nvim_win_set_config(s.win, cfg)
  else
    cfg.noautocmd = true
    s.win = vim.api.nvim_open_win(s.buf, false, cfg)
    vim.wo[s.win].winhighlight = "Normal:TagdSuggestion"
    vim.wo[s.win].wrap = false
  end
end

-- Ask for the suggestions of the current draft (tagd's query default). Never waits.
-- done(items) when given: called with the answer, unless a newer draft made it stale.
function M.update(f, done)
  local d = live(f)
  if not ((config.options.suggest and not f.menu_plugin) or done) or not d then
    return
  end
  local buftext = text.buf_text(f.buf)
  if vim.trim(buftext) == "" then
    if not done or (shown[f.name] or {}).win then
      M.hide(f)
    end
    return done and done(nil)
  end
  seq = seq + 1
  local mine = seq
  local s = shown[f.name] or {}
  shown[f.name] = s
  s.seq = mine
  d:request("field/suggest", { field = f.name, limit = config.options.suggest_limit }, function(err, res)
    if s.seq ~= mine or not f.buf or not vim.api.nvim_buf_is_valid(f.buf) or text.buf_text(f.buf) ~= buftext then
      return -- a newer draft is on its way
    end
    local items = (not err and type(res) == "table" and res.items) or {}
    if done then
      return done(items)
    end
    if vim.fn.mode() ~= "i" then
      return M.hide(f)
    end
    s.query, s.items, s.index = buftext, items, 1
    draw(f, s)
  end)
end

-- Make `item` a tag: the draft becomes its text, then field/submit (tagd applies every rule).
local function take(f, item)
  vim.api.nvim_buf_set_lines(f.buf, 0, -1, false, { item.text })
  M.hide(f) -- also drops the answer to the question the new draft just asked
  require("tagd.sync").request(f, "field/submit")
end

-- <Tab>: the highlighted suggestion when the float shows the current draft's, else the best one
-- tagd gives for it. Returns false (the key does what it always does) when the draft is empty.
function M.accept(f)
  local buftext = text.buf_text(f.buf)
  if vim.trim(buftext) == "" then
    return false
  end
  local s = shown[f.name]
  if s and s.win and s.items and s.items[s.index] and s.query == buftext then
    return take(f, s.items[s.index])
  end
  M.update(f, function(items)
    if items and items[1] then
      take(f, items[1])
    end
  end)
end

-- <C-n>/<C-p>: move the highlight; false when no suggestions show.
function M.move(f, delta)
  local s = shown[f.name]
  if not (s and s.win and s.items and #s.items > 0) then
    return false
  end
  s.index = (s.index - 1 + delta) % #s.items + 1
  draw(f, s)
end

-- For completion plugins (tagd.cmp, tagd.blink): tagd's suggestions for field buffer `buf`'s
-- draft as LSP CompletionItems, in tagd's order (sortText) and all kept by the plugin's own
-- filter (filterText is the draft: tagd already matched them). cb(items) or cb({}) when `buf` is
-- not a field or tagd does not run; never waits.
function M.completion_items(buf, cb)
  local name = vim.b[buf] and vim.b[buf].tagd_field
  local f = name and require("tagd.field").get(name)
  if not (f and f.buf == buf and live(f)) then
    return cb({})
  end
  M.update(f, function(items)
    local draft = text.buf_text(buf)
    local whole = { start = { line = 0, character = 0 },
      ["end"] = { line = 0, character = text.to_char(draft, #draft, "utf-16") } } -- LSP's default units
    local out = {}
    for i, it in ipairs(items or {}) do
      out[i] = { label = it.text, insertText = it.text, filterText = draft, sortText = string.format("%05d", i),
        textEdit = { newText = it.text, range = whole }, kind = 1, labelDetails = { description = "tagd" } }
    end
    cb(out)
  end)
end

return M
