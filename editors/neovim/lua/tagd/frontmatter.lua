-- :TagFieldFrontMatter — a tag field bound to the tags a document carries (YAML or TOML front
-- matter, Org #+FILETAGS:). tagd reads them (document/tags) and writes them back
-- (document/setTags: minimal text edits, applied to the buffer; saving the file is the user's
-- act). The plugin parses nothing itself.
local daemon = require("tagd.daemon")
local notice = require("tagd.notice")

local M = {}

-- Filetypes where a document without tags gets front matter (any buffer that carries tags can
-- be bound).
M.filetypes = { markdown = true, pandoc = true, quarto = true, rmd = true, mdx = true, vimwiki = true, org = true }

-- The buffer as the document tagd reads: its lines, each ending with a newline.
local function document(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
end

-- Write the field's tags into the document: one document/setTags at a time, its edits applied
-- only to the text they were computed for (otherwise asked again for the text as it is now).
local function write(b)
  local d = daemon.get()
  if not (d and d.ready and vim.api.nvim_buf_is_valid(b.buf)) then
    return
  end
  if b.inflight then
    b.again = true
    return
  end
  b.inflight, b.again = true, false
  local tick = vim.api.nvim_buf_get_changedtick(b.buf)
  local params = { text = document(b.buf), tags = vim.deepcopy(b.field.tags), format = b.format }
  d:request("document/setTags", params, function(err, res)
    b.inflight = false
    if not vim.api.nvim_buf_is_valid(b.buf) then
      return
    end
    if err then
      notice.warn("document/setTags: " .. tostring(err.message))
    elseif vim.api.nvim_buf_get_changedtick(b.buf) ~= tick then
      b.again = true -- the document changed meanwhile: the edits are for another text
    elseif type(res) == "table" and type(res.edits) == "table" and #res.edits > 0 then
      vim.lsp.util.apply_text_edits(res.edits, b.buf, d.encoding)
    end
    if b.again then
      write(b)
    end
  end)
end

-- Bind a tag field to buffer `buf`'s tags and open it (Insert mode). The field opens as soon as
-- tagd runs (keys typed right after the command land in it) and gets the document's tags when
-- tagd has read them; a document tagd cannot read gives tagd's message and no field.
function M.bind(buf)
  local tagd = require("tagd")
  local field = require("tagd.field")
  local sync = require("tagd.sync")
  if buf == 0 then
    buf = vim.api.nvim_get_current_buf()
  end
  if vim.b[buf].tagd_field then
    notice.error(":TagFieldFrontMatter: this is a tag field; run it in a Markdown buffer")
    return nil
  end
  local path = vim.api.nvim_buf_get_name(buf)
  local name = "frontmatter:" .. (path ~= "" and vim.fn.fnamemodify(path, ":~:.") or ("buffer " .. buf))
  if field.get(name) then
    tagd.open(name, { insert = true })
    return name
  end
  local ft = vim.bo[buf].filetype
  local text = document(buf)
  local function give_up(msg)
    if msg then
      notice.error(msg)
    end
    local f = field.get(name)
    if f and vim.api.nvim_get_current_buf() == f.buf then
      vim.cmd("stopinsert")
    end
    tagd.close(name)
  end
  daemon.ensure(function(d)
    if not (d and tagd.open(name, { insert = true, hold = true })) then
      return -- tagd could not start: said
    end
    d:request("document/tags", { text = text }, function(err, res)
      local f = field.get(name)
      if not f then
        return
      end
      if err or type(res) ~= "table" then
        return give_up(":TagFieldFrontMatter: " .. tostring(err and err.message or "no answer"))
      end
      if res.range == nil and not M.filetypes[ft] then
        return give_up(string.format(":TagFieldFrontMatter: no tags in this buffer, and it is not Markdown "
          .. "(filetype %q)", ft))
      end
      local b = { buf = buf, field = f, format = res.format }
      f.tags, f.hold = res.tags or {}, nil
      f.on_change = function()
        write(b)
      end
      sync.open_on_server(f, d)
    end)
  end, false, require("tagd.config").options.start_wait)
  return name
end

return M
