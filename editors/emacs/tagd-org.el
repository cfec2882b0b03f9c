;;; tagd-org.el --- Edit Org heading tags and #+FILETAGS with tagd  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `tagd-org-set-tags' edits the tags of the current Org heading, or
;; before the first heading the file's #+FILETAGS, through the
;; reader.  tagd reads and writes them (document/tags and
;; document/setTags with the formats `org-heading' and
;; `org-filetags'); the vocabulary offered is Org's own: the buffer's
;; tags, `org-tag-alist' (with the file's #+TAGS) and
;; `org-tag-persistent-alist'.  A tag Org cannot hold is refused by
;; tagd, with tagd's reason, not rewritten.

;;; Code:

(require 'tagd)
(require 'tagd-document)
(require 'tagd-vault)

(defvar org-tag-alist)
(defvar org-tag-persistent-alist)
(defvar org-current-tag-alist)
(declare-function org-before-first-heading-p "org" ())
(declare-function org-back-to-heading "org" (&optional invisible-ok))
(declare-function org-get-buffer-tags "org" ())
(declare-function org-align-tags "org" (&optional all))
(declare-function org-set-regexps-and-options "org" (&optional tags-only))

(defcustom tagd-org-options
  '(:separators ["," ":" " " "\n"] :pattern "[\\p{L}\\p{Nd}_@#%]+")
  "Field options of `tagd-org-set-tags' (a plist of tagd field/open options).
By default a comma, a colon, a space or a newline ends a tag, and
tagd refuses a tag of other characters than letters, digits, `_',
`@', `#' and `%' (Org's `org-tag-re'), saying why.  The pattern is
tagd's regular expression syntax (Swift's Regex), not Emacs's."
  :type '(plist :key-type symbol :value-type sexp)
  :group 'tagd)

(defun tagd-org-vocabulary ()
  "Return the tags Org has for this buffer: its own, then Org's lists.
Those are the tags of the buffer's headings, `org-tag-alist' (or
the file's #+TAGS) and `org-tag-persistent-alist'."
  (let ((vocabulary nil))
    (dolist (entry (append (and (fboundp 'org-get-buffer-tags) (org-get-buffer-tags))
                           (if (boundp 'org-current-tag-alist) org-current-tag-alist
                             org-tag-alist)
                           org-tag-persistent-alist))
      (let ((tag (if (consp entry) (car entry) entry)))
        (when (stringp tag) (push tag vocabulary))))
    (nreverse vocabulary)))

(defun tagd-org--target ()
  "Return the document/tags params of the tags at point.
The heading point is in, by its 0-based line, or #+FILETAGS before
the first heading."
  (if (org-before-first-heading-p)
      (list :format "org-filetags")
    (list :format "org-heading"
          :line (save-excursion (org-back-to-heading t)
                                (1- (line-number-at-pos nil t))))))

;;;###autoload
(defun tagd-org-set-tags ()
  "Edit the tags of the current Org heading through `tagd-read-tags'.
Before the first heading, edit the file's #+FILETAGS instead.  The
vocabulary is Org's (`tagd-org-vocabulary'), then, in a vault (see
`tagd-vault-of'), the vault's tags, most used first; tagd reads and
writes the tags, and refuses one Org cannot hold."
  (interactive)
  (unless (derived-mode-p 'org-mode)
    (user-error "Not in an Org buffer"))
  (let* ((target (tagd-org--target))
         (heading (and (plist-get target :line)
                       (save-excursion (org-back-to-heading t) (point-marker))))
         (tags (tagd-read-tags (if heading "Tags: " "File tags: ")
                               (apply #'tagd-document-tags target)
                               (append (list :suggestions (vconcat (tagd-org-vocabulary)))
                                       (tagd-vault-field-options)
                                       tagd-org-options))))
    (apply #'tagd-document-set-tags tags target)
    (if (not heading)
        (org-set-regexps-and-options t)
      (save-excursion (goto-char heading) (org-align-tags))
      (set-marker heading nil))))

(provide 'tagd-org)
;;; tagd-org.el ends here
