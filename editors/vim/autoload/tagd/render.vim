vim9script
# Drawing a field: chips as virtual text before the draft, row by row as tagd's frames place
# them, each chip's text the frame's `label` (tagd cuts it to the width); the prompt in an
# empty field; tagd's announcement (or why tagd is not there) in the window's status line, or
# whole under the draft when it is longer than the status line; the suggestion popup.

def Opt(name: string, default: any): any
  return get(g:, 'tagd_' .. name, default)
enddef

def Highlights()
  highlight default link TagdChip Pmenu
  highlight default link TagdChipSelected PmenuSel
  highlight default link TagdChipFlash ErrorMsg
  highlight default link TagdGap Normal
  highlight default link TagdMore Comment
  highlight default link TagdPrompt Comment
  highlight default link TagdProblem ErrorMsg
  highlight default link TagdNotice Normal
  highlight default link TagdSuggestion Pmenu
  highlight default link TagdSuggestionSelected PmenuSel
  highlight default link TagdSuggestionMatch Title
enddef
Highlights()
augroup tagd_highlights
  autocmd!
  autocmd ColorScheme * Highlights()
augroup END

# start_incl: text typed at column 1 goes after the chips, not before them.
for [type, group] in [['tagd_chip', 'TagdChip'], ['tagd_selected', 'TagdChipSelected'],
    ['tagd_flash', 'TagdChipFlash'], ['tagd_gap', 'TagdGap'], ['tagd_more', 'TagdMore'],
    ['tagd_prompt', 'TagdPrompt'], ['tagd_notice', 'TagdNotice'], ['tagd_problem', 'TagdProblem']]
  if empty(prop_type_get(type))
    prop_type_add(type, {highlight: group, start_incl: true})
  endif
endfor
for [type, group, priority] in [['tagd_sugg', 'TagdSuggestion', 1],
    ['tagd_sugg_sel', 'TagdSuggestionSelected', 2], ['tagd_sugg_match', 'TagdSuggestionMatch', 3]]
  if empty(prop_type_get(type))
    prop_type_add(type, {highlight: group, priority: priority, combine: true})
  endif
endfor

export def Width(f: dict<any>): number
  const win = bufwinid(f.buf)
  return win == -1 ? Opt('width', 60) : max([winwidth(win), 1])
enddef

# field/layout params (without `field`): chips measured by tagd in cells, with the chip ends
# the user chose (g:tagd_chip) drawn around each tag.
export def LayoutParams(f: dict<any>): dict<any>
  const ends = Opt('chip', ['[', ']'])
  return {width: Width(f), cells: {left: ends[0], right: ends[1]},
    fieldHeight: 1, spacing: 1, fieldMinWidth: Opt('field_min_width', 10)}
enddef

# One piece of virtual text; f.drawn keeps what was drawn, in order (for tests and scripts).
def Draw(f: dict<any>, type: string, text: string)
  prop_add(1, 1, {type: type, text: text, bufnr: f.buf})
  add(f.drawn, [type, text])
enddef

export def Render(f: dict<any>)
  if !bufexists(f.buf)
    return
  endif
  const lines = getbufline(f.buf, 1, '$')
  prop_clear(1, max([1, len(lines)]), {bufnr: f.buf})
  f.drawn = []
  f.hidden = 0
  f.rows = 1
  # tagd's sentence (or why tagd is not there): in the status line when it fits there, else
  # whole, wrapped, under the draft (the window grows by its rows).
  const [text, name] = [Said(f), 'tagd://' .. f.name]
  const win = bufwinid(f.buf)
  const below = win != -1 && strdisplaywidth(text) > winwidth(win) - strdisplaywidth(name) - 2
  f.noteRows = below ? (strdisplaywidth(text) + winwidth(win) - 1) / winwidth(win) : 0
  const n = len(f.tags)
  if n > 0 && len(f.frames) == n + 1
    DrawChips(f, len(lines) + f.noteRows)
  endif
  if lines == [''] && f.prompt != ''
    # After the end of the (empty) line, so the cursor stays before it.
    prop_add(1, 0, {type: 'tagd_prompt', text: f.prompt, text_align: 'after', bufnr: f.buf})
    add(f.drawn, ['tagd_prompt', f.prompt])
  endif
  if below
    const type = f.problem != '' ? 'tagd_problem' : 'tagd_notice'
    prop_add(max([1, len(lines)]), 0, {type: type, text: text, text_align: 'below',
      text_wrap: 'wrap', bufnr: f.buf})
    add(f.drawn, [type, text])
  endif
  Resize(f)
  StatusLine(f, below ? '' : text)
enddef

# What the field says now: why tagd is not there, else tagd's last announcement for it.
def Said(f: dict<any>): string
  return f.problem != '' ? 'tagd: ' .. f.problem : f.announcement
enddef

# Every row of chips but the draft's is padded with blank virtual text to the window's width,
# so Vim wraps exactly where tagd broke the line.
def DrawChips(f: dict<any>, lines: number)
  const n = len(f.tags)
  const width = Width(f)
  f.lastWidth = width
  # Rows in the order of their y; tagd's spacing between rows is not drawn.
  const ys = uniq(sort(mapnew(f.frames, (_, fr) => float2nr(fr.y)), 'n'))
  # More rows than the window may grow to: the first rows give way to one line that counts the
  # chips left out, so the draft stays in view.
  const room = max([1, Opt('max_height', 10) - (lines - 1)])
  var first = 0
  if len(ys) > room
    first = len(ys) - room + 1
    f.hidden = f.frames[: n - 1]->mapnew((_, fr) => index(ys, float2nr(fr.y)))
      ->filter((_, r) => r < first)->len()
    Draw(f, 'tagd_more', printf('%-*.*S', width, width,
      printf(Opt('more_text', '… %d more tags (:TagFieldTags)'), f.hidden)))
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
    const type = i == f.flash ? 'tagd_flash' : i == f.selected ? 'tagd_selected' : 'tagd_chip'
    Draw(f, type, get(fr, 'label', f.tags[i]))
    x += float2nr(fr.width)
  endfor
  f.rows = len(ys) - first + (first > 0 ? 1 : 0)
enddef

def Resize(f: dict<any>)
  const win = bufwinid(f.buf)
  # Only the bottom window :TagField made is sized: resizing a full-height window would give
  # the lines to the command line.
  if win == -1 || win != get(f, 'win', -1)
    return
  endif
  const lines = len(getbufline(f.buf, 1, '$'))
  var want = f.height > 0 ? f.height : f.rows + lines - 1 + get(f, 'noteRows', 0)
  want = min([max([want, 1]), Opt('max_height', 10)])
  if winheight(win) != want
    win_execute(win, 'resize ' .. want)
  endif
enddef

# What the field says changed (an announcement, a problem): drawn again.
export def Status(f: dict<any>)
  Render(f)
enddef

# The status line: the field's name, then {text} (what the field says, when it fits there).
def StatusLine(f: dict<any>, text: string)
  const win = bufwinid(f.buf)
  if win == -1
    return
  endif
  const shown = substitute(text, '%', '%%', 'g')
  setwinvar(win, '&statusline', substitute('tagd://' .. f.name, '%', '%%', 'g') .. '  '
    .. (f.problem != '' ? '%#TagdProblem#' .. shown .. '%*' : shown))
enddef

# The suggestion popup above the cursor: tagd's items, best first, the matched letters
# highlighted from tagd's `matches` (UTF-8 byte ranges, the agreed encoding); the item <Tab>
# takes is highlighted.
export def Suggestions(f: dict<any>)
  const items = get(f.suggest, 'items', [])
  const win = bufwinid(f.buf)
  if empty(items) || win == -1 || win != win_getid() || mode() !~# '^i'
    HideSuggestions(f)
    return
  endif
  var lines: list<dict<any>> = []
  for i in range(len(items))
    const it = items[i]
    var props: list<dict<any>> = [{col: 1, length: len(it.text) + 1,
      type: i == f.suggest.index ? 'tagd_sugg_sel' : 'tagd_sugg'}]
    for m in get(it, 'matches', [])
      add(props, {col: m.start + 1, length: m.end - m.start, type: 'tagd_sugg_match'})
    endfor
    add(lines, {text: it.text, props: props})
  endfor
  const opts = {line: 'cursor-1', col: 'cursor', pos: 'botleft', wrap: false,
    highlight: 'TagdSuggestion', minwidth: 10, maxheight: Opt('suggestions', 8)}
  if f.popup != 0 && !empty(popup_getpos(f.popup))
    popup_settext(f.popup, lines)
    popup_move(f.popup, opts)
  else
    f.popup = popup_create(lines, opts)
  endif
enddef

export def HideSuggestions(f: dict<any>)
  if f.popup != 0
    popup_close(f.popup)
    f.popup = 0
  endif
enddef
