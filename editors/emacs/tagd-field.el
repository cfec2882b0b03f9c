;;; tagd-field.el --- An in-buffer tag field laid out by tagd  -*- lexical-binding: t; -*-

;; Version: 1.0.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: convenience
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; `tagd-field' opens a buffer holding a tag field: the chips, laid
;; out by tagd's flow layout in terminal cells (field/layout with
;; `cells') so that they wrap to the window's width, then the draft.
;; The chips are read-only text; the draft, after them, is ordinary
;; editable text synced with tagd (Protocol/sync.md).
;;
;; A chip is drawn as "[TAG ×]" plus one column of gap, so tagd
;; measures it as the tag's display width plus `tagd-field-padding'
;; (5) cells, with a spacing of 0 (rows are adjacent).  Where Emacs's
;; `string-width' and tagd's display width disagree (some emoji
;; sequences), the chips are laid out again from the widths Emacs
;; draws (field/layout with `chipSizes'), so columns stay exact; see
;; README.md.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tagd)

(defcustom tagd-field-width nil
  "Width in columns the field's chips wrap to.
nil means the width of the window showing the field, less one
column (a terminal wraps a line that fills the window)."
  :type '(choice (const :tag "The window's width" nil) integer)
  :group 'tagd)

(defcustom tagd-field-min-width 12
  "Columns the draft needs at the end of the last line of chips."
  :type 'integer
  :group 'tagd)

(defconst tagd-field-padding 5
  "Cells a chip adds to its tag: \"[\", \" ×]\" and one column of gap.")

(defvar-local tagd-field--on-done nil
  "Function called with the tags when the field is finished.")

(defvar-local tagd-field--placeholder nil
  "Overlay showing the placeholder while the draft is empty.")

(defvar tagd-field-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'tagd-field-return)
    (define-key map (kbd "DEL") #'tagd-delete-backward)
    (define-key map (kbd "C-c C-c") #'tagd-field-finish)
    (define-key map (kbd "C-c C-k") #'tagd-field-cancel)
    (define-key map (kbd "TAB") #'tagd-field-next-chip)
    (define-key map (kbd "<backtab>") #'tagd-field-previous-chip)
    map)
  "Keymap of `tagd-field-mode'.")

(define-derived-mode tagd-field-mode fundamental-mode "Tags"
  "Major mode of a tagd tag field buffer.
Type tags after the chips; \\`,' or \\`RET' commits one, \\`DEL' on an
empty draft removes the last.  \\`RET' on a chip (or a click on its
×) removes it.  \\[tagd-field-finish] finishes, \\[tagd-field-cancel] cancels.

\\{tagd-field-mode-map}"
  (buffer-disable-undo)
  (setq-local truncate-lines nil)
  (add-hook 'kill-buffer-hook #'tagd-field--kill nil t)
  (add-hook 'window-size-change-functions #'tagd-field--resized nil t))

(defun tagd-field--width ()
  "Return the width the chips wrap to."
  (or tagd-field-width
      (let ((window (get-buffer-window (current-buffer) t)))
        (max 1 (1- (if window (window-body-width window) (frame-width)))))))

(defun tagd-field--layout-params ()
  "Return the cell layout of this buffer's field (field/layout params)."
  (list :width (tagd-field--width) :cells (list :padding tagd-field-padding)
        :fieldHeight 1 :spacing 0 :fieldMinWidth tagd-field-min-width))

(defun tagd-field--chip-width (tag)
  "Return the columns Emacs draws TAG's chip in."
  (+ (string-width tag) tagd-field-padding))

(defun tagd-field--agrees-p (field frames)
  "Return non-nil if FRAMES (tagd's cells) fit FIELD's chips as Emacs draws them.
A chip narrowed to the available width is left out of the check."
  (let ((width (plist-get (tagd--field-layout field) :width)))
    (cl-loop for tag in (tagd--field-tags field)
             for frame across frames
             for w = (plist-get frame :width)
             always (or (= w (tagd-field--chip-width tag))
                        (and (numberp width) (= w width))))))

(defun tagd-field--relayout (field)
  "Lay FIELD's chips out again from the widths Emacs draws them in."
  (let ((layout (tagd--field-layout field))
        (state (tagd--field-state-version field)))
    (tagd--async
     :field/layout
     (list :field (tagd--field-id field)
           :width (plist-get layout :width)
           :chipSizes (vconcat (mapcar (lambda (tag)
                                         (list :width (tagd-field--chip-width tag)
                                               :height 1))
                                       (tagd--field-tags field)))
           :fieldHeight 1 :spacing 0 :fieldMinWidth tagd-field-min-width)
     (lambda (result)
       (when (and (= state (tagd--field-state-version field))
                  (not (tagd--field-closed field)))
         (setf (tagd--field-frames field) (plist-get result :frames)
               (tagd--field-size field) (list :measured t))
         (tagd--render field))))))

(defun tagd-field--chip-text (field tag index width)
  "Return the chip of TAG at INDEX in FIELD, drawn in WIDTH columns."
  (let* ((room (max 0 (- width tagd-field-padding)))
         (shown (if (> (string-width tag) room)
                    (truncate-string-to-width tag room nil nil "…")
                  tag))
         (chip (tagd--chip field shown index)))
    ;; The chip and its × name the whole tag, not the truncated one.
    (put-text-property 0 (length chip) 'tagd-chip tag chip)
    (let ((x (string-match "×" chip)))
      (put-text-property x (1+ x) 'tagd-remove tag chip))
    (concat chip (make-string (max 0 (- width (string-width chip))) ?\s))))

(defun tagd-field--render (field)
  "Draw FIELD's chips at the frames tagd laid them out at, then the draft."
  (let* ((frames (tagd--field-frames field))
         (tags (tagd--field-tags field))
         (size (tagd--field-size field)))
    (when (and frames (= (length frames) (1+ (length tags))))
      (if (and (not (plist-get size :measured))
               (not (tagd-field--agrees-p field frames)))
          (tagd-field--relayout field)
        (let* ((start (tagd--field-start field))
               (draft-offset (and (>= (point) start) (- (point) start)))
               (old-point (point))
               (lines (make-vector (1+ (plist-get (aref frames (length tags)) :y)) nil)))
          ;; Each line: a list of (x . text), filled left to right.
          (cl-loop for tag in tags for i from 0
                   for frame = (aref frames i)
                   do (push (cons (plist-get frame :x)
                                  (tagd-field--chip-text field tag i
                                                         (plist-get frame :width)))
                            (aref lines (plist-get frame :y))))
          (let* ((field-frame (aref frames (length tags)))
                 (text
                  (mapconcat
                   (lambda (items)
                     (let ((col 0) (out ""))
                       (dolist (item (nreverse items))
                         (setq out (concat out (make-string (max 0 (- (car item) col)) ?\s)
                                           (cdr item))
                               col (+ (car item) (string-width (cdr item)))))
                       out))
                   lines "\n"))
                 (last-col (string-width (car (last (split-string text "\n"))))))
            (setq text (concat text (make-string (max 0 (- (plist-get field-frame :x) last-col))
                                                 ?\s)))
            (add-text-properties 0 (length text)
                                 '(read-only "Chips are edited with RET or ×"
                                             rear-nonsticky t front-sticky (read-only))
                                 text)
            (save-excursion
              (delete-region (point-min) start)
              (goto-char (point-min))
              (insert text)
              (set-marker start (point)))
            (goto-char (if draft-offset (+ start draft-offset)
                         (min old-point start)))))))
    (tagd-field--update-placeholder field)))

(defun tagd-field--update-placeholder (field)
  "Show FIELD's prompt after the chips while the draft is empty."
  (let ((start (tagd--field-start field)))
    (unless (overlayp tagd-field--placeholder)
      (setq tagd-field--placeholder (make-overlay start start nil nil nil)))
    (move-overlay tagd-field--placeholder (point-max) (point-max))
    (overlay-put tagd-field--placeholder 'after-string
                 (if (and tagd-show-placeholder (= start (point-max)))
                     (propertize (or (plist-get (tagd--field-options field) :prompt)
                                     "Add a tag")
                                 'face 'tagd-placeholder 'cursor t)
                   ""))))

(defun tagd-field--set-layout (field)
  "Ask tagd for FIELD's cell layout at the current width and draw it.
This also replaces the layout tagd pushes with later updates."
  (let ((params (tagd-field--layout-params)))
    (setf (tagd--field-layout field) params)
    (tagd--async :field/layout (append (list :field (tagd--field-id field)) params)
                 (lambda (result)
                   (unless (tagd--field-closed field)
                     (setf (tagd--field-frames field) (plist-get result :frames)
                           (tagd--field-size field) nil)
                     (tagd--render field))))))

(defun tagd-field--resized (window)
  "Lay the field out again when WINDOW, showing it, changed size."
  (with-current-buffer (window-buffer window)
    (when (and tagd--field (not (tagd--field-closed tagd--field))
               (/= (tagd-field--width)
                   (plist-get (tagd--field-layout tagd--field) :width)))
      (tagd-field--set-layout tagd--field))))

;;;###autoload
(defun tagd-field (&optional tags on-done options)
  "Open a buffer with a tag field holding TAGS and return the buffer.
The chips wrap to the window's width through tagd's layout.
\\<tagd-field-mode-map>\\[tagd-field-finish] finishes: ON-DONE, when
non-nil, is called with the list of tags; otherwise the tags are
copied to the kill ring as \"a, b\".  OPTIONS is a plist of tagd
field options merged over `tagd-field-options'."
  (interactive)
  (let ((buffer (generate-new-buffer "*tagd field*")))
    (pop-to-buffer-same-window buffer)
    (tagd-field-mode)
    (setq tagd-field--on-done on-done)
    (let ((field (tagd--open buffer (point-min) :tags tags :options options
                             :layout (tagd-field--layout-params)
                             :render #'tagd-field--render)))
      (tagd-field--set-layout field))
    buffer))

(defun tagd-field-return ()
  "On a chip, remove its tag; in the draft, commit it as a tag."
  (interactive)
  (let ((tag (get-text-property (point) 'tagd-chip)))
    (if (and tag (< (point) (tagd--field-start tagd--field)))
        (tagd-remove-tag tagd--field tag)
      (tagd-submit tagd--field))))

(defun tagd-field-next-chip (&optional n)
  "Move to the start of the Nth next chip (the draft after the last)."
  (interactive "p")
  (let ((start (tagd--field-start tagd--field)))
    (dotimes (_ (abs (or n 1)))
      (if (> (or n 1) 0)
          (let ((next (next-single-property-change (point) 'tagd-chip nil start)))
            (when (and next (< next start) (not (get-text-property next 'tagd-chip)))
              (setq next (next-single-property-change next 'tagd-chip nil start)))
            (goto-char (or next start)))
        (let ((prev (previous-single-property-change (point) 'tagd-chip nil (point-min))))
          (when (and prev (> prev (point-min)) (not (get-text-property prev 'tagd-chip)))
            (setq prev (previous-single-property-change prev 'tagd-chip nil (point-min))))
          (goto-char (or prev (point-min))))))))

(defun tagd-field-previous-chip (&optional n)
  "Move to the start of the Nth previous chip."
  (interactive "p")
  (tagd-field-next-chip (- (or n 1))))

(defun tagd-field-tags ()
  "Return the tags of the field in the current buffer."
  (and tagd--field (tagd-sync tagd--field)))

(defun tagd-field-finish ()
  "Commit the draft, then finish the field and kill its buffer."
  (interactive)
  (tagd-submit tagd--field)
  (let ((tags (tagd-field-tags))
        (on-done tagd-field--on-done))
    (kill-buffer (current-buffer))
    (if on-done
        (funcall on-done tags)
      (kill-new (string-join tags ", "))
      (message "Tags: %s (copied)" (string-join tags ", ")))
    tags))

(defun tagd-field-cancel ()
  "Kill the field's buffer without finishing."
  (interactive)
  (kill-buffer (current-buffer)))

(defun tagd-field--kill ()
  "Close the field of the buffer being killed."
  (when tagd--field
    (tagd--close tagd--field)))

(provide 'tagd-field)
;;; tagd-field.el ends here
