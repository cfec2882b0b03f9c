vim9script
# The keys of a field buffer (SPEC §6a): each is a function mapping, not an <expr> one, so it
# acts on the buffer the user sees when the key is handled (sync.md rule 3).  Every action is a
# tagd request; what is selected, what undo does and what the user is told is tagd's.

import autoload 'tagd/daemon.vim'
import autoload 'tagd/render.vim'
import autoload 'tagd/sync.vim'

# [lhs, modes, <Plug> name]: the fixed keys of SPEC §6a, then the plugin's own.
export const keys = [
  ['<Tab>', 'i', 'suggestion'],
  ['<C-n>', 'i', 'next-suggestion'],
  ['<C-p>', 'i', 'prev-suggestion'],
  ['u', 'n', 'undo'],
  ['<C-r>', 'n', 'redo'],
  ['<Left>', 'in', 'select-prev'],
  ['<Right>', 'in', 'select-next'],
  ['<M-Left>', 'in', 'move-left'],
  ['<M-Right>', 'in', 'move-right'],
  ['<CR>', 'in', 'submit'],
  ['<BS>', 'in', 'backspace'],
  ['<Del>', 'in', 'delete'],
]

# Buffer-local mappings of the keys to their <Plug> mappings (plugin/tagd.vim), unless the
# user maps them or sets g:tagd_no_mappings.
export def Map(f: dict<any>)
  f.takeSuggestion = TakeSuggestion
  # A bracketed paste is one change (sync.Pasting), whatever the user maps.
  inoremap <buffer> <silent> <PasteStart> <ScriptCmd>Paste()<CR><PasteStart>
  if get(g:, 'tagd_no_mappings', false)
    return
  endif
  for [lhs, modes, name] in keys
    for mode in split(modes, '\zs')
      if maparg(lhs, mode, false, true)->get('buffer', 0) == 0
        exe 'silent ' .. mode .. 'map <buffer> <nowait> ' .. lhs .. ' <Plug>(tagd-' .. name .. ')'
      endif
    endfor
  endfor
enddef

def Current(): dict<any>
  return get(b:, 'tagd_field', {})
enddef

def Paste()
  var f = Current()
  if !empty(f)
    sync.Pasting(f)
  endif
enddef

# A key that does not act here does what it does without the mapping, ahead of the keys typed
# after it.
def Fallthrough(key: string)
  feedkeys(key, 'ni')
enddef

def AtStart(): bool
  return line('.') == 1 && col('.') == 1
enddef

# <CR>: edits the selected chip (field/editTag); otherwise the draft becomes a tag.
export def Submit()
  var f = Current()
  if empty(f)
    return
  endif
  sync.Flush(f)
  if Sel(f) >= 0
    Selecting(f, 'field/editTag', {index: Sel(f)}, -1)
  else
    sync.Request(f, 'field/submit')
  endif
enddef

# <BS>: a selected chip or an empty buffer is tagd's (field/deleteBackward: removes the
# selected chip, else what the field's `backspace` option says); otherwise the character before
# the cursor goes, as an ordinary Backspace (in Normal mode: the cursor moves left).
export def Backspace()
  var f = Current()
  if empty(f)
    return
  endif
  sync.Flush(f)
  if Sel(f) >= 0
    Selecting(f, 'field/deleteBackward', {}, -1)
    return
  elseif f.shadow == ''
    sync.Request(f, 'field/deleteBackward')
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
  sync.Flush(f)
enddef

# <Del>: removes the selected chip; otherwise an ordinary <Del>.
export def Delete()
  var f = Current()
  if empty(f)
    return
  endif
  if Sel(f) >= 0
    Selecting(f, 'field/removeTag', {index: Sel(f)}, -1)
  else
    Fallthrough("\<Del>")
  endif
enddef

# The selection the next key acts on: tagd's, or, while selection requests are in flight
# (keys typed faster than tagd answers), what tagd will have made of them.
def Sel(f: dict<any>): number
  return f.pendingSel > 0 ? f.expect : f.selected
enddef

# A request that changes the selection to {expect}.
def Selecting(f: dict<any>, method: string, params: dict<any>, expect: number)
  f.pendingSel += 1
  f.expect = expect
  # (Not `-=`: a compound assignment to a captured dict's member crashes Vim 9.0.1378.)
  sync.Request(f, method, params, (_) => {
    f.pendingSel = f.pendingSel - 1
  }, () => {
    f.pendingSel = f.pendingSel - 1
  })
enddef

# <Left>: from the start of the draft selects the last chip, from a selected chip the one
# before it; elsewhere an ordinary <Left>.
export def SelectPrev()
  var f = Current()
  if empty(f)
    return
  endif
  sync.Flush(f)
  const sel = Sel(f)
  if sel > 0
    Selecting(f, 'field/select', {index: sel - 1}, sel - 1)
  elseif sel < 0 && AtStart() && !empty(f.tags)
    Selecting(f, 'field/select', {index: len(f.tags) - 1}, len(f.tags) - 1)
  elseif sel < 0
    Fallthrough("\<Left>")
  endif
enddef

# <Right>: from a selected chip the next one; past the last, back to the draft.
export def SelectNext()
  var f = Current()
  if empty(f)
    return
  endif
  const sel = Sel(f)
  if sel < 0
    Fallthrough("\<Right>")
  elseif sel + 1 < len(f.tags)
    Selecting(f, 'field/select', {index: sel + 1}, sel + 1)
  else
    Selecting(f, 'field/select', {index: null}, -1)
  endif
enddef

# <M-Left>/<M-Right>: the selected chip moves one place (tagd's selection follows it).
export def Move(delta: number)
  var f = Current()
  const sel = empty(f) ? -1 : Sel(f)
  if sel < 0
    return
  endif
  const to = sel + delta
  if to >= 0 && to < len(f.tags)
    Selecting(f, 'field/moveTag', {from: sel, to: to}, to)
  endif
enddef

# Normal u / CTRL-R: tagd's undo and redo, one step per tag action.  Vim's own undo is off in a
# field buffer ('undolevels' -1): it would bring back text tagd has already turned into tags.
export def Undo()
  var f = Current()
  if !empty(f)
    sync.Flush(f)
    sync.Request(f, 'field/undo')
  endif
enddef

export def Redo()
  var f = Current()
  if !empty(f)
    sync.Flush(f)
    sync.Request(f, 'field/redo')
  endif
enddef

# Insert <Tab> with a non-empty draft: the highlighted suggestion (the best one unless CTRL-N
# or CTRL-P moved on) becomes a tag.  When the suggestions for this draft have not arrived yet,
# it is taken when they do, unless the buffer has changed by then.
export def Suggestion()
  var f = Current()
  if empty(f)
    return
  endif
  sync.Flush(f)
  if f.shadow == ''
    Fallthrough("\<Tab>")
    return
  endif
  if get(f.suggest, 'version', -1) == f.version
    TakeSuggestion(f)
  else
    f.tabPending = f.version
    sync.Suggest(f)
  endif
enddef

def TakeSuggestion(f: dict<any>)
  const items = get(f.suggest, 'items', [])
  if empty(items) || get(f.suggest, 'version', -1) != f.version
    return
  endif
  const text = items[f.suggest.index].text
  f.suggest = {}
  render.HideSuggestions(f)
  # The draft goes from the buffer (a change like any other), then the suggestion is added.
  deletebufline(f.buf, 1, '$')
  sync.Flush(f)
  sync.Request(f, 'field/addTags', {tags: [text]})
enddef

# CTRL-N / CTRL-P: highlight the next / previous suggestion.
export def StepSuggestion(delta: number)
  var f = Current()
  const n = len(get(get(f, 'suggest', {}), 'items', []))
  if empty(f) || n == 0 || f.popup == 0
    Fallthrough(delta > 0 ? "\<C-n>" : "\<C-p>")
    return
  endif
  f.suggest.index = (f.suggest.index + delta + n) % n
  render.Suggestions(f)
enddef
