;;; lint.el --- Byte-compile, checkdoc and package-lint the package  -*- lexical-binding: t; -*-

;;; Commentary:

;; emacs --batch -Q -L DIR -l lint.el OUT-DIR FILE...
;; Byte-compiles each FILE into OUT-DIR with warnings as errors, then
;; runs checkdoc and package-lint (when it is installed: Debian's
;; elpa-package-lint) on it, tagd.el being the package's main file;
;; prints every problem and exits 1 if any.

;;; Code:

(require 'checkdoc)
(require 'package)

(defvar package-lint-main-file)
(declare-function package-lint-buffer "package-lint" (&optional buffer))

(defun tagd-lint--outdated-p (problem)
  "Return non-nil if PROBLEM is package-lint 0.16's claim that Emacs 28 is unreleased.
Debian 12's package-lint (0.16) predates the release of Emacs 28.1
and says a package requiring it is \"uninstallable in all released
Emacs versions\"; later package-lint releases know Emacs 28.  Every
other problem counts."
  (string= (nth 3 problem)
           "This makes the package uninstallable in all released Emacs versions."))

(let* ((out (file-name-as-directory (pop command-line-args-left)))
       (files command-line-args-left)
       (problems 0)
       (byte-compile-error-on-warn t)
       (byte-compile-dest-file-function
        (lambda (file) (expand-file-name (concat (file-name-nondirectory file) "c") out))))
  (setq command-line-args-left nil)
  (dolist (file files)
    (unless (byte-compile-file file)
      (message "byte-compile: %s failed" file)
      (setq problems (1+ problems))))
  (dolist (file files)
    (let ((warnings nil))
      (cl-letf (((symbol-function 'warn)
                 (lambda (format &rest args)
                   (push (apply #'format-message format args) warnings))))
        (checkdoc-file file))
      (dolist (w (reverse warnings))
        (message "checkdoc: %s" (string-trim w)))
      (setq problems (+ problems (length warnings)))))
  (package-initialize)
  (dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/package-lint-*"))
    (add-to-list 'load-path dir))
  (if (not (require 'package-lint nil t))
      (progn (message "package-lint: not installed (Debian: elpa-package-lint)")
             (setq problems (1+ problems)))
    (let ((package-lint-main-file "tagd.el"))
      (dolist (file files)
        (with-temp-buffer
          (insert-file-contents file)
          (setq buffer-file-name (expand-file-name file))
          (emacs-lisp-mode)
          (dolist (p (seq-remove #'tagd-lint--outdated-p (package-lint-buffer)))
            (message "package-lint: %s:%d:%d: %s: %s" file (nth 0 p) (nth 1 p) (nth 2 p) (nth 3 p))
            (setq problems (1+ problems)))
          (set-buffer-modified-p nil)))))
  (message "lint: %d file(s), %d problem(s)" (length files) problems)
  (kill-emacs (if (zerop problems) 0 1)))

;;; lint.el ends here
