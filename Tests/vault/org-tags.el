;;; org-tags.el --- print what Org reads as tags, for tagd's vault tests  -*- lexical-binding: t -*-
;; Usage: emacs --batch -Q -l org-tags.el OUT FILE...
;; Writes one JSON line per FILE to OUT: {"file", "headings": [[tag...]...], "filetags": [tag...]}
;; read by org-element-parse-buffer (heading tags and #+FILETAGS keywords).
(require 'org)
(require 'org-element)
(require 'json)
(let* ((args command-line-args-left)
       (out (car args))
       (lines nil))
  (setq command-line-args-left nil)
  (dolist (file (cdr args))
    (with-temp-buffer
      (let ((coding-system-for-read 'utf-8))
        (insert-file-contents file))
      (delay-mode-hooks (org-mode))
      (let* ((tree (org-element-parse-buffer))
             (headings (org-element-map tree 'headline
                         (lambda (h) (vconcat (org-element-property :tags h)))))
             (filetags (apply #'append
                              (org-element-map tree 'keyword
                                (lambda (k)
                                  (when (equal (org-element-property :key k) "FILETAGS")
                                    (split-string (org-element-property :value k) ":" t)))))))
        (push (json-encode `((file . ,file)
                             (headings . ,(vconcat headings))
                             (filetags . ,(vconcat filetags))))
              lines))))
  (with-temp-buffer
    (dolist (line (nreverse lines)) (insert line "\n"))
    (let ((coding-system-for-write 'utf-8-unix))
      (write-region (point-min) (point-max) out))))
