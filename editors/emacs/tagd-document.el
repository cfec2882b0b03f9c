;;; tagd-document.el --- Tags in documents, read and written by tagd  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; tagd reads and writes the tags a document carries (SPEC §6b):
;; document/tags gives the tags of the buffer's text, and
;; document/setTags the LSP text edits that make it carry others.
;; The package parses nothing: it sends the buffer's text and applies
;; the edits to the buffer (it never saves the file).

;;; Code:

(require 'cl-lib)
(require 'tagd-connection)
(require 'tagd-sync)

(defun tagd-document--text ()
  "Return the whole text of the current buffer, without properties."
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

(defun tagd-document--request (method params)
  "Send the document request METHOD with PARAMS; return its result.
An error of tagd's (a tag Org cannot hold, front matter that does
not parse) is signalled as a `user-error' with tagd's message."
  (condition-case err
      (tagd--request method params)
    (jsonrpc-error
     (user-error "%s" (or (alist-get 'jsonrpc-error-message (cdr err))
                          (error-message-string err))))))

(defun tagd-document-tags (&rest params)
  "Return the tags the current buffer carries, a list of strings.
PARAMS are members of document/tags besides `text' (`:format',
`:key', `:line'), as a plist."
  (append (plist-get (tagd-document--request
                      :document/tags
                      (append (list :text (tagd-document--text)) params))
                     :tags)
          nil))

(defun tagd-document-set-tags (tags &rest params)
  "Make the current buffer carry TAGS, with the edits tagd computes.
PARAMS are members of document/setTags besides `text' and
`tags' (`:format', `:key', `:line'), as a plist.  Return the
number of edits applied."
  (let* ((text (tagd-document--text))
         (edits (plist-get (tagd-document--request
                            :document/setTags
                            (append (list :text text :tags (vconcat tags)) params))
                           :edits))
         (spans (cl-loop for edit across edits
                         for range = (plist-get edit :range)
                         collect (list (tagd--offset text (plist-get range :start))
                                       (tagd--offset text (plist-get range :end))
                                       (plist-get edit :newText)))))
    (save-excursion
      (save-restriction
        (widen)
        ;; From the last to the first, so earlier offsets stay right.
        (dolist (span (sort spans (lambda (a b) (> (car a) (car b)))))
          (pcase-let ((`(,b ,e ,new) span))
            (goto-char (+ (point-min) b))
            (delete-region (point) (+ (point-min) e))
            (insert new)))))
    (length spans)))

(provide 'tagd-document)
;;; tagd-document.el ends here
