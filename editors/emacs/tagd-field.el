;;; tagd-field.el --- An in-buffer tag field laid out by tagd  -*- lexical-binding: t; -*-

;; Version: 1.0.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: convenience
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; Placeholder.

;;; Code:

(require 'tagd)

(provide 'tagd-field)
;;; tagd-field.el ends here
