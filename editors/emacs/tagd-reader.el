;;; tagd-reader.el --- Read tags in the minibuffer, as chips  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `tagd-read-tags' and `tagd-completing-read-multiple' read a list of
;; tags in the minibuffer: the minibuffer's contents are the draft,
;; synced with a tagd field, and the committed tags are chips drawn
;; before it (an overlay's string, so point can never land in them).
;; `tagd-crm-mode' makes `completing-read-multiple' use the reader.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tagd-sync)
(require 'tagd-chips)
(require 'tagd-complete)

(defcustom tagd-show-placeholder t
  "Whether an empty draft shows the field's prompt as a placeholder."
  :type 'boolean
  :group 'tagd)

(defvar tagd-field-keys
  '(("TAB" . tagd-complete)
    ("C-M-i" . completion-at-point)
    ("C-/" . tagd-undo) ("C-_" . tagd-undo) ("C-x u" . tagd-undo)
    ("C-M-_" . tagd-redo)
    ("<left>" . tagd-select-previous) ("<right>" . tagd-select-next)
    ("M-<left>" . tagd-move-left) ("M-<right>" . tagd-move-right)
    ("DEL" . tagd-delete-backward) ("C-d" . tagd-delete-forward)
    ("<deletechar>" . tagd-delete-forward))
  "The keys (SPEC §6a) every tagd field binds, as (KEY . COMMAND).")

(defun tagd--bind-field-keys (map)
  "Bind `tagd-field-keys' in MAP and return it."
  (pcase-dolist (`(,key . ,command) tagd-field-keys)
    (define-key map (kbd key) command))
  (define-key map [remap undo] #'tagd-undo)
  (define-key map [remap undo-only] #'tagd-undo)
  (define-key map [remap undo-redo] #'tagd-redo)
  (define-key map [remap delete-backward-char] #'tagd-delete-backward)
  map)

(defvar tagd-minibuffer-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map minibuffer-local-map)
    (tagd--bind-field-keys map)
    (define-key map (kbd "RET") #'tagd-minibuffer-return)
    ;; A newline is a separator: C-j (what a terminal sends for a pasted
    ;; newline) inserts it instead of ending the minibuffer.
    (define-key map (kbd "C-j") #'tagd-insert-newline)
    map)
  "Keymap of `tagd-read-tags'.")

(defun tagd-insert-newline ()
  "Insert a newline, which commits the draft as a separator does."
  (interactive)
  (insert "\n"))

(defvar-local tagd--chips-overlay nil
  "Overlay showing the chips of the minibuffer reader.")

(defvar-local tagd--notice-overlay nil
  "Overlay showing an announcement after a non-empty draft.")

(defvar-local tagd--default nil
  "The default of the reader: what an empty RET with no tags gives.")

(defun tagd--minibuffer-layout ()
  "Return the cell layout of the reader's chips in this minibuffer.
The chips use the columns after the prompt; later lines are
indented under the first chip."
  (let ((prompt (save-excursion (goto-char (minibuffer-prompt-end)) (current-column)))
        (window (or (get-buffer-window (current-buffer) t) (minibuffer-window))))
    (tagd--cell-layout (max 20 (- (window-width window) prompt 1)) 12)))

(defun tagd--minibuffer-resized (_window)
  "Lay the reader's chips out again if the minibuffer's width changed.
Otherwise draw them again: the rows that fit may have changed."
  (let ((field tagd--field))
    (when (and field (not (tagd--field-closed field)))
      (let ((params (tagd--minibuffer-layout)))
        (if (equal (plist-get params :width)
                   (plist-get (tagd--field-layout field) :width))
            (tagd--render field)
          (tagd--set-layout field params))))))

(defun tagd--placeholder (field)
  "Return FIELD's placeholder (tagd's prompt) as shown, or \"\"."
  (if (and tagd-show-placeholder (tagd--field-prompt field))
      (propertize (tagd--field-prompt field) 'face 'tagd-placeholder 'cursor t)
    ""))

(defcustom tagd-more-format "… %d more tags"
  "What stands for chip rows the minibuffer has no room for.
A `format' string with one %d, the number of chips not shown.
When the chips need more rows than the minibuffer may grow to
\(`max-mini-window-height'), the rows farthest from the draft give
way to it, so that the draft and the cursor stay in view."
  :type 'string
  :group 'tagd)

(defun tagd--minibuffer-lines (window)
  "Return how many lines the minibuffer WINDOW may grow to.
This follows Emacs's own rule: `max-mini-window-height' (a float
is a fraction of the frame's height), unless `resize-mini-windows'
is nil."
  (let* ((frame (window-frame window))
         (unit (frame-char-height frame))
         (frame-lines (/ (frame-inner-height frame) unit))
         (max max-mini-window-height)
         (lines (cond ((not resize-mini-windows) (window-body-height window))
                      ((floatp max) (floor (* max (frame-inner-height frame)) unit))
                      ((integerp max) max)
                      (t (/ frame-lines 4)))))
    (max 1 (min lines frame-lines))))

(defun tagd--fit-rows (rows lines last-lines selected)
  "Return which of ROWS to show in LINES lines, as a list of booleans.
ROWS are `tagd--layout-rows'; the last one, with the draft, is
always shown and takes LAST-LINES lines.  Each run of hidden rows
takes one line (`tagd-more-format').  The rows next to the draft
are shown, unless the chip at index SELECTED is in a hidden row:
then its row and those after it are, the draft's row kept."
  (let* ((n (length rows))
         ;; Rows other than the last one that fit with one "more" line.
         (room (max 0 (- lines last-lines 1)))
         (shown (lambda (from count)
                  (cl-loop for i below n
                           collect (or (= i (1- n)) (and (>= i from) (< i (+ from count))))))))
    (if (<= (+ (1- n) last-lines) lines)
        (make-list n t)
      (let* ((first (- n 1 room))
             (row (and selected
                       (cl-loop for (_ . count) in rows for i from 0
                                sum count into seen
                                when (< selected seen) return i))))
        (let ((count (- lines last-lines 1 (if (and row (> row 0)) 1 0))))
          (if (and row (< row first) (> count 0))
              ;; A "more" line before the selected row (unless it is the
              ;; first) and one between its rows and the draft's.
              (funcall shown row count)
            (funcall shown first room)))))))

(defun tagd--fold-rows (rows shown)
  "Return the texts of ROWS (`tagd--layout-rows'), folding those not SHOWN.
Each run of hidden rows becomes one line of `tagd-more-format'."
  (let ((out nil) (hidden 0))
    (cl-loop for (text . count) in rows for show in shown
             do (if (not show)
                    (cl-incf hidden count)
                  (when (> hidden 0)
                    (push (propertize (format tagd-more-format hidden) 'face 'shadow) out)
                    (setq hidden 0))
                  (push text out)))
    (nreverse out)))

(defun tagd--render-minibuffer (field)
  "Show FIELD's chips before the draft in the minibuffer.
They are placed by tagd's layout in the columns after the prompt.
Its announcements follow the draft, as `minibuffer-message' would
show them, but never between the prompt and the chips.  When the
chips need more rows than the minibuffer may grow to, the rows
farthest from the draft are folded into one line (see
`tagd-more-format'), so the draft and the cursor stay in view."
  (let* ((start (tagd--field-start field))
         (empty (= start (point-max)))
         (window (or (get-buffer-window (current-buffer) t) (minibuffer-window)))
         (width (max 2 (window-width window)))
         (indent (save-excursion (goto-char start) (current-column)))
         (notices (tagd--field-notices field))
         (notice (lambda ()
                   (mapconcat (lambda (notice)
                                (propertize (format " [%s]" (car notice))
                                            'face 'minibuffer-prompt))
                              notices "")))
         (rows (tagd--layout-rows field))
         (lines (tagd--minibuffer-lines window))
         ;; The lines the draft's row takes, wrapped at the window's edge
         ;; (a terminal keeps the last column for the continuation mark).
         (last-lines
          (lambda ()
            (1+ (/ (+ indent
                      (string-width (or (car (car (last rows))) ""))
                      (string-width (buffer-substring-no-properties start (point-max)))
                      (if empty (string-width (tagd--placeholder field)) 0)
                      (string-width (funcall notice)))
                   (1- width))))))
    ;; The oldest announcements give way when the draft's row would not
    ;; leave three lines for chips (a selected chip's row between two
    ;; "more" lines); they are in *Messages*.
    (while (and (cdr notices)
                (> (funcall last-lines) (if (cdr rows) (max 1 (- lines 3)) lines)))
      (setq notices (cdr notices)))
    (let ((placed (and rows
                       (mapconcat #'identity
                                  (tagd--fold-rows
                                   rows (tagd--fit-rows rows lines (funcall last-lines)
                                                        (tagd--field-selected field)))
                                  (concat "\n" (make-string indent ?\s)))))
          (notice (funcall notice)))
      (unless (overlayp tagd--chips-overlay)
        (setq tagd--chips-overlay (make-overlay start start nil nil nil)))
      (unless (overlayp tagd--notice-overlay)
        (setq tagd--notice-overlay (make-overlay start start nil nil nil)))
      (move-overlay tagd--chips-overlay start start)
      (move-overlay tagd--notice-overlay (point-max) (point-max))
      (when placed
        (overlay-put tagd--chips-overlay 'before-string placed))
      ;; One overlay's strings are drawn in order: chips, then what
      ;; follows an empty draft.
      (overlay-put tagd--chips-overlay 'after-string
                   (if empty (concat (tagd--placeholder field) notice) ""))
      (overlay-put tagd--notice-overlay 'after-string (if empty "" notice)))))

(defun tagd-minibuffer-return ()
  "Edit the selected chip; else commit the draft; on an empty one, finish.
Finishing with no tags at all gives the reader's default, if any."
  (interactive)
  (let ((field tagd--field))
    (cond
     ((tagd--field-selected field) (tagd-edit-selected))
     ((tagd-submit field)
      (when (and tagd--default (null (tagd--field-tags field)))
        (goto-char (point-max))
        (insert tagd--default)
        (tagd-submit field))
      (exit-minibuffer)))))

(defun tagd--minibuffer-chips ()
  "Return the text of the chips and what follows them in the minibuffer reader."
  (if (overlayp tagd--chips-overlay)
      (concat (overlay-get tagd--chips-overlay 'before-string)
              (overlay-get tagd--chips-overlay 'after-string))
    ""))

(cl-defun tagd--read (prompt &key tags options initial hist default inherit-input-method)
  "Read tags in the minibuffer with PROMPT; return them.
TAGS are the initial chips, OPTIONS tagd's field options (a plist),
INITIAL text typed into the draft first (a string, or a cons of
it and a position), HIST the history variable (or a cons of it and
a position), DEFAULT the text an empty answer stands for (also what
\\<minibuffer-local-map>\\[next-history-element] inserts), INHERIT-INPUT-METHOD as in
`read-from-minibuffer'."
  (let ((field nil) (minibuffer nil)
        (hist-var (or (car-safe hist) hist 'minibuffer-history))
        (default (if (consp default) (car default) default)))
    (unwind-protect
        (progn
          (minibuffer-with-setup-hook
              (lambda ()
                (setq minibuffer (current-buffer))
                (setq tagd--announce-in-field t
                      tagd--default default)
                (let ((layout (tagd--minibuffer-layout)))
                  (setq field (tagd--open (current-buffer) (minibuffer-prompt-end)
                                          :tags tags :options options
                                          :layout layout
                                          :render #'tagd--render-minibuffer))
                  (tagd--set-layout field layout t))
                (add-hook 'completion-at-point-functions #'tagd-completion-at-point nil t)
                (add-hook 'window-size-change-functions #'tagd--minibuffer-resized
                          nil t)
                (when initial
                  (insert (if (consp initial) (car initial) initial))))
            (let ((history-add-new-input nil))
              (read-from-minibuffer prompt nil tagd-minibuffer-map nil
                                    (if (consp hist) hist hist-var)
                                    default inherit-input-method)))
          (let ((result (tagd--field-tags field)))
            (when (and result (symbolp hist-var) (not (eq hist-var t)))
              (add-to-history hist-var (string-join result ",")))
            result))
      (when (buffer-live-p minibuffer)
        (with-current-buffer minibuffer
          (remove-hook 'window-size-change-functions #'tagd--minibuffer-resized t)
          (dolist (o (list tagd--chips-overlay tagd--notice-overlay))
            (when (overlayp o) (delete-overlay o)))
          (setq tagd--chips-overlay nil tagd--notice-overlay nil)))
      (when field
        (tagd--close field)))))

;;;###autoload
(defun tagd-read-tags (prompt &optional initial-tags options)
  "Read a list of tags in the minibuffer, prompting with PROMPT.
INITIAL-TAGS are the tags the field starts with.  OPTIONS is a
plist of tagd field options (such as `:suggestions', `:deny',
`:pattern') merged over `tagd-field-options' and given to tagd
unchanged.

Committed tags show as chips before the draft.  A separator (a
comma) commits the draft, a paste is split, RET commits a
non-empty draft and on an empty one returns the tags, TAB takes
tagd's best suggestion, \\<tagd-minibuffer-map>\\[completion-at-point] lists them, \\[tagd-undo] and
\\[tagd-redo] undo and redo, left and right at the start of the
draft select a chip, which \\[tagd-move-left] and \\[tagd-move-right] move,
RET edits and DEL removes; \\[abort-recursive-edit] quits.  Return the list of tags."
  (tagd--read prompt :tags initial-tags :options options))

;;;###autoload
(defun tagd-completing-read-multiple (prompt table &optional predicate require-match
                                             initial-input hist def
                                             inherit-input-method)
  "Read tags in the minibuffer like `completing-read-multiple'.
PROMPT, TABLE, PREDICATE, REQUIRE-MATCH, INITIAL-INPUT, HIST, DEF
and INHERIT-INPUT-METHOD are those of `completing-read-multiple'.
TABLE's completions (those PREDICATE accepts) become the field's
suggestions, ranked by tagd; a REQUIRE-MATCH of t (or any value but
`confirm' and `confirm-after-completion') makes tagd refuse every
other tag.  INITIAL-INPUT is typed into the draft, so tagd splits
it.  HIST is the history variable; the tags read are added to it
joined with commas.  DEF is what an empty answer stands for.
Return the list of tags."
  (let* ((suggestions (vconcat (all-completions "" table predicate)))
         (options (append (list :suggestions suggestions)
                          (and require-match
                               (not (memq require-match '(confirm confirm-after-completion)))
                               (list :allow suggestions)))))
    (tagd--read prompt :options options :initial initial-input :hist hist
                :default def :inherit-input-method inherit-input-method)))

;;;###autoload
(define-minor-mode tagd-crm-mode
  "Make `completing-read-multiple' read with tagd's chips.
When on, every caller of `completing-read-multiple' gets
`tagd-completing-read-multiple' instead."
  :global t
  :group 'tagd
  (if tagd-crm-mode
      (advice-add 'completing-read-multiple :override #'tagd-completing-read-multiple)
    (advice-remove 'completing-read-multiple #'tagd-completing-read-multiple)))

(provide 'tagd-reader)
;;; tagd-reader.el ends here
