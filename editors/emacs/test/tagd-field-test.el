;;; tagd-field-test.el --- ERT tests of tagd-field.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; The in-buffer field: chips placed at tagd's cell layout, typing and
;; removing through the buffer, and Emacs's widths against tagd's.

;;; Code:

(require 'ert)
(require 'tagd-test)
(require 'tagd-field)

(defmacro tagd-field-test--with (tags width &rest body)
  "Run BODY in a field buffer holding TAGS, chips wrapped to WIDTH."
  (declare (indent 2))
  `(let* ((tagd-field-width ,width)
          (buffer (tagd-field ,tags #'ignore)))
     (unwind-protect
         (progn (tagd-field-test--settle) ,@body)
       (when (buffer-live-p buffer) (kill-buffer buffer)))))

(defun tagd-field-test--settle ()
  "Wait until tagd answered everything, layouts included."
  (with-current-buffer (window-buffer (selected-window))
    (tagd-sync) (tagd-sync)))

(defun tagd-field-test--text ()
  "Return the field buffer's text with the placeholder, without properties."
  (with-current-buffer (window-buffer (selected-window))
    (concat (buffer-substring-no-properties (point-min) (point-max))
            (if (overlayp tagd-field--placeholder)
                (substring-no-properties
                 (overlay-get tagd-field--placeholder 'after-string))
              ""))))

(defun tagd-field-test--type (&rest keys)
  "Type KEYS in the selected window, then settle."
  (execute-kbd-macro (apply #'tagd-test--keys keys))
  (tagd-field-test--settle))

(ert-deftest tagd-field-test-wrap ()
  "Chips flow to the width as tagd lays them out, the draft after them."
  (tagd-field-test--with '("alpha" "beta" "gamma" "delta") 30
    ;; Chips are tag + 5 cells: 10, 9, 10, 10.  Line 1 holds three
    ;; (29 <= 30); delta wraps; the draft (min 12) fits after it.
    (should (equal (tagd-field-test--text)
                   "[alpha ×] [beta ×] [gamma ×]\n[delta ×] Add a tag"))
    (tagd-field-test--type "epsilon,zeta")
    (should (equal (tagd-field-test--text)
                   "[alpha ×] [beta ×] [gamma ×]\n[delta ×] [epsilon ×]\nzeta"))
    (should (equal (tagd-field-tags) '("alpha" "beta" "gamma" "delta" "epsilon")))))

(ert-deftest tagd-field-test-edit ()
  "RET commits, DEL on an empty draft removes, RET on the selected chip edits it."
  (tagd-field-test--with '("one") 40
    (tagd-field-test--type "two" [return] "three,THREE," [backspace])
    (should (equal (tagd-field-tags) '("one" "two")))
    ;; Left selects "two"; RET takes it into the draft, where typing goes.
    (tagd-field-test--type [left return] "x")
    (should (equal (tagd-field-test--text) "[one ×] twox"))
    (tagd-field-test--type [return])
    (should (equal (tagd-field-tags) '("one" "twox")))
    ;; The chips are read-only.
    (dolist (pos (list (point-min) (1+ (point-min))))
      (goto-char pos)
      (should-error (insert "x") :type 'text-read-only))))

(ert-deftest tagd-field-test-chip-keys ()
  "C-d and DEL remove the selected chip; point stays in the draft."
  (tagd-field-test--with '("a" "b" "c" "d") 40
    (tagd-field-test--type [left left ?\C-d])
    (should (equal (tagd-field-tags) '("a" "b" "d")))
    (tagd-field-test--type [left left left backspace])
    (should (equal (tagd-field-tags) '("b" "d")))
    (should (equal (tagd-field-test--text) "[b ×] [d ×] Add a tag"))
    (should (= (point) (tagd--field-start tagd--field)))
    (tagd-field-test--type "e,")
    (should (equal (tagd-field-tags) '("b" "d" "e")))))

(ert-deftest tagd-field-test-point-in-chips ()
  "Point put on a chip (a click) selects it and goes back to the draft."
  (tagd-field-test--with '("a" "b") 40
    (goto-char (+ (point-min) 7))         ; on "[b ×]"
    (tagd-field--keep-point)
    (tagd-field-test--settle)
    (should (equal (tagd--field-selected tagd--field) 1))
    (should (= (point) (tagd--field-start tagd--field)))
    (tagd-field-test--type [?\C-d])
    (should (equal (tagd-field-tags) '("a")))))

(ert-deftest tagd-field-test-tab ()
  "TAB in the draft takes tagd's best suggestion."
  (let ((buffer (tagd-field nil #'ignore '(:suggestions ["alpha" "beta"]))))
    (unwind-protect
        (progn
          (tagd-field-test--settle)
          (tagd-field-test--type "be" [tab])
          (should (equal (tagd-field-tags) '("beta")))
          (should (equal (tagd-field-test--text) "[beta ×] Add a tag")))
      (kill-buffer buffer))))

(ert-deftest tagd-field-test-narrow ()
  "A chip wider than the window is narrowed, its tag cut with an ellipsis."
  (tagd-field-test--with '("a-very-long-tag-name") 15
    (should (equal (tagd-field-test--text) "[a-very-lo… ×]\nAdd a tag"))))

(ert-deftest tagd-field-test-resize ()
  "A new width lays the chips out again."
  (tagd-field-test--with '("alpha" "beta" "gamma") 41
    (should (equal (tagd-field-test--text) "[alpha ×] [beta ×] [gamma ×] Add a tag"))
    ;; 10 + 9 cells fit 22, gamma wraps, the draft (12) fits after it.
    (let ((tagd-field-width 22))
      (tagd--set-layout tagd--field (tagd-field--layout-params))
      (tagd-field-test--settle)
      (should (equal (tagd-field-test--text)
                     "[alpha ×] [beta ×]\n[gamma ×] Add a tag")))))

;; Issue 34, finding 3: outside the minibuffer too, a fast burst's
;; refusals replaced each other in the echo area.
(ert-deftest tagd-field-test-refusals-joined ()
  "In `tagd-field', refusals typed at full speed are joined in the echo area."
  (let ((shown nil) (minibuffer-message-timeout 600))
    (tagd-field-test--with '("x") 40
      (advice-add 'message :after
                  (lambda (format &rest args)
                    (when (and format (not inhibit-message))
                      (setq shown (apply #'format-message format args))))
                  '((name . tagd-field-test)))
      (unwind-protect (tagd-field-test--type "red,RED,X,")
        (advice-remove 'message 'tagd-field-test))
      (should (equal shown "RED is already a tag, as red.  X is already a tag, as x.")))))

(provide 'tagd-field-test)
;;; tagd-field-test.el ends here
