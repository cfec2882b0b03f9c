;;; tagd-schema-test.el --- What tagd.el sends, checked against tagd's schema  -*- lexical-binding: t; -*-

;;; Commentary:

;; tagd's params are becoming strict (an unknown member is -32602,
;; and a bad notification is dropped silently), so this test records
;; every message tagd.el sends during a session that exercises every
;; command, and validates each one against Protocol/schemas/
;; tagd.schema.json of the repository: requests[method].params and
;; notifications[method].  The validator covers the keywords that
;; schema uses.

;;; Code:

(require 'ert)
(require 'json)
(require 'tagd-test)
(require 'tagd-field)

(defvar tagd-schema-test--schema nil
  "The parsed tagd schema.")

(defun tagd-schema-test--file ()
  "Return the schema file of the repository this package is in."
  (expand-file-name "../../Protocol/schemas/tagd.schema.json"
                    (file-name-directory (locate-library "tagd.el" t))))

(defun tagd-schema-test--schema ()
  "Return the schema, parsed with hash tables for objects."
  (or tagd-schema-test--schema
      (setq tagd-schema-test--schema
            (with-temp-buffer
              (insert-file-contents (tagd-schema-test--file))
              (json-parse-buffer :object-type 'hash-table
                                 :null-object :null :false-object :false)))))

(defun tagd-schema-test--ref (ref)
  "Return the schema node REF (\"#/$defs/Name\") points to."
  (let ((node (tagd-schema-test--schema)))
    (dolist (key (cdr (split-string ref "/")) node)
      (setq node (gethash key node)))))

(defun tagd-schema-test--type-p (type value)
  "Return non-nil if VALUE has the JSON schema TYPE."
  (pcase type
    ("object" (hash-table-p value))
    ("array" (vectorp value))
    ("string" (stringp value))
    ("integer" (integerp value))
    ("number" (numberp value))
    ("boolean" (memq value '(t :false)))
    ("null" (eq value :null))))

(defun tagd-schema-test--check (schema value path)
  "Return the problems of VALUE (at PATH) against SCHEMA, a list of strings."
  (let ((problems nil)
        (ref (gethash "$ref" schema))
        (type (gethash "type" schema))
        (enum (gethash "enum" schema)))
    (cl-flet ((fail (fmt &rest args)
                (push (concat path ": " (apply #'format fmt args)) problems)))
      (when ref
        (setq problems (append (tagd-schema-test--check
                                (tagd-schema-test--ref ref) value path)
                               problems)))
      (when (and type
                 (not (cl-some (lambda (ty) (tagd-schema-test--type-p ty value))
                               (if (vectorp type) type (list type)))))
        (fail "not of type %s: %S" type value))
      (when (and enum (not (seq-contains-p enum value)))
        (fail "%S is not one of %S" value enum))
      (when (and (numberp value) (gethash "minimum" schema)
                 (< value (gethash "minimum" schema)))
        (fail "%S below the minimum" value))
      (when (and (numberp value) (gethash "maximum" schema)
                 (> value (gethash "maximum" schema)))
        (fail "%S above the maximum" value))
      (when (hash-table-p value)
        (let ((props (gethash "properties" schema)))
          (seq-doseq (name (or (gethash "required" schema) []))
            (unless (gethash name value) (fail "lacks required %s" name)))
          (maphash
           (lambda (name member)
             (let ((sub (and props (gethash name props))))
               (cond (sub (setq problems
                                (append (tagd-schema-test--check
                                         sub member (format "%s.%s" path name))
                                        problems)))
                     ((eq (gethash "additionalProperties" schema) :false)
                      (fail "has the undocumented member %s" name)))))
           value)))
      (when (and (vectorp value) (gethash "items" schema))
        (seq-do-indexed (lambda (item i)
                          (setq problems
                                (append (tagd-schema-test--check
                                         (gethash "items" schema) item
                                         (format "%s[%d]" path i))
                                        problems)))
                        value))
      (let ((one-of (gethash "oneOf" schema)))
        (when one-of
          (let ((valid (cl-count-if (lambda (s) (null (tagd-schema-test--check s value path)))
                                    one-of)))
            (unless (= valid 1)
              (fail "matches %d of the oneOf schemas, not exactly one" valid)))))
      (seq-doseq (s (or (gethash "allOf" schema) []))
        (setq problems (append (tagd-schema-test--check s value path) problems))))
    problems))

(defun tagd-schema-test--problems (message)
  "Return the problems of MESSAGE, a plist (:method :params :id) we sent."
  (let* ((method (let ((m (plist-get message :method)))
                   (if (keywordp m) (substring (symbol-name m) 1) (format "%s" m))))
         (params (json-parse-string
                  (json-serialize (list :p (plist-get message :params))
                                  :null-object nil :false-object :json-false)
                  :object-type 'hash-table :null-object :null :false-object :false))
         (params (gethash "p" params))
         (schema (tagd-schema-test--schema))
         (node (if (plist-member message :id)
                   (let ((request (gethash method (gethash "requests" schema))))
                     (and request (gethash "params" request)))
                 (gethash method (gethash "notifications" schema)))))
    (if (null node)
        (list (format "%s: not a documented %s" method
                      (if (plist-member message :id) "request" "notification")))
      (tagd-schema-test--check node params method))))

(ert-deftest tagd-schema-test-validator ()
  "The validator finds undocumented members, wrong types and unknown methods."
  (skip-unless (file-readable-p (tagd-schema-test--file)))
  (should-not (tagd-schema-test--problems '(:method :field/state :id 1 :params (:field "f"))))
  (should (tagd-schema-test--problems '(:method :field/state :id 1
                                        :params (:field "f" :bogus 1))))
  (should (tagd-schema-test--problems '(:method :field/state :id 1 :params (:field 3))))
  (should (tagd-schema-test--problems '(:method :field/nothing :id 1 :params nil)))
  (should (tagd-schema-test--problems
           '(:method :field/didChange
             :params (:field "f" :version 1
                      :contentChanges [(:range (:start (:line 0 :character 0)) :text "")]))))
  (should (tagd-schema-test--problems
           '(:method :field/layout :id 2
             :params (:field "f" :width 10 :cells (:padding 5) :chipSizes []
                      :fieldHeight 1)))))

(ert-deftest tagd-schema-test-sent-messages ()
  "Everything a session of every command sends is valid under tagd's schema."
  (skip-unless (file-readable-p (tagd-schema-test--file)))
  (let ((sent nil))
    (cl-flet ((record (_conn &rest args)
                (when (plist-get args :method) (push args sent))))
      (advice-add 'jsonrpc-connection-send :before #'record)
      (unwind-protect
          (progn
            (tagd-restart)
            (kill-new "p1, p2,p3")
            (setq tagd-test--hook
                  (lambda ()
                    (tagd-sync)
                    (tagd-remove-tag tagd--field "b")
                    (tagd-test--kill-tagd t)))
            (should (equal (tagd-test--read
                            '("Tags: " ("x" "y") (:separators ["," ";"] :maxTags 50
                                                  :maxTagLength 40 :caseSensitive :json-false
                                                  :transform "none" :prompt "Tag it"))
                            "a,b;c" [f9] [?\C-y] "," [backspace backspace] "d" [return]
                            [?\C-j] "é😀" [return return])
                           '("x" "y" "a" "cp1" "d" "é😀")))
            ;; The §6 commands: suggest, select, move, undo, redo, edit.
            (should (equal (tagd-test--read '("Tags: " ("m" "n") (:suggestions ["alpha"]))
                                            "al" [tab left left M-right right ?\C-_ ?\C-\M-_]
                                            [left return return return])
                           '("m" "n" "alpha")))
            (tagd-field-test--with '("👍🏽" "long-tag") 20
              (tagd-field-test--type "q,w" [return])
              (tagd-field-test--type [backspace])
              (let ((tagd-field-width 30))
                (tagd--set-layout tagd--field (tagd-field--layout-params))
                (tagd-field-test--settle)))
            (tagd-stop))
        (advice-remove 'jsonrpc-connection-send #'record)))
    (setq sent (nreverse sent))
    ;; The session covered every method tagd.el uses.
    (let ((methods (delete-dups (mapcar (lambda (m) (plist-get m :method)) sent))))
      (dolist (m '(:initialize :initialized :field/open :field/didChange :field/state
                   :field/submit :field/deleteBackward :field/removeTag :field/layout
                   :field/suggest :field/select :field/moveTag :field/undo :field/redo
                   :field/editTag :field/close :shutdown :exit))
        (should (memq m methods))))
    (should (cl-some (lambda (m) (plist-get (plist-get m :params) :applied)) sent))
    (should (equal (cl-mapcan #'tagd-schema-test--problems sent) nil))))

(provide 'tagd-schema-test)
;;; tagd-schema-test.el ends here
