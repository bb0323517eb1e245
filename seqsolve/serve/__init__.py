"""``seqsolve serve``: the board in a browser, on this machine.

:mod:`.checks` says what a request may ask (and which bots, with which budgets, a page
may seat), :mod:`.work` does what each request asks (play, undo, hint, save, review,
annotate, analyse) from the game the request carries, and :mod:`.app` is the
Starlette application that checks each request at the door and runs the work in a
bounded pool of threads.  The page itself (``static/``) is three plain files: no
build step, nothing from the internet.  Starlette and uvicorn are the optional extra
``serve``; nothing else of seqsolve imports this package.
"""
