;;; lint.el --- Byte-compile and checkdoc the package  -*- lexical-binding: t; -*-

;;; Commentary:

;; emacs --batch -Q -L DIR -l lint.el OUT-DIR FILE...
;; Byte-compiles each FILE into OUT-DIR with warnings as errors, then
;; runs checkdoc on it; prints every problem and exits 1 if any.

;;; Code:

(require 'checkdoc)

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
  (message "lint: %d file(s), %d problem(s)" (length files) problems)
  (kill-emacs (if (zerop problems) 0 1)))

;;; lint.el ends here
