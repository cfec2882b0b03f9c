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
;; measures it as the tag's display width plus `tagd-chip-padding'
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

(defvar-local tagd-field--on-done nil
  "Function called with the tags when the field is finished.")

(defvar-local tagd-field--placeholder nil
  "Overlay showing the placeholder while the draft is empty.")

(defvar tagd-field-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'tagd-field-return)
    (define-key map (kbd "DEL") #'tagd-field-delete-backward)
    (define-key map (kbd "C-d") #'tagd-field-delete-forward)
    (define-key map (kbd "<deletechar>") #'tagd-field-delete-forward)
    (define-key map (kbd "C-c C-c") #'tagd-field-finish)
    (define-key map (kbd "C-c C-k") #'tagd-field-cancel)
    (define-key map (kbd "TAB") #'tagd-field-next-chip)
    (define-key map (kbd "<backtab>") #'tagd-field-previous-chip)
    map)
  "Keymap of `tagd-field-mode'.")

(define-derived-mode tagd-field-mode fundamental-mode "Tags"
  "Major mode of a tagd tag field buffer.
Type tags after the chips; \\`,' or \\`RET' commits one, \\`DEL' on an
empty draft removes the last.  \\`RET' or \\`C-d' on a chip, \\`DEL'
after one, or a click on its × removes it.  \\[tagd-field-finish] finishes, \\[tagd-field-cancel] cancels.

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
  (tagd--cell-layout (tagd-field--width) tagd-field-min-width))

(defun tagd-field--render (field)
  "Draw FIELD's chips at the frames tagd laid them out at, then the draft."
  (let ((text (tagd--layout-text field)))
    (when text
      (let* ((start (tagd--field-start field))
             (draft-offset (and (>= (point) start) (- (point) start)))
             (old-point (point)))
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
                     (min old-point start))))))
  (tagd-field--update-placeholder field))

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

(defun tagd-field--resized (window)
  "Lay the field out again when WINDOW, showing it, changed size."
  (with-current-buffer (window-buffer window)
    (when (and tagd--field (not (tagd--field-closed tagd--field))
               (/= (tagd-field--width)
                   (plist-get (tagd--field-layout tagd--field) :width)))
      (tagd--set-layout tagd--field (tagd-field--layout-params)))))

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
      (tagd--set-layout field (tagd-field--layout-params)))
    buffer))

(defun tagd-field-return ()
  "On a chip, remove its tag; in the draft, commit it as a tag."
  (interactive)
  (let ((tag (get-text-property (point) 'tagd-chip)))
    (if (and tag (< (point) (tagd--field-start tagd--field)))
        (tagd-remove-tag tagd--field tag)
      (tagd-submit tagd--field))))

(defun tagd-field-delete-backward ()
  "Backspace: in the chips, remove the chip before point; else as in the reader."
  (interactive)
  (if (>= (point) (tagd--field-start tagd--field))
      (tagd-delete-backward)
    (let ((tag (save-excursion
                 (skip-chars-backward " \n")
                 (and (> (point) (point-min))
                      (get-text-property (1- (point)) 'tagd-chip)))))
      (if tag
          (tagd-remove-tag tagd--field tag)
        (ding)))))

(defun tagd-field-delete-forward ()
  "On a chip, remove it; in the draft, delete the next character."
  (interactive)
  (let ((tag (and (< (point) (tagd--field-start tagd--field))
                  (get-text-property (point) 'tagd-chip))))
    (if tag
        (tagd-remove-tag tagd--field tag)
      (call-interactively #'delete-char))))

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
