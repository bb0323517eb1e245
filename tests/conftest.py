"""What every test needs of the process that runs it."""

import signal

# The Ctrl-C tests signal the commands they start.  A test run started in the
# background of a non-interactive shell has SIGINT ignored, and an ignored signal
# stays ignored in every child: those commands would never see the Ctrl-C.  A
# handled signal is reset to its default in a child, where Python handles it again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Property tests draw the same examples on every run, so the suite's verdict never
# depends on luck: a landing is judged on what the code does, and a failure reproduces.
# HYPOTHESIS_PROFILE=explore draws fresh examples (and more of them) to hunt for new
# defects; what it finds becomes a test of its own.
import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", derandomize=False, max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
