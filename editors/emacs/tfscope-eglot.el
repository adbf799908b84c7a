;;; tfscope-eglot.el --- tfscope through eglot (built into Emacs 29+)  -*- lexical-binding: t; -*-
;; Load it from init.el, e.g. (load "/path/to/editors/emacs/tfscope-eglot.el"), then M-x eglot
;; in a Python buffer.  eglot runs one server per buffer: this entry takes the place of the
;; default Python server there.

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((python-mode python-ts-mode) . ("tfscope" "serve"))))

(provide 'tfscope-eglot)
;;; tfscope-eglot.el ends here
