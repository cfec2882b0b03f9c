;;; tagd-vault.el --- The vault: tags across a folder of notes  -*- lexical-binding: t; -*-

;; This file is part of the tagd package (see tagd.el).
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; A vault is a folder of Markdown and Org notes that tagd indexes
;; (SPEC §6d).  The vault of a note is the first of `tagd-vaults'
;; holding it, else the root of its project (the version-controlled
;; folder it is in).  tagd serves one vault at a time for this Emacs:
;; the vault of the note a command runs in is named to tagd
;; (`workspace/didChangeWorkspaceFolders', and `workspaceFolders' when
;; tagd is restarted).
;;
;; - `tagd-org-set-tags' and `tagd-front-matter-edit-tags' on a note
;;   of a vault suggest the vault's tags, most used first (the field
;;   option `suggestFromVault').
;; - `tagd-tags' lists the vault's tags with how many notes carry
;;   them (`vault/tags').
;; - `tagd-rename' renames a tag in every note (`vault/rename'):
;;   tagd's edits go to the buffers visiting notes (left unsaved, as
;;   any edit) and straight to the files of the notes not visited.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)
(require 'tabulated-list)
(require 'url-util)
(require 'tagd-connection)
(require 'tagd-sync)

(declare-function project-root "project" (project))

(defcustom tagd-vaults nil
  "Folders that are vaults of notes, in addition to projects.
A note inside one of them belongs to that vault; a note in no such
folder belongs to the root of its project (its version-controlled
folder), if any."
  :type '(repeat directory)
  :group 'tagd)

(defcustom tagd-vault-timeout 120
  "Seconds to wait for tagd's answer to a vault request.
tagd answers once it has read the whole vault, which takes a few
seconds for tens of thousands of notes."
  :type 'number
  :group 'tagd)

(defconst tagd-vault--note-re "\\.\\(md\\|markdown\\|org\\)\\'"
  "File names of notes (SPEC §6d).")

;;;; Vaults and URIs

(defun tagd-vault-of (file)
  "Return the vault folder of FILE (a directory name), or nil.
The first of `tagd-vaults' holding FILE, else its project's root."
  (when file
    (let ((file (expand-file-name file)))
      (or (seq-find (lambda (dir) (file-in-directory-p file dir))
                    (mapcar #'file-name-as-directory
                            (mapcar #'expand-file-name tagd-vaults)))
          (let ((project (and (require 'project nil t)
                              (let ((default-directory (file-name-directory file)))
                                (project-current nil)))))
            (and project (file-name-as-directory
                          (expand-file-name (project-root project)))))))))

(defun tagd-vault--file (uri)
  "Return the file name of the file URI URI."
  (unless (string-prefix-p "file://" uri)
    (error "Not a file URI: %s" uri))
  (let ((path (substring uri (length "file://"))))
    (when (string-prefix-p "localhost/" path)
      (setq path (substring path (length "localhost"))))
    (decode-coding-string (url-unhex-string path) 'utf-8 t)))

(defun tagd-vault--available-p ()
  "Return non-nil if the running tagd serves vaults."
  (tagd--connection)
  (member "vault/tags" tagd--methods))

(defun tagd-vault-use (vault)
  "Make VAULT, a folder, the vault tagd serves; return it.
The vault served before it, if any, is forgotten by tagd."
  (let ((vault (file-name-as-directory (expand-file-name vault))))
    (setq tagd--workspace-folders (list vault))
    ;; A tagd started now is given it at initialize.
    (tagd--connection)
    (unless (equal tagd--served-folders tagd--workspace-folders)
      (tagd--notify :workspace/didChangeWorkspaceFolders
                    (list :event
                          (list :added (vector (tagd--folder vault))
                                :removed (vconcat (mapcar #'tagd--folder
                                                          tagd--served-folders)))))
      (setq tagd--served-folders tagd--workspace-folders))
    vault))

(defun tagd-vault--here ()
  "Return the vault of the current buffer's file, or of `default-directory'.
Ask for a folder when there is none; make it the vault tagd serves."
  (unless (tagd-vault--available-p)
    (user-error "This tagd serves no vault: it has no vault/tags (an older tagd)"))
  (tagd-vault-use
   (or (tagd-vault-of (or buffer-file-name (expand-file-name "x" default-directory)))
       (read-directory-name "Vault (a folder of notes): " nil nil t))))

(defun tagd-vault-field-options ()
  "Return field options making a field on this note suggest its vault's tags.
That is (:suggestFromVault t) when the current buffer visits a note
of a vault and tagd serves vaults; nil otherwise."
  (let ((vault (and buffer-file-name
                    (string-match-p tagd-vault--note-re buffer-file-name)
                    (tagd-vault-of buffer-file-name))))
    (when (and vault (tagd-vault--available-p))
      (tagd-vault-use vault)
      (list :suggestFromVault t))))

(defun tagd-vault--request (method params)
  "Send the vault request METHOD with PARAMS; return its result.
tagd's errors are signalled as `user-error's with its message."
  (condition-case err
      (let ((tagd-request-timeout tagd-vault-timeout))
        (tagd--request method params))
    (jsonrpc-error
     (user-error "%s" (or (alist-get 'jsonrpc-error-message (cdr err))
                          (error-message-string err))))))

(defun tagd-vault-tags (&optional prefix)
  "Return the vault's tags, most notes first, as tagd's `vault/tags' gives them.
Each is a plist (:tag TAG :notes N :spellings [(:text S :notes N)...]).
With PREFIX, only the tags starting with it (caselessly)."
  (append (plist-get (tagd-vault--request :vault/tags (if prefix (list :prefix prefix)
                                                         (make-hash-table)))
                     :tags)
          nil))

;;;; M-x tagd-tags

(defvar tagd-tags-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "r") #'tagd-tags-rename)
    (define-key map (kbd "g") #'revert-buffer)
    map)
  "Keymap of `tagd-tags-mode'.")

(define-derived-mode tagd-tags-mode tabulated-list-mode "tagd tags"
  "The tags of a vault, most notes first.
\\<tagd-tags-mode-map>\\[tagd-tags-rename] renames the tag at point in every note,
\\[revert-buffer] reads them again."
  (setq tabulated-list-format [("Notes" 6 nil :right-align t) ("Tag" 24 t)
                               ("Other spellings" 0 nil)]
        tabulated-list-padding 1)
  (add-hook 'tabulated-list-revert-hook #'tagd-tags--refresh nil t)
  (tabulated-list-init-header))

(defvar-local tagd-tags--vault nil
  "The vault whose tags this buffer lists.")

(defun tagd-tags--refresh ()
  "Read the vault's tags into `tabulated-list-entries'."
  (tagd-vault-use tagd-tags--vault)
  (setq tabulated-list-entries
        (mapcar (lambda (entry)
                  (let ((tag (plist-get entry :tag)))
                    (list tag
                          (vector (number-to-string (plist-get entry :notes))
                                  tag
                                  (mapconcat (lambda (s) (format "%s (%d)" (plist-get s :text)
                                                                 (plist-get s :notes)))
                                             (seq-remove (lambda (s) (equal (plist-get s :text) tag))
                                                         (plist-get entry :spellings))
                                             ", ")))))
                (tagd-vault-tags))))

;;;###autoload
(defun tagd-tags ()
  "List the tags of this note's vault, with the notes carrying each.
The vault is the folder of `tagd-vaults' holding the current
buffer's file, else its project's root (see `tagd-vault-of');
without one, a folder is asked for.  In the list,
\\<tagd-tags-mode-map>\\[tagd-tags-rename] renames a tag."
  (interactive)
  (let ((vault (tagd-vault--here)))
    (with-current-buffer (get-buffer-create (format "*tagd tags: %s*" (abbreviate-file-name vault)))
      (tagd-tags-mode)
      (setq tagd-tags--vault vault
            default-directory vault)
      (tagd-tags--refresh)
      (tabulated-list-print)
      (pop-to-buffer (current-buffer)))))

(defun tagd-tags-rename (to)
  "Rename the tag at point to TO in every note of the vault."
  (interactive (list (read-string (format "Rename %s to: " (tabulated-list-get-id)))))
  (let ((from (or (tabulated-list-get-id) (user-error "No tag here"))))
    (tagd-rename from to)
    (revert-buffer)))

;;;; M-x tagd-rename

(defun tagd-vault--apply-edits (edits)
  "Apply the LSP text EDITS (a vector) to the current buffer, whole."
  (save-excursion
    (save-restriction
      (widen)
      (let* ((text (buffer-substring-no-properties (point-min) (point-max)))
             (spans (cl-loop for edit across edits
                             for range = (plist-get edit :range)
                             collect (list (tagd--offset text (plist-get range :start))
                                           (tagd--offset text (plist-get range :end))
                                           (plist-get edit :newText)))))
        ;; From the last to the first, so earlier offsets stay right.
        (dolist (span (sort spans (lambda (a b) (> (car a) (car b)))))
          (pcase-let ((`(,b ,e ,new) span))
            (goto-char (+ (point-min) b))
            (delete-region (point) (+ (point-min) e))
            (insert new)))))))

(defun tagd-vault--write-file (file edits)
  "Apply the LSP text EDITS to FILE on disk.
The file is read and written as UTF-8 with its line ends as they
are, through a new file renamed over it (its mode kept), so it is
never left half-written."
  (let ((modes (file-modes file))
        (temp (make-temp-file (expand-file-name ".tagd-rename-" (file-name-directory file)))))
    (unwind-protect
        (progn
          (with-temp-buffer
            (let ((coding-system-for-read 'utf-8-unix))
              (insert-file-contents file))
            (tagd-vault--apply-edits edits)
            (let ((coding-system-for-write 'utf-8-unix))
              (write-region nil nil temp nil 'silent)))
          (when modes (set-file-modes temp modes))
          (rename-file temp file t))
      (when (file-exists-p temp) (delete-file temp)))))

(defun tagd-vault--open-notes (vault)
  "Return the live buffers visiting notes inside VAULT."
  (seq-filter (lambda (buffer)
                (let ((file (buffer-file-name buffer)))
                  (and file (string-match-p tagd-vault--note-re file)
                       (file-in-directory-p file vault))))
              (buffer-list)))

(defun tagd-vault--read-tag (prompt)
  "Read a tag of the vault with PROMPT, its tags offered most used first."
  (let ((tags (mapcar (lambda (entry) (plist-get entry :tag)) (tagd-vault-tags))))
    (completing-read prompt
                     (lambda (string pred action)
                       (if (eq action 'metadata)
                           '(metadata (display-sort-function . identity))
                         (complete-with-action action tags string pred))))))

;;;###autoload
(defun tagd-rename (from to)
  "Rename the tag FROM to TO in every note of this note's vault.
FROM is compared caselessly (every spelling is renamed, and every
tag below it: FROM/x becomes TO/x); a note whose list already
carries TO loses the renamed entry (a merge).  tagd computes the
edits (`vault/rename'), from the text of the buffers visiting
notes: those buffers are changed and left unsaved, the files of
the other notes are written.  A note that cannot hold TO (an Org
tag cannot hold `-') refuses the whole rename, with tagd's reason."
  (interactive
   (progn
     (tagd-vault--here)
     (let ((from (tagd-vault--read-tag "Rename tag: ")))
       (list from (read-string (format "Rename %s to: " from))))))
  (let* ((vault (tagd-vault--here))
         (buffers (tagd-vault--open-notes vault))
         (opened nil))
    (unwind-protect
        (let (result)
          ;; The buffers' text, not the files', is what the edits are for.
          (dolist (buffer buffers)
            (with-current-buffer buffer
              (let ((uri (tagd--file-uri buffer-file-name)))
                (tagd--notify :textDocument/didOpen
                              (list :textDocument
                                    (list :uri uri
                                          :languageId (if (string-suffix-p ".org" buffer-file-name)
                                                          "org" "markdown")
                                          :version 0
                                          :text (save-restriction
                                                  (widen)
                                                  (buffer-substring-no-properties
                                                   (point-min) (point-max))))))
                (push uri opened))))
          (setq result (tagd-vault--request :vault/rename (list :from from :to to)))
          (let ((changes (plist-get (plist-get result :edit) :changes))
                (in-buffers 0) (in-files 0))
            (cl-loop for (key edits) on changes by #'cddr
                     for file = (tagd-vault--file (substring (symbol-name key) 1))
                     for buffer = (find-buffer-visiting file)
                     do (if buffer
                            (progn (with-current-buffer buffer
                                     (tagd-vault--apply-edits edits))
                                   (cl-incf in-buffers))
                          (tagd-vault--write-file file edits)
                          (cl-incf in-files)))
            (message "Renamed %s to %s in %d note%s%s: %d file%s written, %d buffer%s changed (not saved)"
                     from to (plist-get result :notes)
                     (if (= (plist-get result :notes) 1) "" "s")
                     (if (eq (plist-get result :merged) t) " (merged)" "")
                     in-files (if (= in-files 1) "" "s")
                     in-buffers (if (= in-buffers 1) "" "s"))
            result))
      (dolist (uri opened)
        (tagd--notify :textDocument/didClose (list :textDocument (list :uri uri)))))))

(provide 'tagd-vault)
;;; tagd-vault.el ends here
