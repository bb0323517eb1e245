"""External bots: any program that speaks the seqsolve line protocol.

The protocol, in the spirit of UCI for chess engines (one line per message,
UTF-8, newline-terminated; the program reads stdin and writes stdout):

    seqsolve -> program                     program -> seqsolve
    ---------------------------------------------------------------
    seqsolve 1                              ready          (handshake)
    game <variant> <seats> <seat>                          (a new game)
    position <SQN>                                         (what the seat sees, RULES.md §5.1)
    legal <move> <move> ...                                (the legal actions, P-13)
    go <milliseconds>                       move <move>    (one action, P-12)
    quit                                                   (the program exits)

``<variant>`` is the P-1 variant text, ``<seats>`` the seat colours (``bgbg``),
``<seat>`` the seat this program plays.  A turn with a dead-card exchange is
two ``go`` requests: the program answers ``move ~5S``, then gets the new
position and answers its play.  Lines the program writes that do not start
with ``move`` or ``ready`` are ignored (use them for logging).  A program that
exits, stays silent past the time limit, or answers an illegal move loses the
game; the reason is recorded and the match goes on.
"""

from __future__ import annotations

import os
import selectors
import shlex
import shutil
import subprocess
import time

import numpy as np

from ..rules import Rules
from ..state import IllegalMoveError, State
from .base import Bot, BotError, BotFailure, Param


class ExternalBot(Bot):
    name = "ext"
    summary = "an external program speaking the line protocol (ext:COMMAND)"
    params = {
        "command": Param(str, "", "the program to run, with its arguments"),
        "timeout": Param(float, 10.0, "seconds allowed per move", minimum=0.001, maximum=86_400.0),
    }

    def __init__(self, **values):
        super().__init__(**values)
        try:
            self._argv = shlex.split(self.options["command"])
        except ValueError as exc:  # an unclosed quote
            raise BotError(f"bot ext: cannot read the command {self.options['command']!r}: {exc}") from None
        if not self._argv:
            raise BotError("bot ext: give the program to run, e.g. ext:python examples/random_bot.py")
        if shutil.which(self._argv[0]) is None:
            # found now, one line before any game; a program that starts and then fails loses its games
            raise BotError(f"bot ext: cannot find the program {self._argv[0]!r} (not a path to an executable, nor on PATH)")
        self._proc: subprocess.Popen | None = None
        self._buffer = b""

    @property
    def spec(self) -> str:
        return f"ext:{self.options['command']}"

    # ------------------------------------------------------------ process
    def _spawn(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self._argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
            )
        except OSError as exc:
            raise BotFailure(f"cannot start {self._argv[0]!r}: {exc.strerror}") from None
        self._buffer = b""
        self._send("seqsolve 1")
        self._expect("ready", self.options["timeout"])

    def _send(self, line: str) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write((line + "\n").encode())
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFailure("the program exited") from None

    def _readline(self, deadline: float) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise BotFailure("no answer within the time limit")
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

    # ------------------------------------------------------------ bot
    def start(self, rules: Rules, seats: str, seat: int) -> None:
        if self._proc is None or self._proc.poll() is not None:
            self._spawn()
        self._send(f"game {rules.variant} {seats} {seat}")

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        from ..notation import to_sqn

        if self._proc is None:
            raise BotFailure("the program was not started")
        legal = [str(m) for m in observation.legal_moves()]
        self._send(f"position {to_sqn(observation.to_position())}")
        self._send("legal " + " ".join(legal))
        timeout = self.options["timeout"]
        self._send(f"go {int(timeout * 1000)}")
        answer = self._expect("move", timeout)
        try:
            return observation.move_to_action(answer)
        except (IllegalMoveError, ValueError) as exc:
            raise BotFailure(f"illegal answer {answer!r}: {exc}") from None

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                self._send_quiet(proc, "quit")
                proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream:
                stream.close()

    @staticmethod
    def _send_quiet(proc: subprocess.Popen, line: str) -> None:
        try:
            proc.stdin.write((line + "\n").encode())  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
        except OSError:
            pass
