"""``python -m seqsolve`` is the ``seqsolve`` command."""

from .cli import main

main(prog_name="seqsolve")
