vim9script
# The vault (SPEC §6d): the folders of notes named by g:tagd_vaults, sent to tagd at
# `initialize` as `workspaceFolders`.  A field on a note inside one suggests the vault's tags
# (field option suggestFromVault); :TagdTags lists them (vault/tags); :TagdRename renames one in
# every note (vault/rename), the edits applied to the note buffers Vim has loaded and to the
# files of the others.

import autoload 'tagd/daemon.vim'
import autoload 'tagd/documents.vim'
import autoload 'tagd/sync.vim'

# The vault folders: absolute, symlinks resolved, without a trailing slash.
export def Roots(): list<string>
  var list: any = get(g:, 'tagd_vaults', [])
  if type(list) == v:t_string
    list = [list]
  endif
  return mapnew(list, (_, d) => resolve(fnamemodify(expand(d), ':p'))->substitute('/$', '', ''))
enddef

# file:// URI of {path}: every byte of its UTF-8 but A-Z a-z 0-9 - . _ ~ / percent-encoded.
def Uri(path: string): string
  var out = 'file://'
  for i in range(len(path))
    const byte = strpart(path, i, 1)
    out ..= byte =~ '^[A-Za-z0-9_.~/-]$' ? byte : printf('%%%02X', char2nr(byte))
  endfor
  return out
enddef

def Path(uri: string): string
  # Percent-escapes are bytes (of UTF-8): each becomes its byte.
  return substitute(substitute(uri, '^file://\(localhost\)\=', '', ''), '%\(\x\x\)',
    '\=eval(''"\x'' .. submatch(1) .. ''"'')', 'g')
enddef

# initialize's workspaceFolders ([] when no vault is named).
export def WorkspaceFolders(): list<dict<string>>
  return mapnew(Roots(), (_, r) => ({uri: Uri(r), name: fnamemodify(r, ':t')}))
enddef

# Is the file of buffer {buf} inside a vault?
export def Holds(buf: number): bool
  if bufname(buf) == ''
    return false
  endif
  const path = resolve(fnamemodify(bufname(buf), ':p'))
  return !empty(Roots()->copy()->filter((_, r) => stridx(path, r .. '/') == 0))
enddef

def Say(text: string, error: bool = false)
  if error
    echohl ErrorMsg
  endif
  echomsg 'tagd: ' .. text
  echohl None
enddef

def Ready(): bool
  if empty(Roots())
    Say("no vault: name your notes' folders in g:tagd_vaults (['~/notes'])", true)
    return false
  endif
  daemon.Start()
  return true
enddef

# :TagdTags [prefix]: the vault's tags, most used first, with the notes carrying each (and its
# other spellings).
export def Tags(prefix: string)
  if !Ready()
    return
  endif
  daemon.Request('vault/tags', prefix == '' ? {} : {prefix: prefix}, (resp) => {
    if has_key(resp, 'error')
      Say('vault/tags: ' .. get(resp.error, 'message', string(resp.error)), true)
      return
    endif
    var lines: list<string> = []
    for t in resp.result.tags
      const others = copy(t.spellings)->filter((_, s) => s.text != t.tag)
        ->map((_, s) => s.text .. ' ' .. s.notes)
      add(lines, printf('%5d  %s', t.notes, t.tag)
        .. (empty(others) ? '' : '  (also ' .. join(others, ', ') .. ')'))
    endfor
    if empty(lines)
      Say('the vault has no tags' .. (prefix == '' ? '' : ' starting ' .. prefix))
      return
    endif
    List(lines, printf(' %d tags (notes  tag) ', len(lines)))
  })
enddef

# {lines} in a popup in the middle of the screen: j/k scroll, q or <Esc> closes it (an echo
# from tagd's answer would be wiped by the next redraw).
def List(lines: list<string>, title: string)
  popup_create(lines, {pos: 'center', border: [], padding: [0, 1, 0, 1], title: title,
    maxheight: max([1, &lines - 6]), minwidth: strdisplaywidth(title), scrollbar: true,
    mapping: false, filter: (id, key) => {
      if key == 'q' || key == "\<Esc>"
        popup_close(id)
      elseif key == 'j' || key == 'k'
        const first = popup_getoptions(id).firstline
        popup_setoptions(id, {firstline: max([1, first + (key == 'j' ? 1 : -1)])})
      else
        return false
      endif
      return true
    }})
enddef

# The text edits of one note: to its buffer when Vim has it loaded (saving stays the user's
# act), else to its file (written whole beside it, then renamed over it, its mode kept).
def ApplyTo(path: string, edits: list<any>): bool
  if bufloaded(path)
    documents.Apply(bufnr(path), edits)
    return true
  endif
  var text = join(readfile(path, 'b'), "\n")
  for e in edits   # last first, as tagd sends them
    const a = sync.Offset(text, e.range.start)
    const b = sync.Offset(text, e.range.end)
    text = strpart(text, 0, a) .. e.newText .. strpart(text, b)
  endfor
  const tmp = path .. '.tagd-rename'
  if writefile(split(text, "\n", true), tmp, 'b') != 0 || !setfperm(tmp, getfperm(path))
      || rename(tmp, path) != 0
    delete(tmp)
    return false
  endif
  return true
enddef

# :TagdRename OLD NEW
export def RenameCommand(args: string)
  const words = split(args)
  if len(words) != 2
    Say(':TagdRename OLD NEW', true)
    return
  endif
  Rename(words[0], words[1])
enddef

# tagd's vault/rename, applied.  The notes Vim has loaded are read by tagd
# from their buffers (textDocument/didOpen), not from their files.
export def Rename(from: string, to: string)
  if !Ready()
    return
  endif
  var opened: list<string> = []
  for b in getbufinfo({bufloaded: 1})
    if getbufvar(b.bufnr, '&buftype') == '' && Holds(b.bufnr)
      const uri = Uri(resolve(fnamemodify(b.name, ':p')))
      daemon.Notify('textDocument/didOpen', {textDocument: {uri: uri, version: b.changedtick,
        languageId: documents.IsOrg(b.bufnr) ? 'org' : 'markdown',
        text: join(getbufline(b.bufnr, 1, '$'), "\n") .. "\n"}})
      add(opened, uri)
    endif
  endfor
  daemon.Request('vault/rename', {from: from, to: to}, (resp) => {
    for uri in opened
      daemon.Notify('textDocument/didClose', {textDocument: {uri: uri}})
    endfor
    if has_key(resp, 'error')
      Say('vault/rename: ' .. get(resp.error, 'message', string(resp.error)), true)
      return
    endif
    const r = resp.result
    var changes: dict<any> = copy(get(r.edit, 'changes', {}))
    for dc in get(r.edit, 'documentChanges', [])
      changes[dc.textDocument.uri] = dc.edits
    endfor
    var failed: list<string> = []
    for [uri, edits] in items(changes)
      if !ApplyTo(Path(uri), edits)
        add(failed, Path(uri))
      endif
    endfor
    if !empty(failed)
      Say('could not write ' .. join(failed, ', '), true)
    else
      Say(printf('renamed %s to %s in %d note%s%s', from, to, r.notes, r.notes == 1 ? '' : 's',
        get(r, 'merged', false) ? ' (' .. to .. ' was a tag already: merged)' : ''))
    endif
  })
enddef
