vim9script
# :TagFieldFrontMatter and :TagFieldOrgHeading: a field on the tags a document carries (YAML or
# TOML front matter; in an Org file its #+FILETAGS:, or the tags of the heading at the cursor),
# read with tagd's document/tags and written back with the TextEdits of document/setTags.  The
# buffer is changed, never written: saving stays the user's act.  Before every write the
# document's tags are read again, so a hand edit of them while the field is open is merged into
# the field, never overwritten.

import autoload 'tagd.vim'
import autoload 'tagd/daemon.vim'
import autoload 'tagd/sync.vim'
import autoload 'tagd/vault.vim'

# Field options of a field on Org tags: Org's own tag characters (letters, digits, `_`, `@`,
# `#`, `%`), so tagd refuses a tag Org cannot hold while it is typed, saying why; a space or a
# colon ends a tag as a comma does.  The pattern is tagd's (Swift Regex) syntax.
export final orgOptions = {separators: [',', ':', ' ', "\n"], pattern: '[\p{L}\p{Nd}_@#%]+'}

var docs: dict<any> = {}   # field buffer -> its document binding (for WinEnter)

def Text(buf: number): string
  return join(getbufline(buf, 1, '$'), "\n") .. "\n"
enddef

export def IsOrg(buf: number): bool
  return getbufvar(buf, '&filetype') == 'org' || bufname(buf) =~ '\.org\(_archive\)\=$'
enddef

# The field's id: the file's name (and the heading's line), or its path relative to the current
# directory when another note of that name has a field already.
def FieldName(buf: number, suffix: string): string
  const name = (bufname(buf) == '' ? 'untitled' : fnamemodify(bufname(buf), ':t')) .. suffix
  const other = tagd.State(name)
  if empty(other) || get(other, 'document', buf) == buf
    return name
  endif
  return fnamemodify(bufname(buf), ':~:.') .. suffix
enddef

def NotInAField(): bool
  if !empty(get(b:, 'tagd_field', {}))
    echohl ErrorMsg | echomsg 'tagd: this is a tag field, not a document' | echohl None
    return false
  endif
  return true
enddef

# :TagFieldFrontMatter
export def FrontMatter()
  if !NotInAField()
    return
  endif
  const buf = bufnr()
  const name = FieldName(buf, '')
  if !empty(tagd.State(name))
    tagd.Open(name, {insert: true})
    return
  endif
  if IsOrg(buf)   # #+FILETAGS:, added when missing: an Org file never gets front matter
    Bind(buf, name, {format: 'org-filetags'}, orgOptions)
  else
    Bind(buf, name, {format: ''}, {})
  endif
enddef

# :TagFieldOrgHeading: the tags of the Org heading at the cursor (the nearest heading line at or
# above it), followed as lines are added or removed above it.
export def OrgHeading()
  if !NotInAField()
    return
  endif
  const buf = bufnr()
  const line = search('^\*\+ ', 'bcnW')
  if line == 0
    echohl ErrorMsg
    echomsg 'tagd: no Org heading at or above the cursor (:TagFieldFrontMatter edits #+FILETAGS:)'
    echohl None
    return
  endif
  const name = FieldName(buf, ':' .. line)
  var open = tagd.State(name)
  if !empty(open) && get(open, 'heading', 0) == line
    tagd.Open(name, {insert: true})
    return
  endif
  Bind(buf, empty(open) ? name : name .. ':' .. reltimestr(reltime())->substitute('\D', '', 'g'),
    {format: 'org-heading', line: line}, orgOptions)
enddef

# document/tags and document/setTags params of {doc} (the heading's line as it is now).
def Params(doc: dict<any>, extra: dict<any> = {}): dict<any>
  var p: dict<any> = {text: Text(doc.buf)}
  if doc.format != ''
    p.format = doc.format
  endif
  if doc.line > 0
    p.line = doc.line - 1
  endif
  return extend(p, extra)
enddef

# Lines added or removed above the heading move it (changes the plugin makes are its own).
def Follow(doc: dict<any>, changes: list<any>)
  if doc.applying
    return
  endif
  for c in changes
    if c.added != 0 && c.end <= doc.line
      doc.line += c.added
    endif
  endfor
enddef

def Bind(buf: number, name: string, target: dict<any>, options: dict<any>)
  var doc: dict<any> = {buf: buf, name: name, format: target.format, line: get(target, 'line', 0),
    busy: 0, again: false, pending: 0, known: [], applying: false, listener: 0}
  var opts: dict<any> = {insert: true, defer: true, document: buf,
    on_change: (_, _) => Write(doc)}
  if !empty(options)
    opts.options = options
  endif
  if vault.Holds(buf)   # a note of a vault: the vault's tags are suggested
    opts.options = extend(copy(get(opts, 'options', {})), {suggestFromVault: true})
  endif
  final f = tagd.Open(name, opts)
  if empty(f)
    return
  endif
  doc.field = f
  docs[f.buf] = doc
  if doc.line > 0
    f.heading = doc.line
    doc.listener = listener_add((_, _, _, _, changes) => {
      Follow(doc, changes)
      f.heading = doc.line
    }, buf)
  endif
  # Read again if tagd restarts before it answers (the field asks for it then).
  f.read = () => daemon.Request('document/tags', Params(doc), (resp) => {
    if !f.deferred
      return
    elseif has_key(resp, 'error')
      tagd.Failed(name, 'document/tags: ' .. get(resp.error, 'message', string(resp.error)))
      return
    endif
    doc.format = resp.result.format
    doc.known = resp.result.tags
    f.tags = copy(resp.result.tags)
    f.deferred = false
    sync.Open(f)
  })
  # Back in the field: the document's tags are read again (a hand edit shows at once).
  exe 'autocmd WinEnter <buffer=' .. f.buf .. '> WriteBack(' .. f.buf .. ')'
  call(f.read, [])
enddef

def WriteBack(buf: number)
  if has_key(docs, buf)
    Write(docs[buf])
  endif
enddef

# The field's tags after a hand edit of the document took {known} to {now}: what the field has,
# without the tags the edit removed, then the tags it added.
export def Merge(known: list<string>, now: list<string>, tags: list<string>): list<string>
  var out = copy(tags)->filter((_, t) => index(now, t) >= 0 || index(known, t) < 0)
  for t in now
    if index(known, t) < 0 && index(out, t) < 0
      add(out, t)
    endif
  endfor
  return out
enddef

# Make the field carry {wanted} (tagd's rules apply: field/removeTag, field/addTags, each said
# by tagd); then After(), then the next write.  False when nothing is to change.
def Reconcile(doc: dict<any>, wanted: list<string>, After: func = null_function): bool
  var f = doc.field
  var removes = copy(f.tags)->filter((_, t) => index(wanted, t) < 0)
  var adds = copy(wanted)->filter((_, t) => index(f.tags, t) < 0)
  if empty(removes) && empty(adds)
    return false
  endif
  const Done = (_) => {
    doc.pending = doc.pending - 1
    if doc.pending == 0
      if After != null_function
        After()
      endif
      Write(doc)
    endif
  }
  for t in removes
    doc.pending += 1
    sync.Request(f, 'field/removeTag', {tag: t}, Done, () => Done({}))
  endfor
  if !empty(adds)
    doc.pending += 1
    sync.Request(f, 'field/addTags', {tags: adds}, Done, () => Done({}))
  endif
  return true
enddef

# A read or a write tagd refused: its message in the field's window (and :messages), and the
# chips back to the tags the document last had.
def Failed(doc: dict<any>, what: string, error: dict<any>)
  const problem = what .. ': ' .. get(error, 'message', string(error))
  const Say = () => tagd.Failed(doc.name, problem)
  if !Reconcile(doc, doc.known, Say)
    Say()
  endif
enddef

# Write the field's tags into the document: read them first; when they are not the ones last
# read or written (edited by hand), merge that edit into the field and write after.  One
# read-then-write at a time; a change meanwhile starts again with the tags of then.  (A request
# to a tagd that has died since is never answered: doc.busy names that tagd's pid.)
def Write(doc: dict<any>)
  if !bufexists(doc.buf) || empty(tagd.State(doc.name)) || doc.field.deferred
    return
  endif
  if (doc.busy == daemon.Info().pid && doc.busy != 0) || doc.pending > 0
    doc.again = true
    return
  endif
  doc.busy = daemon.Info().pid
  doc.again = false
  const tick = getbufvar(doc.buf, 'changedtick')
  const Again = () => {
    doc.busy = 0
    if doc.again
      Write(doc)
    endif
  }
  daemon.Request('document/tags', Params(doc), (resp) => {
    if getbufvar(doc.buf, 'changedtick') != tick
      doc.again = true
      Again()
      return
    elseif has_key(resp, 'error')
      doc.busy = 0
      Failed(doc, 'document/tags', resp.error)
      return
    endif
    var now = copy(resp.result.tags)
    if now != doc.known   # edited by hand since: merged into the field, then written
      var wanted = Merge(doc.known, now, doc.field.tags)
      doc.known = now
      doc.busy = 0
      if !Reconcile(doc, wanted)
        Write(doc)
      endif
      return
    endif
    var tags = copy(doc.field.tags)
    daemon.Request('document/setTags', Params(doc, {tags: tags}), (r) => {
      if has_key(r, 'error')
        doc.busy = 0
        Failed(doc, 'document/setTags', r.error)
        return
      elseif getbufvar(doc.buf, 'changedtick') != tick
        doc.again = true   # the note changed meanwhile: these edits are for the old text
      else
        doc.applying = true
        Apply(doc.buf, r.result.edits)
        if doc.listener != 0
          listener_flush(doc.buf)
        endif
        doc.applying = false
        doc.known = tags
      endif
      Again()
    })
  })
enddef

# LSP TextEdits (UTF-8 positions) applied to buffer {buf}, last first.
export def Apply(buf: number, edits: list<any>)
  const sorted = sort(copy(edits), (a, b) => a.range.start.line != b.range.start.line
    ? b.range.start.line - a.range.start.line
    : b.range.start.character - a.range.start.character)
  for e in sorted
    const [sl, sc, el, ec] = [e.range.start.line, e.range.start.character,
      e.range.end.line, e.range.end.character]
    const count = len(getbufline(buf, 1, '$'))
    const first = sl < count ? getbufline(buf, sl + 1)[0] : ''
    const last = el < count ? getbufline(buf, el + 1)[0] : ''
    const new = split(strpart(first, 0, sc) .. e.newText .. strpart(last, ec), "\n", true)
    const upto = min([el, count - 1])
    if sl < count
      deletebufline(buf, sl + 1, upto + 1)
    endif
    if getbufline(buf, 1, '$') == [''] && sl == 0
      setbufline(buf, 1, new)
    else
      appendbufline(buf, sl, new)
    endif
  endfor
enddef
