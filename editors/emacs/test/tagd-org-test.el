;;; tagd-org-test.el --- ERT tests of tagd-org.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; Org heading tags, #+FILETAGS and Markdown front matter, edited
;; through the reader with keys typed as keyboard macros (M-x and all).

;;; Code:

(require 'ert)
(require 'org)
(require 'tagd-test)
(require 'tagd-org)

(defmacro tagd-org-test--in-window (&rest body)
  "Run BODY in a new buffer shown in the selected window.
Commands of a keyboard macro act on the selected window's buffer."
  (declare (indent 0))
  `(let ((buffer (generate-new-buffer "*tagd-org-test*")))
     (unwind-protect
         (progn (switch-to-buffer buffer) ,@body)
       (kill-buffer buffer))))

(defun tagd-org-test--run (text point-at command &rest keys)
  "Insert TEXT in an Org buffer, go to POINT-AT, run COMMAND typing KEYS.
POINT-AT is a string searched for (point goes to its start).
Return the buffer text afterwards."
  (tagd-org-test--in-window
    (insert text)
    (org-mode)
    (goto-char (point-min))
    (search-forward point-at)
    (goto-char (match-beginning 0))
    (setq tagd-test--where nil)
    (execute-kbd-macro (apply #'tagd-test--keys
                              (kbd (format "M-x %s RET" command))
                              (append keys '([f8]))))
    (should (eq tagd-test--where 'outside))
    (should (zerop (hash-table-count tagd--fields)))
    (buffer-substring-no-properties (point-min) (point-max))))

(ert-deftest tagd-org-test-heading ()
  "Heading tags: start from the current ones, write back as org-set-tags does."
  (let ((out (tagd-org-test--run "#+TITLE: t\n* TODO Write :old:\nbody\n* Next\n"
                                 "Write" "tagd-org-set-tags"
                                 "new:more OLD,x-y" [return return])))
    (should (string-match-p "^\\* TODO Write +:old:new:more:x:y:$" out))
    (should (string-match-p "\nbody\n\\* Next\n\\'" out))
    (with-temp-buffer
      (insert out) (org-mode) (goto-char (point-min)) (search-forward "Write")
      (should (equal (org-get-tags nil t) '("old" "new" "more" "x" "y"))))))

(ert-deftest tagd-org-test-heading-remove-all ()
  "Backspacing every tag away clears the heading's tags."
  (let ((out (tagd-org-test--run "* Item :a:b:\n" "Item" "tagd-org-set-tags"
                                 [backspace backspace return])))
    (should (equal out "* Item\n"))))

(ert-deftest tagd-org-test-filetags ()
  "Before the first heading, #+FILETAGS is edited."
  (let ((out (tagd-org-test--run "#+TITLE: t\n#+FILETAGS: :one:two:\n\nIntro\n* H :h:\n"
                                 "Intro" "tagd-org-set-tags" "three," [backspace] "four"
                                 [return return])))
    ;; "three," then DEL over the committed text removes it, as on an empty draft.
    (should (equal out "#+TITLE: t\n#+FILETAGS: :one:two:four:\n\nIntro\n* H :h:\n")))
  (let ((out (tagd-org-test--run "#+TITLE: t\n\nIntro\n* H\n" "Intro" "tagd-org-set-tags"
                                 "a b" [return return])))
    (should (equal out "#+TITLE: t\n#+FILETAGS: :a:b:\n\nIntro\n* H\n"))))

(defun tagd-fm-test--run (text &rest keys)
  "Run `tagd-edit-front-matter-tags' on TEXT typing KEYS; return the text."
  (tagd-org-test--in-window
    (insert text)
    (goto-char (point-max))
    (setq tagd-test--where nil)
    (execute-kbd-macro (apply #'tagd-test--keys
                              (kbd "M-x tagd-edit-front-matter-tags RET")
                              (append keys '([f8]))))
    (should (eq tagd-test--where 'outside))
    (buffer-string)))

(ert-deftest tagd-fm-test-flow ()
  "A flow list is read (quotes too) and written back as a flow list."
  (should (equal (tagd-fm-test--run
                  "---\ntitle: T\ntags: [emacs, \"two words\", 'it''s']\ndate: 1\n---\nText\n"
                  "EMACS,yes,c#," [return])
                 "---\ntitle: T\ntags: [emacs, two words, \"it's\", \"yes\", \"c#\"]\ndate: 1\n---\nText\n")))

(ert-deftest tagd-fm-test-block ()
  "A block list keeps its style and indentation."
  (should (equal (tagd-fm-test--run
                  "---\ntags:\n    - a\n    - \"b: c\"\ntitle: T\n---\n"
                  [backspace] "d" [return return])
                 "---\ntags:\n    - a\n    - d\ntitle: T\n---\n")))

(ert-deftest tagd-fm-test-missing ()
  "Missing front matter or key is created in `tagd-front-matter-style'."
  (should (equal (tagd-fm-test--run "# Title\n" "x,y" [return return])
                 "---\ntags: [x, y]\n---\n# Title\n"))
  (let ((tagd-front-matter-style 'block))
    (should (equal (tagd-fm-test--run "---\ntitle: T\n---\n" "x" [return return])
                   "---\ntitle: T\ntags:\n  - x\n---\n"))))

(provide 'tagd-org-test)
;;; tagd-org-test.el ends here
