vim9script
# :TagFieldFrontMatter: a field on the tags a document carries (YAML or TOML front matter,
# Org #+FILETAGS), read with tagd's document/tags and written back with the TextEdits of
# document/setTags.  The buffer is changed, never written: saving stays the user's act.

import autoload 'tagd.vim'
import autoload 'tagd/daemon.vim'
import autoload 'tagd/sync.vim'

def Text(buf: number): string
  return join(getbufline(buf, 1, '$'), "\n") .. "\n"
enddef

# The field's id: the file's name, or its path relative to the current directory when another
# note of that name has a field already.
def FieldName(buf: number): string
  const name = bufname(buf) == '' ? 'untitled' : fnamemodify(bufname(buf), ':t')
  const other = tagd.State(name)
  if empty(other) || get(other, 'document', buf) == buf
    return name
  endif
  return fnamemodify(bufname(buf), ':~:.')
enddef

export def FrontMatter()
  const buf = bufnr()
  if !empty(get(b:, 'tagd_field', {}))
    echohl ErrorMsg | echomsg 'tagd: this is a tag field, not a document' | echohl None
    return
  endif
  const name = FieldName(buf)
  if !empty(tagd.State(name))
    tagd.Open(name, {insert: true})
    return
  endif
  var doc: dict<any> = {buf: buf, format: '', busy: 0, again: false, tags: []}
  const f = tagd.Open(name, {insert: true, defer: true, document: buf,
    on_change: (_, tags) => SetTags(doc, tags)})
  if empty(f)
    return
  endif
  # Read again if tagd restarts before it answers (the field asks for it then).
  f.read = () => daemon.Request('document/tags', {text: Text(buf)}, (resp) => {
    if !f.deferred
      return
    elseif has_key(resp, 'error')
      tagd.Failed(name, 'document/tags: ' .. get(resp.error, 'message', string(resp.error)))
      return
    endif
    doc.format = resp.result.format
    f.tags = resp.result.tags
    f.deferred = false
    sync.Open(f)
  })
  call(f.read, [])
enddef

# One document/setTags at a time; a change meanwhile asks again with the tags of then.  (A
# request to a tagd that has died since is never answered: doc.busy names that tagd's pid.)
def SetTags(doc: dict<any>, tags: list<string>)
  doc.tags = tags
  if doc.busy == daemon.Info().pid && doc.busy != 0
    doc.again = true
    return
  endif
  if !bufexists(doc.buf)
    return
  endif
  doc.busy = daemon.Info().pid
  doc.again = false
  const tick = getbufvar(doc.buf, 'changedtick')
  daemon.Request('document/setTags', {text: Text(doc.buf), tags: tags, format: doc.format},
    (resp) => {
      doc.busy = 0
      if has_key(resp, 'error')
        echohl ErrorMsg
        echomsg 'tagd: document/setTags: ' .. get(resp.error, 'message', string(resp.error))
        echohl None
      elseif getbufvar(doc.buf, 'changedtick') != tick
        doc.again = true   # the note changed meanwhile: these edits are for the old text
      else
        Apply(doc.buf, resp.result.edits)
      endif
      if doc.again
        SetTags(doc, doc.tags)
      endif
    })
enddef

# LSP TextEdits (UTF-8 positions) applied to buffer {buf}, last first.
def Apply(buf: number, edits: list<any>)
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
