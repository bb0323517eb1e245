"""The ``seqsolve`` program (``python -m seqsolve`` and the installed command).

Ctrl-C at any moment ends it with one line on stderr and exit code 130: inside a
command the group (:mod:`seqsolve.cli`) says so, with how to resume; here are the
moments around it, which no command sees.  While the command line is imported
(a quarter of a second, most of it numpy) Ctrl-C is only noted, because a
KeyboardInterrupt raised inside an import can be swallowed by the C code that
runs it (the program would then never stop) or print a traceback; once imported,
a noted Ctrl-C ends the program.  While the interpreter shuts down (joblib's
workers, threads) a Ctrl-C ends it at once rather than print "Exception ignored
in ...".
"""

import os
import signal
import sys


def _exit_interrupted(signum=None, frame=None) -> None:
    os.write(2, b"seqsolve: interrupted\n")
    os._exit(130)


def _import_command_line():
    """``seqsolve.cli.main``, imported with Ctrl-C noted rather than raised."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        from .cli import main  # SIGINT ignored (a background job) or handled by a caller

        return main
    noted = []
    signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        from .cli import main
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if noted:
        _exit_interrupted()  # nothing has started: nothing to close
    return main


def run(args=None) -> None:
    """Run the command line on ``args`` (default ``sys.argv[1:]``) and exit."""
    try:
        _import_command_line().main(args=args, prog_name="seqsolve")
        code = 0
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:  # outside any command: between the import and click
        code = 130
        print("seqsolve: interrupted", file=sys.stderr)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (KeyboardInterrupt, OSError):
        pass
    # from here on nothing is left to say: a Ctrl-C during the shutdown ends it at once
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _exit_interrupted)
    # CPython (3.8-3.13) notes a KeyboardInterrupt that passed through code run by
    # exec() of a string (dataclasses and namedtuple build their methods so), even
    # when it was caught; under ``python -m`` the interpreter then kills itself with
    # SIGINT after exiting, and the exit code 130 is lost.  Each exec() of a string
    # forgets the note first: this one leaves it forgotten.
    exec("")  # noqa: S102 - an empty string, run for the note above
    sys.exit(code)


if __name__ == "__main__":
    run()
