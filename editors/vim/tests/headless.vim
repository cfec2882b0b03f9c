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
def WaitFor(Cond: func(): bool, ms: number = 5000): bool
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
  return Cond()
enddef

# Wait until tagd has answered everything sent so far: a synchronous request makes a round
# trip, and every message sent before it has been handled by then.
def Settle()
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
  return Field(name).drawn->copy()->filter((_, d) => d[0] != 'tagd_gap')->map((_, d) => trim(d[1]))
enddef

def Fresh()
  # Every test starts with one plain window and no field.
  for name in tagd#Info().fields
    tagd#Close(name)
  endfor
  silent! only!
  enew!
  # A test that fails half-way must not leave a tall command line behind.
  set cmdheight=1
enddef

# ---------------------------------------------------------------------------------------------
# Tests

def Test_finds_binary_and_agrees_on_utf8()
  const cmd = tagd#Command()
  assert_equal([$TAGD], cmd)
  g:tagd_cmd = ['/bin/echo', 'x']
  assert_equal(['/bin/echo', 'x'], tagd#Command())
  unlet g:tagd_cmd
  TagField probe
  const info = tagd#Info()
  assert_true(info.running)
  assert_equal('utf-8', info.server.capabilities.positionEncoding)
  assert_equal('tagd://probe', bufname())
  const shown = execute('TagFieldInfo')
  assert_match('tagd: ' .. $TAGD, shown)
  assert_match('running, pid ' .. info.pid .. ', version 1\.', shown)
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

def Test_no_errors_with_verbose()
  const log = tmp .. '/verbose.log'
  v:errmsg = ''
  &verbosefile = log
  set verbose=15
  try
    TagField v
    feedkeys("ione,two\<CR>", 'xt')
    WaitTags('v', ['one', 'two'])
    feedkeys("i\<S-Tab>\<C-x>", 'xt')
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
  assert_equal(['[red]', '[green]'], Chips('t'))
  # The chips are text properties with virtual text on line 1, before the draft.
  const props = prop_list(1)
  assert_equal(['tagd_chip', 'tagd_chip'], props->copy()->filter((_, p) => p.type == 'tagd_chip')->map((_, p) => p.type))
  assert_true(props->copy()->map((_, p) => p.col)->uniq() == [1])
  assert_equal(1, winheight(0))
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
  # A paste in Insert mode (CTRL-R) with a linewise register.
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
  assert_equal(['[a]'], Chips('t'))
  # In Normal mode too.
  feedkeys("\<BS>", 'xt')
  WaitTags('t', [])
  assert_equal([], Chips('t'))
enddef

def Test_fast_backspace_after_comma_removes_that_tag()
  # All keys reach the buffer before tagd's edits do: the Backspace hits the "," that tagd has
  # already consumed, and means what it means to a slow typist: remove the tag "b".
  TagField t
  feedkeys("ia,b,\<BS>c", 'xt')
  Settle()
  WaitTags('t', ['a'])
  WaitFor(() => getline(1) == 'c')
  assert_equal(['c'], getline(1, '$'))
enddef

def Test_chip_selection_from_the_keyboard()
  TagField t
  feedkeys("ia,b,c,d,", 'xt')
  WaitTags('t', ['a', 'b', 'c', 'd'])
  feedkeys("i\<S-Tab>\<S-Tab>", 'xt')
  assert_equal(2, Field('t').sel)
  assert_equal(['tagd_selected', '[c]'], Field('t').drawn->copy()->filter((_, d) => d[0] == 'tagd_selected')[0])
  feedkeys("i\<C-x>", 'xt')
  WaitTags('t', ['a', 'b', 'd'])
  assert_equal(-1, Field('t').sel)
  # Backspace removes the selected chip; Tab past the last goes back to the draft.
  feedkeys("i\<S-Tab>\<S-Tab>\<S-Tab>\<S-Tab>\<Tab>", 'xt')
  assert_equal(1, Field('t').sel)
  feedkeys("i\<BS>", 'xt')
  WaitTags('t', ['a', 'd'])
  feedkeys("i\<S-Tab>\<Tab>", 'xt')
  assert_equal(-1, Field('t').sel)
  # Typing drops the selection.
  feedkeys("i\<S-Tab>x", 'xt')
  Settle()
  assert_equal(-1, Field('t').sel)
  assert_equal(['a', 'd'], tagd#Tags('t'))
enddef

def Test_duplicate_flashes_its_chip_and_says_why()
  g:tagd_flash_ms = 60000
  messages clear
  TagField t
  feedkeys("ired,green,RED,", 'xt')
  WaitTags('t', ['red', 'green'])
  WaitFor(() => Field('t').flash == 0)
  assert_equal(0, Field('t').flash)
  assert_equal([['tagd_flash', '[red]']], Field('t').drawn->copy()->filter((_, d) => d[0] == 'tagd_flash'))
  assert_match('RED is already a tag', execute('messages'))
  unlet g:tagd_flash_ms
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

def Test_undo_keeps_the_tags_and_their_chips()
  TagField t
  feedkeys("ia,b,cd\<Esc>", 'xt')
  WaitTags('t', ['a', 'b'])
  WaitFor(() => getline(1) == 'cd')
  # Undo restores line 1 as it was before the chips were drawn (without text properties); the
  # tags stay, the draft goes, the chips are drawn again.
  feedkeys("u", 'xt')
  Settle()
  assert_equal([''], getline(1, '$'))
  assert_equal('', Server('t').text)
  assert_equal(['a', 'b'], tagd#Tags('t'))
  assert_equal(['tagd_chip', 'tagd_chip'], prop_list(1)->filter((_, p) => p.type == 'tagd_chip')->map((_, p) => p.type))
enddef

def Test_multibyte_text_keeps_positions()
  TagField t
  feedkeys("ikafé,日本語,Straße,STRASSE,naïv", 'xt')
  WaitTags('t', ['kafé', '日本語', 'Straße'])
  WaitFor(() => getline(1) == 'naïv')
  # Change a character in the middle (a replacement of a 2-byte character by another).
  feedkeys("0lrà", "xt")
  Settle()
  assert_equal('nàïv', getline(1))
  assert_equal('nàïv', Server('t').text)
  feedkeys("A\<CR>", 'xt')
  WaitTags('t', ['kafé', '日本語', 'Straße', 'nàïv'])
  assert_equal(['[kafé]', '[日本語]', '[Straße]', '[nàïv]'], Chips('t'))
enddef

# Keystrokes from a fixed pseudo-random sequence, one at a time, with tagd's updates arriving at
# arbitrary points in between (stale ones included); the end state must equal slow typing.
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

def Test_interleaved_fast_typing_equals_slow_typing()
  var stale = 0
  for seed in [1, 2, 3, 4]
    Fresh()
    TagField t
    srand(seed)
    var rng = srand(seed)
    const alphabet = ['a', 'b', 'c', 'A', ',', ',', "\<BS>", "\<CR>", 'd']
    var keys: list<string> = []
    for _ in range(150)
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
  # Updates did arrive for buffer versions already gone (and were rightly not applied).
  assert_true(stale > 0, 'no stale update was exercised')
enddef

def Test_open_from_a_script_and_the_change_event()
  g:events = []
  augroup tagd_test
    autocmd!
    autocmd User TagdTagsChanged add(g:events, copy(g:tagd_event.tags))
  augroup END
  var calls: list<any> = []
  const buf = tagd#Open('s', {tags: ['one', 'Two'], options: {transform: 'lowercase'},
    window: 'none', on_change: (name, tags) => add(calls, [name, tags])})
  assert_true(buf > 0)
  assert_equal('tagd://s', bufname(buf))
  assert_notequal(buf, bufnr())
  assert_equal(['one', 'two'], tagd#Tags('s'))
  tagd#AddTags('s', ['THREE', 'one'])
  WaitTags('s', ['one', 'two', 'three'])
  tagd#RemoveTag('s', 0)
  WaitTags('s', ['two', 'three'])
  # A change made in the buffer by a script goes through the sync path too.
  setbufline(buf, 1, 'four,')
  WaitTags('s', ['two', 'three', 'four'])
  WaitFor(() => getbufline(buf, 1) == [''])
  assert_equal([''], getbufline(buf, 1, '$'))
  assert_equal([['one', 'two'], ['one', 'two', 'three'], ['two', 'three'], ['two', 'three', 'four']], g:events)
  assert_equal(['s', ['two', 'three', 'four']], calls[-1])
  assert_equal(4, len(calls))
  # Shown in a window later, it takes the window's width and options.
  # (No WinResized in -es mode: the width is the split's; g:tagd_width is 60.)
  exe 'botright vertical sbuffer ' .. buf
  const w = winwidth(0)
  assert_notequal(60, w)
  assert_equal(buf, bufnr())
  assert_false(&l:number)
  WaitFor(() => Field('s').frames[-1].x + Field('s').frames[-1].width == w)
  assert_equal(w, Field('s').frames[-1].x + Field('s').frames[-1].width)
  # The plugin sizes only windows it made: this one keeps its height, the command line its own.
  assert_equal(1, &cmdheight)
  assert_true(winheight(0) > 10)
  autocmd! tagd_test
  tagd#Close('s')
  assert_equal([], tagd#Tags('s'))
  assert_false(bufexists(buf))
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
  # Each row but the draft's is filled to the window's width, so Vim wraps exactly there.
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
  # The chips' x positions are tagd's frames.
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

def Test_restart_reopens_fields()
  TagField t
  feedkeys("ia,b,c", 'xt')
  WaitTags('t', ['a', 'b'])
  const pid = tagd#Info().pid
  job_stop(tagd#Info().job, 'kill')
  # Typing on while tagd is gone raises no error; the restart picks the text up.
  v:errmsg = ''
  feedkeys("Ad", 'xt')
  FlushAll()
  assert_equal('', v:errmsg)
  # (job_info() may itself notice the exit and run exit_cb: one Info() per check.)
  WaitFor(() => {
    const i = tagd#Info()
    return i.running && i.pid != pid && i.pid != 0 && tagd#Info().running
  }, 10000)
  assert_true(tagd#Info().running)
  assert_notequal(pid, tagd#Info().pid)
  # The new tagd knows the tags and the draft: "cd" is still being typed.
  feedkeys("A,a,", 'xt')
  WaitTags('t', ['a', 'b', 'cd'])
  WaitFor(() => getline(1) == '')
  assert_equal([''], getline(1, '$'))
  const resp = ch_evalexpr(tagd#Info().channel, {method: 'field/state', params: {field: 't'}}, {timeout: 5000})
  assert_equal(['a', 'b', 'cd'], resp.result.tags)
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

def Test_close_command()
  TagField c
  feedkeys("ix,", 'xt')
  WaitTags('c', ['x'])
  TagFieldClose c
  assert_equal([], tagd#Tags('c'))
  assert_equal(-1, bufnr('tagd://c'))
  Settle()
  const resp = ch_evalexpr(tagd#Info().channel, {method: 'field/state', params: {field: 'c'}}, {timeout: 5000})
  assert_equal(-32010, resp.error.code)
enddef

def WriteNote(name: string, lines: list<string>): string
  const path = tmp .. '/' .. name
  writefile(lines, path)
  return path
enddef

def Test_front_matter_flow_round_trip()
  const path = WriteNote('flow.md', ['---', 'title: A note', 'tags: [vim, "two words", ''it''''s'']', 'date: 2026-01-01', '---', '# Body', 'tags: not these'])
  exe 'edit ' .. fnameescape(path)
  const src = bufnr()
  TagFieldFrontMatter
  const name = 'frontmatter:' .. src
  assert_equal(['vim', 'two words', "it's"], tagd#Tags(name))
  feedkeys("inotes,key: value,", 'xt')
  WaitTags(name, ['vim', 'two words', "it's", 'notes', 'key: value'])
  WaitFor(() => readfile(path)[2] =~ 'value')
  assert_equal(['---', 'title: A note', 'tags: [vim, two words, "it''s", notes, "key: value"]', 'date: 2026-01-01', '---', '# Body', 'tags: not these'], readfile(path))
  assert_false(getbufvar(src, '&modified'))
  feedkeys("i\<BS>", 'xt')
  WaitTags(name, ['vim', 'two words', "it's", 'notes'])
  WaitFor(() => readfile(path)[2] !~ 'value')
  assert_equal('tags: [vim, two words, "it''s", notes]', readfile(path)[2])
  # What was written reads back as the same tags.
  assert_equal(['vim', 'two words', "it's", 'notes'], tagd#ParseFrontMatter(readfile(path)).tags)
enddef

def Test_front_matter_block_list_keeps_its_style()
  const path = WriteNote('block.md', ['---', 'tags:', '  - alpha', '  - "beta"', 'other: 1', '---', 'text'])
  exe 'edit ' .. fnameescape(path)
  const src = bufnr()
  TagFieldFrontMatter
  const name = 'frontmatter:' .. src
  assert_equal(['alpha', 'beta'], tagd#Tags(name))
  feedkeys("igamma\<CR>", 'xt')
  WaitTags(name, ['alpha', 'beta', 'gamma'])
  WaitFor(() => len(readfile(path)) == 8)
  assert_equal(['---', 'tags:', '  - alpha', '  - beta', '  - gamma', 'other: 1', '---', 'text'], readfile(path))
  # Removing every tag writes an empty list; adding one brings the block back.
  feedkeys("i\<BS>\<BS>\<BS>", 'xt')
  WaitTags(name, [])
  WaitFor(() => readfile(path)[1] == 'tags: []')
  assert_equal(['---', 'tags: []', 'other: 1', '---', 'text'], readfile(path))
  feedkeys("idelta,", 'xt')
  WaitTags(name, ['delta'])
  WaitFor(() => readfile(path)[1] == 'tags:')
  assert_equal(['---', 'tags:', '  - delta', 'other: 1', '---', 'text'], readfile(path))
enddef

def Test_front_matter_is_created_when_missing()
  const path = WriteNote('plain.md', ['# Just text'])
  exe 'edit ' .. fnameescape(path)
  TagFieldFrontMatter
  feedkeys("ifirst,", 'xt')
  WaitTags('frontmatter:' .. bufnr('plain.md'), ['first'])
  WaitFor(() => len(readfile(path)) == 4)
  assert_equal(['---', 'tags: [first]', '---', '# Just text'], readfile(path))
  # And a front matter without tags gets the entry before its closing line.
  const path2 = WriteNote('notags.md', ['---', 'title: t', '---'])
  exe 'edit ' .. fnameescape(path2)
  TagFieldFrontMatter
  feedkeys("i2026,", 'xt')
  WaitFor(() => len(readfile(path2)) == 4)
  assert_equal(['---', 'title: t', 'tags: ["2026"]', '---'], readfile(path2))
enddef

def Test_front_matter_forms_are_read()
  const P = (lines: list<string>): list<string> => tagd#ParseFrontMatter(lines).tags
  assert_equal(['a', 'b c', 'd"e', "f'g"], P(['---', 'tags: [a, "b c", "d\"e", ''f''''g'']', '---']))
  assert_equal(['a', 'b'], P(['---', 'tags: [a,', '  b]', 'x: 1', '---']))
  assert_equal(['a', 'b'], P(['---', 'tags: a, b', '---']))
  assert_equal(['a', 'b'], P(['---', 'tags:   # mine', '- a', '', '# skip', '- b  # two', 'other: x', '---']))
  assert_equal([], P(['---', 'tags: []', '---']))
  assert_equal([], P(['---', 'title: no tags', '---']))
  assert_equal([], P(['no front matter', 'tags: [x]']))
  assert_equal([], P(['---', 'tags: [never closed]']))
  # And what is written reads back the same.
  for tag in ['plain', 'two words', 'key: value', '#hash', 'a #b', "t\tab", '- dash', 'yes', '2026', 'x"y', "it's", 'a\b', 'naïve', '[b]']
    const line = 'tags: [' .. tagd#YamlScalar(tag) .. ']'
    assert_equal([tag], P(['---', line, '---']), line)
  endfor
enddef

def Test_help_file_has_clean_tags()
  const dir = tmp .. '/doc'
  mkdir(dir, 'p')
  writefile(readfile(root .. '/doc/tagd.txt'), dir .. '/tagd.txt')
  v:errmsg = ''
  exe 'helptags ' .. fnameescape(dir)
  assert_equal('', v:errmsg)
  const tags = readfile(dir .. '/tags')->map((_, l) => split(l, "\t")[0])
  for t in ['tagd', ':TagField', ':TagFieldFrontMatter', 'tagd#Tags()', 'tagd#Open()', 'TagdTagsChanged', 'g:tagd_cmd', '<Plug>(tagd-submit)']
    assert_true(index(tags, t) >= 0, 'help tag ' .. t)
  endfor
enddef

# ---------------------------------------------------------------------------------------------
# Runner

const tests = [
  'Test_finds_binary_and_agrees_on_utf8',
  'Test_finds_the_repository_build_without_env_or_path',
  'Test_no_errors_with_verbose',
  'Test_commas_commit_and_chips_are_drawn',
  'Test_return_commits_the_draft',
  'Test_paste_splits',
  'Test_backspace_edits_draft_then_removes_last_tag',
  'Test_fast_backspace_after_comma_removes_that_tag',
  'Test_chip_selection_from_the_keyboard',
  'Test_duplicate_flashes_its_chip_and_says_why',
  'Test_dot_repeat_reaches_tagd',
  'Test_undo_keeps_the_tags_and_their_chips',
  'Test_multibyte_text_keeps_positions',
  'Test_interleaved_fast_typing_equals_slow_typing',
  'Test_open_from_a_script_and_the_change_event',
  'Test_chips_wrap_where_tagd_breaks_the_line',
  'Test_restart_reopens_fields',
  'Test_a_hidden_field_comes_back',
  'Test_close_command',
  'Test_front_matter_flow_round_trip',
  'Test_front_matter_block_list_keeps_its_style',
  'Test_front_matter_is_created_when_missing',
  'Test_front_matter_forms_are_read',
  'Test_help_file_has_clean_tags',
]

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
add(out, 'DONE')
writefile(out, results)
tagd#Stop()
qall!
