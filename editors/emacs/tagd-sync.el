;;; tagd-sync.el --- Fields synced with a buffer region (tagd's Protocol/sync.md)  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; A field is a tagd session synced with a region of a buffer (from a
;; marker to the end of the buffer): each buffer change is reported
;; from `after-change-functions' as a field/didChange notification
;; carrying the region's whole text and the caret (tagd finds the
;; edit itself; positions are computed only for the caret and to
;; apply tagd's edits), and the edits tagd pushes back in
;; field/didUpdate are applied only when the buffer is still at the
;; version they name.  So typing at any speed, and keyboard macros,
;; lose no keystroke.  The commands every field shares (Return,
;; Backspace, undo, selection, moving and editing a chip) are requests
;; whose FieldState is taken as is.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'tagd-connection)

(defcustom tagd-field-options nil
  "Options for every field tagd opens, as a plist.
The members are tagd's field/open options, for example
\(:separators [\",\" \";\"] :transform \"lowercase\").  Options a
command passes itself are merged over these."
  :type '(plist :key-type symbol :value-type sexp)
  :group 'tagd)

(defcustom tagd-announce 'drops
  "Which of tagd's announcements to show in the echo area.
`drops': only when a candidate was dropped (a duplicate, too long,
too many) or the change was a command of the user's (undo, moving
or selecting a chip); `all': after every change that has one
\(\"Added red.\"), for screen readers that speak the echo area; nil:
never."
  :type '(choice (const :tag "Drops and commands" drops)
                 (const :tag "Every change" all)
                 (const :tag "Never" nil))
  :group 'tagd)

(defvar tagd--counter 0
  "Counter for field ids.")

(cl-defstruct (tagd--field (:constructor tagd--field-make)
                           (:copier nil))
  "One open tag field, synced with a region of a buffer.
The region runs from START to the end of BUFFER."
  id buffer start
  (version 0) (shadow "")
  (tags nil) (state-version 0) (draft "") selected prompt
  frames size outcome options layout laid
  render flash notices notice-timer pending closed)

(defvar-local tagd--field nil
  "The `tagd--field' synced with this buffer.")

(defvar tagd--quiet nil
  "Non-nil while outcomes are taken without flashing or announcing.")

(defvar tagd--loud nil
  "Non-nil while the outcome of a user's command is taken: it is announced.")

(defvar tagd--applying nil
  "Non-nil while tagd's own edits are being applied to a buffer.")

(defvar tagd-announce-function #'tagd--echo
  "Function called with FIELD, an announcement and KEEP to show it.
KEEP is non-nil when the announcement tells of a dropped candidate
\(a refusal): it is then shown with the refusals shown lately.")

(declare-function tagd--flash "tagd-chips" (field index))
(declare-function tagd--set-layout "tagd-chips" (field params &optional wait))

;;;; Positions

(defun tagd--units (string)
  "Return the length of STRING in the negotiated position encoding."
  (pcase tagd--encoding
    ("utf-32" (length string))
    ("utf-8" (string-bytes (encode-coding-string string 'utf-8 t)))
    (_ (+ (length string)
          (cl-count-if (lambda (c) (> c #xFFFF)) string)))))

(defun tagd--line-starts (text &optional limit)
  "Return the offsets where the lines of TEXT start, up to LIMIT.
Lines end at LF, CR or CRLF, as in LSP."
  (save-match-data
    (let ((starts (list 0)) (i 0) (limit (or limit (length text))))
      (while (and (string-match "\r\n\\|[\r\n]" text i)
                  (< (match-beginning 0) limit))
        (setq i (match-end 0))
        (push i starts))
      (nreverse starts))))

(defun tagd--position (text offset)
  "Return the LSP position of character OFFSET in TEXT, as a plist."
  (let ((line 0) (bol 0))
    (cl-loop for start in (cdr (tagd--line-starts text offset))
             while (<= start offset)
             do (setq line (1+ line) bol start))
    (list :line line :character (tagd--units (substring text bol offset)))))

(defun tagd--offset (text position)
  "Return the character offset in TEXT of the LSP POSITION (a plist)."
  (let* ((starts (tagd--line-starts text))
         (line (plist-get position :line))
         (want (plist-get position :character))
         (i (or (nth line starts) (length text)))
         (units 0))
    (while (and (< units want) (< i (length text)))
      (setq units (+ units (tagd--units (string (aref text i))))
            i (1+ i)))
    i))

;;;; Fields

(defun tagd--merge-options (options)
  "Return `tagd-field-options' with OPTIONS merged over them, or nil.
The values are passed to tagd unchanged."
  (let ((merged (copy-sequence tagd-field-options)))
    (cl-loop for (key value) on options by #'cddr
             do (setq merged (plist-put merged key value)))
    merged))

(defun tagd--region-text (field)
  "Return the text of FIELD's region in its buffer."
  (with-current-buffer (tagd--field-buffer field)
    (buffer-substring-no-properties (tagd--field-start field) (point-max))))

(defun tagd--open-params (field tags)
  "Return the field/open params for FIELD holding TAGS and its buffer text."
  (let ((params (list :field (tagd--field-id field)
                      :tags (vconcat tags)
                      :text (tagd--field-shadow field)
                      :sync (append (list :version (tagd--field-version field))
                                    (and (tagd--field-layout field)
                                         (list :layout (tagd--field-layout field))))))
        (options (tagd--field-options field)))
    (if options (append params (list :options options)) params)))

(cl-defun tagd--open (buffer start &key tags options layout render)
  "Open a tagd field synced with BUFFER from START to its end.
TAGS are the initial tags, OPTIONS tagd's field/open options (a
plist, merged over `tagd-field-options'), LAYOUT the cell layout
pushed with every update (a plist), RENDER a function called with
the field after every change.  Return the field."
  (tagd--connection)
  (let* ((id (format "emacs-%d" (cl-incf tagd--counter)))
         (field (tagd--field-make
                 :id id :buffer buffer
                 :start (with-current-buffer buffer (copy-marker start))
                 :options (tagd--merge-options options)
                 :layout layout :render render)))
    (setf (tagd--field-shadow field) (tagd--region-text field))
    (with-current-buffer buffer
      (setq tagd--field field)
      (add-hook 'after-change-functions #'tagd--after-change nil t)
      (add-hook 'post-command-hook #'tagd--retry-pending nil t))
    (puthash id field tagd--fields)
    (condition-case err
        (let ((tagd--quiet t))
          (tagd--take-state field (tagd--request :field/open
                                                 (tagd--open-params field tags))))
      (error (tagd--forget field) (signal (car err) (cdr err))))
    (tagd--render field)
    field))

(defun tagd--reopen (field)
  "Open FIELD again in a new tagd process, from its tags and buffer."
  (if (not (buffer-live-p (tagd--field-buffer field)))
      (remhash (tagd--field-id field) tagd--fields)
    (setf (tagd--field-shadow field) (tagd--region-text field)
          ;; The new process counts state versions from the start: its
          ;; updates (read while the open is answered) must not be taken
          ;; as older than the dead process's.
          (tagd--field-state-version field) 0
          (tagd--field-laid field) nil)
    ;; Text already committed but not yet deleted from the buffer comes
    ;; back as duplicates: rebuilding the field announces nothing.
    (let ((tagd--quiet t))
      (tagd--take-state
       field (tagd--request-on tagd--connection :field/open
                               (tagd--open-params field (tagd--field-tags field)))
       t))
    ;; field/open answers no frames, and the frames kept are the dead
    ;; process's: tags the re-open committed (text typed while tagd was
    ;; down) have none.  Ask for the layout now, as after any open.
    (if (tagd--field-layout field)
        (tagd--set-layout field (tagd--field-layout field) t)
      (tagd--render field))))

(defun tagd--forget (field)
  "Detach FIELD from its buffer and from the table of fields."
  (setf (tagd--field-closed field) t)
  (remhash (tagd--field-id field) tagd--fields)
  (let ((buffer (tagd--field-buffer field)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (when (eq tagd--field field)
          (remove-hook 'after-change-functions #'tagd--after-change t)
          (remove-hook 'post-command-hook #'tagd--retry-pending t)
          (setq tagd--field nil))))))

(defun tagd--close (field)
  "Close FIELD in tagd and detach it."
  (unless (tagd--field-closed field)
    (tagd--forget field)
    (when (tagd--live-p)
      (ignore-errors
        (jsonrpc-async-request tagd--connection :field/close
                               (list :field (tagd--field-id field))
                               :success-fn #'ignore :error-fn #'ignore
                               :timeout tagd-request-timeout)))))

(defun tagd--take (field tags draft selected)
  "Take TAGS, DRAFT and SELECTED (a chip's index, or nil) into FIELD."
  (setf (tagd--field-tags field) (append tags nil)
        (tagd--field-draft field) draft
        (tagd--field-selected field) selected))

(defun tagd--take-state (field state &optional force)
  "Take the tags, draft and selection of STATE, a FieldState, into FIELD.
STATE is taken unless an update with a newer state version was
already taken, or FORCE is non-nil."
  (let ((version (plist-get state :version)))
    (when (or force (>= version (tagd--field-state-version field)))
      (setf (tagd--field-state-version field) version)
      (when (plist-get state :prompt)
        (setf (tagd--field-prompt field) (plist-get state :prompt)))
      (tagd--take field (plist-get state :tags) (plist-get state :text)
                  (plist-get state :selected)))
    (tagd--note-outcome field (plist-get state :outcome)
                        (plist-get state :announcement))))

(defun tagd--note-outcome (field outcome announcement)
  "Flash the chips OUTCOME of FIELD duplicated; show its ANNOUNCEMENT.
Whether it is shown follows `tagd-announce'."
  (setf (tagd--field-outcome field) outcome)
  (unless tagd--quiet
    (let* ((dropped (cl-remove-if (lambda (d) (equal (plist-get d :reason) "empty"))
                                  (append (plist-get outcome :dropped) nil)))
           (dup (cl-find "duplicate" dropped
                         :key (lambda (d) (plist-get d :reason)) :test #'equal)))
      (when dup (tagd--flash field (plist-get dup :duplicateOf)))
      (when (and announcement
                 (or (eq tagd-announce 'all)
                     (and (eq tagd-announce 'drops) (or dropped tagd--loud))))
        (funcall tagd-announce-function field announcement (and dropped t))))))

(defvar-local tagd--announce-in-field nil
  "Non-nil in a buffer whose field shows announcements itself.
The minibuffer reader does: the echo area is the minibuffer, and
a `message' there would be drawn between the prompt and the chips.")

(defun tagd--echo (field announcement &optional keep)
  "Show FIELD's ANNOUNCEMENT; with KEEP, with the refusals shown lately.
Refusals that come in a quick succession (a fast burst of typing)
are shown together, oldest first, until `minibuffer-message-timeout'
seconds after the last one came, so that none replaces another
unseen; any other announcement (a command's, such as \"tag
selected\") replaces them.  Each is logged in *Messages* once.  A
field whose buffer shows them itself (the minibuffer reader) gets
them as its notices; otherwise they go to the echo area, joined."
  (let ((inhibit-message t)) (message "%s" announcement))
  ;; Notices are (TEXT . KEEP), oldest first.
  (setf (tagd--field-notices field)
        (append (and keep (cl-remove-if-not (lambda (n) (and (cdr n) (not (equal (car n) announcement))))
                                      (tagd--field-notices field)))
                (list (cons announcement keep))))
  (when (timerp (tagd--field-notice-timer field))
    (cancel-timer (tagd--field-notice-timer field)))
  (setf (tagd--field-notice-timer field)
        (run-at-time (or minibuffer-message-timeout 2) nil
                     (lambda ()
                       (setf (tagd--field-notices field) nil
                             (tagd--field-notice-timer field) nil)
                       (unless (tagd--field-closed field)
                         (tagd--render field)))))
  (let ((buffer (tagd--field-buffer field)))
    (unless (and (buffer-live-p buffer)
                 (buffer-local-value 'tagd--announce-in-field buffer))
      (let ((message-log-max nil))
        (message "%s" (mapconcat #'car (tagd--field-notices field) "  "))))))

(defun tagd--render (field)
  "Redraw FIELD's chips with its render function."
  (let ((render (tagd--field-render field))
        (buffer (tagd--field-buffer field)))
    (when (and render (buffer-live-p buffer))
      (with-current-buffer buffer
        (let ((tagd--applying t)
              (inhibit-read-only t))
          (funcall render field))))))

;;;; The sync path (Protocol/sync.md)

(defun tagd--after-change (_beg _end _old-len)
  "Report a change of the buffer to tagd, as the region's whole text."
  (let ((field tagd--field))
    (when (and field (not tagd--applying) (not (tagd--field-closed field)))
      ;; An error here would make Emacs drop the hook: never signal.
      (condition-case-unless-debug err
          (save-match-data
            (cl-incf (tagd--field-version field))
            (tagd--send-text field)
            ;; The placeholder shows only while the region is empty.
            (tagd--render field))
        (error (message "tagd: could not report a change: %s"
                        (error-message-string err)))))))

(defun tagd--send-text (field)
  "Report FIELD's region to tagd as its whole text, with the caret.
The change is range-less: tagd finds the edit against its copy of
the region, and where that is ambiguous (a Backspace in a run of
equal characters) places it at the caret, point, when point is in
the region (Protocol/sync.md, \"Range-less changes\").  It is
sent at FIELD's current version."
  (let* ((text (tagd--region-text field))
         (caret (- (point) (tagd--field-start field))))
    (setf (tagd--field-shadow field) text)
    (tagd--notify :field/didChange
                  (list :field (tagd--field-id field)
                        :version (tagd--field-version field)
                        :contentChanges
                        (vector (if (<= 0 caret (length text))
                                    (list :text text :caret (tagd--position text caret))
                                  (list :text text)))))))

(defun tagd--composing-p (field)
  "Return non-nil if an input method is composing in FIELD's buffer.
Quail inserts its preedit with modification hooks inhibited, so
tagd never sees it; but edits must wait until it is gone."
  (with-current-buffer (tagd--field-buffer field)
    (and (boundp 'quail-overlay)
         (overlayp quail-overlay)
         (overlay-buffer quail-overlay)
         (< (overlay-start quail-overlay) (overlay-end quail-overlay)))))

(defun tagd--on-update (field params)
  "Handle a field/didUpdate with PARAMS for FIELD."
  (let ((version (plist-get params :version))
        (buffer (tagd--field-buffer field)))
    (when (buffer-live-p buffer)
      (when (>= (plist-get params :stateVersion) (tagd--field-state-version field))
        (setf (tagd--field-state-version field) (plist-get params :stateVersion))
        (tagd--take field (plist-get params :tags) (plist-get params :text)
                    (plist-get params :selected))
        (when (plist-get params :frames)
          (setf (tagd--field-frames field) (plist-get params :frames)
                (tagd--field-size field) (plist-get params :size))))
      (tagd--note-outcome field (plist-get params :outcome)
                          (plist-get params :announcement))
      (cond
       ((eq (plist-get params :resync) t)
        (cl-incf (tagd--field-version field))
        (with-current-buffer buffer (tagd--send-text field)))
       ((and (= version (tagd--field-version field))
             (> (length (plist-get params :edits)) 0))
        (if (tagd--composing-p field)
            (setf (tagd--field-pending field) params)
          (tagd--apply-edits field params))))
      (tagd--render field))))

(defun tagd--apply-edits (field params)
  "Apply the edits of the update PARAMS to FIELD's buffer and report them."
  (let ((start (marker-position (tagd--field-start field)))
        (changes nil))
    (setf (tagd--field-pending field) nil)
    (with-current-buffer (tagd--field-buffer field)
      (let ((tagd--applying t)
            (inhibit-read-only t))
        (cl-loop
         for edit across (plist-get params :edits) do
         (let* ((range (plist-get edit :range))
                (new (plist-get edit :newText))
                (shadow (tagd--field-shadow field))
                (b (tagd--offset shadow (plist-get range :start)))
                (e (tagd--offset shadow (plist-get range :end)))
                ;; Point follows text put at its place (a tag taken back
                ;; into the draft), as a slow typist's caret would.
                (at-end (= (point) (+ start e))))
           (save-excursion
             (delete-region (+ start b) (+ start e))
             (goto-char (+ start b))
             (insert new))
           (when (and at-end (>= (point) (+ start b)))
             (goto-char (+ start b (length new))))
           (setf (tagd--field-shadow field)
                 (concat (substring shadow 0 b) new (substring shadow e)))
           (push (list :range range :text new) changes)))))
    (cl-incf (tagd--field-version field))
    (tagd--notify :field/didChange
                  (list :field (tagd--field-id field)
                        :version (tagd--field-version field)
                        :applied (plist-get params :version)
                        :contentChanges (vconcat (nreverse changes))))))

(defun tagd--retry-pending ()
  "Apply an update deferred while an input method was composing."
  (let* ((field tagd--field)
         (pending (and field (tagd--field-pending field))))
    (when pending
      (cond ((/= (plist-get pending :version) (tagd--field-version field))
             (setf (tagd--field-pending field) nil))
            ((not (tagd--composing-p field))
             (tagd--apply-edits field pending)
             (tagd--render field))))))

(defun tagd-sync (&optional field)
  "Wait until tagd has answered every change of FIELD and it was applied.
FIELD defaults to the field of the current buffer.  Return the
field's tags."
  (let ((field (or field tagd--field)))
    (when field
      (tagd--take-state field (tagd--request :field/state
                                             (list :field (tagd--field-id field))))
      (tagd--render field)
      (tagd--field-tags field))))

;;;; Commands shared by fields

(defun tagd--call (field method &optional params loud)
  "Send METHOD for FIELD with PARAMS (a plist) and take its FieldState.
The request waits for tagd's answer, so keys typed meanwhile wait
in Emacs's input queue, in order.  When LOUD, its announcement is
shown as a drop's is (see `tagd-announce').  Return the FieldState."
  (let ((state (tagd--request method (append (list :field (tagd--field-id field))
                                             params))))
    (let ((tagd--loud loud))
      (tagd--take-state field state))
    (tagd--render field)
    state))

(defun tagd--finished-p (state)
  "Return non-nil if STATE, the answer to field/submit, committed nothing.
That is Return on an empty draft: only an empty candidate was dropped."
  (let ((outcome (plist-get state :outcome)))
    (and (seq-empty-p (plist-get outcome :added))
         (seq-every-p (lambda (d) (equal (plist-get d :reason) "empty"))
                      (plist-get outcome :dropped)))))

(defun tagd-submit (&optional field)
  "Commit FIELD's draft as a tag, as Return does.
FIELD defaults to the field of the current buffer.  One
field/submit request: tagd answers it after every change sent
before it, so the draft is tagd's.  Return non-nil if the draft
was empty (nothing was committed)."
  (let ((field (or field tagd--field)))
    (tagd--finished-p (tagd--call field :field/submit))))

(defun tagd--draft-empty-p (field)
  "Return non-nil if FIELD's region of its buffer is empty."
  (with-current-buffer (tagd--field-buffer field)
    (= (tagd--field-start field) (point-max))))

(defun tagd-delete-backward ()
  "Backspace: remove the selected chip, or on an empty draft the last tag.
Otherwise delete the character before point."
  (interactive)
  (let ((field tagd--field))
    (if (and field (or (tagd--field-selected field) (tagd--draft-empty-p field)))
        (tagd--call field :field/deleteBackward nil t)
      (call-interactively #'delete-backward-char))))

(defun tagd-delete-forward ()
  "Remove the selected chip; otherwise delete the character after point."
  (interactive)
  (let* ((field tagd--field)
         (selected (and field (tagd--field-selected field))))
    (if selected
        (tagd--call field :field/removeTag (list :index selected) t)
      (call-interactively #'delete-char))))

(defun tagd-remove-tag (field tag)
  "Remove TAG from FIELD (compared as tagd compares tags)."
  (tagd--call field :field/removeTag (list :tag tag) t))

(defun tagd-undo ()
  "Undo the field's last change of its tags (tagd's field/undo)."
  (interactive)
  (tagd--call tagd--field :field/undo nil t))

(defun tagd-redo ()
  "Redo the change of tags the field's last undo undid (field/redo)."
  (interactive)
  (tagd--call tagd--field :field/redo nil t))

(defun tagd--at-draft-start-p (field)
  "Return non-nil if point is at the start of FIELD's draft (or before it)."
  (<= (point) (tagd--field-start field)))

(defun tagd-select-previous ()
  "Select the chip before the selected one (the last chip, from the draft).
Only at the start of the draft; elsewhere move point left.  Where
the draft starts is decided after tagd answered every change, as
for a slow typist: text already committed may still be in the
buffer, on its way out."
  (interactive)
  (let* ((field tagd--field)
         (_ (unless (or (tagd--field-selected field) (tagd--at-draft-start-p field))
              (tagd-sync field)))
         (selected (tagd--field-selected field))
         (count (length (tagd--field-tags field))))
    (cond
     (selected
      (when (> selected 0) (tagd--call field :field/select (list :index (1- selected)) t)))
     ((and (tagd--at-draft-start-p field) (> count 0))
      (tagd--call field :field/select (list :index (1- count)) t))
     (t (call-interactively #'backward-char)))))

(defun tagd-select-next ()
  "Select the chip after the selected one; after the last, none.
Without a selection move point right."
  (interactive)
  (let* ((field tagd--field)
         (selected (tagd--field-selected field))
         (count (length (tagd--field-tags field))))
    (if selected
        (tagd--call field :field/select
                    (list :index (and (< (1+ selected) count) (1+ selected))) t)
      (call-interactively #'forward-char))))

(defun tagd--move-selected (delta)
  "Move the selected chip DELTA places (tagd's field/moveTag)."
  (let* ((field tagd--field)
         (selected (tagd--field-selected field))
         (to (and selected (+ selected delta))))
    (if (and to (>= to 0) (< to (length (tagd--field-tags field))))
        (tagd--call field :field/moveTag (list :from selected :to to) t)
      (ding))))

(defun tagd-move-left ()
  "Move the selected chip one place to the left."
  (interactive)
  (tagd--move-selected -1))

(defun tagd-move-right ()
  "Move the selected chip one place to the right."
  (interactive)
  (tagd--move-selected 1))

(defun tagd-edit-selected ()
  "Take the selected chip back into the draft to edit it (field/editTag)."
  (interactive)
  (let* ((field tagd--field)
         (selected (tagd--field-selected field)))
    (when selected
      (tagd--call field :field/editTag (list :index selected) t)
      (goto-char (point-max)))))

(provide 'tagd-sync)
;;; tagd-sync.el ends here
