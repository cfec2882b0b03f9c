-- :TagFieldFrontMatter and :TagFieldOrgHeading — a tag field bound to the tags a document
-- carries: YAML or TOML front matter, an Org file's #+FILETAGS:, or the tags of the Org heading
-- at the cursor. tagd reads them (document/tags) and writes them back (document/setTags: minimal
-- text edits, applied to the buffer; saving the file is the user's act). The plugin parses
-- nothing itself: before every write it reads the document's tags again, so a hand edit of them
-- while the field is open is merged into the field, never overwritten.
local config = require("tagd.config")
local daemon = require("tagd.daemon")
local notice = require("tagd.notice")

local M = {}

-- Filetypes where a document without tags gets front matter (any buffer that carries tags can
-- be bound).
M.filetypes = { markdown = true, pandoc = true, quarto = true, rmd = true, mdx = true, vimwiki = true, org = true }

-- Field options of a field on Org tags: Org's own tag characters (letters, digits, `_`, `@`,
-- `#`, `%`), so tagd refuses a tag Org cannot hold while it is typed, saying why; a space or a
-- colon ends a tag as a comma does. The pattern is tagd's (Swift Regex) syntax.
M.org_options = { separators = { ",", ":", " ", "\n" }, pattern = "[\\p{L}\\p{Nd}_@#%]+" }

local heading_ns = vim.api.nvim_create_namespace("tagd.heading")

-- name -> binding {buf, field, format, mark, known, inflight, again, pending}
local bindings = {}

function M.is_org(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  return vim.bo[buf].filetype == "org" or name:match("%.org$") ~= nil or name:match("%.org_archive$") ~= nil
end

-- The buffer as the document tagd reads: its lines, each ending with a newline.
local function document(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
end

-- document/tags and document/setTags params for binding `b` (the heading's line as it is now).
local function params(b, extra)
  local p = { text = document(b.buf), format = b.format }
  if b.mark then
    p.line = vim.api.nvim_buf_get_extmark_by_id(b.buf, heading_ns, b.mark, {})[1]
  end
  return vim.tbl_extend("force", p, extra or {})
end

local function same(a, b)
  return vim.deep_equal(a or {}, b or {})
end

local function has(list, x)
  return vim.tbl_contains(list, x)
end

-- The field's tags after a hand edit of the document took `known` to `now`: what the field has,
-- without the tags the edit removed, then the tags it added.
function M.merge(known, now, tags)
  local out = {}
  for _, t in ipairs(tags) do
    if has(now, t) or not has(known, t) then
      table.insert(out, t)
    end
  end
  for _, t in ipairs(now) do
    if not has(known, t) and not has(out, t) then
      table.insert(out, t)
    end
  end
  return out
end

local write

-- Make the field carry `wanted` (tagd's rules apply: field/removeTag, field/addTags, each said
-- by tagd). The next write waits for the answers; after(), when given, runs just before it.
-- Returns false when nothing is to change.
local function reconcile(b, wanted, after)
  local sync = require("tagd.sync")
  local f = b.field
  local removes, adds = {}, {}
  for _, t in ipairs(f.tags) do
    if not has(wanted, t) then
      table.insert(removes, t)
    end
  end
  for _, t in ipairs(wanted) do
    if not has(f.tags, t) then
      table.insert(adds, t)
    end
  end
  if #removes + #adds == 0 then
    return false
  end
  local function done()
    b.pending = b.pending - 1
    if b.pending == 0 then
      if after then
        after()
      end
      write(b)
    end
  end
  for _, t in ipairs(removes) do
    b.pending = b.pending + 1
    if not sync.request(f, "field/removeTag", { tag = t }, done) then
      b.pending = b.pending - 1
    end
  end
  if #adds > 0 then
    b.pending = b.pending + 1
    if not sync.request(f, "field/addTags", { tags = adds }, done) then
      b.pending = b.pending - 1
    end
  end
  return true
end

-- A read or a write of the document failed: the chips go back to the tags the document last
-- had, then tagd's message is shown (in the field window, not only in :messages; after tagd's
-- sentences about the chips put back, so that it is the one left on screen).
local function failed(b, what, err)
  local f = b.field
  local msg = what .. ": " .. tostring(err and err.message or "no answer")
  local function say()
    notice.echo(msg, "error")
    if f.buf and vim.api.nvim_buf_is_valid(f.buf) then
      notice.show_in(f.buf, "tagd: " .. msg, "error", notice.shown_ms, function()
        require("tagd.field").redraw(f)
      end)
    end
  end
  if not reconcile(b, b.known, say) then
    say()
  end
end

-- Write the field's tags into the document. One read-then-write at a time: the document's tags
-- are read first; when they are not the ones last read or written (edited by hand), the edit is
-- merged into the field and the write comes after. The edits are applied only to the text they
-- were computed for (otherwise it starts over with the text as it is now).
write = function(b)
  local d = daemon.get()
  local field = require("tagd.field")
  if not (d and d.ready and vim.api.nvim_buf_is_valid(b.buf) and field.get(b.field.name) == b.field) then
    return
  end
  if b.inflight or b.pending > 0 then
    b.again = true
    return
  end
  b.inflight, b.again = true, false
  local tick = vim.api.nvim_buf_get_changedtick(b.buf)
  local function finish()
    b.inflight = false
    if b.again then
      write(b)
    end
  end
  d:request("document/tags", params(b), function(err, res)
    if not vim.api.nvim_buf_is_valid(b.buf) then
      b.inflight = false
      return
    end
    if vim.api.nvim_buf_get_changedtick(b.buf) ~= tick then
      b.again = true
      return finish()
    end
    if err or type(res) ~= "table" then
      b.inflight = false
      return failed(b, "document/tags", err)
    end
    if not same(res.tags, b.known) then -- edited by hand since: merged, then written
      local wanted = M.merge(b.known or {}, res.tags or {}, b.field.tags)
      b.known = res.tags or {}
      b.inflight = false
      if not reconcile(b, wanted) then
        write(b)
      end
      return
    end
    local tags = vim.deepcopy(b.field.tags)
    d:request("document/setTags", params(b, { tags = tags }), function(err2, res2)
      if not vim.api.nvim_buf_is_valid(b.buf) then
        b.inflight = false
        return
      end
      if err2 then
        b.inflight = false
        return failed(b, "document/setTags", err2)
      elseif vim.api.nvim_buf_get_changedtick(b.buf) ~= tick then
        b.again = true -- the document changed meanwhile: the edits are for another text
      else
        if type(res2) == "table" and type(res2.edits) == "table" and #res2.edits > 0 then
          vim.lsp.util.apply_text_edits(res2.edits, b.buf, d.encoding)
        end
        b.known = tags
      end
      finish()
    end)
  end)
end

-- A field on buffer `buf`'s tags, named `name`, opened in Insert mode. `target`: {format,
-- mark} (nil format: detected by tagd), `options`: its field options, `check(res)`: a message
-- when the document read cannot be bound. The field opens as soon as tagd runs (keys typed
-- right after the command land in it) and gets the document's tags when tagd has read them; a
-- document tagd cannot read gives tagd's message and no field.
local function bind(buf, name, target, options, check)
  if require("tagd.vault").holds(buf) then -- a note of a vault: the vault's tags are suggested
    options = vim.tbl_extend("force", options or config.options.field_options or {}, { suggestFromVault = true })
  end
  local tagd = require("tagd")
  local field = require("tagd.field")
  local sync = require("tagd.sync")
  local b = { buf = buf, format = target.format, mark = target.mark, inflight = false, again = false, pending = 0 }
  local function give_up(msg)
    if msg then
      notice.error(msg)
    end
    local f = field.get(name)
    if f and vim.api.nvim_get_current_buf() == f.buf then
      vim.cmd("stopinsert")
    end
    tagd.close(name)
    bindings[name] = nil
    if b.mark then
      pcall(vim.api.nvim_buf_del_extmark, buf, heading_ns, b.mark)
    end
  end
  daemon.ensure(function(d, why)
    if not d then -- tagd could not start: one line, never a hit-enter prompt
      return notice.echo(tostring(why), "error")
    end
    if not tagd.open(name, { insert = true, hold = true, options = options }) then
      return
    end
    d:request("document/tags", params(b), function(err, res)
      local f = field.get(name)
      if not f then
        return
      end
      if err or type(res) ~= "table" then
        return give_up(tostring(err and err.message or "no answer"))
      end
      local problem = check and check(res)
      if problem then
        return give_up(problem)
      end
      b.field, b.format, b.known = f, res.format, res.tags or {}
      bindings[name] = b
      f.tags, f.hold = res.tags or {}, nil
      f.on_change = function()
        write(b)
      end
      -- Back in the field: the document's tags are read again (a hand edit shows at once).
      vim.api.nvim_create_autocmd("WinEnter", {
        buffer = f.buf,
        callback = function()
          if bindings[name] == b then
            write(b)
          end
        end,
      })
      sync.open_on_server(f, d)
    end)
  end, true, require("tagd.config").options.start_wait)
  return name
end

local function file_label(buf)
  local path = vim.api.nvim_buf_get_name(buf)
  return path ~= "" and vim.fn.fnamemodify(path, ":~:.") or ("buffer " .. buf)
end

local function not_a_field(buf, cmd)
  if vim.b[buf].tagd_field then
    notice.error(cmd .. ": this is a tag field; run it in a note's buffer")
    return false
  end
  return true
end

-- :TagFieldFrontMatter: bind a tag field to buffer `buf`'s front matter (an Org file's
-- #+FILETAGS:, created when missing; never front matter in an Org file).
function M.bind(buf)
  if buf == 0 then
    buf = vim.api.nvim_get_current_buf()
  end
  if not not_a_field(buf, ":TagFieldFrontMatter") then
    return nil
  end
  local name = "frontmatter:" .. file_label(buf)
  if require("tagd.field").get(name) then
    require("tagd").open(name, { insert = true })
    return name
  end
  local ft = vim.bo[buf].filetype
  if M.is_org(buf) then
    return bind(buf, name, { format = "org-filetags" }, M.org_options)
  end
  return bind(buf, name, {}, nil, function(res)
    if res.range == vim.NIL or res.range == nil then
      if not M.filetypes[ft] then
        return string.format(":TagFieldFrontMatter: no tags in this buffer, and it is not Markdown (filetype %q)", ft)
      end
    end
  end)
end

-- :TagFieldOrgHeading: bind a tag field to the tags of the Org heading at the cursor (the
-- nearest heading line at or above it), followed as lines are added or removed above it.
function M.bind_heading(buf)
  if buf == 0 then
    buf = vim.api.nvim_get_current_buf()
  end
  if not not_a_field(buf, ":TagFieldOrgHeading") then
    return nil
  end
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local lines = vim.api.nvim_buf_get_lines(buf, 0, row + 1, false)
  while row >= 0 and not lines[row + 1]:match("^%*+ ") do
    row = row - 1
  end
  if row < 0 then
    notice.error(":TagFieldOrgHeading: no Org heading at or above the cursor (:TagFieldFrontMatter edits #+FILETAGS:)")
    return nil
  end
  for name, b in pairs(bindings) do
    if b.buf == buf and b.mark and require("tagd.field").get(name) == b.field
      and vim.api.nvim_buf_get_extmark_by_id(buf, heading_ns, b.mark, {})[1] == row then
      require("tagd").open(name, { insert = true })
      return name
    end
  end
  local mark = vim.api.nvim_buf_set_extmark(buf, heading_ns, row, 0, {})
  local name = string.format("heading:%s:%d", file_label(buf), row + 1)
  if require("tagd.field").get(name) then -- the name of a heading that has moved since
    name = name .. ":" .. mark
  end
  return bind(buf, name, { format = "org-heading", mark = mark }, M.org_options)
end

return M
