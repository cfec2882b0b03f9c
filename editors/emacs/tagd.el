;;; tagd.el --- Tag fields with chips, driven by the tagd daemon  -*- lexical-binding: t; -*-

;; Version: 1.0.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: convenience
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; tagd holds the logic of a tag input field (which text becomes a
;; tag, caseless duplicates, pastes, Backspace on an empty draft) and
;; the flow layout of its chips.  This package talks to it with
;; Emacs's built-in `jsonrpc' library: one tagd process per Emacs,
;; shared by every field, restarted (with its fields re-opened) when
;; it dies.
;;
;; Entry points:
;;
;; - `tagd-read-tags': read a list of tags in the minibuffer, with the
;;   committed tags shown as chips before the draft.
;; - `tagd-field' (in tagd-field.el): an in-buffer field whose chips
;;   wrap to the window through tagd's cell layout.
;; - `tagd-org-set-tags' and `tagd-edit-front-matter-tags' (in
;;   tagd-org.el): edit Org heading tags, #+FILETAGS and Markdown
;;   front matter through the reader.
;;
;; Every field uses the editor sync path of tagd's Protocol/sync.md:
;; each buffer change is reported from `after-change-functions' as a
;; field/didChange notification, and the deletions tagd pushes back
;; in field/didUpdate are applied only when the buffer is still at
;; the version they name.  So typing at any speed, and keyboard
;; macros, lose no keystroke.  See README.md for the decisions.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)

(defconst tagd-version "1.0.0"
  "Version of the tagd Emacs package.")

(defconst tagd--directory
  (file-name-directory (or (locate-library "tagd.el" t)
                           load-file-name buffer-file-name default-directory))
  "Directory of tagd.el, used to find a repository build.
The source's directory, not the compiled file's: the two differ
when the package was compiled elsewhere.")

;;;; Options

(defgroup tagd nil
  "Tag fields with chips, driven by the tagd daemon."
  :group 'convenience
  :prefix "tagd-")

(defcustom tagd-program nil
  "The tagd executable to run.
When nil, use the environment variable TAGD if it is set, else
\"tagd\" on the variable `exec-path', else the tagd built in the repository
this package was loaded from (.build/debug/tagd, then
.build/release/tagd)."
  :type '(choice (const :tag "Find it" nil) file))

(defcustom tagd-program-args '("--framing=content-length")
  "Arguments given to `tagd-program'."
  :type '(repeat string))

(defcustom tagd-request-timeout 10
  "Seconds to wait for tagd to answer a request."
  :type 'number)

(defcustom tagd-events-buffer-size 0
  "Size of the jsonrpc events buffer of the tagd connection.
0 logs nothing (the default: logging every keystroke is slow),
nil keeps every event.  Takes effect when tagd is next started."
  :type '(choice (const :tag "Unlimited" nil) integer))

(defcustom tagd-field-options nil
  "Options for every field tagd opens, as a plist.
The members are tagd's field/open options, for example
\(:separators [\",\" \";\"] :transform \"lowercase\").  Options a
command passes itself are merged over these."
  :type '(plist :key-type symbol :value-type sexp))

(defcustom tagd-flash-duration 0.8
  "Seconds a chip stays highlighted after a duplicate of it was dropped."
  :type 'number)

(defcustom tagd-announce 'drops
  "Which of tagd's announcements to show in the echo area.
`drops': only when a candidate was dropped (a duplicate, too long,
too many); `all': after every change that has one (\"Added red.\"),
for screen readers that speak the echo area; nil: never."
  :type '(choice (const :tag "Dropped candidates" drops)
                 (const :tag "Every change" all)
                 (const :tag "Never" nil)))

(defcustom tagd-show-placeholder t
  "Whether an empty draft shows the field's prompt as a placeholder."
  :type 'boolean)

(defface tagd-chip
  '((((class color) (min-colors 88) (background dark))
     :background "gray30" :foreground "white")
    (((class color) (min-colors 8)) :background "blue" :foreground "white")
    (t :inverse-video t))
  "Face of a tag chip.")

(defface tagd-chip-remove
  '((t :inherit tagd-chip :weight bold))
  "Face of the remove button (×) of a chip.")

(defface tagd-chip-flash
  '((((class color) (min-colors 8)) :background "yellow" :foreground "black")
    (t :inverse-video nil :weight bold))
  "Face of a chip whose duplicate was just dropped.")

(defface tagd-placeholder
  '((t :inherit shadow))
  "Face of the placeholder shown while the draft is empty.")

;;;; The connection

(defvar tagd--connection nil
  "The jsonrpc connection to the tagd process, or nil.")

(defvar tagd--fields (make-hash-table :test #'equal)
  "Open fields: field id -> `tagd--field'.")

(defvar tagd--encoding "utf-32"
  "The position encoding tagd agreed on at initialize.")

(defvar tagd--counter 0
  "Counter for field ids.")

(defvar tagd--stopping nil
  "Non-nil while `tagd-stop' ends the process on purpose.")

(defvar tagd--restart-timer nil
  "Timer of a pending restart after tagd died.")

(defvar tagd-restart-hook nil
  "Hook run after tagd was restarted and its fields re-opened.")

(cl-defstruct (tagd--field (:constructor tagd--field-make)
                           (:copier nil))
  "One open tag field, synced with a region of a buffer.
The region runs from START to the end of BUFFER."
  id buffer start
  (version 0) (shadow "")
  (tags nil) (state-version 0) (draft "")
  frames size outcome options layout
  render flash pending closed)

(defvar-local tagd--field nil
  "The `tagd--field' synced with this buffer.")

(defvar tagd--quiet nil
  "Non-nil while outcomes are taken without flashing or announcing.")

(defvar tagd--applying nil
  "Non-nil while tagd's own edits are being applied to a buffer.")

(defun tagd--program ()
  "Return the tagd program to run, or signal a `user-error'."
  (let ((env (getenv "TAGD")))
    (or tagd-program
        (and env (not (string-empty-p env)) env)
        (executable-find "tagd")
        (cl-loop for sub in '(".build/debug/tagd" ".build/release/tagd")
                 for file = (expand-file-name (concat "../../" sub) tagd--directory)
                 when (file-executable-p file) return file)
        (user-error "No tagd program: set `tagd-program' or put tagd on `exec-path'"))))

(defun tagd--live-p ()
  "Return non-nil if the tagd connection is running."
  (and tagd--connection (jsonrpc-running-p tagd--connection)))

(defun tagd--start ()
  "Start tagd, initialize it and re-open every known field."
  (let* ((program (tagd--program))
         (name "tagd")
         (conn
          (make-instance
           'jsonrpc-process-connection
           :name name
           :events-buffer-scrollback-size tagd-events-buffer-size
           :notification-dispatcher #'tagd--dispatch-notification
           :request-dispatcher #'tagd--dispatch-request
           :on-shutdown #'tagd--on-shutdown
           :process
           (lambda ()
             (make-process
              :name name :command (cons program tagd-program-args)
              :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
              ;; jsonrpc.el expects exactly this stderr buffer name.
              :stderr (get-buffer-create (format "*%s stderr*" name)))))))
    (setq tagd--connection conn)
    (condition-case err
        (tagd--initialize conn)
      (error
       ;; A tagd that does not answer is not kept as the connection.
       (setq tagd--connection nil)
       (let ((tagd--stopping t)) (ignore-errors (jsonrpc-shutdown conn t)))
       (signal (car err) (cdr err))))
    (maphash (lambda (_id field) (tagd--reopen field)) tagd--fields)
    conn))

(defun tagd--initialize (conn)
  "Send initialize and initialized on CONN; note the position encoding."
  (let* ((result
            (jsonrpc-request
             conn :initialize
             (list :processId (emacs-pid)
                   :clientInfo (list :name "tagd.el" :version tagd-version)
                   ;; Emacs positions count characters: utf-32.
                   :capabilities
                   (list :general (list :positionEncodings ["utf-32" "utf-16"])))
             :timeout tagd-request-timeout))
           (caps (plist-get result :capabilities)))
      (setq tagd--encoding (or (plist-get caps :positionEncoding) "utf-16")))
    (jsonrpc-notify conn :initialized (make-hash-table)))

(defun tagd--connection ()
  "Return the live tagd connection, starting tagd if needed."
  (unless (tagd--live-p)
    (when tagd--restart-timer
      (cancel-timer tagd--restart-timer)
      (setq tagd--restart-timer nil))
    (tagd--start)
    (run-hooks 'tagd-restart-hook))
  tagd--connection)

(defun tagd--on-shutdown (conn)
  "Forget CONN when its process ends; restart it if fields are open."
  (when (eq conn tagd--connection)
    (setq tagd--connection nil)
    (unless (or tagd--stopping (zerop (hash-table-count tagd--fields))
                tagd--restart-timer)
      (setq tagd--restart-timer
            (run-at-time 0 nil #'tagd--restart-after-death)))))

(defvar tagd--deaths nil
  "Times tagd died lately, newest first (see `tagd--restart-after-death').")

(defun tagd--restart-after-death ()
  "Restart tagd after it died, re-opening its fields.
After five deaths within a minute, stop restarting: the next
command that needs tagd starts it again."
  (setq tagd--restart-timer nil)
  (push (float-time) tagd--deaths)
  (setq tagd--deaths (seq-take-while (lambda (time) (< (- (float-time) time) 60))
                                     tagd--deaths))
  (if (> (length tagd--deaths) 5)
      (message "tagd: died %d times in a minute; not restarting it" (length tagd--deaths))
    (unless (tagd--live-p)
    (condition-case err
        (tagd--connection)
      (error (message "tagd: could not restart: %s" (error-message-string err)))))))

(defun tagd-stop ()
  "Shut tagd down (it is started again by the next field)."
  (interactive)
  (when (tagd--live-p)
    (let ((tagd--stopping t)
          (conn tagd--connection))
      (ignore-errors (jsonrpc-request conn :shutdown nil :timeout 2))
      (ignore-errors (jsonrpc-notify conn :exit nil))
      (jsonrpc-shutdown conn t)))
  (setq tagd--connection nil))

(defun tagd-restart ()
  "Restart tagd, re-opening every open field."
  (interactive)
  (tagd-stop)
  (tagd--connection))

(defun tagd--dispatch-request (_conn method _params)
  "Answer a request METHOD from tagd, which sends none today."
  (signal 'jsonrpc-error
          `("Unknown method" (jsonrpc-error-code . -32601)
            (jsonrpc-error-message . ,(format "Method not found: %s" method)))))

(defun tagd--dispatch-notification (_conn method params)
  "Handle the notification METHOD with PARAMS from tagd."
  (when (eq method 'field/didUpdate)
    (let ((field (gethash (plist-get params :field) tagd--fields)))
      (when (and field (not (tagd--field-closed field)))
        (condition-case-unless-debug err
            (tagd--on-update field params)
          (error (message "tagd: could not apply an update: %s"
                          (error-message-string err))))))))

(defun tagd--request (method params)
  "Send the request METHOD with PARAMS to tagd and return its result."
  (jsonrpc-request (tagd--connection) method params :timeout tagd-request-timeout))

(defun tagd--async (method params &optional then)
  "Send the request METHOD with PARAMS; call THEN with its result."
  (jsonrpc-async-request
   (tagd--connection) method params
   :success-fn (or then #'ignore)
   :error-fn (lambda (err)
               (message "tagd: %s failed: %s" method (plist-get err :message)))
   :timeout tagd-request-timeout))

(defun tagd--notify (method params)
  "Send the notification METHOD with PARAMS, if tagd is running.
When it is not, schedule a restart: re-opening the field sends
the whole buffer, which covers this change."
  (if (tagd--live-p)
      (jsonrpc-notify tagd--connection method params)
    (unless tagd--restart-timer
      (setq tagd--restart-timer
            (run-at-time 0 nil #'tagd--restart-after-death)))))

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

(defun tagd--range (text beg end)
  "Return the LSP range of characters BEG to END in TEXT."
  (list :start (tagd--position text beg) :end (tagd--position text end)))

;;;; Fields

(defun tagd--merge-options (options)
  "Return `tagd-field-options' with OPTIONS merged over them, or nil."
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
        (tagd--take-state field (tagd--request :field/open
                                               (tagd--open-params field tags)))
      (error (tagd--forget field) (signal (car err) (cdr err))))
    (tagd--render field)
    field))

(defun tagd--reopen (field)
  "Open FIELD again in a new tagd process, from its tags and buffer."
  (if (not (buffer-live-p (tagd--field-buffer field)))
      (remhash (tagd--field-id field) tagd--fields)
    (setf (tagd--field-shadow field) (tagd--region-text field))
    ;; Text already committed but not yet deleted from the buffer comes
    ;; back as duplicates: rebuilding the field announces nothing.
    (let ((tagd--quiet t))
      (tagd--take-state
       field (jsonrpc-request tagd--connection :field/open
                              (tagd--open-params field (tagd--field-tags field))
                              :timeout tagd-request-timeout)
       t))
    (tagd--render field)))

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

(defun tagd--take-state (field state &optional force)
  "Take the tags and draft of STATE, a FieldState, into FIELD.
STATE is taken unless an update with a newer state version was
already taken, or FORCE is non-nil."
  (let ((version (plist-get state :version)))
    (when (or force (>= version (tagd--field-state-version field)))
      (setf (tagd--field-state-version field) version
            (tagd--field-tags field) (append (plist-get state :tags) nil)
            (tagd--field-draft field) (plist-get state :text)))
    (tagd--note-outcome field (plist-get state :outcome)
                        (plist-get state :announcement))))

(defun tagd--note-outcome (field outcome announcement)
  "Flash the chips OUTCOME of FIELD duplicated; echo its ANNOUNCEMENT.
Whether it is echoed follows `tagd-announce'."
  (setf (tagd--field-outcome field) outcome)
  (unless tagd--quiet
    (let* ((dropped (cl-remove-if (lambda (d) (equal (plist-get d :reason) "empty"))
                                  (append (plist-get outcome :dropped) nil)))
           (dup (cl-find "duplicate" dropped
                         :key (lambda (d) (plist-get d :reason)) :test #'equal)))
      (when dup (tagd--flash field (plist-get dup :duplicateOf)))
      (when (and announcement
                 (or (eq tagd-announce 'all)
                     (and (eq tagd-announce 'drops) dropped)))
        (message "%s" announcement)))))

(defun tagd--flash (field index)
  "Highlight the chip at INDEX of FIELD for `tagd-flash-duration' seconds."
  (setf (tagd--field-flash field) index)
  (run-at-time tagd-flash-duration nil
               (lambda ()
                 (when (and (eql (tagd--field-flash field) index)
                            (not (tagd--field-closed field)))
                   (setf (tagd--field-flash field) nil)
                   (tagd--render field)))))

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

(defun tagd--after-change (beg end old-len)
  "Report the change of BEG..END (OLD-LEN chars replaced) to tagd."
  (let ((field tagd--field))
    (when (and field (not tagd--applying) (not (tagd--field-closed field)))
      ;; An error here would make Emacs drop the hook: never signal.
      (condition-case-unless-debug err
          (save-match-data (tagd--report-change field beg end old-len))
        (error (message "tagd: could not report a change: %s"
                        (error-message-string err)))))))

(defun tagd--report-change (field beg end old-len)
  "Send FIELD's change of BEG..END (OLD-LEN chars replaced) to tagd."
  (let* ((start (marker-position (tagd--field-start field)))
         (shadow (tagd--field-shadow field))
         (b (- beg start))
         (e (+ b old-len)))
    (cl-incf (tagd--field-version field))
    (if (or (< b 0) (> e (length shadow)))
        (tagd--send-whole field)
      (let* ((new (buffer-substring-no-properties beg end))
             (range (tagd--range shadow b e))
             (next (concat (substring shadow 0 b) new (substring shadow e))))
        (if (not (string= next (tagd--region-text field)))
            ;; The region and our copy of it disagree: send it whole.
            (tagd--send-whole field)
          (setf (tagd--field-shadow field) next)
          (tagd--notify :field/didChange
                        (list :field (tagd--field-id field)
                              :version (tagd--field-version field)
                              :contentChanges
                              (vector (list :range range :text new)))))))))

(defun tagd--send-whole (field)
  "Report FIELD's whole region to tagd (a resync), at its current version."
  (setf (tagd--field-shadow field) (tagd--region-text field))
  (tagd--notify :field/didChange
                (list :field (tagd--field-id field)
                      :version (tagd--field-version field)
                      :contentChanges
                      (vector (list :text (tagd--field-shadow field))))))

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
        (setf (tagd--field-state-version field) (plist-get params :stateVersion)
              (tagd--field-tags field) (append (plist-get params :tags) nil)
              (tagd--field-draft field) (plist-get params :text))
        (when (plist-get params :frames)
          (setf (tagd--field-frames field) (plist-get params :frames)
                (tagd--field-size field) (plist-get params :size))))
      (tagd--note-outcome field (plist-get params :outcome)
                          (plist-get params :announcement))
      (cond
       ((eq (plist-get params :resync) t)
        (cl-incf (tagd--field-version field))
        (with-current-buffer buffer (tagd--send-whole field)))
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
        (save-excursion
          (cl-loop
           for edit across (plist-get params :edits) do
            (let* ((range (plist-get edit :range))
                   (new (plist-get edit :newText))
                   (shadow (tagd--field-shadow field))
                   (b (tagd--offset shadow (plist-get range :start)))
                   (e (tagd--offset shadow (plist-get range :end))))
              (delete-region (+ start b) (+ start e))
              (goto-char (+ start b))
              (insert new)
              (setf (tagd--field-shadow field)
                    (concat (substring shadow 0 b) new (substring shadow e)))
              (push (list :range range :text new) changes))))))
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

(defun tagd--draft-empty-p (field)
  "Return non-nil if FIELD's region of its buffer is empty."
  (with-current-buffer (tagd--field-buffer field)
    (= (tagd--field-start field) (point-max))))

(defun tagd-submit (&optional field)
  "Commit FIELD's draft as a tag, as Return does.
FIELD defaults to the field of the current buffer.  The draft is
tagd's: the region without the text already committed, asked for
after every change sent so far.  Return non-nil if it was empty,
in which case nothing is sent."
  (let* ((field (or field tagd--field))
         (id (tagd--field-id field))
         (state (tagd--request :field/state (list :field id))))
    (tagd--take-state field state)
    (if (string-empty-p (plist-get state :text))
        (progn (tagd--render field) t)
      (tagd--take-state field (tagd--request :field/submit (list :field id)))
      (tagd--render field)
      nil)))

(defun tagd-delete-backward (&optional field)
  "Backspace in FIELD: remove the last tag when the draft is empty.
With a non-empty draft, delete the character before point."
  (interactive)
  (let ((field (or field tagd--field)))
    (if (and field (tagd--draft-empty-p field))
        (tagd--async :field/deleteBackward (list :field (tagd--field-id field))
                     (lambda (state)
                       (tagd--take-state field state)
                       (tagd--render field)))
      (call-interactively #'delete-backward-char))))

(defun tagd-remove-tag (field tag)
  "Remove TAG from FIELD (compared as tagd compares tags)."
  (tagd--async :field/removeTag (list :field (tagd--field-id field) :tag tag)
               (lambda (state)
                 (tagd--take-state field state)
                 (tagd--render field))))

(defun tagd-remove-chip (event)
  "Remove the tag of the chip whose × EVENT clicked (or the one at point)."
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

(defvar tagd-chip-map
  (let ((map (make-sparse-keymap)))
    (define-key map [mouse-1] #'tagd-remove-chip)
    (define-key map [down-mouse-1] #'ignore)
    (define-key map (kbd "RET") #'tagd-remove-chip)
    map)
  "Keymap of the × of a chip.")

(defun tagd--chip (field tag index)
  "Return the chip string of TAG, at INDEX in FIELD: \"[TAG ×]\"."
  (let* ((face (if (eql index (tagd--field-flash field)) 'tagd-chip-flash 'tagd-chip))
         (remove (propertize "×" 'face (if (eq face 'tagd-chip) 'tagd-chip-remove face)
                             'mouse-face 'highlight
                             'help-echo "mouse-1: remove this tag"
                             'keymap tagd-chip-map
                             'tagd-remove tag 'tagd-field field)))
    (concat (propertize (concat "[" tag " ") 'face face 'tagd-chip tag)
            remove
            (propertize "]" 'face face 'tagd-chip tag))))

;;;; Chip layout (field/layout in terminal cells)

(defconst tagd-chip-padding 5
  "Cells a chip adds to its tag: \"[\", \" ×]\" and one column of gap.")

(defun tagd--chip-width (tag)
  "Return the columns Emacs draws TAG's chip in, its gap included."
  (+ (string-width tag) tagd-chip-padding))

(defun tagd--cell-layout (width min-width)
  "Return field/layout params for chips in cells, WIDTH wide.
MIN-WIDTH is the room the draft needs after the last chip."
  (list :width width :cells (list :padding tagd-chip-padding)
        :fieldHeight 1 :spacing 0 :fieldMinWidth min-width))

(defun tagd--set-layout (field params)
  "Ask tagd for FIELD's layout with PARAMS (from `tagd--cell-layout') and draw it.
This also replaces the layout tagd pushes with later updates."
  (setf (tagd--field-layout field) params)
  (tagd--async :field/layout (append (list :field (tagd--field-id field)) params)
               (lambda (result)
                 (unless (tagd--field-closed field)
                   (setf (tagd--field-frames field) (plist-get result :frames)
                         (tagd--field-size field) nil)
                   (tagd--render field)))))

(defun tagd--agrees-p (field frames)
  "Return non-nil if FRAMES (tagd's cells) fit FIELD's chips as Emacs draws them.
A chip narrowed to the available width is left out of the check."
  (let ((width (plist-get (tagd--field-layout field) :width)))
    (cl-loop for tag in (tagd--field-tags field)
             for frame across frames
             for w = (plist-get frame :width)
             always (or (= w (tagd--chip-width tag))
                        (and (numberp width) (= w width))))))

(defun tagd--relayout (field)
  "Lay FIELD's chips out again from the widths Emacs draws them in."
  (let ((layout (tagd--field-layout field))
        (state (tagd--field-state-version field)))
    (tagd--async
     :field/layout
     (list :field (tagd--field-id field)
           :width (plist-get layout :width)
           :chipSizes (vconcat (mapcar (lambda (tag)
                                         (list :width (tagd--chip-width tag) :height 1))
                                       (tagd--field-tags field)))
           :fieldHeight 1 :spacing 0
           :fieldMinWidth (plist-get layout :fieldMinWidth))
     (lambda (result)
       (when (and (= state (tagd--field-state-version field))
                  (not (tagd--field-closed field)))
         (setf (tagd--field-frames field) (plist-get result :frames)
               (tagd--field-size field) (list :measured t))
         (tagd--render field))))))

(defun tagd--chip-text (field tag index width)
  "Return the chip of TAG at INDEX in FIELD, drawn in WIDTH columns."
  (let* ((room (max 0 (- width tagd-chip-padding)))
         (shown (if (> (string-width tag) room)
                    (truncate-string-to-width tag room nil nil "…")
                  tag))
         (chip (tagd--chip field shown index)))
    ;; The chip and its × name the whole tag, not the truncated one.
    (put-text-property 0 (length chip) 'tagd-chip tag chip)
    (let ((x (string-match "×" chip)))
      (put-text-property x (1+ x) 'tagd-remove tag chip))
    (concat chip (make-string (max 0 (- width (string-width chip))) ?\s))))

(defun tagd--layout-text (field &optional indent)
  "Return FIELD's chips placed at the frames tagd laid out, as text.
Lines after the first start with INDENT spaces; the text ends where
the draft begins.  Return nil when there are no frames for the
current tags yet, or when they are being laid out again because
Emacs draws some chip at another width than tagd measured."
  (let* ((frames (tagd--field-frames field))
         (tags (tagd--field-tags field))
         (indent (make-string (or indent 0) ?\s)))
    (when (and frames (= (length frames) (1+ (length tags))))
      (if (and (not (plist-get (tagd--field-size field) :measured))
               (not (tagd--agrees-p field frames)))
          (progn (tagd--relayout field) nil)
        (let* ((field-frame (aref frames (length tags)))
               (lines (make-vector (1+ (plist-get field-frame :y)) nil)))
          ;; Each line: a list of (x . text).
          (cl-loop for tag in tags for i from 0
                   for frame = (aref frames i)
                   do (push (cons (plist-get frame :x)
                                  (tagd--chip-text field tag i (plist-get frame :width)))
                            (aref lines (plist-get frame :y))))
          (push (cons (plist-get field-frame :x) "") (aref lines (1- (length lines))))
          (mapconcat
           (lambda (items)
             (let ((col 0) (out nil))
               (dolist (item (nreverse items))
                 (push (make-string (max 0 (- (car item) col)) ?\s) out)
                 (push (cdr item) out)
                 (setq col (+ (car item) (string-width (cdr item)))))
               (apply #'concat (nreverse out))))
           lines (concat "\n" indent)))))))

;;;; The minibuffer reader

(defvar tagd-minibuffer-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map minibuffer-local-map)
    (define-key map (kbd "RET") #'tagd-minibuffer-return)
    (define-key map (kbd "DEL") #'tagd-delete-backward)
    (define-key map [remap delete-backward-char] #'tagd-delete-backward)
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

(defun tagd--minibuffer-layout ()
  "Return the cell layout of the reader's chips in this minibuffer.
The chips use the columns after the prompt; later lines are
indented under the first chip."
  (let ((prompt (save-excursion (goto-char (minibuffer-prompt-end)) (current-column)))
        (window (or (get-buffer-window (current-buffer) t) (minibuffer-window))))
    (tagd--cell-layout (max 20 (- (window-width window) prompt 1)) 12)))

(defun tagd--minibuffer-resized (_window)
  "Lay the reader's chips out again if the minibuffer's width changed."
  (let ((field tagd--field))
    (when (and field (not (tagd--field-closed field)))
      (let ((params (tagd--minibuffer-layout)))
        (unless (equal (plist-get params :width)
                       (plist-get (tagd--field-layout field) :width))
          (tagd--set-layout field params))))))

(defun tagd--render-minibuffer (field)
  "Show FIELD's chips before the draft in the minibuffer.
They are placed by tagd's layout to the columns after the prompt;
until its first answer they are drawn on one line."
  (let ((start (tagd--field-start field)))
    (unless (overlayp tagd--chips-overlay)
      (setq tagd--chips-overlay (make-overlay start start nil nil nil)))
    (move-overlay tagd--chips-overlay start start)
    (let* ((tags (tagd--field-tags field))
           (prompt (save-excursion (goto-char start) (current-column)))
           (placed (tagd--layout-text field prompt))
           (placeholder (plist-get (tagd--field-options field) :prompt)))
      (overlay-put tagd--chips-overlay 'before-string
                   (or placed
                       (mapconcat (lambda (chip) (concat chip " "))
                                  (cl-loop for tag in tags for i from 0
                                           collect (tagd--chip field tag i))
                                  "")))
      (overlay-put tagd--chips-overlay 'after-string
                   (if (and tagd-show-placeholder (= start (point-max)))
                       (propertize (or placeholder "Add a tag")
                                   'face 'tagd-placeholder 'cursor t)
                     "")))))

(defun tagd-minibuffer-return ()
  "Commit the draft as a tag; on an empty draft, finish and return the tags."
  (interactive)
  (when (tagd-submit tagd--field)
    (exit-minibuffer)))

(defun tagd--minibuffer-chips ()
  "Return the text of the chips and placeholder of the minibuffer reader."
  (if (overlayp tagd--chips-overlay)
      (concat (overlay-get tagd--chips-overlay 'before-string)
              (overlay-get tagd--chips-overlay 'after-string))
    ""))

;;;###autoload
(defun tagd-read-tags (prompt &optional initial-tags options)
  "Read a list of tags in the minibuffer, prompting with PROMPT.
INITIAL-TAGS are the tags the field starts with.  OPTIONS is a
plist of tagd field options merged over `tagd-field-options'.

Committed tags show as chips before the draft; \\`,' (or another
separator) commits, a paste is split, \\`DEL' on an empty draft
removes the last tag, \\`RET' commits a non-empty draft and on an
empty draft returns the tags; \\`C-g' quits.  Clicking a chip's ×
removes it.  Return the list of tags."
  (let ((field nil) (minibuffer nil))
    (unwind-protect
        (progn
          (minibuffer-with-setup-hook
              (lambda ()
                (setq minibuffer (current-buffer))
                (let ((layout (tagd--minibuffer-layout)))
                  (setq field (tagd--open (current-buffer) (minibuffer-prompt-end)
                                          :tags initial-tags :options options
                                          :layout layout
                                          :render #'tagd--render-minibuffer))
                  (tagd--set-layout field layout))
                (add-hook 'window-size-change-functions #'tagd--minibuffer-resized
                          nil t))
            (read-from-minibuffer prompt nil tagd-minibuffer-map))
          (tagd--field-tags field))
      (when (buffer-live-p minibuffer)
        (with-current-buffer minibuffer
          (remove-hook 'window-size-change-functions #'tagd--minibuffer-resized t)
          (when (overlayp tagd--chips-overlay)
            (delete-overlay tagd--chips-overlay)
            (setq tagd--chips-overlay nil))))
      (when field
        (tagd--close field)))))

(provide 'tagd)
;;; tagd.el ends here
