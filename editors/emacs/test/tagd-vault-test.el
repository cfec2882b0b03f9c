;;; tagd-vault-test.el --- ERT tests of tagd-vault.el against the real tagd  -*- lexical-binding: t; -*-

;;; Commentary:

;; A vault of four notes ("work" in four, once spelled "Work";
;; "reading" in two; "ml" in one), copied fresh for each test.  The
;; commands are typed as keyboard macros (M-x included), as a user
;; types them: a field on a note suggests the vault's tags,
;; M-x tagd-tags lists them, M-x tagd-rename renames one in a buffer
;; visiting a note (left unsaved) and in the files of the others.
;; Skipped against a tagd without vault/tags.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'tagd-test)
(require 'tagd-front-matter)
(require 'tagd-org)
(require 'tagd-vault)

(defconst tagd-vault-test--notes
  '(("a.md" . "---\ntitle: A\ntags: [work, ml]\n---\nNotes on A.\n")
    ("b.md" . "---\ntags: [Work]\n---\nB.\n")
    ("c.md" . "---\ntags:\n  - work\n  - reading\n---\nC.\n")
    ("d.org" . "#+FILETAGS: :work:\n* A heading :reading:\nD.\n")
    ("new.md" . "---\ntags: []\n---\nNew.\n"))
  "The test vault's notes: (NAME . TEXT).")

(defvar tagd-vault-test--dir nil
  "The running test's vault.")

(defmacro tagd-vault-test--with (&rest body)
  "Run BODY with a fresh vault (a git repository) in `tagd-vault-test--dir'."
  (declare (indent 0))
  `(progn
     (tagd--connection)
     (unless (member "vault/tags" tagd--methods)
       (ert-skip "this tagd has no vault/tags"))
     (let ((tagd-vault-test--dir (file-name-as-directory (make-temp-file "tagd-vault" t))))
       (unwind-protect
           (progn
             (pcase-dolist (`(,name . ,text) tagd-vault-test--notes)
               (tagd-vault-test--write name text))
             ;; A project (project.el's VC backend), as a vault kept in git is.
             (let ((default-directory tagd-vault-test--dir))
               (should (zerop (call-process "git" nil nil nil "init" "-q"))))
             ,@body)
         (dolist (b (buffer-list))
           (when (and (buffer-file-name b)
                      (string-prefix-p tagd-vault-test--dir (buffer-file-name b)))
             (with-current-buffer b (set-buffer-modified-p nil))
             (kill-buffer b)))
         (when (get-buffer "*tagd tags*") (kill-buffer "*tagd tags*"))
         (delete-directory tagd-vault-test--dir t)))))

(defun tagd-vault-test--write (name text)
  "Write TEXT to the vault's note NAME."
  (let ((coding-system-for-write 'utf-8-unix))
    (write-region text nil (expand-file-name name tagd-vault-test--dir) nil 'silent)))

(defun tagd-vault-test--read (name)
  "Return the text of the vault's note NAME on disk."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-unix))
      (insert-file-contents (expand-file-name name tagd-vault-test--dir)))
    (buffer-string)))

(defun tagd-vault-test--visit (name)
  "Visit the vault's note NAME in the selected window; return its buffer."
  (switch-to-buffer (find-file-noselect (expand-file-name name tagd-vault-test--dir)))
  (current-buffer))

(defun tagd-vault-test--type (&rest keys)
  "Type KEYS: strings are typed, vectors are keys, (kbd ...) strings too."
  (execute-kbd-macro (apply #'tagd-test--keys keys)))

(ert-deftest tagd-vault-test-vault-of ()
  "A note's vault is its project's root, or the folder of `tagd-vaults' holding it."
  (tagd-vault-test--with
    (let ((file (expand-file-name "a.md" tagd-vault-test--dir)))
      (should (equal (tagd-vault-of file) tagd-vault-test--dir))
      (let ((tagd-vaults (list (directory-file-name tagd-vault-test--dir))))
        (should (equal (tagd-vault-of file) tagd-vault-test--dir))))
    (should-not (tagd-vault-of (expand-file-name "x.md" temporary-file-directory)))))

(ert-deftest tagd-vault-test-suggest ()
  "A field on a note of the vault suggests the vault's tags, most used first."
  (tagd-vault-test--with
    (with-current-buffer (tagd-vault-test--visit "new.md")
      (should (equal (tagd-vault-field-options) '(:suggestFromVault t)))
      ;; Once tagd has read the vault (vault/tags waits for that).
      (should (equal (plist-get (car (tagd-vault-tags)) :tag) "work"))
      ;; "r" TAB: the best of reading (2 notes) ... is reading; "w" TAB: work.
      (tagd-vault-test--type (kbd "M-x") "tagd-front-matter-edit-tags" [return]
                             "w" [tab] "r" [tab] [return])
      (should (equal (buffer-string) "---\ntags: [work, reading]\n---\nNew.\n")))))

(ert-deftest tagd-vault-test-tags ()
  "M-x tagd-tags lists the vault's tags with their notes, most first."
  (tagd-vault-test--with
    (tagd-vault-test--visit "c.md")
    (tagd-vault-test--type (kbd "M-x") "tagd-tags" [return])
    (should (derived-mode-p 'tagd-tags-mode))
    (let ((rows (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n" t)))
      (should (equal (mapcar (lambda (row) (split-string row " +" t)) rows)
                     '(("4" "work" "Work" "(1)") ("2" "reading") ("1" "ml")))))))

(ert-deftest tagd-vault-test-rename ()
  "M-x tagd-rename: a visited note's buffer changes (unsaved), the others' files are written."
  (tagd-vault-test--with
    (let ((c-on-disk (tagd-vault-test--read "c.md")))
      (with-current-buffer (tagd-vault-test--visit "c.md")
        ;; An edit not saved: the rename is computed from the buffer's text.
        (goto-char (point-max))
        (insert "Edited.\n")
        (tagd-vault-test--type (kbd "M-x") "tagd-rename" [return] "work" [return] "job" [return])
        (should (equal (buffer-string) "---\ntags:\n  - job\n  - reading\n---\nC.\nEdited.\n"))
        (should (buffer-modified-p)))
      (should (equal (tagd-vault-test--read "c.md") c-on-disk))
      (should (equal (tagd-vault-test--read "a.md")
                     "---\ntitle: A\ntags: [job, ml]\n---\nNotes on A.\n"))
      (should (equal (tagd-vault-test--read "b.md") "---\ntags: [job]\n---\nB.\n"))
      (should (string-match-p "\\`#\\+FILETAGS: :job:\n\\* A heading +:reading:\nD\\.\n\\'"
                              (tagd-vault-test--read "d.org")))
      (should (string-match-p "Renamed work to job in 4 notes" (tagd-test--messages))))))

(ert-deftest tagd-vault-test-rename-refused ()
  "A name an Org note cannot hold refuses the whole rename, naming the note."
  (tagd-vault-test--with
    (with-current-buffer (tagd-vault-test--visit "a.md")
      (let ((err (should-error (tagd-rename "work" "x-y") :type 'user-error)))
        (should (string-match-p "d\\.org" (cadr err)))))
    (should (equal (tagd-vault-test--read "a.md")
                   (cdr (assoc "a.md" tagd-vault-test--notes))))
    (should (equal (tagd-vault-test--read "d.org")
                   (cdr (assoc "d.org" tagd-vault-test--notes))))))

(provide 'tagd-vault-test)
;;; tagd-vault-test.el ends here
