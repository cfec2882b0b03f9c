;;; tagd-org-test.el --- ERT tests of tagd-org.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; Org heading tags, #+FILETAGS and Markdown front matter, edited
;; through the reader with keys typed as keyboard macros (M-x and all).

;;; Code:

(require 'ert)
(require 'org)
(require 'tagd-test)
(require 'tagd-org)
(require 'tagd-front-matter)

(defun tagd-org-test--documents-p ()
  "Return non-nil if the tagd under test serves document/tags.
Until Protocol 1.2's documents are on main, the tests that need
them are skipped (and say so)."
  (tagd--connection)
  (member "document/tags" tagd--methods))

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
  "Heading tags: read and written by tagd; a tag Org cannot hold is refused."
  (skip-unless (tagd-org-test--documents-p))
  (let ((out (tagd-org-test--run "#+TITLE: t\n* TODO Write :old:\nbody\n* Next\n"
                                 "Write" "tagd-org-set-tags"
                                 "new:more OLD,x-y" [return return])))
    (should (string-match-p "^\\* TODO Write +:old:new:more:$" out))
    (should (string-match-p "\nbody\n\\* Next\n\\'" out))
    ;; Refused with tagd's reason, not split into x and y.
    (should (string-match-p "x-y does not have the form" (tagd-test--messages)))
    (with-temp-buffer
      (insert out) (org-mode) (goto-char (point-min)) (search-forward "Write")
      (should (equal (org-get-tags nil t) '("old" "new" "more"))))))

(ert-deftest tagd-org-test-vocabulary ()
  "The buffer's tags, `org-tag-alist' and `org-tag-persistent-alist' are suggested."
  (skip-unless (tagd-org-test--documents-p))
  (let ((org-tag-alist '(("work" . ?w) (:startgroup) ("errand") (:endgroup)))
        (org-tag-persistent-alist '(("home" . ?h))))
    (let ((out (tagd-org-test--run "* A :urgent:\n* B\n" "B" "tagd-org-set-tags"
                                   "ur" [tab] "wo" [tab] "ho" [tab] "err" [tab return])))
      (should (string-match-p "^\\* B +:urgent:work:home:errand:$" out)))))

(ert-deftest tagd-org-test-heading-remove-all ()
  "Backspacing every tag away clears the heading's tags."
  (skip-unless (tagd-org-test--documents-p))
  (let ((out (tagd-org-test--run "* Item :a:b:\n" "Item" "tagd-org-set-tags"
                                 [backspace backspace return])))
    (should (equal out "* Item\n"))))

(ert-deftest tagd-org-test-filetags ()
  "Before the first heading, #+FILETAGS is edited."
  (skip-unless (tagd-org-test--documents-p))
  (let ((out (tagd-org-test--run "#+TITLE: t\n#+FILETAGS: :one:two:\n\nIntro\n* H :h:\n"
                                 "Intro" "tagd-org-set-tags" "three," [backspace] "four"
                                 [return return])))
    ;; "three," then DEL over the committed text removes it, as on an empty draft.
    (should (equal out "#+TITLE: t\n#+FILETAGS: :one:two:four:\n\nIntro\n* H :h:\n")))
  (let ((out (tagd-org-test--run "#+TITLE: t\n\nIntro\n* H\n" "Intro" "tagd-org-set-tags"
                                 "a b" [return return])))
    (should (string-match-p "^#\\+FILETAGS: :a:b:$" out))
    (should (string-match-p "^Intro\n\\* H\n\\'" out))))

(defun tagd-fm-test--run (text &rest keys)
  "Run `tagd-front-matter-edit-tags' on TEXT typing KEYS; return the text."
  (tagd-org-test--in-window
    (insert text)
    (goto-char (point-max))
    (setq tagd-test--where nil)
    (execute-kbd-macro (apply #'tagd-test--keys
                              (kbd "M-x tagd-front-matter-edit-tags RET")
                              (append keys '([f8]))))
    (should (eq tagd-test--where 'outside))
    (buffer-string)))

(ert-deftest tagd-fm-test-flow ()
  "A flow list is read (quotes too) and written back as a flow list."
  (skip-unless (tagd-org-test--documents-p))
  (let ((out (tagd-fm-test--run
              "---\ntitle: T\ntags: [emacs, \"two words\", 'it''s']\ndate: 1\n---\nText\n"
              "EMACS,yes,c#," [return])))
    (should (string-match-p "^tags: \\[emacs, \\(\"two words\"\\|two words\\), .*\\]$" out))
    (should (string-match-p "\"yes\"\\|'yes'" out))
    (should (string-match-p "^title: T\ntags: .*\ndate: 1\n---\nText\n\\'" out))
    (with-temp-buffer
      (insert out)
      (should (equal (tagd-front-matter-tags) '("emacs" "two words" "it's" "yes" "c#"))))))

(ert-deftest tagd-fm-test-block ()
  "A block list keeps its style."
  (skip-unless (tagd-org-test--documents-p))
  (let ((out (tagd-fm-test--run "---\ntags:\n    - a\n    - \"b: c\"\ntitle: T\n---\n"
                                [backspace] "d" [return return])))
    (should (string-match-p "^tags:\n +- a\n +- d\ntitle: T\n---\n\\'" out))))

(ert-deftest tagd-fm-test-missing ()
  "Missing front matter is created by tagd, at the top."
  (skip-unless (tagd-org-test--documents-p))
  (let ((out (tagd-fm-test--run "# Title\n" "x,y" [return return])))
    (should (string-match-p "\\`---\n" out))
    (should (string-suffix-p "# Title\n" out))
    (with-temp-buffer
      (insert out)
      (should (equal (tagd-front-matter-tags) '("x" "y"))))))

(ert-deftest tagd-fm-test-escapes ()
  "Escapes in double-quoted items are tagd's YAML: \\t and \\n are read."
  (skip-unless (tagd-org-test--documents-p))
  (with-temp-buffer
    (insert "---\ntags: [\"a\\tb\", \"c\\nd\"]\n---\n")
    (should (equal (tagd-front-matter-tags) '("a\tb" "c\nd")))))

(provide 'tagd-org-test)
;;; tagd-org-test.el ends here
