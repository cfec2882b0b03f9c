vim9script
# tagd.vim: tag input fields (chips) for Vim 9, driven by the tagd daemon.
# This file only defines commands, <Plug> mappings and an exit hook; autoload/tagd.vim loads on
# first use.  See :help tagd.

if exists('g:loaded_tagd') || v:version < 900
  finish
endif
g:loaded_tagd = 1

import autoload 'tagd.vim'

command -nargs=? -bar TagField tagd.FieldCommand(<q-args>)
command -nargs=? -bar TagFieldClose tagd.Close(<q-args> == '' ? 'default' : <q-args>)
command -nargs=? -bar TagFieldTags echo tagd.Tags(<q-args> == '' ? 'default' : <q-args>)
command -bar TagFieldFrontMatter tagd.FrontMatter()
command -bar TagFieldInfo tagd.InfoCommand()

for mode in ['i', 'n']
  exe mode .. 'noremap <silent> <Plug>(tagd-submit) <ScriptCmd>tagd.Submit()<CR>'
  exe mode .. 'noremap <silent> <Plug>(tagd-backspace) <ScriptCmd>tagd.Backspace()<CR>'
  exe mode .. 'noremap <silent> <Plug>(tagd-prev-chip) <ScriptCmd>tagd.PrevChip()<CR>'
  exe mode .. 'noremap <silent> <Plug>(tagd-next-chip) <ScriptCmd>tagd.NextChip()<CR>'
  exe mode .. 'noremap <silent> <Plug>(tagd-remove-chip) <ScriptCmd>tagd.RemoveChip()<CR>'
endfor

augroup tagd_plugin
  autocmd!
  autocmd VimLeavePre * if exists('*tagd#Stop') | tagd.Stop() | endif
augroup END
