vim9script
# Headless tests of the Vim plugin against the real tagd binary, with Vim's own assert_*().
# Run by ../run-tests as:  vim -Nu NONE -es -i NONE -S tests/headless.vim
# Results go to $TAGD_VIM_RESULTS (one "PASS name" / "FAIL name: error" line per test, then
# DONE); $TAGD_VIM_ONLY (a pattern) runs only the tests whose names match.
#
# In -es mode Vim never redraws, and listener_add() callbacks wait for a redraw (or
# listener_flush()).  The helpers (WaitFor, Settle) therefore flush the field buffers where a real
# Vim would redraw: while waiting for input.  Keys fed with feedkeys(..., 'xt') all reach the buffer before any
# message from tagd is handled: that is typing faster than any reply.

const root = expand('<sfile>:p:h:h')
const results = $TAGD_VIM_RESULTS != '' ? $TAGD_VIM_RESULTS : tempname()
const tmp = tempname()
mkdir(tmp, 'p')
&runtimepath = root .. ',' .. &runtimepath
runtime plugin/tagd.vim
set shortmess-=F nomore
g:tagd_log = tmp .. '/tagd.log'

# ---------------------------------------------------------------------------------------------
# Helpers

def FlushAll()
  for b in getbufinfo()
    if b.name =~ '^tagd://'
      listener_flush(b.bufnr)
    endif
  endfor
enddef

# Wait (at most {ms}) until Cond() is true, handling channel messages as a waiting Vim does.
def WaitFor(Cond: func(): any, ms: number = 5000): bool
  var waited = 0
  while waited < ms
    FlushAll()
    if Cond()
      return true
    endif
    sleep 5m
    waited += 5
  endwhile
  FlushAll()
  return !!Cond()
enddef

# Wait until tagd has answered everything sent so far: a synchronous request makes a round
# trip, and every message sent before it has been handled by then.
def Settle()
  WaitFor(() => tagd#Info().running)
  FlushAll()
  ch_evalexpr(tagd#Info().channel, {method: 'field/state', params: {field: '?'}}, {timeout: 5000})
  sleep 1m
  FlushAll()
  ch_evalexpr(tagd#Info().channel, {method: 'field/state', params: {field: '?'}}, {timeout: 5000})
  sleep 1m
enddef

def WaitTags(name: string, want: list<string>)
  WaitFor(() => tagd#Tags(name) == want)
  assert_equal(want, tagd#Tags(name))
enddef

# What tagd itself holds for field {name} (FieldState).
def Server(name: string): dict<any>
  Settle()
  const resp = ch_evalexpr(tagd#Info().channel, {method: 'field/state', params: {field: name}}, {timeout: 5000})
  return get(resp, 'result', resp)
enddef

def Field(name: string): dict<any>
  return tagd#State(name)
enddef

def Chips(name: string): list<string>
  return Field(name).drawn->copy()->filter((_, d) => d[0] =~ '^tagd_\(chip\|selected\|flash\)$')
    ->map((_, d) => trim(d[1]))
enddef

# The messages of g:tagd_log sent to tagd with method {method}.
def Sent(method: string): list<dict<any>>
  return readfile(g:tagd_log)->filter((_, l) => l =~ '^-> ')
    ->map((_, l) => json_decode(l[3 :]))->filter((_, m) => get(m, 'method', '') == method)
enddef

def Fresh()
  # Every test starts with one plain window, no field and a running tagd.
  for name in tagd#Info().fields
    tagd#Close(name)
  endfor
  silent! only!
  enew!
  # A test that fails half-way must not leave a tall command line behind.
  set cmdheight=1
  if !tagd#Info().running
    TagdRestart
    WaitFor(() => tagd#Info().running)
  endif
enddef

# ---------------------------------------------------------------------------------------------
# Tests: every function named Test_* is run (found by the runner below), in name order.

def Test_finds_binary_and_agrees_on_utf8()
  assert_equal([$TAGD], tagd#Command())
  g:tagd_cmd = ['/bin/echo', 'x']
  assert_equal(['/bin/echo', 'x'], tagd#Command())
  unlet g:tagd_cmd
  TagField probe
  WaitFor(() => tagd#Info().running)
  const info = tagd#Info()
  assert_equal('utf-8', info.server.capabilities.positionEncoding)
  assert_equal('tagd://probe', bufname())
  const shown = execute('TagFieldInfo')
  assert_match('tagd: ' .. $TAGD .. ' (from $TAGD)', shown)
  assert_match('running, pid ' .. info.pid .. ', version \d', shown)
  assert_match('fields: probe', shown)
enddef

def Test_finds_the_repository_build_without_env_or_path()
  const [savedTagd, savedPath] = [$TAGD, $PATH]
  $TAGD = ''
  $PATH = '/usr/bin:/bin'
  const repo = fnamemodify(root, ':h:h')
  var want: list<string> = []
  if exepath('tagd') != ''
    want = [exepath('tagd')]
  elseif executable(repo .. '/.build/debug/tagd')
    want = [repo .. '/.build/debug/tagd']
  elseif executable(repo .. '/.build/release/tagd')
    want = [repo .. '/.build/release/tagd']
  endif
  const got = tagd#Command()
  [$TAGD, $PATH] = [savedTagd, savedPath]
  assert_equal(want, got)
enddef

def Test_initialize_sends_the_users_locale()
  TagdRestart
  WaitFor(() => tagd#Info().running)
  var init = readfile(g:tagd_log)->filter((_, l) => l =~ '^-> .*"initialize"')
  assert_true(!empty(init), 'initialize not logged')
  assert_equal(v:lang, json_decode(init[-1][3 :]).params.locale)
  g:tagd_locale = 'fr_FR.UTF-8'
  TagdRestart
  WaitFor(() => tagd#Info().running)
  init = readfile(g:tagd_log)->filter((_, l) => l =~ '^-> .*"initialize"')
  assert_equal('fr_FR.UTF-8', json_decode(init[-1][3 :]).params.locale)
  unlet g:tagd_locale
  TagdRestart
  WaitFor(() => tagd#Info().running)
enddef

def Test_no_errors_with_verbose()
  const log = tmp .. '/verbose.log'
  v:errmsg = ''
  &verbosefile = log
  set verbose=15
  try
    TagField v
    feedkeys("ione,two\<CR>", 'xt')
    WaitTags('v', ['one', 'two'])
    feedkeys("0i\<Left>", 'xt')
    WaitFor(() => Field('v').selected == 1)
    feedkeys("i\<BS>", 'xt')
    WaitTags('v', ['one'])
    TagFieldClose v
  finally
    set verbose=0
    &verbosefile = ''
  endtry
  assert_equal('', v:errmsg)
  assert_true(len(readfile(log)) > 10, 'verbose wrote nothing')
  assert_equal([], readfile(log)->filter((_, l) => l =~ '\<E\d\+:'))
enddef

def Test_commas_commit_and_chips_are_drawn()
  TagField t
  assert_equal('tagd://t', bufname())
  feedkeys("ired, green,blue", 'xt')
  WaitTags('t', ['red', 'green'])
  WaitFor(() => getline(1) == 'blue')
  assert_equal(['blue'], getline(1, '$'))
  WaitFor(() => len(Chips('t')) == 2)
  assert_equal(['[red]', '[green]'], Chips('t'))
  # The chips are text properties with virtual text on line 1, before the draft.
  const props = prop_list(1)
  assert_equal(['tagd_chip', 'tagd_chip'], props->copy()->filter((_, p) => p.type == 'tagd_chip')->map((_, p) => p.type))
  assert_true(props->copy()->map((_, p) => p.col)->uniq() == [1])
  assert_equal(1, winheight(0))
  # The chip ends reach tagd as cell labels; the chip text is tagd's label.
  assert_equal({left: '[', right: ']'}, Sent('field/layout')[-1].params.cells)
enddef

def Test_return_commits_the_draft()
  TagField t
  feedkeys("ione\<CR>two", 'xt')
  feedkeys("a\<CR>", 'xt')
  WaitTags('t', ['one', 'two'])
  WaitFor(() => getline(1) == '')
  assert_equal([''], getline(1, '$'))
  # Return on an empty draft adds nothing.
  feedkeys("i\<CR>", 'xt')
  Settle()
  assert_equal(['one', 'two'], tagd#Tags('t'))
enddef

def Test_paste_splits()
  TagField t
  setreg('a', "x, y,z\nw", 'c')
  feedkeys('"ap', 'xt')
  WaitTags('t', ['x', 'y', 'z'])
  WaitFor(() => getline(1, '$') == ['w'])
  assert_equal(['w'], getline(1, '$'))
  setreg('b', ['p,q', 'r'], 'l')
  feedkeys("A\<C-r>b", 'xt')
  WaitTags('t', ['x', 'y', 'z', 'wp', 'q', 'r'])
  WaitFor(() => getline(1, '$') == [''])
  assert_equal([''], getline(1, '$'))
enddef

def Test_backspace_edits_draft_then_removes_last_tag()
  TagField t
  feedkeys("ia,b,cd", 'xt')
  WaitTags('t', ['a', 'b'])
  WaitFor(() => getline(1) == 'cd')
  feedkeys("A\<BS>", 'xt')
  Settle()
  assert_equal('c', getline(1))
  assert_equal(['a', 'b'], tagd#Tags('t'))
  feedkeys("A\<BS>", 'xt')
  Settle()
  assert_equal('', getline(1))
  assert_equal(['a', 'b'], tagd#Tags('t'))
  feedkeys("A\<BS>", 'xt')
  WaitTags('t', ['a'])
  WaitFor(() => Chips('t') == ['[a]'])
  assert_equal(['[a]'], Chips('t'))
  feedkeys("\<BS>", 'xt')
  WaitTags('t', [])
  assert_equal([], Chips('t'))
enddef

def Test_fast_backspace_after_comma_removes_that_tag()
  TagField t
  feedkeys("ia,b,\<BS>c", 'xt')
  Settle()
  WaitTags('t', ['a'])
  WaitFor(() => getline(1) == 'c')
  assert_equal(['c'], getline(1, '$'))
enddef

def Test_selection_is_tagds()
  TagField t
  feedkeys("ia,b,c,d,", 'xt')
  WaitTags('t', ['a', 'b', 'c', 'd'])
  # Keys typed faster than tagd answers act on the selection tagd will have.
  feedkeys("i\<Left>\<Left>", 'xt')
  WaitFor(() => Field('t').selected == 2)
  assert_equal(2, Field('t').selected)
  assert_equal(2, Server('t').selected)
  assert_equal([['tagd_selected', '[c]']], Field('t').drawn->copy()->filter((_, d) => d[0] == 'tagd_selected'))
  feedkeys("i\<M-Left>\<M-Left>", 'xt')
  WaitTags('t', ['c', 'a', 'b', 'd'])
  assert_equal(0, Server('t').selected)
  feedkeys("i\<Del>", 'xt')
  WaitTags('t', ['a', 'b', 'd'])
  assert_equal(-1, Field('t').selected)
  # <Right> past the last chip goes back to the draft; typing drops the selection.
  feedkeys("i\<Left>\<Right>", 'xt')
  Settle()
  assert_equal(-1, Field('t').selected)
  feedkeys("i\<Left>x", 'xt')
  Settle()
  assert_equal(-1, Field('t').selected)
  assert_false(has_key(Server('t'), 'selected'))
  # The same, typed after the selection is drawn: it goes from the screen at once.
  feedkeys("S\<Left>", 'xt')
  WaitFor(() => Field('t').selected == 2)
  feedkeys("Ax", 'xt')
  Settle()
  assert_equal(-1, Field('t').selected)
  assert_equal([], Field('t').drawn->copy()->filter((_, d) => d[0] == 'tagd_selected'))
  # <CR> on a selected chip edits it.
  feedkeys("S\<Left>\<CR>", 'xt')
  WaitTags('t', ['a', 'b'])
  WaitFor(() => getline(1) == 'd')
  assert_equal('d', getline(1))
enddef

def Test_duplicate_flashes_its_chip_and_tagd_says_why()
  g:tagd_flash_ms = 60000
  TagField t
  feedkeys("ired,green,RED,", 'xt')
  WaitTags('t', ['red', 'green'])
  WaitFor(() => Field('t').flash == 0)
  assert_equal(0, Field('t').flash)
  assert_equal([['tagd_flash', '[red]']], Field('t').drawn->copy()->filter((_, d) => d[0] == 'tagd_flash'))
  assert_match('RED is already a tag', Field('t').announcement)
  assert_match('RED is already a tag', &l:statusline)
  unlet g:tagd_flash_ms
enddef

def Test_changes_go_as_the_whole_text()
  # tagd diffs: what the user typed is sent as the buffer's whole text, never as a range the
  # plugin computed (it has no diff code).
  TagField t
  const from = len(Sent('field/didChange'))
  feedkeys("ia,b\u00e9\<BS>c\<Esc>", 'xt')
  WaitTags('t', ['a'])
  WaitFor(() => getline(1) == 'bc')
  const typed = Sent('field/didChange')[from :]->filter((_, m) => !has_key(m.params, 'applied'))
  assert_true(len(typed) > 0)
  for m in typed
    for c in m.params.contentChanges
      assert_false(has_key(c, 'range'), json_encode(m))
      assert_equal(v:t_string, type(c.text))
    endfor
  endfor
  var code = readfile(root .. '/autoload/tagd/sync.vim')
  assert_equal([], code->filter((_, l) => l =~ '^\s*\(export \)\=def Diff('))
enddef

def Test_dot_repeat_reaches_tagd()
  TagField t
  feedkeys("ix\<Esc>..", 'xt')
  Settle()
  assert_equal('xxx', getline(1))
  feedkeys("A,\<Esc>", 'xt')
  WaitTags('t', ['xxx'])
  feedkeys("Ayy,\<Esc>", 'xt')
  WaitTags('t', ['xxx', 'yy'])
  feedkeys("Azz\<Esc>", 'xt')
  Settle()
  feedkeys(".", 'xt')
  Settle()
  assert_equal('zzzz', getline(1))
  assert_equal('zzzz', Server('t').text)
enddef

def Test_u_and_ctrl_r_are_tagds_undo_and_redo()
  TagField t
  # The issue's case: three lines pasted, Backspace, u: the Backspace is undone, no tag twice.
  setreg('a', ['aa', 'bb', 'cc'], 'c')
  feedkeys("\"aP", 'xt')
  WaitTags('t', ['aa', 'bb'])
  WaitFor(() => getline(1) == 'cc')
  feedkeys("A\<BS>\<Esc>", 'xt')
  Settle()
  feedkeys('u', 'xt')
  WaitFor(() => getline(1, '$') == ['cc'])
  assert_equal(['cc'], getline(1, '$'))
  assert_equal(['aa', 'bb'], tagd#Tags('t'))
  assert_notmatch('already', Field('t').announcement)
  # Vim's own undo has nothing to bring back.
  assert_equal(-1, &l:undolevels)
  silent! undo
  Settle()
  assert_equal(['cc'], getline(1, '$'))
  # u takes back the last tag change, CTRL-R does it again.
  feedkeys("S\<Esc>", 'xt')
  for w in ['one', 'two']
    feedkeys('A' .. w .. ",\<Esc>", 'xt')
    WaitTags('t', tagd#Tags('t')->index(w) >= 0 ? tagd#Tags('t') : tagd#Tags('t') + [w])
  endfor
  assert_equal(['aa', 'bb', 'one', 'two'], tagd#Tags('t'))
  feedkeys('u', 'xt')
  WaitTags('t', ['aa', 'bb', 'one'])
  WaitFor(() => len(Chips('t')) == 3)
  assert_equal(['[aa]', '[bb]', '[one]'], Chips('t'))
  feedkeys("\<C-r>", 'xt')
  WaitTags('t', ['aa', 'bb', 'one', 'two'])
  assert_equal(['field/undo', 'field/undo', 'field/redo'], readfile(g:tagd_log)
    ->filter((_, l) => l =~ '^-> .*"field/\(undo\|redo\)"')->map((_, l) => json_decode(l[3 :]).method)[-3 :])
enddef

def Test_multibyte_text_keeps_positions()
  TagField t
  feedkeys("ikafé,日本語,Straße,STRASSE,naïv", 'xt')
  WaitTags('t', ['kafé', '日本語', 'Straße'])
  WaitFor(() => getline(1) == 'naïv')
  feedkeys("0lrà", "xt")
  Settle()
  assert_equal('nàïv', getline(1))
  assert_equal('nàïv', Server('t').text)
  feedkeys("A\<CR>", 'xt')
  WaitTags('t', ['kafé', '日本語', 'Straße', 'nàïv'])
  WaitFor(() => len(Chips('t')) == 4)
  assert_equal(['[kafé]', '[日本語]', '[Straße]', '[nàïv]'], Chips('t'))
enddef

# What slow typing gives (ASCII, default separators, caseless duplicates).
def Model(keys: list<string>): list<any>
  var tags: list<string> = []
  var draft = ''
  for k in keys
    if k == ',' || k == "\<CR>"
      const t = trim(draft)
      if t != '' && index(tags, t, 0, true) < 0
        add(tags, t)
      endif
      draft = ''
    elseif k == "\<BS>"
      if draft == ''
        if !empty(tags)
          remove(tags, -1)
        endif
      else
        draft = draft[: -2]
      endif
    else
      draft ..= k
    endif
  endfor
  return [tags, draft]
enddef

# Keystrokes from a fixed pseudo-random sequence, one at a time, with tagd's updates arriving at
# arbitrary points in between (stale ones included); the end state must equal slow typing.
def Test_interleaved_fast_typing_equals_slow_typing()
  var stale = 0
  for seed in [1, 2, 3]
    Fresh()
    TagField t
    var rng = srand(seed)
    const alphabet = ['a', 'b', 'c', 'A', ',', ',', "\<BS>", "\<CR>", 'd']
    var keys: list<string> = []
    for _ in range(120)
      add(keys, alphabet[rand(rng) % len(alphabet)])
    endfor
    for k in keys
      # (-es Vim reads stdin when Insert mode outlives feedkeys(), so each key gets its own A…<Esc>.)
      feedkeys('A' .. k .. "\<Esc>", 'xt')
      const r = rand(rng) % 4
      if r == 0
        listener_flush(bufnr())
      elseif r == 1
        listener_flush(bufnr())
        sleep 1m
      endif
    endfor
    Settle()
    const [tags, draft] = Model(keys)
    WaitTags('t', tags)
    WaitFor(() => getline(1, '$') == [draft])
    assert_equal([draft], getline(1, '$'), 'seed ' .. seed)
    assert_equal(draft, Server('t').text, 'seed ' .. seed)
    assert_equal(tags, Server('t').tags, 'seed ' .. seed)
    stale += Field('t').stale
  endfor
  assert_true(stale > 0, 'no stale update was exercised')
enddef

def Test_open_from_a_script_options_unchanged_and_the_change_event()
  g:events = []
  augroup tagd_test
    autocmd!
    autocmd User TagdTagsChanged add(g:events, copy(g:tagd_event.tags))
  augroup END
  var calls: list<any> = []
  const options = {transform: 'lowercase', deny: ['spam'], suggestions: ['x'], history: 7,
    backspace: 'select', commitOnBlur: true, pattern: '[a-z]+', prompt: 'Labels'}
  const buf = tagd#Open('s', {tags: ['one', 'Two'], options: options,
    window: 'none', on_change: (name, tags) => add(calls, [name, tags])})
  assert_true(buf > 0)
  assert_equal('tagd://s', bufname(buf))
  assert_notequal(buf, bufnr())
  WaitTags('s', ['one', 'two'])
  assert_equal(options, Sent('field/open')[-1].params.options)
  assert_equal('Labels', Field('s').prompt)
  tagd#AddTags('s', ['THREE', 'one'])
  WaitTags('s', ['one', 'two', 'three'])
  tagd#RemoveTag('s', 0)
  WaitTags('s', ['two', 'three'])
  setbufline(buf, 1, 'four,')
  WaitTags('s', ['two', 'three', 'four'])
  WaitFor(() => getbufline(buf, 1) == [''])
  assert_equal([''], getbufline(buf, 1, '$'))
  assert_equal([['one', 'two'], ['one', 'two', 'three'], ['two', 'three'], ['two', 'three', 'four']], g:events)
  assert_equal(['s', ['two', 'three', 'four']], calls[-1])
  exe 'botright vertical sbuffer ' .. buf
  const w = winwidth(0)
  assert_notequal(60, w)
  assert_false(&l:number)
  WaitFor(() => Field('s').frames[-1].x + Field('s').frames[-1].width == w)
  assert_equal(w, Field('s').frames[-1].x + Field('s').frames[-1].width)
  assert_equal(1, &cmdheight)
  assert_true(winheight(0) > 10)
  autocmd! tagd_test
  tagd#Close('s')
  assert_equal([], tagd#Tags('s'))
  assert_false(bufexists(buf))
enddef

def Test_script_functions_and_blur_reach_tagd()
  TagField b
  feedkeys("ired,green,", 'xt')
  WaitTags('b', ['red', 'green'])
  tagd#ReplaceTag('b', 0, 'Crimson')
  WaitTags('b', ['Crimson', 'green'])
  tagd#RemoveTag('b', 'GREEN')
  WaitTags('b', ['Crimson'])
  tagd#SetSuggestions('b', ['Cyan', 'Cobalt'])
  Settle()
  assert_equal(['Cobalt', 'Cyan'], ch_evalexpr(tagd#Info().channel, {method: 'field/suggest',
    params: {field: 'b', query: 'c'}}, {timeout: 5000}).result.items->mapnew((_, i) => i.text))
  # Leaving the field's window is field/blur: with commitOnBlur the draft becomes a tag.
  tagd#Close('b')
  tagd#Open('c', {options: {commitOnBlur: true}})
  feedkeys("ilast", 'xt')
  wincmd p
  WaitTags('c', ['last'])
  assert_equal('field/blur', Sent('field/blur')[-1].method)
enddef

def Test_chips_wrap_where_tagd_breaks_the_line()
  TagField t
  const width = winwidth(0)
  var typed: list<string> = []
  for i in range(20)
    add(typed, 'tag' .. i)
  endfor
  feedkeys('i' .. join(typed, ',') .. ',x', 'xt')
  WaitTags('t', typed)
  WaitFor(() => Field('t').rows > 1)
  const f = Field('t')
  var rowWidth = 0
  var rows = 1
  for [type, text] in f.drawn
    rowWidth += strdisplaywidth(text)
    assert_true(rowWidth <= width, 'row ' .. rows .. ' is wider than the window')
    if rowWidth == width
      rows += 1
      rowWidth = 0
    endif
  endfor
  assert_equal(f.rows, rows)
  assert_true(rows >= 3)
  assert_equal(rows, winheight(0))
  var x = 0
  var i = 0
  for [type, text] in f.drawn
    if type != 'tagd_gap'
      assert_equal(float2nr(f.frames[i].x), x % width)
      i += 1
    endif
    x += strdisplaywidth(text)
    x = x % width == 0 ? 0 : x
  endfor
enddef

def Test_restart_reopens_fields_with_tags_and_draft()
  TagField t
  feedkeys("ia,b,c", 'xt')
  WaitTags('t', ['a', 'b'])
  const pid = tagd#Info().pid
  job_stop(tagd#Info().job, 'kill')
  v:errmsg = ''
  feedkeys("Ad", 'xt')
  FlushAll()
  assert_equal('', v:errmsg)
  WaitFor(() => {
    const i = tagd#Info()
    return i.running && i.pid != pid && i.pid != 0
  }, 10000)
  assert_true(tagd#Info().running)
  assert_notequal(pid, tagd#Info().pid)
  feedkeys("A,a,", 'xt')
  WaitTags('t', ['a', 'b', 'cd'])
  WaitFor(() => getline(1) == '')
  assert_equal([''], getline(1, '$'))
  assert_equal(['a', 'b', 'cd'], Server('t').tags)
enddef

def Test_a_field_says_when_tagd_cannot_be_started()
  g:tagd_cmd = tmp .. '/no-such-tagd'
  TagdRestart
  TagField x
  assert_match('cannot run ' .. tmp .. '/no-such-tagd: no such file (from g:tagd_cmd)', Field('x').problem)
  # In the status line, or (longer than it) whole under the draft.
  assert_true(&l:statusline =~ 'no-such-tagd'
    || index(Field('x').drawn, ['tagd_problem', 'tagd: ' .. Field('x').problem]) >= 0,
    string(Field('x').drawn))
  feedkeys("ione,tw", 'xt')
  g:tagd_cmd = $TAGD
  TagdRestart
  WaitTags('x', ['one'])
  WaitFor(() => getline(1) == 'tw')
  assert_equal('', Field('x').problem)
  unlet g:tagd_cmd
enddef

def Test_a_hidden_field_comes_back()
  set number
  TagField h
  feedkeys("ix,y,z", 'xt')
  WaitTags('h', ['x', 'y'])
  :close
  assert_equal(-1, bufwinid('tagd://h'))
  silent! :only
  TagField h
  assert_equal('tagd://h', bufname())
  assert_false(&l:number)
  WaitFor(() => len(Chips('h')) == 2)
  assert_equal(['[x]', '[y]'], Chips('h'))
  feedkeys("A,", 'xt')
  WaitTags('h', ['x', 'y', 'z'])
  set nonumber
enddef

def Test_close_command_and_completion()
  TagField c
  tagd#Open('other', {window: 'none'})
  assert_equal(['c', 'other'], tagd#Complete('', 'TagFieldClose ', 14))
  assert_equal(['other'], tagd#Complete('o', 'TagFieldClose o', 15))
  feedkeys("ix,", 'xt')
  WaitTags('c', ['x'])
  assert_match('closed c', execute('TagFieldClose c'))
  assert_equal([], tagd#Tags('c'))
  assert_equal(-1, bufnr('tagd://c'))
  Settle()
  const resp = ch_evalexpr(tagd#Info().channel, {method: 'field/state', params: {field: 'c'}}, {timeout: 5000})
  assert_equal(-32010, resp.error.code)
  assert_match('no field named c (open: other)', execute('silent! TagFieldClose c'))
enddef

def Note(name: string, lines: list<string>): string
  const path = tmp .. '/' .. name
  writefile(lines, path)
  exe 'edit! ' .. fnameescape(path)
  return path
enddef

def Test_front_matter_through_tagd()
  const lines = ['---', 'title: A note', 'tags: [vim, "two words"]', '---', '# Body', 'tags: not these']
  const path = Note('flow.md', lines)
  const src = bufnr()
  TagFieldFrontMatter
  assert_equal('tagd://flow.md', bufname())
  WaitTags('flow.md', ['vim', 'two words'])
  feedkeys("inotes,key: value,", 'xt')
  WaitTags('flow.md', ['vim', 'two words', 'notes', 'key: value'])
  WaitFor(() => getbufline(src, 3)[0] =~ 'value')
  const line = getbufline(src, 3)[0]
  assert_match('^tags: \[vim, .*notes.*key: value', line)
  assert_equal(lines[: 1] + [line] + lines[3 :], getbufline(src, 1, '$'))
  # The buffer is changed, not written.
  assert_true(getbufvar(src, '&modified'))
  assert_equal(lines, readfile(path))
  # What tagd wrote, tagd reads back as the same tags.
  const back = ch_evalexpr(tagd#Info().channel, {method: 'document/tags', params: {text: join(getbufline(src, 1, '$'), "\n")}}, {timeout: 5000})
  assert_equal(['vim', 'two words', 'notes', 'key: value'], back.result.tags)
  assert_equal([], Sent('field/open')->filter((_, m) => m.params.field =~ 'frontmatter'))
enddef

def Test_front_matter_reading_is_tagds_and_one_is_created()
  Note('scalar.md', ['---', 'tags: a, b', '---', 'x'])
  TagFieldFrontMatter
  WaitTags('scalar.md', ['a, b'])
  assert_equal(['a, b'], tagd#Tags('scalar.md'))
  Fresh()
  const path = Note('plain.md', ['# Just text'])
  const src = bufnr()
  TagFieldFrontMatter
  feedkeys("ifirst,", 'xt')
  WaitTags('plain.md', ['first'])
  WaitFor(() => len(getbufline(src, 1, '$')) > 1)
  const back = ch_evalexpr(tagd#Info().channel, {method: 'document/tags', params: {text: join(getbufline(src, 1, '$'), "\n")}}, {timeout: 5000})
  assert_equal(['first'], back.result.tags)
  assert_equal('# Just text', getbufline(src, '$')[0])
  assert_equal(['# Just text'], readfile(path))
enddef

def Test_plugin_has_no_yaml_or_width_code()
  const code = globpath(root, 'autoload/**/*.vim', 0, 1)->map((_, p) => readfile(p))->flattennew()
  assert_equal([], code->copy()->filter((_, l) => l =~ 'ParseFrontMatter\|YamlScalar\|silent update'))
  # Measuring chips is tagd's: labels are drawn as they come.
  assert_equal([], code->copy()->filter((_, l) => l =~ 'strdisplaywidth(ends\|def Label('))
enddef

def Test_help_file_has_clean_tags()
  const dir = tmp .. '/doc'
  mkdir(dir, 'p')
  writefile(readfile(root .. '/doc/tagd.txt'), dir .. '/tagd.txt')
  v:errmsg = ''
  exe 'helptags ' .. fnameescape(dir)
  assert_equal('', v:errmsg)
  const tags = readfile(dir .. '/tags')->map((_, l) => split(l, "\t")[0])
  for t in ['tagd', ':TagField', ':TagFieldFrontMatter', ':TagdRestart', 'tagd#Tags()',
      'tagd#Open()', 'TagdTagsChanged', 'g:tagd_cmd', 'g:tagd_more_text', 'g:tagd_locale',
      'tagd-keys']
    assert_true(index(tags, t) >= 0, 'help tag ' .. t)
  endfor
  # Every <Plug> mapping the plugin defines has its help tag.
  for m in execute('map <Plug>(tagd-')->split("\n")->map((_, l) => matchstr(l, '<Plug>(tagd-[a-z-]*)'))->filter((_, m) => m != '')->uniq()
    assert_true(index(tags, m) >= 0, 'help tag ' .. m)
  endfor
  assert_false(filereadable(root .. '/doc/tags') && !empty(systemlist('git -C ' .. shellescape(root) .. ' ls-files doc/tags')), 'doc/tags is committed')
enddef

# ---------------------------------------------------------------------------------------------
# Runner: every Test_ function of this script, in name order.

const tests = execute('function /_Test_')->split("\n")
  ->map((_, l) => matchstr(l, '<SNR>\d\+_\zsTest_\w\+'))->filter((_, n) => n != '')->sort()
var out: list<string> = []
const only = $TAGD_VIM_ONLY
for name in tests
  if only != '' && name !~ only
    continue
  endif
  v:errors = []
  try
    Fresh()
    call(name, [])
  catch
    add(v:errors, 'exception: ' .. v:exception .. ' at ' .. v:throwpoint)
  endtry
  if empty(v:errors)
    add(out, 'PASS ' .. name)
  else
    add(out, 'FAIL ' .. name .. ': ' .. join(v:errors, ' | '))
  endif
  writefile(out, results)
endfor
if empty(tests)
  add(out, 'FAIL no Test_ function found')
endif
add(out, 'DONE')
writefile(out, results)
tagd#Stop()
qall!
