;;; tagd-connection.el --- The tagd process and its JSON-RPC connection  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; One tagd process per Emacs, shared by every field, talked to with
;; Emacs's built-in `jsonrpc' library.  It is found (`tagd-program'),
;; started and initialized (position encoding, the user's locale),
;; restarted with its fields re-opened when it dies, and stopped.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)

(defconst tagd-version "1.2.0"
  "Version of the tagd Emacs package: the version of tagd it goes with.
It equals tagd.el's Version header and tagd's own version
\(ServerConfig.currentVersion); a test checks both.")

(defconst tagd--directory
  (file-name-directory (or (locate-library "tagd.el" t)
                           load-file-name buffer-file-name default-directory))
  "Directory of tagd.el, used to find a repository build.
The source's directory, not the compiled file's: the two differ
when the package was compiled elsewhere.")

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

(defcustom tagd-restart-hook nil
  "Hook run after tagd was (re)started and its open fields re-opened."
  :type 'hook)

(defcustom tagd-max-deaths 5
  "How many times tagd may die within a minute and still be restarted.
After one more death in that minute it is left stopped until the
minute has passed; then the next keystroke in a field starts it."
  :type 'integer)

(defvar tagd--connection nil
  "The jsonrpc connection to the tagd process, or nil.")

(defvar tagd--fields (make-hash-table :test #'equal)
  "Open fields: field id -> `tagd--field'.")

(defvar tagd--encoding "utf-32"
  "The position encoding tagd agreed on at initialize.")

(defvar tagd--methods nil
  "The methods tagd said it handles at initialize, a list of strings.")

(defvar tagd--workspace-folders nil
  "The vault folders (directory names) tagd is to serve (tagd-vault.el).")

(defvar tagd--served-folders nil
  "The vault folders the running tagd was given.")

(defvar tagd--stopping nil
  "Non-nil while `tagd-stop' ends the process on purpose.")

(defvar tagd--restart-timer nil
  "Timer of a pending restart after tagd died.")

(defvar tagd--starting nil
  "Non-nil while `tagd--start' runs.
Timers and sentinels run while it waits for tagd; a restart they
asked for then would start a second process.")

(defvar tagd--deaths nil
  "Times tagd died, newest first: one entry per process that died.")

(declare-function tagd--reopen "tagd-sync" (field))
(declare-function tagd--on-update "tagd-sync" (field params))
(declare-function tagd--field-closed "tagd-sync" (field))

(defun tagd--program ()
  "Return the tagd program to run, or signal a `user-error'."
  (let ((env (getenv "TAGD")))
    (or tagd-program
        (and env (not (string-empty-p env)) env)
        (executable-find "tagd")
        (cl-loop for sub in '(".build/debug/tagd" ".build/release/tagd")
                 for file = (expand-file-name (concat "../../" sub) tagd--directory)
                 when (file-executable-p file) return file)
        (user-error "%s" (concat "No tagd program found: set `tagd-program' or the environment "
                                 "variable TAGD to the tagd binary, or put tagd on `exec-path'.  "
                                 "To build it: \"swift build --product tagd\" at the root of a "
                                 "tagd checkout (it is then .build/debug/tagd)")))))

(defun tagd--live-p ()
  "Return non-nil if the tagd connection is running."
  (and tagd--connection (jsonrpc-running-p tagd--connection)))

(defun tagd--quiet-sentinel (sentinel process change)
  "Call jsonrpc's SENTINEL for PROCESS and CHANGE, logging its messages only.
When tagd fails, the one message the user sees is the package's."
  (let ((inhibit-message t))
    (funcall sentinel process change)))

(defun tagd--locale ()
  "Return the user's locale for tagd's announcements, or nil.
The locale of messages, as POSIX chooses it: `system-messages-locale'
when set, else the first of LC_ALL, LC_MESSAGES and LANG that is
not empty.  (Emacs 28 has no `current-locale-environment'.)"
  (seq-find (lambda (locale) (and (stringp locale) (not (string-empty-p locale))))
            (list system-messages-locale
                  (getenv "LC_ALL") (getenv "LC_MESSAGES") (getenv "LANG"))))

(defun tagd--start ()
  "Start tagd, initialize it and re-open every known field."
  (let* ((tagd--starting t)
         (program (tagd--program))
         (file (if (file-name-absolute-p program) program (executable-find program)))
         (name "tagd"))
    (unless (and file (file-executable-p file) (not (file-directory-p file)))
      (user-error "Cannot run tagd: %s is not an executable file" program))
    (let* ((stderr (get-buffer-create (format "*%s stderr*" name)))
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
                :name name :command (cons file tagd-program-args)
                :connection-type 'pipe :coding 'utf-8-unix :noquery t
                ;; jsonrpc.el expects exactly this stderr buffer name.
                :stderr stderr))))
           (process (jsonrpc--process conn)))
      (add-function :around (process-sentinel process) #'tagd--quiet-sentinel)
      (setq tagd--connection conn)
      (condition-case err
          (tagd--initialize conn)
        (error
         ;; A tagd that does not answer is not kept as the connection.
         (let ((why (if (memq (process-status process) '(exit signal))
                        (format "exited with status %d before answering initialize"
                                (process-exit-status process))
                      (format "did not answer initialize: %s"
                              (error-message-string err)))))
           (setq tagd--connection nil)
           (let ((tagd--stopping t)) (ignore-errors (jsonrpc-shutdown conn t)))
           (user-error "Cannot run tagd: %s %s" file why))))
      (maphash (lambda (_id field) (tagd--reopen field)) tagd--fields)
      conn)))

(defun tagd--file-uri (file)
  "Return the file URI of FILE, percent-encoded as tagd writes them."
  (concat "file://"
          (mapconcat (lambda (byte)
                       (if (or (<= ?a byte ?z) (<= ?A byte ?Z) (<= ?0 byte ?9)
                               (memq byte '(?- ?. ?_ ?~ ?/)))
                           (string byte)
                         (format "%%%02X" byte)))
                     (encode-coding-string (directory-file-name (expand-file-name file))
                                           'utf-8 t)
                     "")))

(defun tagd--folder (dir)
  "Return the LSP WorkspaceFolder of the directory DIR."
  (list :uri (tagd--file-uri dir)
        :name (file-name-nondirectory (directory-file-name dir))))

(defun tagd--initialize (conn)
  "Send initialize and initialized on CONN; note the position encoding.
The vault folders of `tagd--workspace-folders' are its
`workspaceFolders'."
  (let* ((locale (tagd--locale))
         (result
          (tagd--request-on
           conn :initialize
           (append
            (list :processId (emacs-pid)
                  :clientInfo (list :name "tagd.el" :version tagd-version)
                  ;; Emacs positions count characters: utf-32.
                  :capabilities
                  (list :general (list :positionEncodings ["utf-32" "utf-16"])))
            (and locale (list :locale locale))
            (and tagd--workspace-folders
                 (list :workspaceFolders
                       (vconcat (mapcar #'tagd--folder tagd--workspace-folders)))))))
         (caps (plist-get result :capabilities)))
    (setq tagd--served-folders tagd--workspace-folders)
    (setq tagd--methods (append (plist-get caps :methods) nil))
    (setq tagd--encoding (or (plist-get caps :positionEncoding) "utf-16")))
  (jsonrpc-notify conn :initialized (make-hash-table)))

(defun tagd--connection ()
  "Return the live tagd connection, starting tagd if needed."
  (tagd--note-death)
  (unless (or (tagd--live-p) tagd--starting)
    (when tagd--restart-timer
      (cancel-timer tagd--restart-timer)
      (setq tagd--restart-timer nil))
    (tagd--start)
    (run-hooks 'tagd-restart-hook))
  tagd--connection)

(defun tagd--recent-deaths ()
  "Return how many times tagd died within the last minute."
  (setq tagd--deaths (seq-take-while (lambda (time) (< (- (float-time) time) 60))
                                     tagd--deaths))
  (length tagd--deaths))

(defun tagd--on-shutdown (conn)
  "Forget CONN when its process ends; restart it if fields are open.
Each process that ends counts as one death."
  (when (eq conn tagd--connection)
    (setq tagd--connection nil)
    (unless tagd--stopping
      (push (float-time) tagd--deaths)
      (unless (zerop (hash-table-count tagd--fields))
        (tagd--schedule-restart)))))

(defun tagd--note-death ()
  "Count the death of a connection whose process is gone.
A key typed just after tagd died can find the process gone before
its sentinel has run; the death is counted then, once."
  (when (and tagd--connection (not (jsonrpc-running-p tagd--connection)))
    (tagd--on-shutdown tagd--connection)))

(defun tagd--schedule-restart ()
  "Restart tagd from a timer, unless it died too often lately."
  (tagd--note-death)
  (cond
   ((or tagd--restart-timer tagd--starting (tagd--live-p)))
   ((> (tagd--recent-deaths) tagd-max-deaths)
    (unless (get 'tagd--deaths 'reported)
      (put 'tagd--deaths 'reported t)
      (message "tagd: died %d times in a minute; not restarting it for now"
               (length tagd--deaths))))
   (t
    (put 'tagd--deaths 'reported nil)
    (setq tagd--restart-timer (run-at-time 0 nil #'tagd--restart-after-death)))))

(defun tagd--restart-after-death ()
  "Restart tagd after it died, re-opening its fields."
  (setq tagd--restart-timer nil)
  (unless (or (tagd--live-p) tagd--starting)
    (condition-case err
        (tagd--connection)
      (error (message "%s" (error-message-string err))))))

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
  (setq tagd--deaths nil)
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
  (tagd--request-on (tagd--connection) method params))

(defun tagd--request-on (conn method params)
  "Send the request METHOD with PARAMS on CONN; wait for its result.
`jsonrpc-request' returns by a throw from inside the process
filter as soon as it has read the reply, so messages read in the
same chunk after it (an update tagd sent next) would wait for
tagd's next output; they are handled here, before returning."
  (unwind-protect
      (jsonrpc-request conn method params :timeout tagd-request-timeout)
    (let ((process (jsonrpc--process conn)))
      (when (process-live-p process)
        (funcall (process-filter process) process "")))))

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
  (unless (and (tagd--live-p)
               ;; The process can die between the check and the write: the
               ;; write then fails ("no longer connected to pipe").
               (condition-case nil
                   (progn (jsonrpc-notify tagd--connection method params) t)
                 (error nil)))
    (tagd--schedule-restart)))

(provide 'tagd-connection)
;;; tagd-connection.el ends here
