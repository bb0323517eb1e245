"""The readable position's ``last: SEAT DECISION`` line is a note for pictures, not checked
against the position: any decision of the notation, by any seat, whether or not it could
have made the position, is drawn by ``show`` (text, SVG, PNG, JSON) without an error;
and ``show --to svg|png`` on a Stacks position refuses a bad ``--viewer`` or output path
in one line, writes through a symlink and never replaces a FIFO."""

from __future__ import annotations

import os
import stat

import pytest
from cli_helpers import fails, ok

from seqsolve.games.stacks.game import STACKS
from seqsolve.games.stacks.position_text import parse, to_readable

#: seat 0 to move, a blue pile of 2 and a red pile of 1, seat 1 holds 1 blue and 1 red chip
SMALL = "stacks 0> B3,B4,R5,R5,SX/B2,B3,R2,R4,BK -/- - B1+B2,R1 0b0r/1b1r 0/0 5 94 0 0"


def _decisions() -> list[str]:
    """Every decision text legal somewhere in a few random games: each kind of the notation."""
    seen: set[str] = set()
    for seed in range(3):
        state = STACKS.new_initial_state(STACKS.rules("stacks", 2), seed=seed)
        while not state.is_terminal() and len(seen) < 400:
            seen.update(state.action_to_string(a) for a in state.legal_actions())
            state.apply_legal(state.random_action())
    return sorted(seen)


DECISIONS = _decisions()


def _with_last(line: str) -> str:
    return to_readable(parse(SMALL)).replace("quiet: 0\n", f"quiet: 0\n{line}\n")


def test_any_decision_by_any_seat_is_drawn(tmp_path):
    assert len(DECISIONS) > 20
    position = tmp_path / "p.txt"
    for k, decision in enumerate(DECISIONS):
        for seat in (0, 1):
            position.write_text(_with_last(f"last: {seat} {decision}"))
            state = STACKS.read_position(position.read_text())
            assert state.last_decision is not None
            assert STACKS.picture(state).startswith("<svg")
            if k % 25 == 0:  # the commands on a sample: each costs more
                assert ok("show", str(position), "--to", "svg").startswith("<svg")
                ok("show", str(position), "--json")
                ok("show", str(position))


def test_the_png_draws_a_last_decision_that_does_not_fit(tmp_path):
    position = tmp_path / "p.txt"
    position.write_text(_with_last("last: 1 SC@2"))
    ok("show", str(position), "--to", "png", "--out", str(tmp_path / "p.png"))
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("viewer", ["-1", "2", "99", "99999999999999999999"])
def test_a_viewer_out_of_range_is_one_line(tmp_path, viewer):
    position = tmp_path / "p.txt"
    position.write_text(_with_last("last: 0 B3"))
    for extra in ([], ["--to", "svg"], ["--json"]):
        assert "does not exist" in fails("show", str(position), "--viewer", viewer, *extra, code=2)


def test_output_paths_a_folder_a_fifo_and_a_symlink(tmp_path):
    position = tmp_path / "p.txt"
    position.write_text(_with_last("last: 0 B3"))
    fifo = tmp_path / "fifo.svg"
    os.mkfifo(fifo)
    assert "pipe" in fails("show", str(position), "--to", "svg", "--out", str(fifo))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    fails("show", str(position), "--to", "svg", "--out", str(tmp_path), code=2)
    fails("show", str(position), "--to", "svg", "--out", str(tmp_path / "no" / "p.svg"))
    target, link = tmp_path / "target.svg", tmp_path / "link.svg"
    link.symlink_to(target)
    ok("show", str(position), "--to", "svg", "--out", str(link))
    assert link.is_symlink() and target.read_text().startswith("<svg")
