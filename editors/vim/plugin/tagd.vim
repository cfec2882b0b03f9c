vim9script
# tagd.vim: tag input fields (chips) for Vim 9, driven by the tagd daemon.
# This file only defines commands, <Plug> mappings and an exit hook; autoload/tagd.vim and
# autoload/tagd/*.vim load on first use.  See :help tagd.

if exists('g:loaded_tagd') || v:version < 900
  finish
endif
g:loaded_tagd = 1

# :help tagd without a manual :helptags: the plugin builds the tags of its own doc/ when they are
# missing or older than doc/tagd.txt (a package, a runtimepath entry or a plugin manager's copy
# is used straight from its directory).  Nothing happens when the directory is read-only or the
# tags are current; no other directory's tags are touched.
const doc = fnamemodify(resolve(expand('<sfile>:p')), ':h:h') .. '/doc'
if filewritable(doc) == 2 && getftime(doc .. '/tagd.txt') > getftime(doc .. '/tags')
  silent! exe 'helptags ' .. fnameescape(doc)
endif

import autoload 'tagd.vim'
import autoload 'tagd/keys.vim'
import autoload 'tagd/documents.vim'
import autoload 'tagd/vault.vim'

command -nargs=? -bar -complete=customlist,tagd#Complete TagField tagd.FieldCommand(<q-args>)
command -nargs=? -bar -complete=customlist,tagd#Complete TagFieldClose tagd.CloseCommand(<q-args>)
command -nargs=? -bar -complete=customlist,tagd#Complete TagFieldTags tagd.TagsCommand(<q-args>)
command -bar TagFieldFrontMatter documents.FrontMatter()
command -bar TagFieldOrgHeading documents.OrgHeading()
command -bar TagFieldInfo tagd.InfoCommand()
command -bar TagdRestart tagd.Restart()
command -nargs=? -bar TagdTags vault.Tags(<q-args>)
command -nargs=+ -bar TagdRename vault.RenameCommand(<q-args>)

# One <Plug> mapping per action (the keys of a field buffer map to them; see keys.vim).
for [name, modes, call] in [
    ['suggestion', 'i', 'Suggestion()'],
    ['next-suggestion', 'i', 'StepSuggestion(1)'],
    ['prev-suggestion', 'i', 'StepSuggestion(-1)'],
    ['undo', 'n', 'Undo()'],
    ['redo', 'n', 'Redo()'],
    ['select-prev', 'in', 'SelectPrev()'],
    ['select-next', 'in', 'SelectNext()'],
    ['move-left', 'in', 'Move(-1)'],
    ['move-right', 'in', 'Move(1)'],
    ['submit', 'in', 'Submit()'],
    ['backspace', 'in', 'Backspace()'],
    ['delete', 'in', 'Delete()']]
  for mode in split(modes, '\zs')
    exe mode .. 'noremap <silent> <Plug>(tagd-' .. name .. ') <ScriptCmd>keys.' .. call .. '<CR>'
  endfor
endfor

augroup tagd_plugin
  autocmd!
  autocmd VimLeavePre * if exists('*tagd#Stop') | tagd.Stop() | endif
augroup END
