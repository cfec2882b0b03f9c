;;; tagd-keys-test.el --- ERT tests of the §6a keys, completion and the crm reader  -*- lexical-binding: t; -*-

;;; Commentary:

;; Keys typed as keyboard macros in the reader, against the real
;; tagd: undo and redo, selection, moving, editing and removing a
;; chip, TAB and `completion-at-point', `tagd-completing-read-multiple'
;; and `tagd-crm-mode', and the connection's failures.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'tagd-test)

(defun tagd-keys-test--snap-text ()
  "Return the newest snapshot as one string: chips, then the draft."
  (let ((snap (car tagd-test--snaps)))
    (concat (car snap) (cdr snap))))

;;;; Placeholder and announcements

(ert-deftest tagd-keys-test-placeholder-leaves ()
  "The placeholder goes as soon as a character is typed, before tagd answers."
  (tagd-test--read '("Tags: ") [f10] "work" [f10 return return])
  ;; Newest first: after "work", then before it.
  (should (equal (nth 1 tagd-test--snaps) '("Add a tag" . "")))
  (should (equal (nth 0 tagd-test--snaps) '("" . "work"))))

(ert-deftest tagd-keys-test-announcement-after-chips ()
  "On an empty draft the announcement follows the chips and the placeholder."
  (tagd-test--read '("Tags: " ("x")) "red,RED," [f11 return])
  (should (equal (car tagd-test--snaps)
                 '("[x ×] [red ×] Add a tag [RED is already a tag, as red.]" . ""))))

;; Issue 34, finding 3: a fast burst's refusals replaced each other, so
;; only the last reason was ever seen.
(ert-deftest tagd-keys-test-refusals-kept ()
  "Refusals typed at full speed are all shown, oldest first, and all logged.
A command's own announcement (a chip selected) replaces them."
  (let ((minibuffer-message-timeout 600)
        (reasons '("RED is already a tag, as red." "X is already a tag, as x."
                   "Red is already a tag, as red.")))
    (should (equal (tagd-test--read '("Tags: " ("x")) "red,RED,X,Red," [f11 left f11 right return])
                   '("x" "red")))
    (should (equal (nth 1 tagd-test--snaps)
                   (cons (concat "[x ×] [red ×] Add a tag"
                                 (mapconcat (lambda (r) (format " [%s]" r)) reasons ""))
                         "")))
    (should (equal (car tagd-test--snaps)
                   '("[x ×] [red ×] Add a tag [red selected, 2 of 2.]" . "")))
    (let ((messages (tagd-test--messages)))
      (dolist (r reasons)
        (should (string-match-p (concat "^" (regexp-quote r) "$") messages))))))

;;;; Undo, redo, selection, moving, editing, removing

(ert-deftest tagd-keys-test-undo-redo ()
  "C-_, C-/ and C-x u are tagd's undo; C-M-_ its redo."
  ;; Undoing the commit of "dd" puts it back in the draft, as typed.
  (should (equal (tagd-test--read '("Tags: ") "dd," [f11 ?\C-_ f11 return return])
                 '("dd")))
  (should (equal (car tagd-test--snaps) '("" . "dd [Undid adding dd.]")))
  ;; Two undos go back over the commit of b and the typing of b; a redo
  ;; brings the typing back.
  (should (equal (tagd-test--read '("Tags: ") "a,b," [?\C-/ ?\C-x ?u f11] [?\C-\M-_ f11 return return])
                 '("a" "b")))
  (should (string-match-p "\\`\\[a ×\\] Add a tag \\[Undid .*\\]\\'" (car (nth 1 tagd-test--snaps))))
  (should (string-match-p "\\`b \\[Redid .*\\]\\'" (cdr (nth 0 tagd-test--snaps))))
  (should (equal (tagd-test--read '("Tags: ") "a,b," [?\C-/ ?\C-x ?u ?\C-\M-_ ?\C-\M-_ return])
                 '("a" "b"))))

(ert-deftest tagd-keys-test-select-and-remove ()
  "Left at the start of the draft selects the last chip; DEL removes it."
  (should (equal (tagd-test--read '("Tags: " ("a" "b" "c")) [left left f11 backspace return])
                 '("a" "c")))
  (should (string-match-p "b selected, 2 of 3\\." (tagd-keys-test--snap-text)))
  ;; C-d removes the selected chip.
  (should (equal (tagd-test--read '("Tags: " ("a" "b" "c")) [left left left ?\C-d return])
                 '("b" "c")))
  ;; Right past the last chip selects none: DEL then removes the last tag.
  (should (equal (tagd-test--read '("Tags: " ("a" "b" "c"))
                                  [left left right right f11 backspace return])
                 '("a" "b")))
  (should (string-match-p "c selected" (tagd-test--messages))))

(defun tagd--field-selected-p-test (chips)
  "Return the tag of CHIPS (the reader's chips) drawn as selected."
  (cl-loop for i below (length chips)
           thereis (and (eq (get-text-property i 'face chips) 'tagd-chip-selected)
                        (get-text-property i 'tagd-chip chips))))

(ert-deftest tagd-keys-test-move ()
  "M-left and M-right move the selected chip."
  ;; The selection follows the moved chip; three rights clear it.
  (should (equal (tagd-test--read '("Tags: " ("a" "b" "c"))
                                  [left M-left M-left f11 right right right return])
                 '("c" "a" "b")))
  (should (string-match-p "Moved c to position 1 of 3\\." (tagd-keys-test--snap-text)))
  (should (equal (tagd-test--read '("Tags: " ("a" "b" "c"))
                                  [left left left M-right right right return])
                 '("b" "a" "c"))))

(ert-deftest tagd-keys-test-edit ()
  "RET on the selected chip takes it into the draft; RET commits it again."
  (should (equal (tagd-test--read '("Tags: " ("a" "b" "c")) [left left return f11] "x"
                                  [f11 return return])
                 '("a" "c" "bx")))
  (should (equal (car tagd-test--snaps) '("[a ×] [c ×] " . "bx [Editing b.]"))))

(ert-deftest tagd-keys-test-selected-face ()
  "The chip tagd says is selected is drawn in `tagd-chip-selected'."
  (let ((seen nil))
    (setq tagd-test--hook
          (lambda ()
            (tagd-sync)
            (push (tagd--field-selected-p-test
                   (overlay-get tagd--chips-overlay 'before-string))
                  seen)))
    (tagd-test--read '("Tags: " ("a" "b")) [f9 left f9 left f9 right right f9 return])
    ;; Newest first.
    (should (equal seen '(nil "a" "b" nil)))))

;;;; Options pass through

(ert-deftest tagd-keys-test-options-unchanged ()
  "Options reach tagd unchanged: :deny refuses, with tagd's reason."
  (should (equal (tagd-test--read '("Tags: " nil (:deny ["x"])) "x,y," [f11 return])
                 '("y")))
  (should (string-match-p "x is not allowed" (tagd-test--messages))))

;;;; TAB and completion

(defconst tagd-keys-test--vocabulary ["urgent" "urban" "work" "New York"])

(ert-deftest tagd-keys-test-tab-best ()
  "TAB takes tagd's best suggestion for the draft as a tag."
  (should (equal (tagd-test--read (list "Tags: " nil (list :suggestions tagd-keys-test--vocabulary))
                                  "urg" [tab] "wo" [tab] "ny" [tab return])
                 '("urgent" "work" "New York")))
  ;; An empty draft: TAB lists, and commits nothing.
  (should (equal (tagd-test--read (list "Tags: " nil (list :suggestions tagd-keys-test--vocabulary))
                                  [tab return])
                 nil)))

(defun tagd-keys-test--proper (completions)
  "Return COMPLETIONS without the base size that ends the list."
  (cl-loop for tail = completions then (cdr tail)
           while (consp tail) collect (car tail)))

(defun tagd-keys-test--package (name)
  "Activate the installed package NAME (Debian's elpa-NAME); non-nil if it is there."
  (require 'package)
  ;; Where Debian's elpa-* packages are (emacs -Q skips the site start-up that adds it).
  (add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
  (package-initialize t)
  (or (featurep name) (ignore-errors (package-activate name)) (require name nil t)))

(defmacro tagd-keys-test--needs (name)
  "Make the test need the package NAME: in CI it must be there (`.ci/run'
installs it), elsewhere the test is skipped without it."
  `(let ((found (tagd-keys-test--package ',name)))
     (if (getenv "CI") (should found) (skip-unless found))))

(defun tagd-keys-test--in-field (suggestions typed body)
  "Run BODY (a function) in the reader after TYPED, with SUGGESTIONS."
  (setq tagd-test--hook (lambda () (tagd-sync) (funcall body)))
  (tagd-test--read (list "Tags: " nil (list :suggestions suggestions))
                   typed [f9 ?\C-a ?\C-k return]))

(ert-deftest tagd-keys-test-capf ()
  "`completion-at-point' sees tagd's ranking, matched letters highlighted."
  (let (all faces metadata)
    (tagd-keys-test--in-field
     ["urgent" "urban" "turbo" "work"] "ur"
     (lambda ()
       (pcase-let ((`(,beg ,end ,table . ,_) (tagd-completion-at-point)))
         (let ((string (buffer-substring-no-properties beg end)))
           (setq metadata (completion-metadata string table nil))
           (setq all (completion-all-completions string table nil (length string)
                                                 metadata))
           (setq faces (mapcar (lambda (c)
                                 (cl-loop for i below (length c)
                                          collect (and (memq 'completions-common-part
                                                             (ensure-list
                                                              (get-text-property i 'face c)))
                                                       t)))
                               (tagd-keys-test--proper all)))))))
    (should (eq (completion-metadata-get metadata 'category) 'tagd))
    ;; Prefix matches (alphabetical), then the word-inner fuzzy one.
    (should (equal (mapcar #'substring-no-properties (tagd-keys-test--proper all))
                   '("urban" "urgent" "turbo")))
    (should (equal (car faces) '(t t nil nil nil)))
    (should (equal (nth 2 faces) '(nil t t nil nil)))))

(ert-deftest tagd-keys-test-company-capf ()
  "company's `company-capf' back end offers tagd's suggestions, in tagd's order."
  (tagd-keys-test--needs company)
  (let (prefix candidates)
    (tagd-keys-test--in-field ["urgent" "urban" "turbo" "work"] "ur"
                              (lambda ()
                                (require 'company-capf)
                                (setq prefix (company-capf 'prefix))
                                (setq candidates (company-capf 'candidates (if (consp prefix) (car prefix) prefix)))))
    (should (equal (if (consp prefix) (car prefix) prefix) "ur"))
    (should (equal (mapcar #'substring-no-properties candidates) '("urban" "urgent" "turbo")))))

(ert-deftest tagd-keys-test-orderless ()
  "With orderless put first for the `tagd' category, it filters tagd's vocabulary."
  (tagd-keys-test--needs orderless)
  (let (all)
    (tagd-keys-test--in-field ["urgent" "urban" "turbo" "work"] "ur"
                              (lambda ()
                                (let ((completion-category-overrides '((tagd (styles orderless)))))
                                  (pcase-let ((`(,beg ,end ,table . ,_) (tagd-completion-at-point)))
                                    (let ((string (buffer-substring-no-properties beg end)))
                                      (setq all (completion-all-completions
                                                 string table nil (length string)
                                                 (completion-metadata string table nil))))))))
    (should (equal (sort (mapcar #'substring-no-properties (tagd-keys-test--proper all)) #'string<)
                   '("turbo" "urban" "urgent")))))

(ert-deftest tagd-keys-test-completion-at-point-commits ()
  "C-M-i completing to the sole suggestion commits it as a tag."
  (should (equal (tagd-test--read (list "Tags: " nil (list :suggestions tagd-keys-test--vocabulary))
                                  "urge" [?\C-\M-i f11 return])
                 '("urgent"))))

;;;; completing-read-multiple

(defvar tagd-keys-test--hist nil
  "History of the crm tests.")

(ert-deftest tagd-keys-test-crm ()
  "`tagd-completing-read-multiple' takes crm's arguments."
  (setq tagd-keys-test--hist nil)
  (setq tagd-test--args nil)
  (cl-letf (((symbol-function 'tagd-test--command)
             (lambda () (interactive)
               (setq tagd-test--result
                     (apply #'tagd-completing-read-multiple tagd-test--args)))))
    ;; INITIAL-INPUT is typed (so split); TABLE's strings are the vocabulary.
    (should (equal (tagd-test--read (list "Tags: " '("alpha" "beta" "gamma") nil nil
                                          "alpha,be" 'tagd-keys-test--hist)
                                    [tab return])
                   '("alpha" "beta")))
    (should (equal tagd-keys-test--hist '("alpha,beta")))
    ;; M-p brings the previous answer back.
    (should (equal (tagd-test--read (list "Tags: " '("alpha") nil nil nil 'tagd-keys-test--hist)
                                    [?\M-p return return])
                   '("alpha" "beta")))
    ;; DEF on an empty RET; PREDICATE filters TABLE.
    (should (equal (tagd-test--read (list "Tags: " '("alpha" "beta") nil nil nil nil "beta,g")
                                    [return])
                   '("beta" "g")))
    (should (equal (tagd-test--read (list "Tags: " '("alpha" "apple" "beta")
                                          (lambda (s) (not (equal s "alpha"))))
                                    "a" [tab return])
                   '("apple")))
    ;; REQUIRE-MATCH t: tagd refuses anything else.
    (should (equal (tagd-test--read (list "Tags: " '("alpha" "beta") nil t)
                                    "zeta,beta," [return])
                   '("beta")))))

(ert-deftest tagd-keys-test-crm-mode ()
  "`tagd-crm-mode' makes `completing-read-multiple' read with chips."
  (unwind-protect
      (progn
        (tagd-crm-mode 1)
        (cl-letf (((symbol-function 'tagd-test--command)
                   (lambda () (interactive)
                     (setq tagd-test--result
                           (completing-read-multiple "Tags: " '("red" "green"))))))
          (should (equal (tagd-test--read nil "gr" [tab f11] "x," [return])
                         '("green" "x")))
          (should (equal (car tagd-test--snaps) '("[green ×] Add a tag" . "")))))
    (tagd-crm-mode -1))
  (should-not (advice-member-p #'tagd-completing-read-multiple 'completing-read-multiple)))

;;;; The connection

(ert-deftest tagd-keys-test-ret-one-round-trip ()
  "RET on a draft and RET on an empty draft are one request each."
  (let ((requests nil))
    (setq tagd-test--hook
          (lambda () (advice-add 'jsonrpc-request :before
                                 (lambda (_conn method &rest _) (push method requests))
                                 '((name . tagd-keys-test)))))
    (unwind-protect
        (should (equal (tagd-test--read '("Tags: ") "a" [f9 return return]) '("a")))
      (advice-remove 'jsonrpc-request 'tagd-keys-test))
    (should (equal requests '(:field/submit :field/submit)))))

(ert-deftest tagd-keys-test-wrong-program ()
  "A wrong `tagd-program' is one error naming the path and what went wrong."
  (tagd-stop)
  (let ((tagd-program "/nonexistent/tagd"))
    (should (equal (cadr (should-error (tagd--connection) :type 'user-error))
                   "Cannot run tagd: /nonexistent/tagd is not an executable file")))
  (let ((tagd-program (executable-find "false")))
    (should (equal (cadr (should-error (tagd--connection) :type 'user-error))
                   (format "Cannot run tagd: %s exited with status 1 before answering initialize"
                           (executable-find "false")))))
  (should-not tagd--connection)
  (should (tagd--connection)))

(ert-deftest tagd-keys-test-deaths-per-process ()
  "Deaths are counted per process that died, not per keystroke."
  (let ((tagd-max-deaths 2) (counts nil))
    (setq tagd--deaths nil)
    (setq tagd-test--hook
          (lambda ()
            (dotimes (_ 2) (tagd-test--kill-tagd t))
            ;; The third death within the minute: no restart.
            (signal-process (jsonrpc--process tagd--connection) 'kill)
            (with-timeout (10 (error "tagd did not die"))
              (while (tagd--live-p) (accept-process-output nil 0.05)))
            (accept-process-output nil 0.2)
            (push (length tagd--deaths) counts)
            (execute-kbd-macro "abcdefgh")
            (accept-process-output nil 0.2)
            (push (length tagd--deaths) counts)
            (should-not (tagd--live-p))
            ;; A minute later, the next keystroke starts it again.
            (setq tagd--deaths (mapcar (lambda (time) (- time 61)) tagd--deaths))
            (execute-kbd-macro ",")
            (with-timeout (10 (error "tagd was not restarted"))
              (while (not (tagd--live-p)) (accept-process-output nil 0.05)))))
    (should (equal (tagd-test--read '("Tags: ") [f9 f11 return]) '("abcdefgh")))
    (should (equal counts '(3 3)))))

;; Issue 34, finding 3: the re-open after the restart limit committed
;; text typed while tagd was down, but drew the new tags only once some
;; later update (or a resize) brought frames.
(ert-deftest tagd-keys-test-restart-draws-committed ()
  "Tags committed by the re-open after the restart limit are drawn at once."
  (let ((tagd-max-deaths 0))
    (setq tagd--deaths nil)
    (setq tagd-test--hook
          (lambda ()
            (tagd-sync)
            (signal-process (jsonrpc--process tagd--connection) 'kill)
            (with-timeout (10 (error "tagd did not die"))
              (while (tagd--live-p) (accept-process-output nil 0.05)))
            ;; Typed while tagd is down (over the limit: not restarted).
            (execute-kbd-macro "k1,")
            (should-not (tagd--live-p))
            ;; A minute later, the next key starts tagd again: the field is
            ;; re-opened with "k1,,", which commits k1.
            (setq tagd--deaths (mapcar (lambda (time) (- time 61)) tagd--deaths))
            (execute-kbd-macro ",")
            (with-timeout (10 (error "tagd was not restarted"))
              (while (not (tagd--live-p)) (accept-process-output nil 0.05)))))
    ;; "a,b," first: the dead process's state version is ahead of the new one's.
    (should (equal (tagd-test--read '("Tags: " ("x")) "a,b," [f9 f11 return])
                   '("x" "a" "b" "k1")))
    (should (equal (car tagd-test--snaps) '("[x ×] [a ×] [b ×] [k1 ×] Add a tag" . "")))))

(ert-deftest tagd-keys-test-locale ()
  "initialize carries the user's locale of messages (LC_ALL, LC_MESSAGES, LANG)."
  (let ((sent nil) (system-messages-locale nil)
        (process-environment (append '("LC_ALL" "LC_MESSAGES=de_DE.UTF-8" "LANG=fr_FR.UTF-8")
                                     process-environment)))
    (advice-add 'jsonrpc-request :before
                (lambda (_conn method params &rest _)
                  (when (eq method :initialize) (setq sent (plist-get params :locale))))
                '((name . tagd-keys-test)))
    (unwind-protect (tagd-restart)
      (advice-remove 'jsonrpc-request 'tagd-keys-test))
    (should (equal sent "de_DE.UTF-8")))
  (tagd-restart))

(ert-deftest tagd-keys-test-restart-hook ()
  "`tagd-restart-hook' is an option, run after a restart."
  (should (custom-variable-p 'tagd-restart-hook))
  (let* ((ran 0) (tagd-restart-hook (list (lambda () (cl-incf ran)))))
    (tagd-restart)
    (should (= ran 1))))

(provide 'tagd-keys-test)
;;; tagd-keys-test.el ends here
