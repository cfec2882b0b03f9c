vim9script
# tagd.vim: tag input fields for Vim 9, driven by the tagd daemon.  This file keeps the open
# fields and is the public API (tagd#Open() and friends, the commands); the work is split by
# concern:
#   tagd/daemon.vim     the tagd job: start-up without blocking, restarts, messages
#   tagd/sync.vim       the buffer <-> tagd rules of Protocol/sync.md, opening, tagd's state
#   tagd/render.vim     chips, prompt, status line, suggestion popup
#   tagd/keys.vim       the keys of a field buffer
#   tagd/documents.vim  :TagFieldFrontMatter, :TagFieldOrgHeading (document/tags, document/setTags)
#   tagd/vault.vim      the vaults (g:tagd_vaults), :TagdTags, :TagdRename

import autoload 'tagd/daemon.vim'
import autoload 'tagd/keys.vim' as keymap
import autoload 'tagd/render.vim'
import autoload 'tagd/sync.vim'

# name -> field record
var fields: dict<dict<any>> = {}

def OnNotification(method: string, params: dict<any>)
  if method == 'field/didUpdate' && has_key(fields, get(params, 'field', ''))
    sync.OnDidUpdate(fields[params.field], params)
  endif
enddef

# tagd is up (first start or a restart): every field not open on it is opened, with its tags
# and its buffer.
def OnUp()
  for f in values(fields)
    if !f.opened && !f.deferred && bufexists(f.buf)
      listener_flush(f.buf)
      sync.Open(f)
    elseif f.deferred && has_key(f, 'read')
      call(f.read, [])   # its document was being read when tagd went
    endif
  endfor
enddef

def OnDown(problem: string)
  for f in values(fields)
    if bufexists(f.buf)
      listener_flush(f.buf)
    endif
    sync.Lost(f, problem)
  endfor
enddef

daemon.On({notification: OnNotification, up: OnUp, down: OnDown})

export def Command(): list<string>
  return daemon.Command()
enddef

def Changed(f: dict<any>, outcome: dict<any>)
  g:tagd_event = {field: f.name, tags: copy(f.tags), outcome: outcome}
  if f.onChange != null_function
    call(f.onChange, [f.name, copy(f.tags)])
  endif
  if exists('#User#TagdTagsChanged')
    doautocmd <nomodeline> User TagdTagsChanged
  endif
enddef

# Opens field {name}; {opts}: tags (list), options (field/open options, passed unchanged),
# window ('split' or 'none'), height, insert (start Insert mode), on_change (Funcref called
# with name and tags).  Returns the field's buffer number, or -1.
export def Open(name: string, opts: dict<any> = {}): any
  if has_key(fields, name) && bufexists(fields[name].buf)
    var f = fields[name]
    if bufwinid(f.buf) != -1
      win_gotoid(bufwinid(f.buf))
    elseif get(opts, 'window', 'split') == 'split'
      exe 'botright :1split'
      exe 'buffer ' .. f.buf
      f.win = win_getid()
      WindowOptions()
      sync.Layout(f)
    endif
    if get(opts, 'insert', false) && bufnr() == f.buf
      startinsert!
    endif
    return has_key(opts, 'defer') ? f : f.buf
  endif
  if &encoding != 'utf-8'
    echohl ErrorMsg
    echomsg "tagd: tag fields need 'encoding' utf-8 (positions are sent to tagd as UTF-8 bytes)"
    echohl None
    return has_key(opts, 'defer') ? {} : -1
  endif
  const where = get(opts, 'window', 'split')
  var buf: number
  if where == 'split'
    exe 'botright :1new'
    buf = bufnr()
    silent! exe 'file ' .. fnameescape('tagd://' .. name)
    WindowOptions()
  else
    buf = bufadd('tagd://' .. name)
    bufload(buf)
  endif
  for [option, value] in [['&buftype', 'nofile'], ['&bufhidden', 'hide'], ['&swapfile', 0],
      ['&undolevels', -1], ['&textwidth', 0], ['&filetype', 'tagd']]
    setbufvar(buf, option, value)
  endfor
  var f: dict<any> = {name: name, buf: buf, version: 0, shadow: '', tags: copy(get(opts, 'tags', [])),
    text: '', frames: [], selected: -1, flash: -1, flashTimer: 0, applying: false,
    options: get(opts, 'options', {}), prompt: '', announcement: '', problem: '',
    onChange: get(opts, 'on_change', null_function), height: get(opts, 'height', 0),
    opened: false, deferred: get(opts, 'defer', false), queue: [], base: {text: '', version: 0},
    stale: 0, suggest: {}, popup: 0, pendingSel: 0, expect: -1, userChanges: 0, userVersion: 0, rows: 1, drawn: [], hidden: 0, changed: Changed,
    document: get(opts, 'document', -1)}
  if where == 'split'
    f.win = win_getid()
  endif
  fields[name] = f
  setbufvar(buf, 'tagd_field', f)
  f.listener = listener_add((_, _, _, _, _) => sync.OnListener(f), buf)
  keymap.Map(f)
  exe 'augroup tagd_buf_' .. buf
    autocmd!
    exe 'autocmd BufWipeout <buffer=' .. buf .. '> ++once Forget(' .. buf .. ')'
    exe 'autocmd WinResized,VimResized * Resized(' .. buf .. ')'
    exe 'autocmd BufWinEnter <buffer=' .. buf .. '> Shown(' .. buf .. ')'
    exe 'autocmd InsertLeave,BufLeave <buffer=' .. buf .. '> Hide(' .. buf .. ')'
    # Focus leaves the field: field/blur (commits the draft with the commitOnBlur option).
    exe 'autocmd WinLeave <buffer=' .. buf .. '> Blur(' .. buf .. ')'
    # Listener callbacks otherwise wait for the next redraw (and a paste is over).
    exe 'autocmd TextChanged,TextChangedI,TextChangedP <buffer=' .. buf .. '> Flush(' .. buf .. ')'
  augroup END
  render.Render(f)
  daemon.Start()
  if !f.deferred && daemon.Info().state != 'failed'
    sync.Open(f)
  elseif daemon.Info().state == 'failed'
    sync.Lost(f, daemon.Info().problem)
  endif
  if get(opts, 'insert', false) && where == 'split'
    startinsert!
  endif
  return f.deferred ? f : buf
enddef

# The field's window shows exactly what tagd laid out: no columns before the text, lines wrap
# at the window's edge only.
def WindowOptions()
  setlocal nonumber norelativenumber signcolumn=no foldcolumn=0 nolist wrap nolinebreak
  setlocal nobreakindent showbreak=NONE colorcolumn= nospell winfixheight nocursorline
  setlocal conceallevel=0
enddef

# A field that could not be opened (its document could not be read): said in its window.
export def Failed(name: string, problem: string)
  if has_key(fields, name)
    fields[name].problem = problem
    render.Status(fields[name])
    echohl ErrorMsg | echomsg 'tagd: ' .. problem | echohl None
  endif
enddef

# The name a command without an argument means: the current field, else "default".
def Name(arg: string): string
  if arg != ''
    return arg
  endif
  const f = get(b:, 'tagd_field', {})
  return empty(f) ? 'default' : f.name
enddef

# :TagField [name]
export def FieldCommand(arg: string)
  Open(arg == '' ? 'default' : arg, {insert: true})
enddef

# :TagFieldClose [name]
export def CloseCommand(arg: string)
  const name = Name(arg)
  if !has_key(fields, name)
    echohl ErrorMsg
    echomsg 'tagd: no field named ' .. name .. (empty(fields) ? ' (none is open)'
      : ' (open: ' .. join(sort(keys(fields)), ', ') .. ')')
    echohl None
    return
  endif
  Close(name)
  echomsg 'tagd: closed ' .. name
enddef

# :TagFieldTags [name]
export def TagsCommand(arg: string)
  const name = Name(arg)
  if !has_key(fields, name)
    CloseCommand(name)   # the same "no field named" message
    return
  endif
  echo fields[name].tags
enddef

# Completion of field names for the commands.
export def Complete(lead: string, _: string, _: number): list<string>
  return sort(keys(fields))->filter((_, n) => stridx(n, lead) == 0)
enddef

# The tags of field {name} (empty when it is not open).
export def Tags(name: string): list<string>
  return has_key(fields, name) ? copy(fields[name].tags) : []
enddef

# The field record as a copy (for tests and scripts).
export def State(name: string): dict<any>
  if !has_key(fields, name)
    return {}
  endif
  const f = fields[name]
  var s: dict<any> = {}
  for k in ['tags', 'text', 'version', 'frames', 'selected', 'buf', 'flash', 'drawn', 'rows',
      'stale', 'hidden', 'announcement', 'problem', 'prompt', 'opened', 'document', 'suggest',
      'popup', 'canUndo', 'canRedo', 'heading']
    s[k] = deepcopy(get(f, k, null))
  endfor
  return s
enddef

# Adds tags from outside the box (a script).
export def AddTags(name: string, tags: list<string>)
  if has_key(fields, name)
    sync.Request(fields[name], 'field/addTags', {tags: tags})
  endif
enddef

# Removes the tag at {which} (a 0-based index) or equal to {which} (a String, under the
# field's equality).
export def RemoveTag(name: string, which: any)
  if has_key(fields, name)
    sync.Request(fields[name], 'field/removeTag',
      type(which) == v:t_string ? {tag: which} : {index: which})
  endif
enddef

# Changes the tag at {index} to {text} in place, with every rule of a typed tag.
export def ReplaceTag(name: string, index: number, text: string)
  if has_key(fields, name)
    sync.Request(fields[name], 'field/replaceTag', {index: index, text: text})
  endif
enddef

# Replaces the field's vocabulary for suggestions.
export def SetSuggestions(name: string, suggestions: list<string>)
  if has_key(fields, name)
    sync.Request(fields[name], 'field/setSuggestions', {suggestions: suggestions})
  endif
enddef

export def Close(name: string)
  if has_key(fields, name)
    const buf = fields[name].buf
    Forget(buf)
    if bufexists(buf)
      exe 'silent! bwipeout! ' .. buf
    endif
  endif
enddef

def FieldOf(buf: number): dict<any>
  for f in values(fields)
    if f.buf == buf
      return f
    endif
  endfor
  return {}
enddef

def Forget(buf: number)
  const f = FieldOf(buf)
  if empty(f)
    return
  endif
  listener_remove(f.listener)
  if f.flashTimer != 0
    timer_stop(f.flashTimer)
  endif
  render.HideSuggestions(f)
  remove(fields, f.name)
  if f.opened
    daemon.Request('field/close', {field: f.name})
  endif
  exe 'augroup tagd_buf_' .. buf
    autocmd!
  augroup END
  exe 'augroup! tagd_buf_' .. buf
enddef

# The field's buffer shown in a window by other means than :TagField (:sbuffer, :b).
def Shown(buf: number)
  const f = FieldOf(buf)
  if !empty(f) && bufnr() == buf
    WindowOptions()
    sync.Layout(f)
  endif
enddef

def Resized(buf: number)
  const f = FieldOf(buf)
  if !empty(f) && get(f, 'lastWidth', -1) != render.Width(f)
    sync.Layout(f)
  endif
enddef

def Blur(buf: number)
  var f = FieldOf(buf)
  if !empty(f)
    sync.Flush(f)
    sync.Request(f, 'field/blur')
  endif
enddef

def Flush(buf: number)
  var f = FieldOf(buf)
  if !empty(f)
    sync.Flush(f)
  endif
enddef

def Hide(buf: number)
  var f = FieldOf(buf)
  if !empty(f)
    sync.Flush(f)
    render.HideSuggestions(f)
  endif
enddef

# :TagdRestart
export def Restart()
  daemon.Restart()
enddef

export def Stop()
  daemon.Stop()
enddef

# For tests and :TagFieldInfo: the job, its state, the server's capabilities, open fields.
export def Info(): dict<any>
  return extend(daemon.Info(), {fields: keys(fields)})
enddef

# :TagFieldInfo
export def InfoCommand()
  const i = Info()
  const version = get(get(i.server, 'serverInfo', {}), 'version', '?')
  echo 'tagd: ' .. (empty(i.cmd) ? '(not found)' : join(i.cmd) .. ' (from ' .. i.source .. ')')
  echo '  ' .. (i.running ? 'running, pid ' .. i.pid .. ', version ' .. version
    .. ', language ' .. get(i.server, 'language', '?') : i.state
    .. (i.problem == '' ? '' : ': ' .. i.problem))
    .. ', ' .. i.restarts .. ' restart(s) in the last minute'
  echo '  fields: ' .. (empty(i.fields) ? '(none)' : join(sort(copy(i.fields)), ', '))
enddef
