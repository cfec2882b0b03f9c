;;; tagd.el --- Tag fields with chips, driven by the tagd daemon  -*- lexical-binding: t; -*-

;; Version: 1.2.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: convenience
;; URL: https://tagd.invalid/editors/emacs
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; tagd holds the logic of a tag input field (which text becomes a
;; tag, caseless duplicates, pastes, Backspace on an empty draft,
;; suggestions, undo, selection) and the layout of its chips.  This
;; package draws what tagd says.  It talks to tagd with Emacs's
;; built-in `jsonrpc' library: one tagd process per Emacs, shared by
;; every field, restarted (with its fields re-opened) when it dies.
;;
;; Entry points:
;;
;; - `tagd-read-tags' and `tagd-completing-read-multiple': read a list
;;   of tags in the minibuffer, the committed tags shown as chips
;;   before the draft; `tagd-crm-mode' makes `completing-read-multiple'
;;   use it.
;; - `tagd-field' (tagd-field.el): an in-buffer field whose chips wrap
;;   to the window through tagd's cell layout.
;; - `tagd-org-set-tags' (tagd-org.el): Org heading tags and
;;   #+FILETAGS; `tagd-front-matter-edit-tags' (tagd-front-matter.el):
;;   Markdown front matter.  tagd reads and writes both.
;; - `tagd-tags' and `tagd-rename' (tagd-vault.el): the tags of a
;;   vault of notes, and a tag renamed in all of them; on a note of
;;   a vault, the two commands above suggest the vault's tags.
;;
;; The package's files, by concern: tagd-connection.el (the process),
;; tagd-sync.el (fields synced with a buffer region, the commands
;; every field shares), tagd-chips.el (chips from tagd's layout),
;; tagd-complete.el (suggestions through `completion-at-point'),
;; tagd-reader.el (the minibuffer reader).  See README.md.

;;; Code:

(require 'tagd-connection)
(require 'tagd-sync)
(require 'tagd-chips)
(require 'tagd-complete)
(require 'tagd-reader)

(provide 'tagd)
;;; tagd.el ends here
