;;; tagd-field.el --- An in-buffer tag field laid out by tagd  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `tagd-field' opens a buffer holding a tag field: the chips, laid
;; out by tagd's flow layout in terminal cells (field/layout with
;; `cells') so that they wrap to the window's width, then the draft.
;; The chips are read-only text drawn from tagd's labels; the draft,
;; after them, is ordinary editable text synced with tagd
;; (Protocol/sync.md).  Point never stays in the chips: a click on
;; one selects it (tagd's selection) and point goes back to the draft.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tagd)
(require 'tagd-reader)

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
    (tagd--bind-field-keys map)
    (define-key map (kbd "RET") #'tagd-field-return)
    (define-key map (kbd "C-c C-c") #'tagd-field-finish)
    (define-key map (kbd "C-c C-k") #'tagd-field-cancel)
    map)
  "Keymap of `tagd-field-mode'.")

(define-derived-mode tagd-field-mode fundamental-mode "Tags"
  "Major mode of a tagd tag field buffer.
Type tags after the chips; a comma or RET commits one, DEL on an
empty draft removes the last, \\[tagd-complete] takes tagd's best suggestion.
\\[tagd-select-previous] at the start of the draft selects the last chip,
\\[tagd-select-previous] and \\[tagd-select-next] move the selection, \\[tagd-move-left] and \\[tagd-move-right]
move the selected chip, RET edits it and DEL or \\[tagd-delete-forward] removes it;
a click on a chip selects it, on its × removes it.  \\[tagd-field-finish] finishes, \\[tagd-field-cancel] cancels.

\\{tagd-field-mode-map}"
  (buffer-disable-undo)
  (setq-local truncate-lines nil)
  (add-hook 'completion-at-point-functions #'tagd-completion-at-point nil t)
  (add-hook 'post-command-hook #'tagd-field--keep-point nil t)
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
                             '(read-only "Select a chip with <left> to edit it with RET"
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
                 (if (= start (point-max)) (tagd--placeholder field) ""))))

(defun tagd-field--keep-point ()
  "Bring point back to the draft; a chip it was put on is selected."
  (let ((field tagd--field))
    (when (and field (not (tagd--field-closed field))
               (< (point) (tagd--field-start field)))
      (let ((index (get-text-property (point) 'tagd-index)))
        (goto-char (tagd--field-start field))
        (when (and index (not (eql index (tagd--field-selected field))))
          (tagd--call field :field/select (list :index index) t))))))

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
      (tagd--set-layout field (tagd-field--layout-params) t))
    buffer))

(defun tagd-field-return ()
  "Edit the selected chip; else commit the draft as a tag."
  (interactive)
  (if (tagd--field-selected tagd--field)
      (tagd-edit-selected)
    (tagd-submit tagd--field)))

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
