;;; tagd-chips.el --- Chips drawn from tagd's cell layout  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Chips are laid out by tagd in terminal cells (field/layout with
;; `cells'): the package says what it draws around a tag ("[" and
;; " ×]") and tagd answers, per chip, the frame it goes in and the
;; label to draw there, the tag cut with "…" when the chip had to be
;; narrowed.  The package measures nothing: it puts each label at its
;; frame's column.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tagd-sync)

(defcustom tagd-flash-duration 0.8
  "Seconds a chip stays highlighted after a duplicate of it was dropped."
  :type 'number
  :group 'tagd)

(defface tagd-chip
  '((((class color) (min-colors 88) (background dark))
     :background "gray30" :foreground "white")
    (((class color) (min-colors 8)) :background "blue" :foreground "white")
    (t :inverse-video t))
  "Face of a tag chip."
  :group 'tagd)

(defface tagd-chip-remove
  '((t :inherit tagd-chip :weight bold))
  "Face of the remove button (×) of a chip."
  :group 'tagd)

(defface tagd-chip-selected
  '((((class color) (min-colors 8)) :background "white" :foreground "black"
     :weight bold :underline t)
    (t :weight bold :underline t))
  "Face of the selected chip (tagd's selection)."
  :group 'tagd)

(defface tagd-chip-flash
  '((((class color) (min-colors 8)) :background "yellow" :foreground "black")
    (t :inverse-video nil :weight bold))
  "Face of a chip whose duplicate was just dropped."
  :group 'tagd)

(defface tagd-placeholder
  '((t :inherit shadow))
  "Face of the placeholder shown while the draft is empty."
  :group 'tagd)

(defconst tagd--cells '(:left "[" :right " ×]" :padding 1)
  "What a chip looks like in cells: its decorations and one column of gap.")

(defun tagd--flash (field index)
  "Highlight the chip at INDEX of FIELD for `tagd-flash-duration' seconds."
  (setf (tagd--field-flash field) index)
  (run-at-time tagd-flash-duration nil
               (lambda ()
                 (when (and (eql (tagd--field-flash field) index)
                            (not (tagd--field-closed field)))
                   (setf (tagd--field-flash field) nil)
                   (tagd--render field)))))

(defvar tagd-chip-map
  (let ((map (make-sparse-keymap)))
    (define-key map [mouse-1] #'tagd-remove-chip)
    (define-key map [down-mouse-1] #'ignore)
    map)
  "Keymap of the × of a chip.")

(defun tagd-remove-chip (event)
  "Remove the tag of the chip whose × EVENT clicked."
  (interactive (list last-nonmenu-event))
  (let* ((posn (and (mouse-event-p event) (event-start event)))
         (object (and posn (posn-string posn)))
         (props (cond (object (text-properties-at (cdr object) (car object)))
                      (posn (with-current-buffer (window-buffer (posn-window posn))
                              (text-properties-at (posn-point posn))))
                      (t (text-properties-at (point)))))
         (tag (plist-get props 'tagd-remove))
         (field (plist-get props 'tagd-field)))
    (when (and tag field (not (tagd--field-closed field)))
      (tagd-remove-tag field tag))))

(defun tagd--cell-layout (width min-width)
  "Return field/layout params for chips in cells, WIDTH wide.
MIN-WIDTH is the room the draft needs after the last chip."
  (list :width width :cells tagd--cells
        :fieldHeight 1 :spacing 0 :fieldMinWidth min-width))

(defun tagd--set-layout (field params &optional wait)
  "Ask tagd for FIELD's layout with PARAMS (from `tagd--cell-layout') and draw it.
This also replaces the layout tagd pushes with later updates.
With WAIT, wait for the answer."
  (setf (tagd--field-layout field) params)
  (let ((params (append (list :field (tagd--field-id field)) params))
        (take (lambda (result)
                (unless (tagd--field-closed field)
                  (setf (tagd--field-frames field) (plist-get result :frames)
                        (tagd--field-size field) (plist-get result :size))
                  (tagd--render field)))))
    (if wait
        (funcall take (tagd--request :field/layout params))
      (tagd--async :field/layout params take))))

(defun tagd--chip-text (field tag index label)
  "Return LABEL, tagd's text of the chip of TAG at INDEX in FIELD, with faces.
The last character but one is the × (from `tagd--cells')."
  (let* ((face (cond ((eql index (tagd--field-flash field)) 'tagd-chip-flash)
                     ((eql index (tagd--field-selected field)) 'tagd-chip-selected)
                     (t 'tagd-chip)))
         (chip (propertize label 'face face 'tagd-chip tag 'tagd-index index))
         (x (- (length chip) 2)))
    (when (and (>= x 0) (eq (aref chip x) ?×))
      (add-text-properties x (1+ x)
                           (list 'face (if (eq face 'tagd-chip) 'tagd-chip-remove face)
                                 'mouse-face 'highlight
                                 'help-echo "mouse-1: remove this tag"
                                 'keymap tagd-chip-map
                                 'tagd-remove tag 'tagd-field field)
                           chip))
    chip))

(defun tagd--layout-rows (field)
  "Return FIELD's chips placed at the frames tagd laid out, row by row.
Each row is (TEXT . COUNT): the row's text, its chips placed at
their columns, and how many chips it holds.  The last row ends where
the draft begins.  Return nil when there are no frames for the
current tags yet (a layout is then asked for)."
  (let* ((frames (tagd--field-frames field))
         (tags (tagd--field-tags field))
         (padding (plist-get tagd--cells :padding)))
    (if (not (and frames (= (length frames) (1+ (length tags)))))
        (progn (when (and (tagd--field-layout field)
                          (not (eql (tagd--field-laid field)
                                    (tagd--field-state-version field))))
                 (setf (tagd--field-laid field) (tagd--field-state-version field))
                 (tagd--set-layout field (tagd--field-layout field)))
               nil)
      (let* ((field-frame (aref frames (length tags)))
             (lines (make-vector (1+ (plist-get field-frame :y)) nil)))
        ;; Each line: a list of (x end text), END the column after the label.
        (cl-loop for tag in tags for i from 0
                 for frame = (aref frames i)
                 for x = (plist-get frame :x)
                 do (push (list x (+ x (- (plist-get frame :width) padding))
                                (tagd--chip-text field tag i (plist-get frame :label)))
                          (aref lines (plist-get frame :y))))
        (cl-loop
         for items across lines for y from 0
         collect
         (let ((col 0) (out nil))
           (pcase-dolist (`(,x ,end ,text) (reverse items))
             (push (make-string (max 0 (- x col)) ?\s) out)
             (push text out)
             (setq col end))
           (when (= y (plist-get field-frame :y))
             ;; The draft starts at the field's frame.
             (push (make-string (max 0 (- (plist-get field-frame :x) col)) ?\s) out))
           (cons (apply #'concat (nreverse out)) (length items))))))))

(defun tagd--layout-text (field &optional indent)
  "Return FIELD's chips placed at the frames tagd laid out, as text.
Lines after the first start with INDENT spaces; the text ends where
the draft begins.  Return nil when there are no frames for the
current tags yet (a layout is then asked for)."
  (let ((rows (tagd--layout-rows field)))
    (and rows
         (mapconcat #'car rows (concat "\n" (make-string (or indent 0) ?\s))))))

(provide 'tagd-chips)
;;; tagd-chips.el ends here
