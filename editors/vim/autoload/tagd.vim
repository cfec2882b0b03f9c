vim9script
# tagd.vim: tag input fields for Vim 9, driven by the tagd daemon over Vim's LSP channel.
#
# One tagd job per Vim, shared by every field.  Each field lives in its own buffer whose text is
# the draft; committed tags are chips drawn as text properties with virtual text before it, placed
# by tagd's cell layout.  Buffer changes reach tagd through the editor sync path of
# Protocol/sync.md: listener_add() reports every change as field/didChange, and the edits of a
# field/didUpdate are applied only when the buffer is still at the version they were made for.

# The directory of this file: editors/vim/autoload in the tagd repository.
const here = expand('<sfile>:p:h')

# ---------------------------------------------------------------------------------------------
# Options (read when used, so a user may change them at any time)

def Opt(name: string, default: any): any
  return get(g:, 'tagd_' .. name, default)
enddef

# ---------------------------------------------------------------------------------------------
# The daemon

var job: job
var chan: channel
var running = false
var stopping = false
var restarts: list<float> = []   # reltime seconds of recent restarts
var lastError = ''
var serverInfo: dict<any> = {}
var pid = 0        # the process id of the current tagd

# Where tagd is: g:tagd_cmd (a string or a list), else $TAGD, else `tagd` on $PATH, else the
# repository's own .build/debug/tagd or .build/release/tagd next to this plugin.
export def Command(): list<string>
  var cmd: any = Opt('cmd', '')
  if type(cmd) == v:t_list && !empty(cmd)
    return copy(cmd)
  elseif type(cmd) == v:t_string && cmd != ''
    return [cmd]
  endif
  if $TAGD != ''
    return [$TAGD]
  endif
  if exepath('tagd') != ''
    return [exepath('tagd')]
  endif
  const repo = fnamemodify(here, ':h:h:h')
  for kind in ['debug', 'release']
    const exe = repo .. '/.build/' .. kind .. '/tagd'
    if executable(exe)
      return [exe]
    endif
  endfor
  return []
enddef

def Start(): bool
  if running
    return true
  endif
  const cmd = Command()
  if empty(cmd)
    Error('tagd not found: set g:tagd_cmd, put tagd on $PATH or build the repository')
    return false
  endif
  job = job_start(cmd + Opt('args', []), {
    in_mode: 'lsp', out_mode: 'lsp', err_mode: 'nl',
    out_cb: OnMessage, err_cb: OnStderr, exit_cb: OnExit, close_cb: OnClose,
    noblock: true, stoponexit: 'term'})
  if job_status(job) != 'run'
    Error('could not start ' .. join(cmd))
    return false
  endif
  chan = job_getchannel(job)
  pid = job_info(job).process
  running = true
  Log('--', {started: job_info(job).process, time: reltimestr(reltime())})
  const resp = ch_evalexpr(chan, {method: 'initialize', params: {
    processId: getpid(),
    capabilities: {general: {positionEncodings: ['utf-8']}}}},
    {timeout: Opt('timeout', 5000)})
  if type(resp) != v:t_dict || !has_key(resp, 'result')
    Error('tagd did not answer initialize: ' .. string(resp))
    job_stop(job, 'kill')
    running = false
    return false
  endif
  serverInfo = resp.result
  Log('--', {initialized: true, time: reltimestr(reltime())})
  if get(resp.result.capabilities, 'positionEncoding', '') != 'utf-8'
    Error('tagd did not agree to utf-8 positions')
  endif
  Notify('initialized', {})
  return true
enddef

# g:tagd_log names a file that gets every message to and from tagd (for debugging).
def Log(dir: string, msg: any)
  const file = Opt('log', '')
  if file != ''
    writefile([dir .. ' ' .. json_encode(msg)], file, 'a')
  endif
enddef

# Whether messages can be sent now.  While tagd is gone (until it is restarted) nothing is
# sent: the restart re-opens every field with its whole buffer.
def CanSend(): bool
  return running && ch_status(chan) == 'open'
enddef

def Notify(method: string, params: dict<any>)
  Log('->', {method: method, params: params})
  if CanSend()
    try
      ch_sendexpr(chan, {method: method, params: params})
    catch
      Log('--', {sendFailed: v:exception})
    endtry
  endif
enddef

# An asynchronous request; Callback gets the result (errors are reported and dropped).
def Request(method: string, params: dict<any>, Callback: func(any) = null_function)
  Log('->', {method: method, params: params})
  if !CanSend()
    return
  endif
  try
    ch_sendexpr(chan, {method: method, params: params}, {callback: (_, resp) => {
      Log('<-', resp)
      if type(resp) == v:t_dict && has_key(resp, 'error')
        Error(method .. ': ' .. get(resp.error, 'message', string(resp.error)))
      elseif type(resp) == v:t_dict && Callback != null_function
        Callback(get(resp, 'result', null))
      endif
    }})
  catch
    Log('--', {sendFailed: v:exception})
  endtry
enddef

# A synchronous request: the response dict ({} on timeout).  Notifications that arrive while
# waiting are still handled.
def RequestSync(method: string, params: dict<any>): dict<any>
  if !CanSend()
    return {}
  endif
  Log('->', {method: method, params: params})
  var resp: any
  try
    resp = ch_evalexpr(chan, {method: method, params: params}, {timeout: Opt('timeout', 5000)})
  catch
    Log('--', {sendFailed: v:exception})
    return {}
  endtry
  Log('<-', resp)
  if type(resp) != v:t_dict
    return {}
  endif
  if has_key(resp, 'error')
    Error(method .. ': ' .. get(resp.error, 'message', string(resp.error)))
  endif
  return resp
enddef

def OnMessage(_: channel, msg: any)
  Log('<-', msg)
  if type(msg) != v:t_dict || !has_key(msg, 'method')
    return
  endif
  if msg.method == 'field/didUpdate' && type(get(msg, 'params', 0)) == v:t_dict
    OnDidUpdate(msg.params)
  endif
enddef

def OnStderr(_: channel, line: string)
  lastError = line
enddef

# tagd closed its stdout: it is exiting.  Vim notices a job's end only now and then; asking
# job_status() makes it run exit_cb (OnExit) as soon as the process is gone.
def OnClose(_: channel)
  const closed = job
  timer_start(20, (t) => {
    if job_status(closed) != 'run'
      timer_stop(t)
    endif
  }, {repeat: 250})
enddef

def OnExit(ended: job, status: number)
  Log('--', {exit: status, stopping: stopping, time: reltimestr(reltime())})
  if job_info(ended).process != pid
    return   # an earlier tagd (one that failed to start): the current one is unaffected
  endif
  running = false
  if stopping
    return
  endif
  # Restart with every open field re-opened, at most g:tagd_max_restarts times a minute.
  const now = reltimefloat(reltime())
  filter(restarts, (_, t) => now - t < 60)
  if empty(fields) || len(restarts) >= Opt('max_restarts', 5)
    if !empty(fields)
      Error('tagd exited (' .. status .. ') too often; not restarting. ' .. lastError)
    endif
    return
  endif
  add(restarts, now)
  timer_start(0, (_) => Restart())
enddef

def Restart()
  Log('--', {restart: running, time: reltimestr(reltime())})
  try
    if running || !Start()
      return
    endif
    for f in values(fields)
      if bufexists(f.buf)
        listener_flush(f.buf)
        OpenOnServer(f)
      endif
    endfor
  catch
    Log('--', {exception: v:exception, where: v:throwpoint})
    Error('restart failed: ' .. v:exception)
  endtry
enddef

export def Stop()
  stopping = true
  if running
    RequestSync('shutdown', {})
    Notify('exit', {})
  endif
  running = false
enddef

# For tests and :TagFieldInfo: the job, its state and the agreed server capabilities.
export def Info(): dict<any>
  return {running: running, job: job, channel: chan, pid: running ? pid : 0,
    server: serverInfo, cmd: Command(), fields: keys(fields), restarts: len(restarts)}
enddef

# :TagFieldInfo
export def InfoCommand()
  const i = Info()
  const version = get(get(i.server, 'serverInfo', {}), 'version', '?')
  echo 'tagd: ' .. (empty(i.cmd) ? '(not found)' : join(i.cmd))
  echo '  ' .. (i.running ? 'running, pid ' .. i.pid .. ', version ' .. version : 'not running')
    .. ', ' .. i.restarts .. ' restart(s) in the last minute'
  echo '  fields: ' .. (empty(i.fields) ? '(none)' : join(sort(copy(i.fields)), ', '))
enddef

def Error(text: string)
  Log('--', {error: text})
  echohl ErrorMsg
  echomsg 'tagd: ' .. text
  echohl None
enddef

# ---------------------------------------------------------------------------------------------
# Fields

# name -> field record
var fields: dict<dict<any>> = {}
var byBuf: dict<string> = {}

def Highlights()
  highlight default link TagdChip Pmenu
  highlight default link TagdChipSelected PmenuSel
  highlight default link TagdChipFlash ErrorMsg
  highlight default link TagdGap Normal
  highlight default link TagdMore Comment
enddef
Highlights()
augroup tagd_highlights
  autocmd!
  autocmd ColorScheme * Highlights()
augroup END

# start_incl: text typed at column 1 goes after the chips, not before them.
for [type, group] in [['tagd_chip', 'TagdChip'], ['tagd_selected', 'TagdChipSelected'],
    ['tagd_flash', 'TagdChipFlash'], ['tagd_gap', 'TagdGap'], ['tagd_more', 'TagdMore']]
  if empty(prop_type_get(type))
    prop_type_add(type, {highlight: group, start_incl: true})
  endif
endfor


def ChipEnds(): list<string>
  return Opt('chip', ['[', ']'])
enddef

def LayoutParams(f: dict<any>): dict<any>
  const ends = ChipEnds()
  return {width: Width(f), cells: {padding: strdisplaywidth(ends[0] .. ends[1])},
    fieldHeight: 1, spacing: 1, fieldMinWidth: Opt('field_min_width', 10)}
enddef

def Width(f: dict<any>): number
  const win = bufwinid(f.buf)
  return win == -1 ? Opt('width', 60) : max([winwidth(win), 1])
enddef

def BufText(buf: number): string
  return join(getbufline(buf, 1, '$'), "\n")
enddef

# Send field/open for a record (first open or after a restart).
def OpenOnServer(f: dict<any>)
  var params: dict<any> = {field: f.name, tags: f.tags, text: f.shadow,
    sync: {version: f.version, layout: LayoutParams(f)}}
  if !empty(f.options)
    params.options = f.options
  endif
  const resp = RequestSync('field/open', params)
  if has_key(resp, 'result')
    TakeState(f, resp.result)
  endif
  RequestLayout(f)
enddef

def RequestLayout(f: dict<any>)
  var params = LayoutParams(f)
  params.field = f.name
  const name = f.name
  Request('field/layout', params, (r) => {
    if has_key(fields, name) && type(r) == v:t_dict
      fields[name].frames = r.frames
      Render(fields[name])
    endif
  })
enddef

# Opens field {name}; {opts}: tags (list), options (field/open options), window ('split' or
# 'none'), height, insert (start Insert mode), on_change (Funcref called with name and tags).
# Returns the field's buffer number, or -1.
export def Open(name: string, opts: dict<any> = {}): number
  if has_key(fields, name) && bufexists(fields[name].buf)
    var f = fields[name]
    const win = bufwinid(f.buf)
    if win != -1
      win_gotoid(win)
    elseif get(opts, 'window', 'split') == 'split'
      exe 'botright :1split'
      exe 'buffer ' .. f.buf
      f.win = win_getid()
      WindowOptions()
      RequestLayout(f)
      Status(f)
    endif
    if get(opts, 'insert', false) && bufnr() == f.buf
      startinsert!
    endif
    return f.buf
  endif
  if &encoding != 'utf-8'
    Error("tag fields need 'encoding' utf-8 (positions are sent to tagd as UTF-8 bytes)")
    return -1
  endif
  if !Start()
    return -1
  endif
  const where = get(opts, 'window', 'split')
  var buf: number
  if where == 'split'
    exe 'botright :1new'
    buf = bufnr()
  else
    buf = bufadd('tagd://' .. name)
    bufload(buf)
  endif
  setbufvar(buf, '&buftype', 'nofile')
  setbufvar(buf, '&bufhidden', 'hide')
  setbufvar(buf, '&swapfile', 0)
  setbufvar(buf, '&undolevels', 1000)
  setbufvar(buf, '&textwidth', 0)
  setbufvar(buf, '&filetype', 'tagd')
  if where == 'split'
    silent! exe 'file ' .. fnameescape('tagd://' .. name)
    WindowOptions()
  endif
  var f: dict<any> = {name: name, buf: buf, version: 0, shadow: '', tags: [], text: '',
    frames: [], sel: -1, flash: -1, flashTimer: 0, applying: false,
    options: get(opts, 'options', {}),
    onChange: get(opts, 'on_change', null_function), height: get(opts, 'height', 0),
    stateVersion: 0, stale: 0}
  if where == 'split'
    f.win = win_getid()
  endif
  fields[name] = f
  byBuf[string(buf)] = name
  f.listener = listener_add(OnListener, buf)
  Mappings(buf)
  exe 'augroup tagd_buf_' .. buf
    autocmd!
    exe 'autocmd BufWipeout <buffer=' .. buf .. '> ++once Forget(' .. buf .. ')'
    exe 'autocmd WinResized,VimResized * Resized(' .. buf .. ')'
    exe 'autocmd BufWinEnter <buffer=' .. buf .. '> Shown(' .. buf .. ')'
    # Listener callbacks otherwise wait for the next redraw.
    exe 'autocmd TextChanged,TextChangedI,TextChangedP <buffer=' .. buf .. '> listener_flush('
      .. buf .. ')'
  augroup END
  f.tags = copy(get(opts, 'tags', []))
  OpenOnServer(f)
  if get(opts, 'insert', false) && where == 'split'
    startinsert!
  endif
  return buf
enddef

# The field's window shows exactly what tagd laid out: no columns before the text, lines wrap
# at the window's edge only.
def WindowOptions()
  setlocal nonumber norelativenumber signcolumn=no foldcolumn=0 nolist wrap nolinebreak
  setlocal nobreakindent showbreak=NONE colorcolumn= nospell winfixheight nocursorline
  setlocal conceallevel=0
enddef

# :TagField [name]
export def FieldCommand(arg: string)
  Open(arg == '' ? 'default' : arg, {insert: true})
enddef

# The tags of field {name} (empty when it is not open).
export def Tags(name: string): list<string>
  return has_key(fields, name) ? copy(fields[name].tags) : []
enddef

# The field record as a copy (for tests and scripts): tags, text, version, frames, sel, buf.
export def State(name: string): dict<any>
  if !has_key(fields, name)
    return {}
  endif
  const f = fields[name]
  return {tags: copy(f.tags), text: f.text, version: f.version, frames: copy(f.frames),
    sel: f.sel, buf: f.buf, flash: f.flash, stateVersion: f.stateVersion,
    drawn: copy(get(f, 'drawn', [])), rows: get(f, 'rows', 1), stale: f.stale,
    hidden: get(f, 'hidden', 0)}
enddef

# Adds tags from outside the box (a script, a suggestion).
export def AddTags(name: string, tags: list<string>)
  if has_key(fields, name)
    Request('field/addTags', {field: name, tags: tags}, (r) => TakeResult(name, r))
  endif
enddef

export def RemoveTag(name: string, index: number)
  if has_key(fields, name)
    fields[name].sel = -1
    Request('field/removeTag', {field: name, index: index}, (r) => TakeResult(name, r))
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

def Forget(buf: number)
  const key = string(buf)
  if !has_key(byBuf, key)
    return
  endif
  const name = byBuf[key]
  remove(byBuf, key)
  if has_key(fields, name)
    const f = fields[name]
    listener_remove(f.listener)
    if f.flashTimer != 0
      timer_stop(f.flashTimer)
    endif
    remove(fields, name)
    Request('field/close', {field: name})
  endif
  exe 'augroup tagd_buf_' .. buf
    autocmd!
  augroup END
  exe 'augroup! tagd_buf_' .. buf
enddef

# The field's buffer shown in a window by other means than :TagField (:sbuffer, :b).
def Shown(buf: number)
  const key = string(buf)
  if has_key(byBuf, key) && has_key(fields, byBuf[key]) && bufnr() == buf
    WindowOptions()
    RequestLayout(fields[byBuf[key]])
    Status(fields[byBuf[key]])
  endif
enddef

def Resized(buf: number)
  const key = string(buf)
  if has_key(byBuf, key) && has_key(fields, byBuf[key])
    const f = fields[byBuf[key]]
    if get(f, 'lastWidth', -1) != Width(f)
      RequestLayout(f)
    endif
  endif
enddef

# ---------------------------------------------------------------------------------------------
# Sync path: buffer -> tagd

# Byte offset of an LSP position (utf-8) in {text}.
def Offset(text: string, pos: dict<any>): number
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

# LSP position (utf-8) of byte offset {off} in {text}.
def Position(text: string, off: number): dict<number>
  const before = strpart(text, 0, off)
  const line = count(before, "\n")
  const start = line == 0 ? 0 : strridx(before, "\n") + 1
  return {line: line, character: off - start}
enddef

def IsContinuation(s: string, i: number): bool
  return i > 0 && i < len(s) && and(char2nr(strpart(s, i, 1)), 0xC0) == 0x80
enddef

# One range change that turns {old} into {new}: the common prefix and suffix are kept, cut at
# character boundaries.
def Diff(old: string, new: string): dict<any>
  const lo = len(old)
  const ln = len(new)
  var p = 0
  const maxp = min([lo, ln])
  while p < maxp && strpart(old, p, 1) ==# strpart(new, p, 1)
    p += 1
  endwhile
  while IsContinuation(old, p) || IsContinuation(new, p)
    p -= 1
  endwhile
  var s = 0
  while s < lo - p && s < ln - p && strpart(old, lo - 1 - s, 1) ==# strpart(new, ln - 1 - s, 1)
    s += 1
  endwhile
  while s > 0 && (IsContinuation(old, lo - s) || IsContinuation(new, ln - s))
    s -= 1
  endwhile
  return {range: {start: Position(old, p), end: Position(old, lo - s)},
    text: strpart(new, p, ln - s - p)}
enddef

def OnListener(buf: number, start: number, end: number, added: number, changes: list<any>)
  const key = string(buf)
  if !has_key(byBuf, key) || !has_key(fields, byBuf[key])
    return
  endif
  var f = fields[byBuf[key]]
  const text = BufText(buf)
  if text ==# f.shadow
    return
  endif
  if f.applying
    f.shadow = text   # our own application of server edits, reported with `applied`
    return
  endif
  const change = Diff(f.shadow, text)
  f.shadow = text
  f.version += 1
  const hadSelection = f.sel >= 0
  f.sel = -1
  Notify('field/didChange', {field: f.name, version: f.version, contentChanges: [change]})
  # Undo, :s and the like replace line 1 together with its text properties: draw the chips
  # again when they are gone (tagd sends no update for a change that commits nothing).
  if hadSelection || (!empty(f.tags) && empty(prop_list(1, {bufnr: buf})))
    Render(f)
  endif
enddef

# ---------------------------------------------------------------------------------------------
# Sync path: tagd -> buffer

def OnDidUpdate(p: dict<any>)
  if !has_key(fields, get(p, 'field', ''))
    return
  endif
  var f = fields[p.field]
  if !bufexists(f.buf)
    return
  endif
  # Changes still waiting in the listener go out first, so `version` is compared with the
  # buffer as it really is.
  listener_flush(f.buf)
  if get(p, 'resync', false)
    f.version += 1
    Notify('field/didChange', {field: f.name, version: f.version,
      contentChanges: [{text: f.shadow}]})
  elseif p.version == f.version && !empty(p.edits)
    ApplyEdits(f, p.edits, p.version)
  elseif !empty(p.edits)
    f.stale += 1   # the buffer has moved on: tagd answers the newer change with fresh edits
  endif
  if has_key(p, 'frames')
    f.frames = p.frames
  endif
  TakeState(f, p)
enddef

def ApplyEdits(f: dict<any>, edits: list<any>, version: number)
  var text = f.shadow
  const win = bufwinid(f.buf)
  var cur = -1
  if win != -1
    const pos = getcurpos(win)
    const lines = getbufline(f.buf, 1, pos[1] - 1)
    cur = len(join(lines, "\n")) + (pos[1] > 1 ? 1 : 0) + pos[2] - 1
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
  Notify('field/didChange', {field: f.name, version: f.version, applied: version,
    contentChanges: mapnew(edits, (_, e) => ({range: e.range, text: e.newText}))})
  if cur >= 0
    const pos = Position(text, cur)
    win_execute(win, 'cursor(' .. (pos.line + 1) .. ', ' .. (pos.character + 1) .. ')')
  endif
enddef

# Take tags/draft from a FieldState or a field/didUpdate; render; flash; notify.
def TakeState(f: dict<any>, s: dict<any>)
  const old = f.tags
  f.tags = get(s, 'tags', f.tags)
  f.text = get(s, 'text', f.text)
  f.stateVersion = get(s, 'stateVersion', get(s, 'version', f.stateVersion))
  if f.sel >= len(f.tags)
    f.sel = -1
  endif
  const outcome = get(s, 'outcome', {})
  var dropped = get(outcome, 'dropped', [])
  for d in dropped
    if get(d, 'reason', '') == 'duplicate' && has_key(d, 'duplicateOf')
      Flash(f, d.duplicateOf)
    endif
  endfor
  Render(f)
  if !empty(dropped)
    const reasons = join(mapnew(dropped, (_, d) => DropReason(d)), ' ')
    Echo(get(s, 'announcement', reasons), 'WarningMsg', f, reasons)
  elseif Opt('announce', false) && has_key(s, 'announcement')
    Echo(s.announcement, 'None', f)
  elseif old != f.tags
    f.message = ''
  endif
  Status(f)
  if old != f.tags
    Changed(f, outcome)
  endif
enddef

# A message in the command line (and :messages) that the redraw of the mode message does not
# wipe out at once.
# A message in the command line (and :messages); in Insert mode the mode message wipes the
# command line at once, so it is also kept in the field window's status line until the next
# change of tags.
def Echo(text: string, group: string, f: dict<any> = {}, short: string = '')
  redraw
  exe 'echohl ' .. group
  echomsg 'tagd: ' .. text
  echohl None
  if !empty(f)
    f.message = short == '' ? text : short
    f.messageGroup = group
    Status(f)
  endif
enddef

def Status(f: dict<any>)
  const win = bufwinid(f.buf)
  if win == -1
    return
  endif
  var line = 'tagd://' .. substitute(f.name, '%', '%%', 'g') .. ' ' .. len(f.tags)
    .. (len(f.tags) == 1 ? ' tag' : ' tags') .. '%<'
  if get(f, 'message', '') != ''
    # Cut at the end to fit, not at the start as the status line would.
    const room = winwidth(win) - strdisplaywidth(f.name) - 18
    var text = f.message
    if strdisplaywidth(text) > room
      while text != '' && strdisplaywidth(text .. '…') > room
        text = strcharpart(text, 0, strchars(text) - 1)
      endwhile
      text ..= '…'
    endif
    line ..= '  %#' .. (f.messageGroup == 'None' ? 'StatusLine' : f.messageGroup) .. '#'
      .. substitute(text, '%', '%%', 'g') .. '%*'
  endif
  setwinvar(win, '&statusline', line)
enddef

def DropReason(d: dict<any>): string
  const r = get(d, 'reason', '')
  if r == 'duplicate'
    return d.text .. ' is already a tag.'
  elseif r == 'tooLong'
    return d.text .. ' is longer than ' .. get(d, 'limit', '?') .. ' characters.'
  elseif r == 'tooMany'
    return d.text .. ' not added: at most ' .. get(d, 'limit', '?') .. ' tags.'
  endif
  return 'empty tag ignored.'
enddef

# The result of a request that answers with FieldState: the didUpdate came first on a synced
# field, so this only matters when it changed nothing there (or when tags differ).
def TakeResult(name: string, r: any)
  if has_key(fields, name) && type(r) == v:t_dict && get(r, 'tags', []) != fields[name].tags
    TakeState(fields[name], r)
    RequestLayout(fields[name])
  endif
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

def Flash(f: dict<any>, index: number)
  f.flash = index
  if f.flashTimer != 0
    timer_stop(f.flashTimer)
  endif
  const name = f.name
  f.flashTimer = timer_start(Opt('flash_ms', 500), (_) => {
    if has_key(fields, name)
      fields[name].flash = -1
      fields[name].flashTimer = 0
      Render(fields[name])
    endif
  })
enddef

# ---------------------------------------------------------------------------------------------
# Chips: virtual text before the draft, row by row as tagd's frames place them.  Every row
# but the draft's is padded with blank virtual text to the window's width, so Vim wraps exactly
# where tagd broke the line.

def Label(tag: string, width: number): string
  const ends = ChipEnds()
  var label = ends[0] .. tag .. ends[1]
  if strdisplaywidth(label) <= width
    return label .. repeat(' ', width - strdisplaywidth(label))
  endif
  # Narrowed chip: cut the tag, keep the closing end.
  var t = tag
  while t != '' && strdisplaywidth(ends[0] .. t .. '…' .. ends[1]) > width
    t = strcharpart(t, 0, strchars(t) - 1)
  endwhile
  label = ends[0] .. t .. '…' .. ends[1]
  return strdisplaywidth(label) <= width ? label : strcharpart(label, 0, width)
enddef

def Render(f: dict<any>)
  if !bufexists(f.buf)
    return
  endif
  const lines = len(getbufline(f.buf, 1, '$'))
  prop_clear(1, max([1, lines]), {bufnr: f.buf})
  f.drawn = []
  f.hidden = 0
  const n = len(f.tags)
  if n == 0 || len(f.frames) != n + 1
    f.rows = 1
    Resize(f)
    return
  endif
  const width = Width(f)
  f.lastWidth = width
  # Rows in the order of their y; spacing between rows is not drawn.
  var ys = uniq(sort(mapnew(f.frames, (_, fr) => float2nr(fr.y)), 'n'))
  # More rows than the window may grow to: the first rows give way to one line that counts the
  # chips left out, so the draft stays in view.
  const room = max([1, Opt('max_height', 10) - (lines - 1)])
  var first = 0
  if len(ys) > room
    first = len(ys) - room + 1
    f.hidden = f.frames[: n - 1]->mapnew((_, fr) => index(ys, float2nr(fr.y)))
      ->filter((_, r) => r < first)->len()
    # (A row of its own: inline text padded to the width, as text_align 'above' is drawn after
    # the inline chips in Vim 9.0.1378.)
    var more = printf(Opt('more_text', '… %d more tags (:TagFieldTags lists them)'), f.hidden)
    while strdisplaywidth(more) > width
      more = strcharpart(more, 0, strchars(more) - 1)
    endwhile
    Draw(f, 'tagd_more', more .. repeat(' ', width - strdisplaywidth(more)))
  endif
  var x = 0
  var row = first
  for i in range(n + 1)
    const fr = f.frames[i]
    const r = index(ys, float2nr(fr.y))
    if r < first
      continue
    endif
    if r != row
      if x < width
        Draw(f, 'tagd_gap', repeat(' ', width - x))
      endif
      x = 0
      row = r
    endif
    const fx = float2nr(fr.x)
    if fx > x
      Draw(f, 'tagd_gap', repeat(' ', fx - x))
      x = fx
    endif
    if i == n
      break
    endif
    const type = i == f.flash ? 'tagd_flash' : i == f.sel ? 'tagd_selected' : 'tagd_chip'
    const w = float2nr(fr.width)
    Draw(f, type, Label(f.tags[i], w))
    x += w
  endfor
  f.rows = len(ys) - first + (first > 0 ? 1 : 0)
  Resize(f)
enddef

# One piece of virtual text; f.drawn keeps what was drawn, in order (State() returns it).
def Draw(f: dict<any>, type: string, text: string)
  prop_add(1, 1, {type: type, text: text, bufnr: f.buf})
  add(f.drawn, [type, text])
enddef

def Resize(f: dict<any>)
  const win = bufwinid(f.buf)
  # Only the bottom window :TagField made is sized: resizing a full-height window would give
  # the lines to the command line.
  if win == -1 || win != get(f, 'win', -1)
    return
  endif
  const lines = len(getbufline(f.buf, 1, '$'))
  var want = f.height > 0 ? f.height : get(f, 'rows', 1) + lines - 1
  want = min([max([want, 1]), Opt('max_height', 10)])
  if winheight(win) != want
    win_execute(win, 'resize ' .. want)
  endif
enddef

# ---------------------------------------------------------------------------------------------
# Keys

def Mappings(buf: number)
  if Opt('no_mappings', false)
    return
  endif
  const maps = [
    ['i', '<CR>', '<Plug>(tagd-submit)'], ['n', '<CR>', '<Plug>(tagd-submit)'],
    ['i', '<BS>', '<Plug>(tagd-backspace)'], ['n', '<BS>', '<Plug>(tagd-backspace)'],
    ['i', '<S-Tab>', '<Plug>(tagd-prev-chip)'], ['n', '<S-Tab>', '<Plug>(tagd-prev-chip)'],
    ['i', '<Tab>', '<Plug>(tagd-next-chip)'], ['n', '<Tab>', '<Plug>(tagd-next-chip)'],
    ['i', '<C-x>', '<Plug>(tagd-remove-chip)'], ['n', '<C-x>', '<Plug>(tagd-remove-chip)']]
  for [mode, lhs, rhs] in maps
    if maparg(lhs, mode, false, true)->get('buffer', 0) == 0
      exe 'silent ' .. mode .. 'map <buffer> <nowait> ' .. lhs .. ' ' .. rhs
    endif
  endfor
enddef

def Current(): dict<any>
  const key = string(bufnr())
  return has_key(byBuf, key) && has_key(fields, byBuf[key]) ? fields[byBuf[key]] : {}
enddef

# Return: the draft becomes a tag.
export def Submit()
  var f = Current()
  if empty(f)
    return
  endif
  listener_flush(f.buf)
  const name = f.name
  Request('field/submit', {field: name}, (r) => TakeResult(name, r))
enddef

# Backspace: with a chip selected, removes it; on an empty buffer, removes the last tag
# (field/deleteBackward); otherwise deletes the character before the cursor (in Normal mode:
# moves left, as <BS> does).  "Empty" is decided
# here, when the key is handled (sync.md rule 3).
export def Backspace()
  var f = Current()
  if empty(f)
    return
  endif
  listener_flush(f.buf)
  if f.sel >= 0
    RemoveTag(f.name, f.sel)
    return
  endif
  if f.shadow == ''
    const name = f.name
    Request('field/deleteBackward', {field: name}, (r) => TakeResult(name, r))
    return
  endif
  if mode() !~# '^[iR]'
    exe "normal! \<BS>"
    return
  endif
  const lnum = line('.')
  const col = col('.')
  if col > 1
    const line = getline(lnum)
    const before = strpart(line, 0, col - 1)
    const last = strcharpart(before, strchars(before) - 1)
    setline(lnum, strpart(before, 0, len(before) - len(last)) .. strpart(line, col - 1))
    cursor(lnum, col - len(last))
  elseif lnum > 1
    const prev = getline(lnum - 1)
    setline(lnum - 1, prev .. getline(lnum))
    deletebufline(bufnr(), lnum)
    cursor(lnum - 1, len(prev) + 1)
  endif
  # Reported on its own, not merged with the keys after it: a one-character deletion of text
  # tagd has already committed is what tells it that this was a Backspace (sync.md).
  listener_flush(f.buf)
enddef

# Select the chip to the left (from the draft: the last chip).
export def PrevChip()
  var f = Current()
  if empty(f) || empty(f.tags)
    return
  endif
  f.sel = f.sel < 0 ? len(f.tags) - 1 : max([f.sel - 1, 0])
  Render(f)
  Announce(f)
enddef

# Select the chip to the right; past the last one, back to the draft.
export def NextChip()
  var f = Current()
  if empty(f) || f.sel < 0
    return
  endif
  f.sel = f.sel + 1 >= len(f.tags) ? -1 : f.sel + 1
  Render(f)
  Announce(f)
enddef

# Remove the selected chip, or the last one.
export def RemoveChip()
  var f = Current()
  if empty(f) || empty(f.tags)
    return
  endif
  RemoveTag(f.name, f.sel >= 0 ? f.sel : len(f.tags) - 1)
enddef

def Announce(f: dict<any>)
  if f.sel >= 0
    echo 'tagd: ' .. f.tags[f.sel] .. ' (' .. (f.sel + 1) .. '/' .. len(f.tags) .. ') <C-x> removes'
  else
    echo ''
  endif
enddef

# ---------------------------------------------------------------------------------------------
# :TagFieldFrontMatter: the `tags:` of a Markdown file's YAML front matter, through a field.

# Where the front matter's tags are in {lines}: {fm: has front matter, close: index of its
# closing line, start/end: the tags entry's lines (end inclusive; -1 when absent), style: 'flow'
# or 'block', indent: of the block items, tags: the list}.
export def ParseFrontMatter(lines: list<string>): dict<any>
  var r: dict<any> = {fm: false, close: -1, start: -1, end: -1, style: 'flow', indent: '  ',
    tags: []}
  if empty(lines) || lines[0] !~ '^---\s*$'
    return r
  endif
  var close = -1
  for i in range(1, len(lines) - 1)
    if lines[i] =~ '^\(---\|\.\.\.\)\s*$'
      close = i
      break
    endif
  endfor
  if close < 0
    return r
  endif
  r.fm = true
  r.close = close
  for i in range(1, close - 1)
    const m = matchlist(lines[i], '^tags\s*:\s*\(.\{-}\)\s*$')
    if empty(m)
      continue
    endif
    r.start = i
    r.end = i
    var rest = StripComment(m[1])
    if rest =~ '^\['
      # Flow sequence, possibly over several lines.
      var j = i
      while rest !~ '\]\s*$' && j + 1 < close
        j += 1
        rest ..= ' ' .. StripComment(trim(lines[j]))
      endwhile
      r.end = j
      r.style = 'flow'
      r.tags = SplitFlow(substitute(substitute(rest, '^\[', '', ''), '\]\s*$', '', ''))
    elseif rest == ''
      r.style = 'block'
      var j = i + 1
      while j < close && lines[j] =~ '^\s*\(-\(\s\|$\)\|#\|$\)'
        const item = matchlist(lines[j], '^\(\s*\)-\s*\(.\{-}\)\s*$')
        if !empty(item)
          if r.end == i
            r.indent = item[1]
          endif
          const value = Unquote(StripComment(item[2]))
          if value != ''
            add(r.tags, value)
          endif
        endif
        if lines[j] !~ '^\s*$'
          r.end = j
        endif
        j += 1
      endwhile
    else
      r.style = 'flow'   # a plain scalar: `tags: a, b` or `tags: a`
      r.tags = SplitFlow(rest)
    endif
    break
  endfor
  return r
enddef

# {s} without a trailing YAML comment (a # at the start or after a space, outside quotes).
def StripComment(s: string): string
  var quote = ''
  var prev = ' '
  var out = ''
  const chars = split(s, '\zs')
  var i = 0
  while i < len(chars)
    const c = chars[i]
    if quote != ''
      if c == '\' && quote == '"' && i + 1 < len(chars)
        out ..= c .. chars[i + 1]
        i += 2
        prev = 'x'
        continue
      elseif c == quote
        quote = ''
      endif
    elseif c == '"' || c == "'"
      quote = c
    elseif c == '#' && prev =~ '\s'
      break
    endif
    out ..= c
    prev = c
    i += 1
  endwhile
  return trim(out)
enddef

def SplitFlow(s: string): list<string>
  var out: list<string> = []
  var cur = ''
  var quote = ''
  var i = 0
  const chars = split(s, '\zs')
  while i < len(chars)
    const c = chars[i]
    if quote != ''
      cur ..= c
      if c == '\' && quote == '"' && i + 1 < len(chars)
        cur ..= chars[i + 1]
        i += 1
      elseif c == quote
        quote = ''
      endif
    elseif c == '"' || c == "'"
      quote = c
      cur ..= c
    elseif c == ','
      add(out, cur)
      cur = ''
    else
      cur ..= c
    endif
    i += 1
  endwhile
  add(out, cur)
  return filter(mapnew(out, (_, t) => Unquote(trim(t))), (_, t) => t != '')
enddef

def Unquote(s: string): string
  if s =~ '^".*"$' && len(s) >= 2
    return substitute(s[1 : -2], '\\\(.\)',
      '\=submatch(1) == "n" ? "\n" : submatch(1) == "t" ? "\t" : submatch(1)', 'g')
  elseif s =~ "^'.*'$" && len(s) >= 2
    return substitute(s[1 : -2], "''", "'", 'g')
  endif
  return s
enddef

# A tag as a YAML scalar: plain when that reads back as the same string, else double-quoted.
export def YamlScalar(tag: string): string
  const special = tag =~ '[:#\[\]{},"''\\]' || tag =~ '^[-?!&*|>%@` ]' || tag =~ '\s$'
    || tag =~? '^\(true\|false\|null\|yes\|no\|on\|off\|y\|n\|\~\)$' || tag =~ '^[-+.]\?\d'
    || tag =~ '[[:cntrl:]]'
  if !special
    return tag
  endif
  return '"' .. escape(tag, '"\')->substitute("\n", '\\n', 'g')->substitute("\t", '\\t', 'g') .. '"'
enddef

def FrontMatterLines(tags: list<string>, style: string, indent: string): list<string>
  if style == 'block' && !empty(tags)
    return ['tags:'] + mapnew(tags, (_, t) => indent .. '- ' .. YamlScalar(t))
  endif
  return ['tags: [' .. join(mapnew(tags, (_, t) => YamlScalar(t)), ', ') .. ']']
enddef

# Rewrite the tags of buffer {buf}'s front matter (creating the front matter or the entry when
# missing), then write the file when g:tagd_frontmatter_write is on (the default).
export def WriteFrontMatter(buf: number, tags: list<string>, style: string, indent: string)
  if !bufexists(buf)
    return
  endif
  const lines = getbufline(buf, 1, '$')
  const r = ParseFrontMatter(lines)
  const new = FrontMatterLines(tags, style, r.start >= 0 && r.style == 'block' ? r.indent : indent)
  if !r.fm
    appendbufline(buf, 0, ['---'] + new + ['---'])
  elseif r.start < 0
    appendbufline(buf, r.close, new)
  else
    if lines[r.start : r.end] == new
      return
    endif
    deletebufline(buf, r.start + 1, r.end + 1)
    appendbufline(buf, r.start, new)
  endif
  if Opt('frontmatter_write', true) && bufname(buf) != '' && getbufvar(buf, '&buftype') == ''
    const win = bufwinid(buf)
    if win != -1
      win_execute(win, 'silent update')
    endif
  endif
enddef

# :TagFieldFrontMatter: opens a field on the current buffer's front-matter tags.
export def FrontMatter()
  const buf = bufnr()
  if has_key(byBuf, string(buf))
    Error('this is a tag field already')
    return
  endif
  const r = ParseFrontMatter(getline(1, '$'))
  var style = r.start >= 0 ? r.style : Opt('frontmatter_style', 'flow')
  const indent = r.indent
  Open('frontmatter:' .. buf, {tags: r.tags, insert: true,
    on_change: (_, tags) => WriteFrontMatter(buf, tags, style, indent)})
enddef
