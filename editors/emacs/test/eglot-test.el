;;; eglot-test.el --- tagd as eglot's language server, with nothing but eglot's configuration  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by eglot-test (which run-tests calls):
;;   emacs --batch --eval (package-initialize) -l INIT -l eglot-test.el \
;;         -f ert-run-tests-batch-and-exit
;; INIT is the configuration block of README.md ("tagd as eglot's
;; server"), as written; tagd.el is not loaded.  Each test copies the
;; vault made by eglot-test (TAGD_VAULT) to a fresh folder, visits its
;; notes as a user does (find-file, which runs `eglot-ensure' from the
;; mode hooks), and asks eglot what a user would see: the completion
;; table and its annotations, the hover text eldoc would show,
;; Flymake's diagnostics, and what `eglot-rename' and the quick fix of
;; `eglot-code-actions' leave on disk once the buffers are saved.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'eglot)
(require 'markdown-mode)
(require 'org)

(defvar eglot-test--vault nil
  "The vault copy of the running test.")

(defun eglot-test--wait (what predicate &optional seconds)
  "Wait until PREDICATE returns non-nil (at most SECONDS, default 20); return it.
WHAT names what is waited for in the failure."
  (let ((deadline (+ (float-time) (or seconds 20))) value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or value (ert-fail (format "Timed out waiting for %s" what)))))

(defun eglot-test--visit (name)
  "Visit the note NAME of the vault as a user does; wait for eglot to manage it."
  (let ((file (expand-file-name name eglot-test--vault)))
    ;; A command, so that `eglot-ensure' (run from the mode hook) connects
    ;; from `post-command-hook', as after a user's C-x C-f.
    (execute-kbd-macro (vconcat (kbd "C-x C-f") file (kbd "RET")))
    (should (equal (buffer-file-name) file))
    (eglot-test--wait (format "eglot to manage %s" name)
                      (lambda () (and (bound-and-true-p eglot--managed-mode)
                                      (eglot-current-server))))
    ;; Flymake starts checking once the buffer is shown and a command has
    ;; run (its deferred start); a keyboard macro's commands count, but the
    ;; batch display is never "shown": start it as that would.
    (flymake-start)
    (current-buffer)))

(defun eglot-test--file (name)
  "Return the text of the vault's note NAME on disk."
  (with-temp-buffer
    (insert-file-contents (expand-file-name name eglot-test--vault))
    (buffer-string)))

(defmacro eglot-test--in-vault (&rest body)
  "Run BODY with a fresh copy of the vault; shut eglot down after."
  (declare (indent 0))
  `(let ((eglot-test--vault (file-name-as-directory (make-temp-file "vault" t)))
         (eglot-confirm-server-initiated-edits nil))
     (copy-directory (file-name-as-directory (getenv "TAGD_VAULT")) eglot-test--vault nil nil t)
     (unwind-protect (progn ,@body)
       (let ((kill-buffer-query-functions nil))
         (eglot-shutdown-all)
         (dolist (b (buffer-list))
           (when (and (buffer-file-name b)
                      (string-prefix-p eglot-test--vault (buffer-file-name b)))
             (with-current-buffer b (set-buffer-modified-p nil))
             (kill-buffer b))))
       (delete-directory eglot-test--vault t))))

(defun eglot-test--goto (text &optional offset)
  "Put point at the start of TEXT in the buffer (plus OFFSET characters)."
  (goto-char (point-min))
  (should (search-forward text nil t))
  (goto-char (+ (match-beginning 0) (or offset 0))))

(defun eglot-test--diagnostics (code)
  "Return Flymake's diagnostics in this buffer with the LSP CODE."
  (cl-remove-if-not
   (lambda (d)
     (equal (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))) :code)
            code))
   (flymake-diagnostics)))

(ert-deftest eglot-test-no-tagd-el ()
  "The configuration is eglot's alone: tagd.el is not loaded."
  (should-not (featurep 'tagd))
  (should-not (locate-library "tagd-connection")))

(defun eglot-test--complete ()
  "Return the completions eglot offers at point: ((CANDIDATE . ANNOTATION) ...)."
  (let* ((capf (eglot-completion-at-point))
         (table (nth 2 capf))
         (annotate (plist-get (nthcdr 3 capf) :annotation-function))
         (probe (buffer-substring-no-properties (nth 0 capf) (nth 1 capf))))
    (mapcar (lambda (c) (cons (substring-no-properties c)
                          (substring-no-properties (string-trim (funcall annotate c)))))
            (all-completions probe table))))

(ert-deftest eglot-test-completion ()
  "Completion lists the vault's tags with their counts, in a tags list and after #."
  (eglot-test--in-vault
    (with-current-buffer (eglot-test--visit "new.md")
      (eglot-test--goto "tags: [" 7)
      (insert "wo")
      (should (equal (eglot-test--complete) '(("work" . "4 notes"))))
      (goto-char (point-max))
      (insert "See #re")
      (should (equal (eglot-test--complete) '(("reading" . "2 notes")))))))

(ert-deftest eglot-test-hover ()
  "Hover on a tag shows how many notes carry it and its other spellings."
  (eglot-test--in-vault
    (with-current-buffer (eglot-test--visit "c.md")
      (eglot-test--goto "- work" 3)
      (let ((shown nil))
        (eglot-hover-eldoc-function (lambda (info &rest _) (setq shown (or info ""))))
        (eglot-test--wait "hover" (lambda () shown))
        (should (string-match-p "\\b4 notes\\b" shown))
        (should (string-match-p "Work" shown))))))

(ert-deftest eglot-test-diagnostic ()
  "A spelling other than the vault's gets Flymake's tag-variant diagnostic."
  (eglot-test--in-vault
    (with-current-buffer (eglot-test--visit "b.md")
      (let ((diags (eglot-test--wait "the tag-variant diagnostic"
                                     (lambda () (eglot-test--diagnostics "tag-variant")))))
        (should (= (length diags) 1))
        (eglot-test--goto "Work")
        (should (= (flymake-diagnostic-beg (car diags)) (point)))
        (should (string-match-p "\\`tagd \\[tag-variant\\]: " (flymake-diagnostic-text (car diags))))))))

(ert-deftest eglot-test-rename ()
  "`eglot-rename' renames the tag in a note not open, saved to disk, nothing else changed."
  (eglot-test--in-vault
    (let ((a (eglot-test--file "a.md")))
      (with-current-buffer (eglot-test--visit "c.md")
        (eglot-test--goto "- work" 3)
        ;; As typed; eglot asks before it edits notes not visited: y.
        (execute-kbd-macro (vconcat (kbd "M-x") "eglot-rename" [return] "job" [return] "y"))
        (should (string-match-p "- job$" (buffer-string))))
      ;; The user saves what eglot changed (C-x s !).
      (save-some-buffers t)
      (should (equal (eglot-test--file "a.md")
                     (replace-regexp-in-string "\\[work, ml\\]" "[job, ml]" a t t)))
      (let ((case-fold-search nil))
        (should-not (string-match-p "\\bwork\\b" (eglot-test--file "d.org"))))
      (should (string-match-p ":job:" (eglot-test--file "d.org"))))))

(ert-deftest eglot-test-quick-fix ()
  "The quick fix for tag-variant leaves one spelling in the vault."
  (eglot-test--in-vault
    (with-current-buffer (eglot-test--visit "b.md")
      (unless (eglot--server-capable :codeActionProvider)
        (ert-skip "tagd declares no codeActionProvider"))
      (eglot-test--wait "the tag-variant diagnostic"
                        (lambda () (eglot-test--diagnostics "tag-variant")))
      (eglot-test--goto "Work" 1)
      ;; The actions eglot offers here (what M-x eglot-code-actions lists;
      ;; terminal test below types it), then eglot's own way of running one.
      (let* ((actions (eglot-code-actions (point) (point) "quickfix"))
             (fix (cl-find "Use the vault's spelling `work` everywhere" actions
                           :key (lambda (a) (plist-get a :title)) :test #'equal)))
        (should fix)
        (eglot--read-execute-code-action (list fix) (eglot-current-server) "quickfix"))
      (save-some-buffers t)
      (should (string-match-p "tags: \\[work\\]" (eglot-test--file "b.md")))
      (let ((case-fold-search nil))
        (dolist (note '("a.md" "b.md" "c.md" "d.org"))
          (should-not (string-match-p "\\bWork\\b" (eglot-test--file note)))))
      (eglot-test--wait "the diagnostic to go"
                        (lambda () (null (eglot-test--diagnostics "tag-variant")))))))

(provide 'eglot-test)
;;; eglot-test.el ends here
