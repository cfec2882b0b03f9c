;;; tagd-test.el --- ERT tests of tagd.el against the real tagd  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by ../run-tests:
;;   emacs --batch -Q -L .. -l tagd-test.el -f ert-run-tests-batch-and-exit
;; Every test drives the real tagd binary over a pipe.  Keys are fed
;; as keyboard macros: Emacs runs them without reading process output
;; in between, which is typing at full speed.  The <f11> key of the
;; tests waits for tagd (a pause in typing) and records what the
;; minibuffer shows; <f10> records it without waiting.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'tagd)

(defvar quail-overlay)

(defconst tagd-test--dir (file-name-directory (or load-file-name buffer-file-name))
  "The directory of the tests.")

(defvar tagd-test--args nil
  "Arguments of `tagd-read-tags' for the <f12> test command.")

(defvar tagd-test--result nil
  "What the <f12> test command returned.")

(defvar tagd-test--snaps nil
  "Snapshots (CHIPS . DRAFT) of the minibuffer, newest first.")

(defvar tagd-test--hook nil
  "Function called (with no argument) by <f9> inside the reader.")

(defun tagd-test--command ()
  "Run `tagd-read-tags' with `tagd-test--args'."
  (interactive)
  (setq tagd-test--result (apply #'tagd-read-tags tagd-test--args)))

(defun tagd-test--snap-now ()
  "Record what the minibuffer reader shows, without waiting."
  (interactive)
  (push (cons (substring-no-properties (tagd--minibuffer-chips))
              ;; The draft, then an announcement shown after it.
              (concat (minibuffer-contents-no-properties)
                      (if (overlayp tagd--notice-overlay)
                          (substring-no-properties
                           (overlay-get tagd--notice-overlay 'after-string))
                        "")))
        tagd-test--snaps))

(defun tagd-test--snap ()
  "Wait for tagd to answer everything sent, then record the display."
  (interactive)
  (tagd-sync)
  (tagd-test--snap-now))

(defun tagd-test--run-hook ()
  "Call `tagd-test--hook'."
  (interactive)
  (funcall tagd-test--hook))

(defvar tagd-test--where nil
  "Where the <f8> key ran: `minibuffer' or `outside'.")

(defun tagd-test--where ()
  "Record whether this key ran in the minibuffer.
A keyboard macro that ends inside the minibuffer exits it as RET
would, so tests end with <f8> to prove their own RET finished."
  (interactive)
  (setq tagd-test--where (if (minibufferp) 'minibuffer 'outside)))

(define-key global-map [f8] #'tagd-test--where)
(define-key global-map [f12] #'tagd-test--command)
(define-key global-map [f11] #'tagd-test--snap)
(define-key global-map [f10] #'tagd-test--snap-now)
(define-key global-map [f9] #'tagd-test--run-hook)

(defun tagd-test--keys (&rest parts)
  "Return the key vector of PARTS: strings are typed, vectors are keys."
  (apply #'vconcat (mapcar (lambda (p) (if (stringp p) (vconcat p) p)) parts)))

(defun tagd-test--read (args &rest keys)
  "Call `tagd-read-tags' with ARGS, typing KEYS; return the tags."
  (setq tagd-test--args args tagd-test--result 'none tagd-test--snaps nil
        tagd-test--where nil)
  (execute-kbd-macro (apply #'tagd-test--keys [f12] (append keys '([f8]))))
  (should (eq tagd-test--where 'outside))
  (should (zerop (hash-table-count tagd--fields)))
  tagd-test--result)

(defun tagd-test--messages ()
  "Return the text of the *Messages* buffer."
  (with-current-buffer (messages-buffer) (buffer-string)))

(defmacro tagd-test--with-buffer (tags &rest body)
  "Run BODY in a temporary buffer synced with a field holding TAGS.
The field is bound to `field'."
  (declare (indent 1))
  `(with-temp-buffer
     (let ((field (tagd--open (current-buffer) (point-min) :tags ,tags)))
       (unwind-protect (progn ,@body)
         (tagd--close field)))))

;;;; Connection

(ert-deftest tagd-test-connection ()
  "One tagd process, initialized with utf-32, serves every field."
  (tagd-test--with-buffer '("a")
    (should (tagd--live-p))
    (should (equal tagd--encoding "utf-32"))
    (let ((process (jsonrpc--process tagd--connection)))
      (tagd-test--with-buffer '("b")
        (should (eq process (jsonrpc--process tagd--connection)))
        (should (equal (tagd-sync) '("b"))))
      (should (equal (tagd-sync) '("a"))))))

(ert-deftest tagd-test-program-lookup ()
  "`tagd-program', then TAGD, then PATH, then the repository build."
  (let ((tagd-program "/x/tagd"))
    (should (equal (tagd--program) "/x/tagd")))
  (let ((tagd-program nil) (process-environment (cons "TAGD=/y/tagd" process-environment)))
    (should (equal (tagd--program) "/y/tagd")))
  (let* ((tagd-program nil) (exec-path nil)
         (process-environment (cons "TAGD" process-environment))
         (root (expand-file-name "../.." (file-name-directory (locate-library "tagd.el" t))))
         (built (seq-find #'file-executable-p
                          (list (expand-file-name ".build/debug/tagd" root)
                                (expand-file-name ".build/release/tagd" root)))))
    (if built
        (should (equal (tagd--program) built))
      (should-error (tagd--program) :type 'user-error))))

;; Issue 34, finding 6: the error named neither TAGD nor how to build tagd.
(ert-deftest tagd-test-missing-program ()
  "With no tagd anywhere, the error names `tagd-program', TAGD and how to build tagd."
  (let* ((tagd-program nil) (exec-path nil)
         (process-environment (cons "TAGD" process-environment))
         (tagd--directory (make-temp-file "tagd-test-no-build" t))
         (text (cadr (should-error (tagd--program) :type 'user-error))))
    (delete-directory tagd--directory)
    (should (string-match-p "tagd-program" text))
    (should (string-match-p "variable TAGD\\b" text))
    (should (string-match-p "swift build --product tagd" text))))

;; Issue 34, finding 6: tagd.el said Version 1.1.0 while tagd was 1.2.0.
(ert-deftest tagd-test-version ()
  "tagd.el's Version header and `tagd-version' are tagd's version."
  (require 'lisp-mnt)
  (let* ((swift (expand-file-name "../../../Sources/TagServer/ServerConfig.swift"
                                  tagd-test--dir))
         (tagd (with-temp-buffer
                 (insert-file-contents swift)
                 (should (re-search-forward
                          "static let currentVersion = \"\\([^\"]+\\)\"" nil t))
                 (match-string 1)))
         (header (with-temp-buffer
                   (insert-file-contents (expand-file-name "../tagd.el" tagd-test--dir))
                   (lm-header "Version"))))
    (should (equal header tagd))
    (should (equal tagd-version tagd))))

(ert-deftest tagd-test-bad-program ()
  "A program that is not tagd gives an error and leaves no connection behind."
  (tagd-stop)
  (let ((tagd-program (executable-find "false")))
    (should-error (tagd--connection))
    (should-not tagd--connection))
  (should (tagd--connection))
  (should (tagd--live-p)))

;;;; Positions

;; jsonrpc.el's `jsonrpc-request' returns by a throw from inside the
;; process filter as soon as it has read its reply, so what followed
;; the reply in the same read waited for tagd's next output: in a
;; terminal, a refused tag stayed in the minibuffer until the next key.
(ert-deftest tagd-test-update-read-with-a-reply ()
  "An update that came in the same read as a reply, after it, is taken at once."
  (tagd-stop)
  (let* ((tagd (tagd--program))
         (tagd-program (expand-file-name "hold-replies" tagd-test--dir))
         (tagd-program-args (cons tagd tagd-program-args)))
    (unwind-protect
        (tagd-test--with-buffer '("a")
          ;; Typed while the request is in flight: tagd's update for it
          ;; follows the reply, and the pipe delivers both at once.
          (run-at-time 0.05 nil (lambda (buffer) (with-current-buffer buffer (insert "x,")))
                       (current-buffer))
          (tagd--call field :field/state)
          (should (equal (buffer-string) ""))
          (should (equal (tagd--field-tags field) '("a" "x"))))
      (tagd-stop))))

(ert-deftest tagd-test-positions ()
  "LSP positions in utf-32, utf-16 and utf-8, with CRLF and astral characters."
  (let ((text "a😀b\r\ncd\re"))
    (let ((tagd--encoding "utf-32"))
      (should (equal (tagd--position text 2) '(:line 0 :character 2)))
      (should (equal (tagd--position text 6) '(:line 1 :character 1)))
      (should (equal (tagd--position text 8) '(:line 2 :character 0)))
      (should (equal (tagd--position text 9) '(:line 2 :character 1)))
      (should (= (tagd--offset text '(:line 1 :character 1)) 6)))
    (let ((tagd--encoding "utf-16"))
      (should (equal (tagd--position text 2) '(:line 0 :character 3)))
      (should (= (tagd--offset text '(:line 0 :character 3)) 2)))
    (let ((tagd--encoding "utf-8"))
      (should (equal (tagd--position text 3) '(:line 0 :character 6)))
      (should (= (tagd--offset text '(:line 0 :character 5)) 2)))))

;;;; The sync path

(ert-deftest tagd-test-sync-stale-update ()
  "An update for an older buffer version is ignored; nothing typed is lost."
  (tagd-test--with-buffer nil
    (insert "red,")
    ;; Typed before tagd's update for "red," is read.
    (insert " g")
    (should (equal (buffer-string) "red, g"))
    (should (equal (tagd-sync) '("red")))
    (should (equal (buffer-string) " g"))
    (insert ",blue")
    (should (equal (tagd-sync) '("red" "g")))
    (should (equal (buffer-string) "blue"))
    (should (equal (tagd--field-version field) 5))))

(ert-deftest tagd-test-sync-paste-and-edit ()
  "A paste is split, and an edit in the middle of the draft is reported."
  (tagd-test--with-buffer '("x")
    (insert "one, two,\nthree,tw")
    (goto-char (1- (point-max)))
    (insert "o")
    (should (equal (tagd-sync) '("x" "one" "two" "three")))
    (should (equal (buffer-string) "tow"))
    (goto-char (point-max))
    (insert ",X,")
    (should (equal (tagd-sync) '("x" "one" "two" "three" "tow")))
    (should (equal (buffer-string) ""))))

(ert-deftest tagd-test-sync-unicode ()
  "Non-BMP characters and combining marks keep positions in step."
  (tagd-test--with-buffer nil
    (insert "😀a,e\u0301t")
    (insert "é,")
    (should (equal (tagd-sync) '("😀a" "e\u0301té")))
    (should (equal (buffer-string) ""))))

;; tagd diffs (Protocol/sync.md, "Range-less changes"): Emacs sends the
;; region's whole text and the caret, and computes no edit of its own.

(defmacro tagd-test--recording (var &rest body)
  "Run BODY with the params of every field/didChange sent pushed on VAR."
  (declare (indent 1))
  (let ((record (make-symbol "record")))
    `(let ((,record (lambda (method params)
                      (when (eq method :field/didChange) (push params ,var)))))
       (advice-add 'tagd--notify :before ,record)
       (unwind-protect (progn ,@body)
         (advice-remove 'tagd--notify ,record)))))

(ert-deftest tagd-test-sync-sends-text ()
  "Every change the user makes goes out as the whole text and the caret.
No range: tagd finds the edit, with its own tie-break, so Backspace
behaves as in every other front end."
  (let ((sent nil))
    (with-temp-buffer
      ;; Only "," separates here: the text may hold a line break.
      (let ((field (tagd--open (current-buffer) (point-min)
                               :options '(:separators [","]))))
        (unwind-protect
            (progn
              (tagd-test--recording sent
                (insert "ab\ncd")
                (goto-char 3)
                (delete-char -1)
                (goto-char (point-max))
                (insert "😀")
                (tagd-sync))
              (should (= (length sent) 3))
              (dolist (params sent)
                (should-not (plist-get params :applied))
                (should (= (length (plist-get params :contentChanges)) 1))
                (should-not (plist-member (aref (plist-get params :contentChanges) 0)
                                          :range)))
              (should (equal (mapcar (lambda (p) (aref (plist-get p :contentChanges) 0))
                                     (reverse sent))
                             '((:text "ab\ncd" :caret (:line 1 :character 2))
                               (:text "a\ncd" :caret (:line 0 :character 1))
                               (:text "a\ncd😀" :caret (:line 1 :character 3)))))
              (should (equal (mapcar (lambda (p) (plist-get p :version)) (reverse sent))
                             '(1 2 3)))
              (should (equal (tagd--field-draft field) "a\ncd😀")))
          (tagd--close field))))))

(ert-deftest tagd-test-sync-backspace-in-run ()
  "Backspace in a run of equal characters acts where tagd's tie-break says.
\"a,,\" typed fast is all consumed (tag \"a\", then an empty one
dropped); Backspace at its end deletes the last consumed character,
which is Backspace on the empty draft a slow typist sees: it removes
\"a\", as in Neovim and Vim.  A diff placing the deletion at the
start of the run would only tidy the buffer and keep \"a\".  With the
caret inside the run, the deletion is the character before it, as
Emacs deleted it: not the last one, so \"a\" stays."
  (tagd-test--with-buffer '("x")
    (insert "a,,")
    (tagd-delete-backward)
    (should (equal (buffer-string) "a,"))
    (should (equal (tagd-sync) '("x")))
    (should (equal (buffer-string) "")))
  (tagd-test--with-buffer '("x")
    (insert "a,,")
    (backward-char)
    (tagd-delete-backward)
    (should (equal (buffer-string) "a,"))
    (should (equal (tagd-sync) '("x" "a")))
    (should (equal (buffer-string) ""))))

;; The two resync paths of Protocol/sync.md.
(ert-deftest tagd-test-sync-client-resync ()
  "If our copy of the region diverges, the next change puts it right."
  (tagd-test--with-buffer nil
    (insert "red")
    (tagd-sync)
    (setf (tagd--field-shadow field) "something else")
    (insert ",gr")
    (should (equal (tagd-sync) '("red")))
    (should (equal (buffer-string) "gr"))
    (should (equal (tagd--field-shadow field) "gr"))))

(ert-deftest tagd-test-sync-server-resync ()
  "A change tagd cannot apply makes it ask for the whole text, which is sent."
  (tagd-test--with-buffer nil
    (insert "a")
    (tagd--notify :field/didChange
                  (list :field (tagd--field-id field)
                        :version (cl-incf (tagd--field-version field))
                        :contentChanges
                        (vector (list :range (list :start '(:line 3 :character 0)
                                                   :end '(:line 3 :character 0))
                                      :text "x"))))
    (let ((before (tagd--field-version field)))
      (tagd-sync)
      ;; The resync answer went out with a newer version.
      (should (> (tagd--field-version field) before)))
    (insert ",b,")
    (should (equal (tagd-sync) '("a" "b")))
    (should (equal (buffer-string) ""))))

;;;; The minibuffer reader

(ert-deftest tagd-test-read-basic ()
  "\",\" commits, RET commits the draft, RET on an empty draft returns."
  (should (equal (tagd-test--read '("Tags: ") "red,green" [return return])
                 '("red" "green"))))

(ert-deftest tagd-test-read-macro-abc ()
  "A macro typing a,b,c, at once gives three tags, shown as chips."
  (should (equal (tagd-test--read '("Tags: ") "a,b,c," [f10 f11 return])
                 '("a" "b" "c")))
  ;; Before tagd's updates were read the buffer still held the text;
  ;; after, it is empty and the chips show.
  (should (equal (cdr (nth 1 tagd-test--snaps)) "a,b,c,"))
  (should (equal (car tagd-test--snaps) '("[a ×] [b ×] [c ×] Add a tag" . ""))))

(ert-deftest tagd-test-read-initial-and-chips ()
  "Initial tags are chips before the draft; the placeholder shows when empty."
  (should (equal (tagd-test--read '("Tags: " ("x" "y")) [f11] "dr" [f11 return return])
                 '("x" "y" "dr")))
  (should (equal (nth 1 tagd-test--snaps) '("[x ×] [y ×] Add a tag" . "")))
  (should (equal (nth 0 tagd-test--snaps) '("[x ×] [y ×] " . "dr"))))

(ert-deftest tagd-test-read-wrap ()
  "Chips wrap by tagd's layout to the columns after the prompt, never split."
  (let ((tags (mapcar (lambda (i) (format "tag%02d" i)) (number-sequence 1 12)))
        (lines nil) (width nil))
    (setq tagd-test--hook
          (lambda ()
            (tagd-sync)
            (setq width (- (window-width (minibuffer-window)) 6 1)
                  lines (split-string (substring-no-properties
                                       (overlay-get tagd--chips-overlay 'before-string))
                                      "\n"))))
    (should (equal (tagd-test--read (list "Tags: " tags) [f9 return]) tags))
    ;; Each chip is 10 cells ("[tag01 ×]" and a gap): (floor width 10) per line.
    (let ((per-line (/ width 10)))
      (should (= (length lines) (ceiling 12.0 per-line)))
      (should (string-prefix-p "[tag01 ×] [tag02 ×]" (car lines)))
      (dolist (line (cdr lines))
        (should (string-prefix-p "      [tag" line)))
      (should (= (cl-loop for line in lines sum (tagd-test--count line "\\[tag[0-9]+ ×\\]")) 12)))))

(defun tagd-test--count (string regexp)
  "Count the matches of REGEXP in STRING."
  (let ((n 0) (i 0))
    (while (string-match regexp string i)
      (setq n (1+ n) i (match-end 0)))
    n))

(ert-deftest tagd-test-read-duplicate ()
  "A caseless duplicate is dropped, its chip flashes and the reason is echoed."
  (let ((faces nil))
    (setq tagd-test--hook
          (lambda ()
            (tagd-sync)
            (let ((s (overlay-get tagd--chips-overlay 'before-string)))
              (setq faces (list (get-text-property 1 'face s)
                                (get-text-property (- (length s) 4) 'face s))))))
    (should (equal (tagd-test--read '("Tags: ") "red,green,RED," [f9 return])
                   '("red" "green")))
    (should (equal faces '(tagd-chip-flash tagd-chip)))
    (should (string-match-p "RED is already a tag, as red\\." (tagd-test--messages)))))

(ert-deftest tagd-test-announce ()
  "`tagd-announce' chooses which announcements reach the echo area."
  (let ((tagd-announce 'all))
    (tagd-test--read '("Tags: ") "plum," [return])
    (should (string-match-p "^Added plum\\.$" (tagd-test--messages))))
  (let ((tagd-announce 'drops))
    (tagd-test--read '("Tags: ") "pear," [return])
    (should-not (string-match-p "^Added pear\\.$" (tagd-test--messages))))
  (let ((tagd-announce nil))
    (tagd-test--read '("Tags: ") "fig,FIG," [return])
    (should-not (string-match-p "FIG is already" (tagd-test--messages)))))

(ert-deftest tagd-test-read-paste ()
  "Yanking text with separators splits it into tags."
  (kill-new "one, two,three\nfour, two")
  (should (equal (tagd-test--read '("Tags: ") [?\C-y] [f11 return return])
                 '("one" "two" "three" "four")))
  (should (equal (car tagd-test--snaps)
                 ;; The draft after a separator loses its leading spaces.
                 '("[one ×] [two ×] [three ×] [four ×] " . "two"))))

(ert-deftest tagd-test-read-large-paste ()
  "A paste of 1000 tags (with repeats) gives 1000 chips, in order."
  (kill-new (mapconcat (lambda (i) (format "tag%d, TAG%d" i i)) (number-sequence 1 1000) ", "))
  (let ((tags (tagd-test--read '("Tags: ") [?\C-y] "," [f11 return])))
    (should (= (length tags) 1000))
    (should (equal (nth 999 tags) "tag1000"))
    (should (string-match-p "\\[tag1000 ×\\] Add a tag" (car (car tagd-test--snaps))))))

(ert-deftest tagd-test-read-backspace-slow ()
  "DEL on an empty draft removes the last tag; on a draft it deletes a char."
  (should (equal (tagd-test--read '("Tags: " ("x")) "a,b," [f11 backspace f11]
                                  "cd" [backspace f11 return return])
                 '("x" "a" "c")))
  ;; The announcement of a user's command follows the placeholder.
  (should (equal (nth 1 tagd-test--snaps) '("[x ×] [a ×] Add a tag [Removed b.]" . ""))))

(ert-deftest tagd-test-read-backspace-fast ()
  "Fast Backspaces over committed text act as on an empty draft."
  (should (equal (tagd-test--read '("Tags: " ("x")) "red, green,blue"
                                  (make-vector 6 'backspace) [return])
                 '("x"))))

(ert-deftest tagd-test-read-quit ()
  "C-g quits the reader and closes its field."
  (setq tagd-test--args '("Tags: ") tagd-test--result 'none)
  (condition-case nil
      (execute-kbd-macro (tagd-test--keys [f12] "a,b" [?\C-g]))
    (quit nil))
  (should (eq tagd-test--result 'none))
  (should (zerop (hash-table-count tagd--fields))))

(ert-deftest tagd-test-read-remove-chip ()
  "A click on the × of a chip removes its tag."
  (setq tagd-test--hook
        (lambda ()
          (tagd-sync)
          (let* ((s (overlay-get tagd--chips-overlay 'before-string))
                 (x (string-match "×" s (string-match "green" s)))
                 (map (get-text-property x 'keymap s))
                 ;; A click on the × of the overlay string, as Emacs builds it.
                 (event (list 'mouse-1
                              (list (minibuffer-window) (point) '(0 . 0) 0 (cons s x)
                                    (point) '(0 . 0) nil '(0 . 0) '(1 . 1)))))
            (should (equal (get-text-property x 'tagd-remove s) "green"))
            (should (eq (lookup-key map [mouse-1]) #'tagd-remove-chip))
            (tagd-remove-chip event)
            (tagd-sync))))
  (should (equal (tagd-test--read '("Tags: " ("red" "green" "blue")) [f9 f11 return])
                 '("red" "blue")))
  (should (equal (car tagd-test--snaps) '("[red ×] [blue ×] Add a tag [Removed green.]" . ""))))

(ert-deftest tagd-test-read-options ()
  "Options reach tagd: separators and a transform."
  (should (equal (tagd-test--read '("Tags: " nil (:separators [";"] :transform "lowercase"))
                                  "A,B;C;" [return])
                 '("a,b" "c"))))

(ert-deftest tagd-test-read-input-method ()
  "A Quail composition (latin-1-postfix: c then , is ç) commits nothing."
  (setq tagd-test--hook
        (lambda ()
          (set-input-method "latin-1-postfix")
          ;; Events read through the input method, as typed keys are
          ;; (a keyboard macro bypasses input methods).
          (setq unread-command-events
                (append (listify-key-sequence "franc,ais") '(return f11 return)))))
  (should (equal (tagd-test--read '("Tags: ") [f9]) '("français")))
  (should (equal (car tagd-test--snaps) '("[français ×] Add a tag" . ""))))

(ert-deftest tagd-test-read-newline ()
  "C-j inserts a newline, a separator, instead of ending the minibuffer."
  (should (equal (tagd-test--read '("Tags: ") "a" [?\C-j] "b" [?\C-j return])
                 '("a" "b"))))

(ert-deftest tagd-test-flash-clears ()
  "The flashed chip goes back to its face after `tagd-flash-duration'."
  (let ((tagd-flash-duration 0.05) (faces nil))
    (setq tagd-test--hook
          (lambda ()
            (tagd-sync)
            (let ((s (overlay-get tagd--chips-overlay 'before-string)))
              (push (get-text-property 1 'face s) faces))
            (with-timeout (10 (error "The flash did not clear"))
              (while (eq (get-text-property
                          1 'face (overlay-get tagd--chips-overlay 'before-string))
                         'tagd-chip-flash)
                (accept-process-output nil 0.02)))
            (push (get-text-property 1 'face (overlay-get tagd--chips-overlay 'before-string))
                  faces)))
    (should (equal (tagd-test--read '("Tags: " ("red")) "RED," [f9 return]) '("red")))
    (should (equal faces '(tagd-chip tagd-chip-flash)))))

(ert-deftest tagd-test-sync-waits-for-composition ()
  "An update arriving while a Quail preedit is shown waits until it is gone.
The preedit is simulated by the overlay Quail shows it with."
  (tagd-test--with-buffer nil
    (insert "a,")
    (setq-local quail-overlay (make-overlay (point-max) (point-max)))
    (let ((inhibit-modification-hooks t)) (insert "k"))
    (move-overlay quail-overlay (1- (point-max)) (point-max))
    (tagd-sync)
    (should (equal (tagd--field-tags field) '("a")))
    (should (equal (buffer-string) "a,k"))
    (let ((inhibit-modification-hooks t)) (delete-region (1- (point-max)) (point-max)))
    (delete-overlay quail-overlay)
    (tagd--retry-pending)
    (should (equal (buffer-string) ""))
    (insert "b,")
    (should (equal (tagd-sync) '("a" "b")))
    (should (equal (buffer-string) ""))))

(defun tagd-test--kill-tagd (sync)
  "Kill tagd (after waiting for it if SYNC) and wait until it was restarted."
  (when sync (tagd-sync))
  (let ((old (jsonrpc--process tagd--connection)))
    (signal-process old 'kill)
    (with-timeout (10 (error "Timed out waiting for tagd to restart"))
      (while (not (and (tagd--live-p)
                       (not (eq old (jsonrpc--process tagd--connection)))))
        (accept-process-output nil 0.05)))
    (should-not (process-live-p old))))

(ert-deftest tagd-test-restart ()
  "When tagd dies it is restarted and the reader's field re-opened."
  (setq tagd-test--hook (lambda () (tagd-test--kill-tagd t)))
  (should (equal (tagd-test--read '("Tags: " ("x")) "a,b" [f9] "c,RED,red," [return])
                 '("x" "a" "bc" "RED"))))

(ert-deftest tagd-test-restart-unsynced ()
  "tagd dies before its update for \"a,\" was read: nothing is lost or doubled."
  (setq tagd-test--hook (lambda () (tagd-test--kill-tagd nil)))
  (should (equal (tagd-test--read '("Tags: " ("x")) "a,b" [f9] "c,RED,red," [return])
                 '("x" "a" "bc" "RED")))
  (should-not (string-match-p "a is already a tag" (tagd-test--messages))))

(ert-deftest tagd-test-typed-as-tagd-dies ()
  "A key typed after tagd died, before its sentinel ran, counts that death first.
With `tagd-max-deaths' deaths already this minute, tagd is not
started again, and the text typed stays in the buffer."
  (tagd-restart)
  (tagd-test--with-buffer '("a")
    (let ((old (jsonrpc--process tagd--connection)))
      (setq tagd--deaths (make-list tagd-max-deaths (float-time)))
      (signal-process old 'kill)
      ;; Wait for the process to end without running its sentinel
      ;; (`call-process' reads no other process's output).
      (with-timeout (10 (error "Timed out waiting for tagd to die"))
        (while (process-live-p old) (call-process "true")))
      (insert "b,c")
      (accept-process-output nil 0.3)
      (should-not (tagd--live-p))
      (should (= (length tagd--deaths) (1+ tagd-max-deaths)))
      (should (equal (buffer-string) "b,c"))))
  (setq tagd--deaths nil))

(provide 'tagd-test)
;;; tagd-test.el ends here
