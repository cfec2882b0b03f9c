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
                   "[alpha ×] [beta ×] [gamma ×] \n[delta ×] Add a tag"))
    (tagd-field-test--type "epsilon,zeta")
    (should (equal (tagd-field-test--text)
                   "[alpha ×] [beta ×] [gamma ×] \n[delta ×] [epsilon ×] \nzeta"))
    (should (equal (tagd-field-tags) '("alpha" "beta" "gamma" "delta" "epsilon")))))

(ert-deftest tagd-field-test-edit ()
  "RET commits, DEL on an empty draft removes, RET on a chip removes it."
  (tagd-field-test--with '("one") 40
    (tagd-field-test--type "two" [return] "three,THREE," [backspace])
    (should (equal (tagd-field-tags) '("one" "two")))
    (goto-char (point-min))
    (should (equal (get-text-property (point) 'tagd-chip) "one"))
    (tagd-field-test--type [tab])
    (should (equal (get-text-property (point) 'tagd-chip) "two"))
    (tagd-field-test--type [return])
    (should (equal (tagd-field-test--text) "[one ×] Add a tag"))
    ;; The chips are read-only.
    (dolist (pos (list (point-min) (1+ (point-min))))
      (goto-char pos)
      (should-error (insert "x") :type 'text-read-only))))

(ert-deftest tagd-field-test-chip-keys ()
  "In the chips, C-d removes the chip at point and DEL the chip before it."
  (tagd-field-test--with '("a" "b" "c" "d") 40
    (goto-char (point-min))
    (tagd-field-test--type [tab] [?\C-d])
    (should (equal (tagd-field-tags) '("a" "c" "d")))
    (goto-char (point-min))
    (tagd-field-test--type [tab] [backspace])
    (should (equal (tagd-field-tags) '("c" "d")))
    (should (equal (tagd-field-test--text) "[c ×] [d ×] Add a tag"))))

(ert-deftest tagd-field-test-narrow ()
  "A chip wider than the window is narrowed, its tag cut with an ellipsis."
  (tagd-field-test--with '("a-very-long-tag-name") 15
    (should (equal (tagd-field-test--text) "[a-very-lo… ×] \nAdd a tag"))))

(ert-deftest tagd-field-test-resize ()
  "A new width lays the chips out again."
  (tagd-field-test--with '("alpha" "beta" "gamma") 41
    (should (equal (tagd-field-test--text) "[alpha ×] [beta ×] [gamma ×] Add a tag"))
    ;; 10 + 9 cells fit 22, gamma wraps, the draft (12) fits after it.
    (let ((tagd-field-width 22))
      (tagd--set-layout tagd--field (tagd-field--layout-params))
      (tagd-field-test--settle)
      (should (equal (tagd-field-test--text)
                     "[alpha ×] [beta ×] \n[gamma ×] Add a tag")))))

(ert-deftest tagd-field-test-widths ()
  "Emacs's `string-width' against tagd's display width, as README.md says.
They agree on CJK, single emoji, flags and combining marks; they
differ on emoji with a skin-tone modifier, ZWJ sequences, text
symbols with VS16 and the halfwidth voiced mark, where the field
lays out from Emacs's widths."
  (let* ((agree '("漢字" "한국어" "ｶﾅ" "😀" "🇫🇷" "e\u0301" "Straße" "—"))
         (differ '("👍🏽" "👨‍👩‍👧" "☺️" "ﾀﾞ"))
         (all (append agree differ)))
    (tagd-test--with-buffer all
      (let* ((result (tagd--request :field/layout
                                    (list :field (tagd--field-id field) :width nil
                                          :cells (list :padding 0) :fieldHeight 1
                                          :spacing 0 :fieldMinWidth 0)))
             (widths (cl-loop for f across (plist-get result :frames)
                              collect (plist-get f :width))))
        (cl-loop for tag in all for w in widths
                 do (if (member tag agree)
                        (should (equal (cons tag (string-width tag)) (cons tag w)))
                      (should-not (equal (cons tag (string-width tag)) (cons tag w)))))))
    ;; The field draws them at Emacs's width, in order, nothing cut.
    (tagd-field-test--with '("👍🏽" "x") 30
      (should (equal (tagd-field-test--text) "[👍🏽 ×] [x ×] Add a tag")))))

(provide 'tagd-field-test)
;;; tagd-field-test.el ends here
