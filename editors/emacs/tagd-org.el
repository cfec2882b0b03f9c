;;; tagd-org.el --- Edit Org tags and front matter tags with tagd  -*- lexical-binding: t; -*-

;; Version: 1.0.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: convenience, outlines
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; Two commands that edit real tag sets through `tagd-read-tags':
;;
;; - `tagd-org-set-tags': the tags of the current Org heading, written
;;   back with `org-set-tags' (so they are sorted and aligned as Org
;;   does); before the first heading, the file's #+FILETAGS.
;; - `tagd-edit-front-matter-tags': the `tags:' list of a Markdown
;;   file's YAML front matter, in flow ([a, b]) or block (- a) style,
;;   kept in the style it had.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tagd)

(declare-function org-before-first-heading-p "org" ())
(declare-function org-back-to-heading "org" (&optional invisible-ok))
(declare-function org-get-tags "org" (&optional pos local))
(declare-function org-set-tags "org" (tags))
(declare-function org-collect-keywords "org" (keywords &optional unique directory))
(declare-function org-set-regexps-and-options "org" (&optional tags-only))

(defcustom tagd-org-options '(:separators ["," ":" " " "\n"])
  "Field options of `tagd-org-set-tags' (a plist of tagd field/open options).
By default a comma, a colon, a space or a newline ends a tag: Org
tags hold none of them."
  :type '(plist :key-type symbol :value-type sexp)
  :group 'tagd)

(defcustom tagd-front-matter-key "tags"
  "The front matter key `tagd-edit-front-matter-tags' edits."
  :type 'string
  :group 'tagd)

(defcustom tagd-front-matter-style 'flow
  "How `tagd-edit-front-matter-tags' writes a key that did not exist.
`flow' writes tags: [a, b]; `block' writes one \"- a\" line per tag.
A key that exists keeps its style."
  :type '(choice (const flow) (const block))
  :group 'tagd)

;;;; Org

(defun tagd-org--clean (tags)
  "Return TAGS made valid for Org.
As `org-set-tags-command' does, characters Org does not allow in a
tag split it; caseless repeats that this produces are dropped."
  (let ((out nil))
    (dolist (tag tags)
      (dolist (piece (split-string tag "[^[:alnum:]_@#%]+" t))
        (unless (cl-member piece out
                           :test (lambda (a b)
                                   (eq t (compare-strings a nil nil b nil nil t))))
          (push piece out))))
    (nreverse out)))

(defun tagd-org--file-tags ()
  "Return the tags of the #+FILETAGS lines of the current buffer."
  (cl-mapcan (lambda (value)
               (cl-mapcan (lambda (word) (split-string word ":" t))
                          (split-string value)))
             (cdr (assoc "FILETAGS" (org-collect-keywords '("FILETAGS"))))))

(defun tagd-org--set-file-tags (tags)
  "Write TAGS as the buffer's #+FILETAGS line, replacing any there were."
  (let ((case-fold-search t)
        (line (and tags (concat "#+FILETAGS: :" (string-join tags ":") ":")))
        (at nil))
    (save-excursion
      (save-restriction
        (widen)
        (goto-char (point-min))
        (while (re-search-forward "^[ \t]*#\\+FILETAGS:.*\n?" nil t)
          (unless at (setq at (match-beginning 0)))
          (replace-match ""))
        (unless at
          ;; After the keyword lines that open the file, if any.
          (goto-char (point-min))
          (while (looking-at "^[ \t]*#\\+[A-Za-z_]+:.*$")
            (forward-line 1))
          (setq at (point)))
        (when line
          (goto-char at)
          (unless (bolp) (insert "\n"))
          (insert line "\n"))))
    (org-set-regexps-and-options t)))

;;;###autoload
(defun tagd-org-set-tags ()
  "Edit the tags of the current Org heading through `tagd-read-tags'.
The tags are written back with `org-set-tags'.  Before the first
heading, edit the file's #+FILETAGS instead.  Characters Org does
not allow in tags split a tag, as in `org-set-tags-command'."
  (interactive)
  (unless (derived-mode-p 'org-mode)
    (user-error "Not in an Org buffer"))
  (if (org-before-first-heading-p)
      (let ((tags (tagd-org--clean
                   (tagd-read-tags "File tags: " (tagd-org--file-tags)
                                   tagd-org-options))))
        (tagd-org--set-file-tags tags))
    (let* ((heading (save-excursion (org-back-to-heading t) (point-marker)))
           (tags (tagd-org--clean
                  (tagd-read-tags "Tags: "
                                  (save-excursion (goto-char heading)
                                                  (org-get-tags nil t))
                                  tagd-org-options))))
      (save-excursion
        (goto-char heading)
        (org-set-tags tags))
      (set-marker heading nil))))

;;;; Markdown front matter

(defun tagd--fm-bounds ()
  "Return (START . END) of the YAML front matter's body, or nil.
START is the beginning of the line after the opening ---, END
the beginning of the closing --- (or ...) line."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (point-min))
      (when (looking-at "---[ \t]*$")
        (forward-line 1)
        (let ((start (point)))
          (when (re-search-forward "^\\(---\\|\\.\\.\\.\\)[ \t]*$" nil t)
            (cons start (match-beginning 0))))))))

(defun tagd--fm-unquote (item)
  "Return the YAML scalar ITEM (plain, \"double\" or \\='single\\=' quoted)."
  (let ((item (string-trim item)))
    (cond ((string-match "\\`\"\\(\\(?:[^\"\\\\]\\|\\\\.\\)*\\)\"\\'" item)
           (replace-regexp-in-string "\\\\\\(.\\)" "\\1" (match-string 1 item)))
          ((string-match "\\`'\\(\\(?:[^']\\|''\\)*\\)'\\'" item)
           (replace-regexp-in-string "''" "'" (match-string 1 item)))
          (t (replace-regexp-in-string "[ \t]+#.*\\'" "" item)))))

(defun tagd--fm-split-flow (text)
  "Split the inside of a YAML flow sequence TEXT at commas outside quotes."
  (let ((items nil) (start 0) (quote-char nil) (i 0) (n (length text)))
    (while (< i n)
      (let ((c (aref text i)))
        (cond (quote-char
               (cond ((and (eq c ?\\) (eq quote-char ?\")) (setq i (1+ i)))
                     ((eq c quote-char) (setq quote-char nil))))
              ((memq c '(?\" ?\')) (setq quote-char c))
              ((eq c ?,) (push (substring text start i) items)
               (setq start (1+ i)))))
      (setq i (1+ i)))
    (push (substring text start) items)
    (delq nil (mapcar (lambda (s) (let ((v (tagd--fm-unquote s)))
                                    (unless (string-empty-p v) v)))
                      (nreverse items)))))

(defun tagd--fm-entry (key)
  "Return the front matter entry of KEY as a plist, or nil.
Members: :beg and :end (the lines it spans, END after its last
newline), :style (`flow' or `block'), :indent and :tags."
  (let ((bounds (tagd--fm-bounds)))
    (when bounds
      (save-excursion
        (goto-char (car bounds))
        (when (re-search-forward (concat "^" (regexp-quote key) ":[ \t]*\\(.*\\)$")
                                 (cdr bounds) t)
          (let ((beg (match-beginning 0))
                (rest (string-trim (match-string-no-properties 1))))
            (cond
             ((string-prefix-p "[" rest)
              (goto-char (match-beginning 1))
              (let ((open (point)) close)
                (unless (search-forward "]" (cdr bounds) t)
                  (user-error "Unclosed [ in the front matter's %s:" key))
                (setq close (1- (point)))
                (forward-line 1)
                (list :beg beg :end (point) :style 'flow
                      :tags (tagd--fm-split-flow
                             (buffer-substring-no-properties (1+ open) close)))))
             ((or (string-empty-p rest) (string-prefix-p "#" rest))
              (forward-line 1)
              (let ((tags nil) (indent nil))
                (while (and (< (point) (cdr bounds))
                            (looking-at "^\\([ \t]*\\)-\\(?:[ \t]+\\(.*\\)\\)?$"))
                  (unless indent (setq indent (match-string 1)))
                  (let ((v (tagd--fm-unquote (or (match-string-no-properties 2) ""))))
                    (unless (string-empty-p v) (push v tags)))
                  (forward-line 1))
                (list :beg beg :end (point) :style 'block
                      :indent (or indent "  ") :tags (nreverse tags))))
             (t
              (forward-line 1)
              (list :beg beg :end (point) :style 'flow
                    :tags (list (tagd--fm-unquote rest)))))))))))

(defun tagd--fm-quote (tag)
  "Return TAG as a YAML scalar, quoted when a plain one would misread."
  (if (and (string-match-p "\\`[[:alnum:]_][[:alnum:] _./+-]*\\'" tag)
           (not (string-match-p " \\'" tag))
           (not (string-match-p
                 "\\`\\(?:[-+]?[0-9][0-9_.eE+-]*\\|true\\|false\\|yes\\|no\\|on\\|off\\|null\\|~\\)\\'"
                 (downcase tag))))
      tag
    (concat "\"" (replace-regexp-in-string "[\"\\\\]" "\\\\\\&" tag) "\"")))

(defun tagd--fm-render (key tags style indent)
  "Return the front matter lines of KEY holding TAGS in STYLE with INDENT."
  (if (or (eq style 'flow) (null tags))
      (format "%s: [%s]\n" key (mapconcat #'tagd--fm-quote tags ", "))
    (concat key ":\n"
            (mapconcat (lambda (tag) (concat indent "- " (tagd--fm-quote tag) "\n"))
                       tags ""))))

(defun tagd-front-matter-tags ()
  "Return the tags of the current buffer's front matter key, a list."
  (plist-get (tagd--fm-entry tagd-front-matter-key) :tags))

(defun tagd-set-front-matter-tags (tags)
  "Write TAGS as the front matter key `tagd-front-matter-key'.
The key keeps its style; a missing key is added at the end of the
front matter, and missing front matter at the top of the buffer."
  (let ((entry (tagd--fm-entry tagd-front-matter-key))
        (bounds (tagd--fm-bounds)))
    (save-excursion
      (save-restriction
        (widen)
        (cond
         (entry
          (goto-char (plist-get entry :beg))
          (delete-region (plist-get entry :beg) (plist-get entry :end))
          (insert (tagd--fm-render tagd-front-matter-key tags
                                   (plist-get entry :style)
                                   (plist-get entry :indent))))
         (bounds
          (goto-char (cdr bounds))
          (insert (tagd--fm-render tagd-front-matter-key tags
                                   tagd-front-matter-style "  ")))
         (t
          (goto-char (point-min))
          (insert "---\n"
                  (tagd--fm-render tagd-front-matter-key tags
                                   tagd-front-matter-style "  ")
                  "---\n")))))))

;;;###autoload
(defun tagd-edit-front-matter-tags ()
  "Edit the tags of the YAML front matter through `tagd-read-tags'.
The key is `tagd-front-matter-key'; flow ([a, b]) and block (- a)
lists are read and written back in their own style."
  (interactive)
  (let ((tags (tagd-read-tags (format "%s: " (capitalize tagd-front-matter-key))
                              (tagd-front-matter-tags))))
    (tagd-set-front-matter-tags tags)))

(provide 'tagd-org)
;;; tagd-org.el ends here
