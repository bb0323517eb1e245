"""What every test needs of the process that runs it."""

import signal

# The Ctrl-C tests signal the commands they start.  A test run started in the
# background of a non-interactive shell has SIGINT ignored, and an ignored signal
# stays ignored in every child: those commands would never see the Ctrl-C.  A
# handled signal is reset to its default in a child, where Python handles it again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
