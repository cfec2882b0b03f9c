vim9script
# The client rules of Protocol/sync.md: every buffer change goes to tagd as field/didChange
# with an increasing version; the edits of a field/didUpdate are applied only when the buffer is
# still at the version they were made for.  Also opening a field on tagd (again, after a
# restart), the requests that act on a field, and taking tagd's state.
#
# A field not yet open on tagd (tagd starting, the front matter being read, tagd restarting)
# keeps what happens meanwhile in f.queue, in order; field/open sends the buffer as it was
# when the queue began (f.base), then the queue goes out.

import autoload 'tagd/daemon.vim'
import autoload 'tagd/render.vim'

def Opt(name: string, default: any): any
  return get(g:, 'tagd_' .. name, default)
enddef

export def BufText(buf: number): string
  return join(getbufline(buf, 1, '$'), "\n")
enddef

def Send(f: dict<any>, method: string, params: dict<any>, Callback: func, isRequest: bool)
  if f.opened
    if isRequest
      daemon.Request(method, params, Callback)
    else
      daemon.Notify(method, params)
    endif
  else
    add(f.queue, [method, params, Callback, isRequest])
  endif
enddef

# A request acting on field {f}; its FieldState is taken (on a synced field tagd's
# field/didUpdate came first, with the same state).  Callback, if any, gets the result.
export def Request(f: dict<any>, method: string, extra: dict<any> = {},
    Callback: func = null_function, OnError: func = null_function)
  const changes = f.userChanges
  Send(f, method, extend({field: f.name}, extra), (resp) => {
    if has_key(resp, 'error')
      Problem(f, method .. ': ' .. get(resp.error, 'message', string(resp.error)))
      if OnError != null_function
        OnError()
      endif
      return
    endif
    const r = get(resp, 'result', {})
    if type(r) == v:t_dict && has_key(r, 'tags')
      TakeState(f, r, changes == f.userChanges)
    endif
    if Callback != null_function
      Callback(r)
    endif
  }, true)
enddef

# An error from tagd about this field: echoed, and kept in its status line until the next
# change.
def Problem(f: dict<any>, text: string)
  echohl ErrorMsg
  echomsg 'tagd: ' .. text
  echohl None
  f.announcement = text
  render.Status(f)
enddef

# field/open for {f} with its tags, options and the buffer at f.base; then what was queued.
export def Open(f: dict<any>)
  var params: dict<any> = {field: f.name, tags: f.tags, text: f.base.text,
    sync: {version: f.base.version, layout: render.LayoutParams(f)}}
  if !empty(f.options)
    params.options = f.options
  endif
  f.opened = true
  f.problem = ''
  daemon.Request('field/open', params, (resp) => {
    if has_key(resp, 'error')
      Problem(f, 'field/open: ' .. get(resp.error, 'message', string(resp.error)))
    elseif type(get(resp, 'result', 0)) == v:t_dict
      TakeState(f, resp.result)
    endif
  })
  const waiting = f.queue
  f.queue = []
  for [method, p, Callback, isRequest] in waiting
    Send(f, method, p, Callback, isRequest)
  endfor
  Layout(f)
enddef

# tagd went away: from now on the field queues, to be re-opened from its buffer as it is now.
export def Lost(f: dict<any>, problem: string)
  f.opened = false
  f.queue = []
  f.base = {text: f.shadow, version: f.version}
  # Requests in flight are never answered now.
  f.pendingSel = 0
  f.suggesting = false
  f.problem = problem
  render.HideSuggestions(f)
  render.Status(f)
enddef

export def Layout(f: dict<any>)
  var params = render.LayoutParams(f)
  params.field = f.name
  Send(f, 'field/layout', params, (resp) => {
    if type(get(resp, 'result', 0)) == v:t_dict
      f.frames = resp.result.frames
      render.Render(f)
    endif
  }, true)
enddef

# ---------------------------------------------------------------------------------------------
# Buffer -> tagd

# LSP position (utf-8) of byte offset {off} in {text}.
export def Position(text: string, off: number): dict<number>
  const before = strpart(text, 0, off)
  const line = count(before, "\n")
  const start = line == 0 ? 0 : strridx(before, "\n") + 1
  return {line: line, character: off - start}
enddef

# Byte offset of an LSP position (utf-8) in {text}.
export def Offset(text: string, pos: dict<any>): number
  var off = 0
  for _ in range(pos.line)
    const nl = stridx(text, "\n", off)
    if nl < 0
      return len(text)
    endif
    off = nl + 1
  endfor
  return off + pos.character
enddef

# A terminal's bracketed paste arrives in chunks, and Vim reports each (and tagd's messages
# read between chunks would flush them): while it arrives the buffer's changes are held back,
# then sent as one change when it is over (Flush), so a paste of 100 tags is one step of
# tagd's undo and one sentence.  keys.vim maps <PasteStart> to Pasting().
export def Pasting(f: dict<any>)
  Flush(f)
  f.pasting = true
enddef

# Every change of the buffer so far reported to tagd (a paste is over).
export def Flush(f: dict<any>)
  f.pasting = false
  if bufexists(f.buf)
    listener_flush(f.buf)
    OnListener(f)   # changes Vim reported during a paste were held back
  endif
enddef

# listener_add() callback: rule 1.
export def OnListener(f: dict<any>)
  if !bufexists(f.buf) || get(f, 'pasting', false)
    return
  endif
  const text = BufText(f.buf)
  if text ==# f.shadow
    return
  endif
  if f.applying
    f.shadow = text   # our own application of tagd's edits, reported with `applied`
    return
  endif
  const wasEmpty = f.shadow == ''
  f.shadow = text
  # tagd clears the selection when the draft changes (and may not say so): the keys typed next
  # and the screen must know it now.
  f.userChanges += 1
  f.userVersion = f.version + 1
  f.expect = -1
  const wasSelected = f.selected >= 0
  f.selected = -1
  f.version += 1
  # The whole text (a range-less change): tagd finds the edit against its mirror of the buffer
  # (sync.md, "Range-less changes"); the plugin computes no diff.
  Send(f, 'field/didChange', {field: f.name, version: f.version, contentChanges: [{text: text}]},
    null_function, false)
  # The prompt shows only on an empty buffer; a change of line 1 by a command (:s, a put) may
  # take its text properties with it.
  if (text == '') != wasEmpty || wasSelected || prop_list(1, {bufnr: f.buf})->empty()
    render.Render(f)
  endif
  Suggest(f)
enddef

# ---------------------------------------------------------------------------------------------
# tagd -> buffer

export def OnDidUpdate(f: dict<any>, p: dict<any>)
  if !bufexists(f.buf) || !f.opened
    return
  endif
  # Changes still waiting in the listener go out first, so `version` is compared with the
  # buffer as it really is; during a paste they wait for its end, and edits are not applied
  # (they are for the buffer before it).
  const pasting = get(f, 'pasting', false)
  if !pasting
    listener_flush(f.buf)
  endif
  if get(p, 'resync', false)
    f.version += 1
    daemon.Notify('field/didChange', {field: f.name, version: f.version,
      contentChanges: [{text: f.shadow}]})
  elseif p.version == f.version && !empty(p.edits) && !pasting
    ApplyEdits(f, p.edits, p.version)
  elseif !empty(p.edits)
    f.stale += 1   # the buffer has moved on: tagd answers the newer change with fresh edits
  endif
  if has_key(p, 'frames')
    f.frames = p.frames
  endif
  TakeState(f, p, p.version >= f.userVersion)
enddef

def ApplyEdits(f: dict<any>, edits: list<any>, version: number)
  var text = f.shadow
  const win = bufwinid(f.buf)
  var cur = -1
  if win != -1
    const pos = getcurpos(win)
    const before = getbufline(f.buf, 1, pos[1] - 1)
    cur = len(join(before, "\n")) + (pos[1] > 1 ? 1 : 0) + pos[2] - 1
    # In Insert mode the cursor may sit after the last character.
    if mode() =~# '^[iR]' && win == win_getid() && col('.') > len(getline('.'))
      cur = len(text)
    endif
  endif
  for e in edits
    const a = Offset(text, e.range.start)
    const b = Offset(text, e.range.end)
    text = strpart(text, 0, a) .. e.newText .. strpart(text, b)
    if cur >= b
      cur += len(e.newText) - (b - a)
    elseif cur > a
      cur = a
    endif
  endfor
  f.applying = true
  const lines = split(text, "\n", true)
  const had = len(getbufline(f.buf, 1, '$'))
  setbufline(f.buf, 1, lines)
  if had > len(lines)
    silent deletebufline(f.buf, len(lines) + 1, '$')
  endif
  listener_flush(f.buf)
  f.applying = false
  f.shadow = text
  f.version += 1
  daemon.Notify('field/didChange', {field: f.name, version: f.version, applied: version,
    contentChanges: mapnew(edits, (_, e) => ({range: e.range, text: e.newText}))})
  if cur >= 0
    const pos = Position(text, cur)
    win_execute(win, 'cursor(' .. (pos.line + 1) .. ', ' .. (pos.character + 1) .. ')')
  endif
enddef

# Take tags, draft, selection, prompt and announcement from a FieldState or a
# field/didUpdate; draw; flash a duplicated chip; tell listeners when the tags changed.
# {current}: the state knows every change the user made (else its selection is gone already).
export def TakeState(f: dict<any>, s: dict<any>, current: bool = true)
  const old = f.tags
  f.tags = get(s, 'tags', f.tags)
  f.text = get(s, 'text', f.text)
  const wasSelected = f.selected >= 0
  f.selected = current ? get(s, 'selected', -1) : -1
  f.prompt = get(s, 'prompt', f.prompt)
  f.canUndo = get(s, 'canUndo', false)
  f.canRedo = get(s, 'canRedo', false)
  f.problem = ''
  if has_key(s, 'announcement')
    f.announcement = s.announcement
    # Kept in :messages, once (a field/didUpdate and the answer to the request that caused it
    # carry the same sentence for the same state).
    const said = [get(s, 'stateVersion', get(s, 'version', -1)), s.announcement]
    if said != get(f, 'said', [])
      f.said = said
      echomsg s.announcement
    endif
  elseif wasSelected && f.selected < 0
    f.announcement = ''   # it was about the selection, which is gone
  endif
  const outcome = get(s, 'outcome', {})
  for d in get(outcome, 'dropped', [])
    if get(d, 'reason', '') == 'duplicate' && has_key(d, 'duplicateOf')
        && d.duplicateOf < len(f.tags)
      Flash(f, d.duplicateOf)
    endif
  endfor
  render.Render(f)
  if old != f.tags
    call(f.changed, [f, outcome])
  endif
  Suggest(f)
enddef

def Flash(f: dict<any>, index: number)
  f.flash = index
  if f.flashTimer != 0
    timer_stop(f.flashTimer)
  endif
  f.flashTimer = timer_start(Opt('flash_ms', 500), (_) => {
    f.flash = -1
    f.flashTimer = 0
    render.Render(f)
  })
enddef

# ---------------------------------------------------------------------------------------------
# Suggestions: asked for after every change of the draft, for the buffer version of then (one
# request at a time; a change meanwhile asks again when the answer comes).  <Tab> takes them
# only while the buffer is still at that version.

export def Suggest(f: dict<any>)
  if !f.opened || !daemon.Supports('field/suggest') || f.shadow == ''
    f.suggest = {}
    render.HideSuggestions(f)
    return
  endif
  if get(f.suggest, 'version', -1) == f.version || get(f, 'suggesting', false)
    return
  endif
  f.suggesting = true
  const version = f.version
  daemon.Request('field/suggest', {field: f.name}, (resp) => {
    f.suggesting = false
    if version != f.version
      Suggest(f)   # the buffer moved on: ask for the draft of now
      return
    endif
    f.suggest = {version: version, items: get(get(resp, 'result', {}), 'items', []), index: 0}
    render.Suggestions(f)
    if get(f, 'tabPending', -1) == f.version
      f.tabPending = -1
      call(f.takeSuggestion, [f])
    endif
  })
enddef
