"""``seqsolve serve``: the board in a browser (:mod:`seqsolve.serve`), on this machine.

The command checks its options, that the optional libraries are installed (one line
saying what to install when not) and that the save folder exists, then runs the
application under uvicorn until Ctrl-C.
"""

from __future__ import annotations

import os

import click

from .errors import CliError
from .options import FiniteFloat

#: the most a request's search may be given: a minute
MAX_SECONDS = FiniteFloat(0, 60, low_open=True)
LOOPBACK = ("127.0.0.1", "::1", "localhost")

SERVE_EPILOG = """\b
Examples:
  seqsolve serve                         http://127.0.0.1:8765/ : play, review, analyse
  seqsolve serve --port 9000 --max-seconds 10
  seqsolve serve --save-dir games/       'Save on server' writes records into games/
  seqsolve serve --no-save               the server writes no file at all

\b
The page's address holds the game (its record and seed): a reload continues it,
a bookmark keeps it, each tab plays its own. Anyone holding the address sees the
deal, so it is not for contests.
"""


@click.command(epilog=SERVE_EPILOG)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="The port.")
@click.option(
    "--max-seconds",
    type=MAX_SECONDS,
    default=5.0,
    show_default=True,
    help="Most seconds of search a request gets: a hint, an analysis, a whole annotation, a bot's time budget.",
)
@click.option(
    "--save-dir",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="The folder 'Save on server' writes records into (a new file each time).",
)
@click.option(
    "--no-save", is_flag=True, help="Write no file at all (records are still downloaded by the page)."
)
def serve(host, port, max_seconds, save_dir, no_save):
    """Play, review and analyse in a browser: a local web page.

    One page, three jobs: play any Sequence preset or Sequence Stacks against the
    bots by clicking a card and a cell (hints drawn on the board, undo, the record
    to download or save); open a record and step through it, its mistakes marked
    with the better turn drawn; paste a position and see the analysis drawn,
    recomputed as moves are tried.  Nothing is fetched from the internet.
    """
    from ..serve.app import allowed_hosts, make_app
    from ..serve.work import Limits

    try:
        import uvicorn
    except ImportError:
        raise CliError("serve needs uvicorn and starlette: pip install 'seqsolve[serve]'") from None
    if no_save:
        folder = None
    else:
        if not os.path.isdir(save_dir):
            raise CliError(f"--save-dir {save_dir}: no such folder")
        folder = os.path.abspath(save_dir)
    if host not in LOOPBACK:
        click.echo(
            f"seqsolve: warning: listening on {host}: any machine that reaches it can use this server",
            err=True,
        )
    app = make_app(Limits(max_seconds, folder), allowed_hosts(host, port))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"seqsolve serve: http://{shown}:{port}/ (Ctrl-C stops it)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


COMMANDS = [serve]
