vim9script
# The tagd job: found, started and initialized without blocking Vim, restarted when it dies,
# and the one place messages go to it.  Nothing waits for an answer: every request has a
# callback, and messages sent while tagd starts are queued and sent in order once it has
# answered `initialize`.

import autoload 'tagd/vault.vim'

# The directory of this file: editors/vim/autoload/tagd in the tagd repository.
const here = expand('<sfile>:p:h')

def Opt(name: string, default: any): any
  return get(g:, 'tagd_' .. name, default)
enddef

var job: job = null_job
var chan: channel = null_channel
# 'stopped' (never started, or stopped on purpose), 'starting' (waiting for `initialize`),
# 'running', 'failed' (could not start, or died too often: `problem` says why).
var state = 'stopped'
var problem = ''
var queue: list<list<any>> = []   # [method, params, Callback, isRequest] while starting
var serverInfo: dict<any> = {}
var pid = 0
var restarts: list<float> = []    # reltime seconds of recent automatic restarts
var lastStderr = ''
var initTimer = 0
var handlers: dict<any> = {}

# {notification: func(method, params), up: func(), down: func(problem)}: set by the field code.
export def On(h: dict<any>)
  handlers = h
enddef

def Call(name: string, args: list<any>)
  if has_key(handlers, name)
    call(handlers[name], args)
  endif
enddef

# Where tagd is, and where that came from: [command, source].  g:tagd_cmd (a String or a
# List), else $TAGD, else `tagd` on $PATH, else the repository's own .build/debug/tagd or
# .build/release/tagd next to this plugin.
export def Find(): list<any>
  const cmd: any = Opt('cmd', '')
  if type(cmd) == v:t_list && !empty(cmd)
    return [copy(cmd), 'g:tagd_cmd']
  elseif type(cmd) == v:t_string && cmd != ''
    return [[cmd], 'g:tagd_cmd']
  endif
  if $TAGD != ''
    return [[$TAGD], '$TAGD']
  endif
  if exepath('tagd') != ''
    return [[exepath('tagd')], '$PATH']
  endif
  const repo = fnamemodify(here, ':h:h:h:h')
  for kind in ['debug', 'release']
    const exe = repo .. '/.build/' .. kind .. '/tagd'
    if executable(exe)
      return [[exe], 'the repository build']
    endif
  endfor
  return [[], '']
enddef

export def Command(): list<string>
  return Find()[0]
enddef

# g:tagd_log names a file that gets every message to and from tagd (for debugging and tests).
export def Log(dir: string, msg: any)
  const file = Opt('log', '')
  if file != ''
    writefile([dir .. ' ' .. json_encode(msg)], file, 'a')
  endif
enddef

def Fail(text: string)
  state = 'failed'
  problem = text
  Log('--', {failed: text})
  queue = []
  echohl ErrorMsg
  echomsg 'tagd: ' .. text
  echohl None
  Call('down', [text])
enddef

# Start tagd unless it runs or is starting.  Returns at once: the result of `initialize` arrives
# later (then queued messages go out and the `up` handler runs).
export def Start()
  if state == 'starting' || state == 'running'
    return
  endif
  const [cmd, source] = Find()
  if empty(cmd)
    Fail('tagd not found: set g:tagd_cmd, put tagd on $PATH or build the repository (swift build)')
    return
  endif
  const what = cmd[0]
  const from = ' (from ' .. source .. ')'
  if !executable(cmd[0])
    Fail('cannot run ' .. what .. ': '
      .. (filereadable(cmd[0]) ? 'not executable' : isdirectory(cmd[0]) ? 'a directory'
      : 'no such file') .. from)
    return
  endif
  lastStderr = ''
  try
    job = job_start(cmd + Opt('args', []), {
      in_mode: 'lsp', out_mode: 'lsp', err_mode: 'nl',
      out_cb: OnMessage, err_cb: (_, line) => {
        lastStderr = line
      }, exit_cb: OnExit, close_cb: OnClose, noblock: true, stoponexit: 'term'})
  catch
    Fail('cannot run ' .. what .. ': ' .. v:exception .. from)
    return
  endtry
  if job_status(job) != 'run'
    Fail('cannot run ' .. what .. ': ' .. job_status(job) .. from)
    return
  endif
  chan = job_getchannel(job)
  pid = job_info(job).process
  state = 'starting'
  problem = ''
  Log('--', {started: pid, cmd: cmd})
  const started = pid
  const timeout = Opt('timeout', 5000)
  initTimer = timer_start(timeout, (_) => {
    if state == 'starting' && pid == started
      job_stop(job, 'kill')
      Fail(what .. ' did not answer initialize within ' .. timeout .. ' ms')
    endif
  })
  var init = {method: 'initialize', params: {processId: getpid(),
    locale: Opt('locale', v:lang), capabilities: {general: {positionEncodings: ['utf-8']}}}}
  const folders = vault.WorkspaceFolders()   # the vaults (SPEC §6d), when any
  if !empty(folders)
    init.params.workspaceFolders = folders
  endif
  Log('->', init)
  ch_sendexpr(chan, init, {callback: (_, resp) => OnInitialized(started, what, resp)})
enddef

def OnInitialized(started: number, what: string, resp: any)
  Log('<-', resp)
  timer_stop(initTimer)
  if pid != started || state != 'starting'
    return
  endif
  if type(resp) != v:t_dict || !has_key(resp, 'result') || type(resp.result) != v:t_dict
    job_stop(job, 'kill')
    const why = type(resp) == v:t_dict && has_key(resp, 'error')
      ? get(resp.error, 'message', string(resp.error)) : string(resp)
    Fail(what .. ' refused initialize: ' .. why)
    return
  endif
  serverInfo = resp.result
  if get(get(serverInfo, 'capabilities', {}), 'positionEncoding', '') != 'utf-8'
    job_stop(job, 'kill')
    Fail(what .. ' did not agree to utf-8 positions')
    return
  endif
  state = 'running'
  Send('initialized', {}, null_function, false)
  const waiting = queue
  queue = []
  for [method, params, Callback, isRequest] in waiting
    Send(method, params, Callback, isRequest)
  endfor
  Call('up', [])
enddef

# tagd closed its stdout: it is exiting.  Vim notices a job's end only now and then; asking
# job_status() makes it run exit_cb as soon as the process is gone.
def OnClose(_: channel)
  const closed = job
  timer_start(20, (t) => {
    if job_status(closed) != 'run'
      timer_stop(t)
    endif
  }, {repeat: 250})
enddef

def OnExit(ended: job, status: number)
  Log('--', {exit: status, pid: job_info(ended).process})
  if job_info(ended).process != pid || state == 'stopped' || state == 'failed'
    return   # an earlier tagd, or one stopped on purpose
  endif
  const [cmd, source] = Find()
  const what = cmd[0]
  const why = 'exited with status ' .. status .. (lastStderr == '' ? '' : ': ' .. lastStderr)
  if state == 'starting'
    timer_stop(initTimer)
    Fail(what .. ' ' .. why .. ', before answering initialize')
    return
  endif
  const now = reltimefloat(reltime())
  filter(restarts, (_, t) => now - t < 60)
  if len(restarts) >= Opt('max_restarts', 5)
    Fail('tagd died ' .. (len(restarts) + 1) .. ' times in a minute, not restarted'
      .. ' (:TagdRestart starts it); last ' .. why)
    return
  endif
  add(restarts, now)
  state = 'stopped'
  Call('down', [''])
  Start()
enddef

# :TagdRestart: a fresh tagd whatever the state (the count of automatic restarts starts over).
export def Restart()
  restarts = []
  if state == 'running' || state == 'starting'
    state = 'stopped'
    job_stop(job, 'kill')
    Call('down', [''])
  endif
  state = 'stopped'
  Start()
enddef

# Sends now when tagd runs, queues while it starts, drops otherwise (the fields re-open with
# their whole state when it is back).
def Send(method: string, params: dict<any>, Callback: func, isRequest: bool)
  if state == 'starting'
    add(queue, [method, params, Callback, isRequest])
    return
  endif
  if state != 'running' || ch_status(chan) != 'open'
    Log('--', {dropped: method})
    return
  endif
  Log('->', {method: method, params: params})
  try
    if isRequest
      ch_sendexpr(chan, {method: method, params: params}, {callback: (_, resp) => {
        Log('<-', resp)
        if Callback != null_function
          Callback(type(resp) == v:t_dict ? resp : {error: {message: string(resp)}})
        endif
      }})
    else
      ch_sendexpr(chan, {method: method, params: params})
    endif
  catch
    Log('--', {sendFailed: v:exception})
  endtry
enddef

# A request; Callback gets the whole response ({result} or {error}).
export def Request(method: string, params: dict<any>, Callback: func = null_function)
  Send(method, params, Callback, true)
enddef

export def Notify(method: string, params: dict<any>)
  Send(method, params, null_function, false)
enddef

def OnMessage(_: channel, msg: any)
  Log('<-', msg)
  if type(msg) == v:t_dict && has_key(msg, 'method') && type(get(msg, 'params', 0)) == v:t_dict
    Call('notification', [msg.method, msg.params])
  endif
enddef

export def Stop()
  if state == 'running'
    state = 'stopped'
    ch_sendexpr(chan, {method: 'shutdown', params: {}}, {callback: (_, _) => 0})
    ch_sendexpr(chan, {method: 'exit', params: {}})
  endif
  state = 'stopped'
enddef

export def Supports(method: string): bool
  return index(get(get(serverInfo, 'capabilities', {}), 'methods', []), method) >= 0
enddef

# For :TagFieldInfo and tests.
export def Info(): dict<any>
  const [cmd, source] = Find()
  return {state: state, running: state == 'running', problem: problem, job: job,
    channel: chan, pid: state == 'running' ? pid : 0, server: serverInfo, cmd: cmd,
    source: source, restarts: len(restarts)}
enddef
