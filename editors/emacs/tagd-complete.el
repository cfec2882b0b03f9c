;;; tagd-complete.el --- tagd's suggestions through Emacs's completion  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; tagd ranks a field's vocabulary (the `suggestions' option) for the
;; draft: field/suggest, best first, with the matched ranges of each
;; suggestion.  Two ways to use it:
;;
;; - `tagd-complete' (TAB): with a draft, take tagd's best suggestion
;;   as a tag; with an empty draft, list the vocabulary.
;; - `tagd-completion-at-point', a function of the fields'
;;   `completion-at-point-functions': `completion-at-point' (C-M-i)
;;   and every UI built on `completion-in-region' (the *Completions*
;;   buffer, corfu, company's capf back end, consult) show tagd's
;;   suggestions in tagd's order.  Its completion category `tagd'
;;   defaults to the completion style `tagd', which keeps tagd's
;;   choice and highlights the letters tagd matched with the face
;;   `completions-common-part'.  A style of the user's (orderless) can
;;   be put first for the category in `completion-category-overrides':
;;   it then filters the whole vocabulary itself.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tagd-sync)

(defcustom tagd-suggest-limit 100
  "How many of tagd's suggestions completion shows at most."
  :type 'integer
  :group 'tagd)

(defun tagd--suggest (field &optional query limit)
  "Return tagd's suggestions for FIELD, best first, as propertized strings.
QUERY defaults to tagd's draft; at most LIMIT (default
`tagd-suggest-limit') are returned.  The letters tagd matched have
the face `completions-common-part'."
  (let ((result (tagd--request
                 :field/suggest
                 (append (list :field (tagd--field-id field)
                               :limit (or limit tagd-suggest-limit))
                         (and query (list :query query))))))
    (mapcar (lambda (item)
              (let ((text (copy-sequence (plist-get item :text))))
                (seq-doseq (m (plist-get item :matches))
                  (let ((b (tagd--offset text (list :line 0 :character (plist-get m :start))))
                        (e (tagd--offset text (list :line 0 :character (plist-get m :end)))))
                    (add-face-text-property b e 'completions-common-part nil text)))
                text))
            (plist-get result :items))))

(defun tagd--completion-table (field)
  "Return a completion table of FIELD's suggestions, ranked by tagd."
  (lambda (string pred action)
    (pcase action
      ('metadata
       '(metadata (category . tagd)
                  (display-sort-function . identity)
                  (cycle-sort-function . identity)))
      (`(boundaries . ,_) nil)
      (_
       (let ((items (tagd--suggest field string)))
         (when pred (setq items (seq-filter pred items)))
         ;; A style that filters by itself (orderless asks for all of "" and
         ;; passes its patterns here) gets only what matches them.
         (when completion-regexp-list
           (let ((case-fold-search completion-ignore-case))
             (setq items (seq-filter (lambda (item)
                                       (seq-every-p (lambda (re) (string-match-p re item))
                                                    completion-regexp-list))
                                     items))))
         (pcase action
           ('t items)
           ('lambda (and (member string items) t))
           ('nil (cond ((null items) nil)
                       ((and (null (cdr items)) (string= (car items) string)) t)
                       ((null (cdr items)) (car items))
                       (t string)))))))))

(defun tagd--style-all-completions (string table pred _point)
  "The `tagd' completion style: TABLE's matches for STRING, kept as they come.
PRED filters them.  Returns them with a base size of 0."
  (let ((items (all-completions string table pred)))
    (and items (nconc items 0))))

(defun tagd--style-try-completion (string table pred point)
  "The `tagd' completion style's try function for STRING at POINT in TABLE.
PRED filters the matches.  A sole match is completed; with more,
STRING is left as it is."
  (let ((items (all-completions string table pred)))
    (cond ((null items) nil)
          ((and (null (cdr items)) (string= (car items) string)) t)
          ((null (cdr items))
           (let ((item (substring-no-properties (car items))))
             (cons item (length item))))
          (t (cons string point)))))

(add-to-list 'completion-styles-alist
             '(tagd tagd--style-try-completion tagd--style-all-completions
                    "Completion by tagd's ranking (field/suggest)."))
(add-to-list 'completion-category-defaults '(tagd (styles tagd)))

(defun tagd-completion-at-point ()
  "Complete the draft of the field at point from tagd's suggestions.
A function for `completion-at-point-functions'.  A suggestion
chosen from the list is committed as a tag."
  (let ((field tagd--field))
    (when (and field (not (tagd--field-closed field))
               (>= (point) (tagd--field-start field)))
      (list (marker-position (tagd--field-start field)) (point-max)
            (tagd--completion-table field)
            :exclusive 'no
            :exit-function (lambda (_string status)
                             (when (and (memq status '(finished sole))
                                        (not (tagd--field-closed field)))
                               (tagd-submit field)))))))

(defun tagd-complete ()
  "Take tagd's best suggestion for the draft as a tag (TAB).
With an empty draft, list the suggestions with `completion-at-point'."
  (interactive)
  (let ((field tagd--field))
    (if (tagd--draft-empty-p field)
        (completion-at-point)
      (let ((best (car (tagd--suggest field nil 1))))
        (if (not best)
            (ding)
          (let ((inhibit-read-only t))
            (delete-region (tagd--field-start field) (point-max))
            (goto-char (point-max))
            (insert (substring-no-properties best)))
          (tagd-submit field))))))

(provide 'tagd-complete)
;;; tagd-complete.el ends here
