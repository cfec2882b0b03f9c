;;; terminal-init.el --- Set-up of the tmux terminal test  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by terminal-test into `emacs -nw -Q'.  <f5> runs the reader
;; and writes the tags it returns to the file named by TAGD_TERM_OUT;
;; <f6> writes the newest kill there; <f8> ages tagd's deaths by a
;; minute.  Mouse clicks come as xterm
;; escape sequences (`xterm-mouse-mode').

;;; Code:

;; Before the package is loaded: a native-compiling Emacs would otherwise
;; compile the .elc files in the background, then put a warning window
;; on the screen under test (their sources are in another directory).
(when (boundp 'native-comp-deferred-compilation)
  (setq native-comp-deferred-compilation nil))
;; Its load also warns (in a window of the screen under test) that the
;; .elc files, compiled into a directory of their own, have no source
;; beside them.
(setq warning-suppress-types '((comp)))

(require 'tagd)
(require 'tagd-org)
(require 'tagd-front-matter)
(require 'tagd-field)
(setq inhibit-startup-screen t
      initial-scratch-message nil
      make-backup-files nil
      auto-save-default nil
      ;; No lock files: emacsen of successive tests write the same result file.
      create-lockfiles nil
      ;; A failure shows its backtrace on the screen the test captures.
      debug-on-error t)

(defun tagd-term--write (value)
  "Write VALUE, printed, to the file named by TAGD_TERM_OUT."
  (with-temp-file (getenv "TAGD_TERM_OUT")
    (prin1 value (current-buffer))))

(defun tagd-term-read ()
  "Read tags starting from (\"x\") and write them out."
  (interactive)
  (tagd-term--write (tagd-read-tags "Tags: " '("x"))))

(defun tagd-term-read-vocabulary ()
  "Read tags with a vocabulary and no initial tags; write them out."
  (interactive)
  (tagd-term--write (tagd-read-tags "Tags: " nil '(:suggestions ["urgent" "urban" "work"]))))

(defun tagd-term-field-vocabulary ()
  "Open a `tagd-field' with a vocabulary."
  (interactive)
  (tagd-field nil nil '(:suggestions ["alpha" "beta"])))

(defun tagd-term-kill-ring ()
  "Write the newest kill ring entry out."
  (interactive)
  (tagd-term--write (current-kill 0)))

(defun tagd-term-age-deaths ()
  "Make tagd's recorded deaths a minute old, as if a minute had passed."
  (interactive)
  (setq tagd--deaths (mapcar (lambda (time) (- time 61)) tagd--deaths)))

(global-set-key (kbd "<f5>") #'tagd-term-read)
(global-set-key (kbd "<f6>") #'tagd-term-kill-ring)
(global-set-key (kbd "<f7>") #'tagd-term-read-vocabulary)
(global-set-key (kbd "<f4>") #'tagd-term-field-vocabulary)
(global-set-key (kbd "<f8>") #'tagd-term-age-deaths)
(xterm-mouse-mode 1)
(menu-bar-mode -1)

(provide 'terminal-init)
;;; terminal-init.el ends here
