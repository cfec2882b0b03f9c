;;; tagd-front-matter.el --- Edit the tags of Markdown front matter with tagd  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `tagd-front-matter-edit-tags' edits the tags of a document's front
;; matter (YAML between --- lines, TOML between +++ lines) through
;; the reader.  tagd reads and writes them (document/tags and
;; document/setTags): flow lists stay flow, block lists stay block,
;; what needs quoting is quoted, and a document without front matter
;; gets one at the top.

;;; Code:

(require 'tagd)
(require 'tagd-document)
(require 'tagd-vault)

(defcustom tagd-front-matter-key "tags"
  "The front matter key `tagd-front-matter-edit-tags' edits."
  :type 'string
  :group 'tagd)

(defun tagd-front-matter-tags ()
  "Return the tags of the current buffer's front matter key, a list."
  (tagd-document-tags :key tagd-front-matter-key))

(defun tagd-front-matter-set-tags (tags)
  "Make the current buffer's front matter key carry TAGS."
  (tagd-document-set-tags tags :key tagd-front-matter-key))

;;;###autoload
(defun tagd-front-matter-edit-tags ()
  "Edit the tags of the buffer's front matter through `tagd-read-tags'.
The key is `tagd-front-matter-key'.  In a vault (see
`tagd-vault-of'), the vault's tags are suggested, most used first.
The buffer is changed, not saved."
  (interactive)
  (let ((tags (tagd-read-tags (format "%s: " (capitalize tagd-front-matter-key))
                              (tagd-front-matter-tags)
                              (tagd-vault-field-options))))
    (tagd-front-matter-set-tags tags)))

;;;###autoload
(define-obsolete-function-alias 'tagd-edit-front-matter-tags
  #'tagd-front-matter-edit-tags "1.1.0")

(provide 'tagd-front-matter)
;;; tagd-front-matter.el ends here
