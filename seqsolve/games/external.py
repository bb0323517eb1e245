"""External bots: any program that speaks the seqsolve line protocol.

The protocol, in the spirit of UCI for chess engines (one line per message,
UTF-8, newline-terminated; the program reads stdin and writes stdout):

    seqsolve -> program                     program -> seqsolve
    ---------------------------------------------------------------
    seqsolve 1                              ready          (handshake)
    game <variant> <seats> <seat>                          (a new game)
    position <one line>                                    (what the seat sees: SQN, or STN for Stacks)
    legal <move> <move> ...                                (the legal actions, in the game's notation)
    go <milliseconds>                       move <move>    (one action)
    quit                                                   (the program exits)

``<variant>`` is the P-1 variant text, ``<seats>`` the side of each seat (``bgbg``;
``0123`` in Sequence Stacks, where every seat is a side), ``<seat>`` the seat this
program plays.  Every message speaks the game of the variant (its one-line position
form and its notation), so one protocol serves both games.  A turn of several
decisions is as many ``go`` requests: a dead-card exchange and then the play in
Sequence (``move ~5S``, then the new position and the play); in Stacks every card
played, the final discard, and the ``block``/``pass`` asked of an opponent after a
completion, out of turn.  Lines the program writes that do not start
with ``move`` or ``ready`` are ignored (use them for logging; stderr is kept
too, and its last lines are quoted when the program fails).  A program that
exits, stays silent past the time limit, or answers an illegal move loses the
game; the reason is recorded and the match goes on.

Every answer, the handshake's ``ready`` included, is awaited for at most the
time limit per move (``--move-timeout``).  When a failure is noticed depends
only on the games, never on how fast anything ran: the handshake is awaited
when the program starts, before any seat acts; a write to a program that has died is not an error by itself (its
death is noticed at its next answer, on its own turn); and after any failure
the program is ended and a fresh one starts with the next game.  A program
that cannot finish its handshake loses every game without being run again.
"""

from __future__ import annotations

import os
import re
import selectors
import shlex
import shutil
import subprocess
import threading
import time

import numpy as np

from .base import GameState
from .bot import Bot, BotError, BotFailure, Param

#: the longest answer line read (a program printing without newlines is cut off here)
MAX_LINE = 1 << 20
#: seconds a program that closed its output is given to finish exiting (generous: its
#: exit code and stderr go into the reason, which must not depend on the machine's load)
EXIT_GRACE = 30.0
#: seconds a program told to quit is given before it is killed
QUIT_GRACE = 5.0


def clip(text: str, limit: int = 80, tail: bool = False) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis: its start, or with
    ``tail`` its end (where a traceback says what went wrong).

    >>> clip("x" * 100, 5), clip("abcdefgh", 5, tail=True), clip("short")
    ('xxxxx…', '…defgh', 'short')
    """
    if len(text) <= limit:
        return text
    return "…" + text[-limit:] if tail else text[:limit] + "…"


def ambiguous_parameters(command: str) -> str | None:
    """The first ``,key=value`` outside quotes in an ext command, which reads like a
    bot parameter but would be passed to the program; None when there is none.

    >>> ambiguous_parameters("python bot.py,timeout=1"), ambiguous_parameters("bot --x 'a,b=c'")
    (',timeout=1', None)
    """
    quote = None
    for i, ch in enumerate(command):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            found = re.match(r",\s*\w+=\S*", command[i:])
            if found:
                return found.group(0)
    return None


class _StderrTail:
    """The last few KB a program wrote to stderr, read by a thread so that a
    chatty program never blocks on a full pipe and memory stays bounded."""

    KEEP = 4096

    def __init__(self, stream):
        self._stream = stream
        self._data = b""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        fd = self._stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self._data = (self._data + chunk)[-self.KEEP :]

    def last_lines(self, count: int = 3) -> str:
        """The last ``count`` non-blank lines, once the program has ended (the pipe is then at its end)."""
        self._thread.join(EXIT_GRACE)  # bounded: a child of the program may still hold the pipe
        self._stream.close()
        lines = [line.strip() for line in self._data.decode(errors="replace").splitlines() if line.strip()]
        return " / ".join(lines[-count:])


class ExternalBot(Bot):
    name = "ext"
    summary = "an external program speaking the line protocol (ext:COMMAND; time limit: --move-timeout)"
    params = {
        "command": Param(str, "", "the program to run, with its arguments (everything after 'ext:')"),
    }

    writes_positions = True
    runs_a_program = True

    def __init__(self, game=None, **values):
        super().__init__(**values)
        #: the game played (make_bot's), whose one-line positions and notation the program reads
        self._game = game
        command = self.options["command"]
        extra = ambiguous_parameters(command)
        if extra is not None:
            raise BotError(
                f"bot ext: {extra!r} in {command!r} reads like a bot parameter, but everything after 'ext:' "
                "is the command (set the time limit with --move-timeout; quote the text to pass it to the program)"
            )
        try:
            self._argv = shlex.split(command)
        except ValueError as exc:  # an unclosed quote
            raise BotError(f"bot ext: cannot read the command {command!r}: {exc}") from None
        if not self._argv:
            raise BotError("bot ext: give the program to run, e.g. ext:python examples/random_bot.py")
        if shutil.which(self._argv[0]) is None:
            # found now, one line before any game; a program that starts and then fails loses its games
            raise BotError(
                f"bot ext: cannot find the program {self._argv[0]!r} (not a path to an executable, nor on PATH)"
            )
        self._proc: subprocess.Popen | None = None
        self._stderr: _StderrTail | None = None
        self._buffer = b""
        self._no_handshake: str | None = None  # why the program could not start, once it failed to

    @property
    def spec(self) -> str:
        return f"ext:{self.options['command']}"

    # ------------------------------------------------------------ process
    def _spawn(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self._argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
            )
        except OSError as exc:
            self._no_handshake = f"cannot start {self._argv[0]!r}: {exc.strerror}"
            raise BotFailure(self._no_handshake) from None
        self._stderr = _StderrTail(self._proc.stderr)
        self._buffer = b""
        self._send("seqsolve 1")
        self._expect("ready", self.move_timeout)

    def _send(self, line: str) -> None:
        """Write one line; a program that is gone is noticed at its next answer, not here
        (whether the write fails depends on how far its exit has got)."""
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write((line + "\n").encode())
            self._proc.stdin.flush()
        except OSError:
            pass

    def _readline(self, deadline: float) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    raise BotFailure(f"an answer line longer than {MAX_LINE} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise BotFailure(f"no answer within the time limit of {self.move_timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise BotFailure("the program exited")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode(errors="replace").strip()

    def _expect(self, word: str, seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while True:
            line = self._readline(deadline)
            if line == word or line.startswith(word + " "):
                return line[len(word) :].strip()

    def _failed(self, exc: BotFailure) -> BotFailure:
        """End the program after a failure and say why it failed, with the end of its stderr."""
        reason = str(exc)
        proc = self._proc
        if proc is not None and reason == "the program exited":
            try:
                proc.wait(timeout=EXIT_GRACE)
            except subprocess.TimeoutExpired:
                pass
            if proc.returncode is not None:
                reason += (
                    f" with code {proc.returncode}"
                    if proc.returncode >= 0
                    else f" on signal {-proc.returncode}"
                )
        said = self._end(quit=reason.startswith("illegal"))
        if said:
            reason += f"; its stderr: {clip(said, 160, tail=True)}"
        return BotFailure(reason)

    def _end(self, quit: bool) -> str:
        """Stop the program (asking it to quit first when it is still talking to us);
        the last lines of its stderr."""
        proc, stderr = self._proc, self._stderr
        if proc is None:
            return ""
        if quit and proc.poll() is None:
            self._send("quit")
            proc.stdin.close()  # type: ignore[union-attr]  # a program reading to the end of its input ends too
            try:
                proc.wait(timeout=QUIT_GRACE)
            except subprocess.TimeoutExpired:
                pass
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream:
                stream.close()
        self._proc = self._stderr = None
        return stderr.last_lines() if stderr else ""

    # ------------------------------------------------------------ bot
    def start(self, rules, seats: str, seat: int) -> None:
        if self._no_handshake is not None:
            raise BotFailure(self._no_handshake)
        if self._proc is None:
            try:
                self._spawn()
            except BotFailure as exc:
                if self._no_handshake is None:
                    self._no_handshake = f"no handshake: {self._failed(exc)}"
                raise BotFailure(self._no_handshake) from None
        self._send(f"game {rules.variant} {seats} {seat}")

    def choose(self, observation: GameState, rng: np.random.Generator) -> int:
        if self._proc is None:
            raise BotFailure("the program was not started")
        try:
            legal = [observation.action_to_string(a) for a in observation.legal_actions()]
            self._send(f"position {self._game.write_position(observation)}")
            self._send("legal " + " ".join(legal))
            self._send(f"go {int(self.move_timeout * 1000)}")
            answer = self._expect("move", self.move_timeout)
            try:
                return observation.string_to_action(answer)
            except ValueError as exc:
                raise BotFailure(f"illegal answer {clip(answer)!r}: {clip(str(exc))}") from None
        except BotFailure as exc:
            raise self._failed(exc) from None

    def close(self) -> None:
        self._end(quit=True)
