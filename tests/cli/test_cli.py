"""Tests of the ``seqsolve`` command line (seqsolve.cli) through Click's CliRunner and a subprocess.

The worked examples of RULES.md §5.5 are the bundled positions ``example:1`` .. ``example:3``;
P-12/P-13/P-16 (move notation, legal-move strings, exchanges in positions) are checked through
``apply`` and ``show --json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from cli_helpers import fails, ok, run

from seqsolve import __version__
from seqsolve.cli import main
from seqsolve.cli.position import EXAMPLES, load_position
from seqsolve.games.sequence.notation import parse_position, read_position, to_sqn
from seqsolve.games.sequence.position import COUNTER_MAX
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State

DATA = Path(__file__).parents[1] / "data"
COMMANDS = ("show", "apply", "convert", "perft", "bench")

# RULES.md §5.5 example 3 one step earlier: seat 2 still holds the dead 5S (e1 and d9 are
# taken) and has not exchanged yet; 9H is back on top of the draw pile.
BEFORE_EXCHANGE = (
    "classic[sequences_to_win=3,overlap_reuse_limit=1] "
    "*g2b2b1*/gg1g2gb1g/1GGGGGgg2/1g1bBgb2b/1bbbB5/b1ggBBBBBg/1bbbBgbgbb/2ggBgg1b1/bgggg1g2g/*gbbbbg1b* "
    "bgbg 2 ?6/?6/5S,TS,3H,8H,TH,2C/?6 "
    "JD,3H,2C,4H,3D,2H,QS,KD,KS,6H,AC,2D,JH,TD,QH,6D,5H,4C,5S/"
    "JC,6D,8D,QC,4S,JC,AD,3D,TS,8C,AS,2S,4D,5D,KH,7H,3C,5C/"
    "TC,QD,5H,JS,9H,TD,9C,8S,9S,QH,KC,KD,9D,5C,6H,8H,KH/"
    "JD,QD,QS,3C,7D,6C,AC,AD,7S,KS,2D,JS,TC,2S,TH,5D,6S "
    "g:b3-f3,b:e4-e8,b:e6-i6 9:9H,QC,JH,KC,3S,7S,6C,AH,4H 70 0"
)


def example_sqn(n: int) -> str:
    return (DATA / f"example{n}.sqn").read_text().strip()


@pytest.fixture
def full_info(tmp_path) -> Path:
    """A freshly dealt classic game with every card known (hands and the draw pile)."""
    state = State.new(parse_rules("classic", players=2), seed=5)
    path = tmp_path / "deal.sqn"
    path.write_text(to_sqn(state.to_position()) + "\n")
    return path


# ---------------------------------------------------------------------------
# the group


def test_bundled_examples():
    assert EXAMPLES == ["1", "2", "3", "4"]
    for n in (1, 2, 3):  # the worked examples of RULES.md §5.5, as in tests/data
        assert to_sqn(load_position(f"example:{n}").to_position()) == example_sqn(n)


def test_version():
    assert ok("--version").strip() == f"seqsolve {__version__}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_teaches_with_an_example(command):
    text = ok(command, "--help")
    assert "Examples:" in text
    assert f"seqsolve {command} " in text


def test_bare_command_prints_help():
    assert "Commands:" in ok()


def test_unknown_command_is_one_line():
    assert "No such command" in fails("frobnicate", code=2)


# ---------------------------------------------------------------------------
# show


def test_show_draws_example_2():
    text = ok("show", "--example", "2")
    assert "       a   b   c   d   e   f   g   h   i   j" in text
    assert "   6  [B]  TS" in text  # a6 is locked blue, b6 is empty (card TS)
    assert "to move    seat 1 (green)" in text
    assert "sequences  b:a6-a10" in text
    assert "hand 1:g     8S 8S AH 7H 7H AC 2C" in text
    assert "draw pile  56 cards" in text
    assert "legal      7: 8S@h1 8S@b8 AH@f2 AH@g5 7H@d6 AC@f8 2C@e2" in text
    assert "\x1b[" not in text  # not a terminal: no colour


def test_show_colour_is_forced_by_flag_and_off_by_default():
    assert "\x1b[" in ok("show", "--example", "2", "--color")
    assert "\x1b[" not in ok("show", "--example", "2", "--no-color")
    assert "\x1b[" not in ok("show", "--example", "2", env={"NO_COLOR": "1"})


@pytest.mark.parametrize(
    "n, sequences",
    [(1, []), (2, ["b:a6-a10"]), (3, ["g:b3-f3", "b:e4-e8", "b:e6-i6"])],
)
def test_show_json_of_the_worked_examples(n, sequences):
    """P-13: legal_moves are the strings of State.legal_moves; sequences are P-7 strings."""
    data = json.loads(ok("show", "--example", str(n), "--json"))
    pos = parse_position(example_sqn(n))
    assert data["sequences"] == sequences
    assert data["legal_moves"] == [str(m) for m in State.from_position(pos).legal_moves()]
    assert data["sqn"] == example_sqn(n)
    assert data["to_move"] == pos.to_move


def test_show_json_example_2_lists_green_s_live_cards():
    """§5.5 example 2: AH has f2 and g5 free, 2C has e2 free; 8S held twice is listed once per cell."""
    moves = json.loads(ok("show", "example:2", "--json"))["legal_moves"]
    assert {"AH@f2", "AH@g5", "2C@e2"} <= set(moves)
    assert moves.count("8S@h1") == 1


def test_show_json_example_3_is_mid_turn():
    """§5.5 example 3 (P-16): the exchange is used, so no ~XX is listed, only plays."""
    data = json.loads(ok("show", "--example", "3", "--json"))
    assert data["exchange_used"] is True
    assert data["legal_moves"] == ["TS@b6", "3H@i9", "8H@i4", "9H@i3", "TH@i2", "2C@e2"]


def test_show_reads_a_path_and_stdin():
    path = str(DATA / "example2.txt")
    assert json.loads(ok("show", path, "--json"))["sqn"] == example_sqn(2)
    from_stdin = json.loads(ok("show", "-", "--json", input=example_sqn(3) + "\n"))
    assert from_stdin["sqn"] == example_sqn(3)


def test_show_new_is_seeded():
    a = ok("show", "--new", "--seed", "4")
    assert a == ok("show", "--new", "--seed", "4")
    assert a != ok("show", "--new", "--seed", "5")
    data = json.loads(ok("show", "--new", "--seed", "4", "--json"))
    state = State.new(parse_rules("classic", players=2), seed=4)
    assert data["sqn"] == to_sqn(state.to_position())
    assert data["seed"] == 4 and data["turn"] == 0 and data["draw_count"] == 90


def test_show_new_with_variant_players_and_viewer():
    args = [
        "show",
        "--new",
        "--variant",
        "seed000",
        "--players",
        "4",
        "--seed",
        "2",
        "--viewer",
        "1",
        "--json",
    ]
    data = json.loads(ok(*args))
    assert data["seats"] == "bgbg"
    assert data["hands"][1][0] != "?"
    assert all(card == "?" for seat in (0, 2, 3) for card in data["hands"][seat])
    assert data["draw_cards"] is None
    assert data["legal_moves"] == []  # seat 0 moves, and its hand is hidden from seat 1


def test_show_play_random_plays_to_the_end():
    data = json.loads(ok("show", "--new", "--seed", "1", "--play-random", "--json"))
    assert data["result"] in ("b", "g", "draw")
    assert data["legal_moves"] == [] and data["to_move"] is None
    assert len(data["played"]) >= 10
    # the record replays on the same deal (apply takes whole turns)
    state = State.new(parse_rules("classic", players=2), seed=1)
    for turn in data["played"]:
        for move in turn.split():
            state.apply(move)
    assert to_sqn(state.to_position()) == data["sqn"]
    text = ok("show", "--new", "--seed", "1", "--play-random")
    assert "result" in text and "moves      1." in text


def test_show_play_random_from_a_position_with_hidden_cards():
    data = json.loads(ok("show", "--example", "2", "--seed", "3", "--play-random", "--json"))
    assert data["result"] is not None
    assert data["played"][0] in ("8S@h1", "8S@b8", "AH@f2", "AH@g5", "7H@d6", "AC@f8", "2C@e2")


# ---------------------------------------------------------------------------
# apply


def test_apply_one_turn_prints_sqn():
    out = ok("apply", "example:2", "AH@f2")
    state = State.from_position(parse_position(example_sqn(2)))
    state.apply("AH@f2")
    assert out == to_sqn(state.to_position()) + "\n"
    pos = parse_position(out)
    assert pos.board[15] == "g" and pos.to_move == 0 and pos.turn == 34


def test_apply_output_formats():
    readable = ok("apply", "example:2", "AH@f2", "--to", "readable")
    assert readable.startswith("seqsolve-position 1\n")
    data = json.loads(ok("apply", "example:2", "AH@f2", "--to", "json"))
    assert to_sqn(parse_position(readable)) == data["sqn"]


def test_apply_a_whole_turn_with_an_exchange(tmp_path):
    """P-12/P-16: "~5S 9H@i3" is one argument; "~5S" alone leaves the mid-turn 2x position."""
    path = tmp_path / "before.sqn"
    path.write_text(BEFORE_EXCHANGE + "\n")
    assert "~5S" in json.loads(ok("show", str(path), "--json"))["legal_moves"]
    mid = ok("apply", str(path), "~5S")
    assert mid.split()[3] == "2x"  # the to-move field
    assert mid.strip() == example_sqn(3)  # exactly the worked example 3
    after = parse_position(ok("apply", str(path), "~5S 9H@i3"))
    assert after.to_move == 3 and not after.exchange_used
    assert after.board[28] == "b"  # i3


def test_apply_several_turns_in_order(full_info):
    state = State.from_position(read_position(full_info))
    turns = []
    for _ in range(4):
        move = state.legal_moves()[0]
        turns.append(str(move))
        state.apply(move)
    assert ok("apply", str(full_info), *turns) == to_sqn(state.to_position()) + "\n"


def reshuffle_due(hidden: bool) -> str:
    """A 4-player classic position (RULES.md P-17) whose draw pile is empty while 84 cards lie
    on the discard piles: seat 0's 5H@e5 draws from a reshuffle.  ``hidden``: seats 1-3's
    hands are ``?6`` (the file of seat 0); otherwise every hand is listed and the pile is
    known to be empty (``0:``)."""
    deck = parse_rules("classic", players=4).deck_cards.cards()
    hands = [["5H", "4H", "9C", "2D", "QS", "7C"]]
    for card in hands[0]:
        deck.remove(card)
    hands += [deck[-6:], deck[-12:-6], deck[-18:-12]]
    piles = [deck[:20], deck[20:40], deck[40:60], deck[60:-18]]
    listed = [",".join(h) for h in hands]
    if hidden:
        listed[1:] = ["?6"] * 3
    board = "*8*/10/10/10/10/10/10/10/10/*8*"
    discards = "/".join(",".join(p) for p in piles)
    return f"classic {board} bgbg 0 {'/'.join(listed)} {discards} - {'0' if hidden else '0:'} 40 0"


@pytest.mark.parametrize("hidden", [True, False], ids=["seat-0-file", "every-card-file"])
def test_p17_apply_never_shows_a_card_drawn_after_a_reshuffle(hidden):
    """P-17, §1.14: the reshuffled pile's order is unknown to everyone, so apply writes the
    card seat 0 draws from it as ``?`` and the new pile by its count alone, in every form."""
    text = reshuffle_due(hidden)
    before = parse_position(text)
    after = parse_position(ok("apply", "-", "5H@e5", input=text))
    assert after.hands[0].known == ("QS", "4H", "2D", "7C", "9C") and after.hands[0].unknown == 1
    assert after.draw_count == 80 and after.draw_cards is None  # 80 discards + 5H, one drawn
    assert after.discards == ((),) * 4 and after.hands[1:] == before.hands[1:]
    readable = ok("apply", "-", "5H@e5", "--to", "readable", input=text)
    assert "hand 0: QS 4H 2D 7C 9C ?1\n" in readable and "draw: 80\n" in readable
    data = json.loads(ok("apply", "-", "5H@e5", "--to", "json", input=text))
    assert data["hands"][0] == ["QS", "4H", "2D", "7C", "9C", "?"] and data["draw_cards"] is None
    if not hidden:  # the next seat draws from the same unknown pile
        play = json.loads(ok("show", "-", "--json", input=to_sqn(after)))["legal_moves"][0]
        later = parse_position(ok("apply", "-", "5H@e5", play, input=text))
        assert later.hands[1].unknown == 1 and len(later.hands[1].known) == 5


def test_apply_illegal_move_names_number_move_and_reason():
    line = fails("apply", "example:2", "AH@f2", "AH@f3")
    assert line.startswith("seqsolve: move 2 'AH@f3' is illegal:")
    line = fails("apply", "example:2", "AH@f3")
    assert line == "seqsolve: move 1 'AH@f3' is illegal: f3 is not empty"
    line = fails("apply", "example:2", "8S@a1")
    assert "corner" in line


def test_apply_bad_move_text():
    line = fails("apply", "example:2", "AH@z9")
    assert line.startswith("seqsolve: move 1 'AH@z9':") and "bad move" in line
    assert "exchanges come first" in fails("apply", "example:2", "AH@f2 ~5S")


def test_apply_needs_a_move():
    fails("apply", "example:2", code=2)


# ---------------------------------------------------------------------------
# convert


@pytest.mark.parametrize("n", [1, 2, 3])
def test_convert_round_trips(n, tmp_path):
    readable = ok("convert", f"example:{n}", "--to", "readable")
    path = tmp_path / "pos.txt"
    path.write_text(readable)
    assert ok("convert", str(path), "--to", "sqn").strip() == example_sqn(n)
    assert ok("convert", str(DATA / f"example{n}.txt")).strip() == example_sqn(n)
    assert json.loads(ok("convert", str(path), "--to", "json"))["sqn"] == example_sqn(n)


def test_convert_bad_format_is_a_usage_error():
    line = fails("convert", "example:1", "--to", "xml", code=2)
    assert "--to" in line


# ---------------------------------------------------------------------------
# perft


def test_perft_matches_state_perft(full_info):
    state = State.from_position(read_position(full_info))
    for depth in (0, 1, 2):
        assert ok("perft", str(full_info), "--depth", str(depth)).strip() == str(state.perft(depth))


def test_perft_divide_and_json(full_info):
    state = State.from_position(read_position(full_info))
    data = json.loads(ok("perft", str(full_info), "--depth", "2", "--divide", "--json"))
    assert data["depth"] == 2 and data["nodes"] == state.perft(2)
    assert sum(data["divide"].values()) == data["nodes"]
    assert list(data["divide"]) == [str(m) for m in state.legal_moves()]
    text = ok("perft", str(full_info), "--depth", "2", "--divide")
    assert text.rstrip().endswith(f"{len(data['divide'])} actions, {data['nodes']} leaves at depth 2")


def test_perft_of_the_bundled_full_information_example():
    state = load_position("example:4", seed=0)
    assert ok("perft", "example:4", "--depth", "3").strip() == str(state.perft(3))


def test_perft_with_unknown_cards_is_one_clear_line():
    line = fails("perft", "example:2", "--depth", "1")
    assert "perft needs every card known" in line and "hand 0 holds 7 unknown" in line


def test_perft_needs_depth():
    assert "--depth" in fails("perft", "example:1", code=2)


# ---------------------------------------------------------------------------
# bench


def test_bench_json_tiny():
    result = run("bench", "--json", "--games", "20", "--scans", "10")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)  # progress went to stderr, stdout is pure JSON
    for key in ("games_per_s", "plies_per_s", "scans_per_s", "full_scans_per_s", "plies_per_game", "seconds"):
        assert data[key] > 0
    assert data["games"] == 20
    assert data["version"] == __version__
    assert {"platform", "cpu_count", "python"} <= set(data["machine"])
    assert "playing 20 random games" in result.stderr
    assert [b["bot"] for b in data["bot_games"]] == ["greedy", "heuristic"]
    assert [b["games"] for b in data["bot_games"]] == [
        2,
        1,
    ]  # one greedy game per 10 random games, heuristic per 25
    assert all(b["plies"] > 0 and b["us_per_action"] > 0 for b in data["bot_games"])


def test_bench_table():
    text = ok("bench", "--games", "10", "--scans", "5")
    assert "random games" in text and "plies" in text and "full scans" in text
    assert "greedy self-play games" in text and "heuristic: " in text and "µs per decision" in text


# ---------------------------------------------------------------------------
# bad input: one line, non-zero exit, no traceback


def test_malformed_file_names_line_and_column(tmp_path):
    path = tmp_path / "x.sqn"
    path.write_text("classic *8*/10/10/10/10/1x9/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0\n")
    line = fails("show", str(path))
    assert line.startswith(f"seqsolve: {path}:1:26: ")
    assert "'x'" in line


def test_malformed_readable_file_names_its_line(tmp_path):
    text = (DATA / "example2.txt").read_text().replace("hand 1: 8S", "hand 1: 8Z")
    path = tmp_path / "x.txt"
    path.write_text(text)
    line = fails("convert", str(path))
    lineno = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("hand 1:"))
    assert line.startswith(f"seqsolve: {path}:{lineno}:9: ")


def test_unreadable_file():
    assert fails("show", "no/such/file.sqn") == (
        "seqsolve: no/such/file.sqn: cannot read position file: No such file or directory"
    )


def test_unknown_variant():
    assert "unknown preset 'nosuch'" in fails("show", "--new", "--variant", "nosuch")
    assert "unknown preset" in fails("show", "-", input=example_sqn(1).replace("classic", "nosuch", 1))


def test_bad_seating_and_options():
    assert "cannot be seated" in fails("show", "--new", "--players", "5")
    assert "exactly one of" in fails("show", "--example", "1", "--new", code=2)
    assert "--viewer" in fails("show", "--new", "--viewer", "7", code=2)
    assert "unknown example" in fails("show", "example:9")


@pytest.mark.parametrize("field, at", [("turn", -2), ("stall", -1)])
def test_counters_past_their_range_are_one_line_in_every_form(field, at, tmp_path):
    """P-9 (RULES-NOTES "Counters"): 2^31 in either counter is a file:line:col line from
    show, apply and convert, whichever form the file is in (it used to be an OverflowError)."""
    fields = example_sqn(2).split()
    fields[at] = str(COUNTER_MAX + 1)
    text = " ".join(fields)
    column = len(" ".join(fields[:at])) + 2
    for command in ("show", "convert"):
        line = fails(command, "-", input=text + "\n")
        assert line.startswith(f"seqsolve: <stdin>:1:{column}: {field} 2147483648 is out of range"), line
    path = tmp_path / "big.txt"
    fields[at] = str(COUNTER_MAX)
    path.write_text(ok("convert", "-", "--to", "readable", input=" ".join(fields)))
    path.write_text(path.read_text().replace(f"{field}: {COUNTER_MAX}", f"{field}: {COUNTER_MAX + 1}"))
    assert "out of range: at most 2147483647 (P-9)" in fails("apply", str(path), "AH@f2")


def test_apply_refuses_a_turn_that_would_pass_the_turn_counter():
    """P-9: green's turn at turn 2^31 - 2 makes it 2^31 - 1 (every form prints it); from
    2^31 - 1 the next turn is refused in one line instead of wrapping to -2^31."""
    fields = example_sqn(2).split()
    fields[0], fields[-2] = "classic[max_turns=0]", str(COUNTER_MAX - 1)
    out = ok("apply", "-", "AH@f2", input=" ".join(fields))
    assert out.split()[8:10] == [str(COUNTER_MAX), "0"]
    data = json.loads(ok("apply", "-", "AH@f2", "--to", "json", input=" ".join(fields)))
    assert data["turn"] == COUNTER_MAX and parse_position(data["sqn"]).turn == COUNTER_MAX
    line = fails("apply", "-", "8S@b8", input=out)
    assert line.startswith(
        "seqsolve: move 1 '8S@b8' is illegal: the turn counter is at its largest value,"
        " 2147483647, and may not pass it (P-9)"
    )


def test_a_pass_may_not_pass_the_stall_counter():
    """P-9, P-18: a pass adds one to the stall counter, so at 2^31 - 1 it is refused; a
    placement sets it to 0 and is still allowed."""
    board = "*8*/10/10/10/10/10/10/10/10/*8*"
    text = f"classic[allow_voluntary_pass=true] {board} bg 0 5H/?7 -/- - 96 7 {COUNTER_MAX}"
    assert "stall counter is at its largest" in fails("apply", "-", "pass", input=text)
    assert ok("apply", "-", "5H@e5", input=text).split()[8:10] == ["8", "0"]


def test_random_play_stops_at_the_counter_limit():
    """P-9: --play-random from a position at the limit is one line, not a wrapped counter."""
    board = "*8*/10/10/10/10/10/10/10/10/*8*"
    text = f"classic[max_turns=0,stall_limit=0] {board} bg 0 ?7/?7 -/- - 90 {COUNTER_MAX - 3} 0"
    line = fails("show", "-", "--play-random", "--seed", "1", input=text)
    assert line.startswith(f"seqsolve: random play stopped at turn {COUNTER_MAX}: the turn counter")


def test_an_exchange_limit_is_refused_past_its_range_and_plays_as_unlimited_at_its_top():
    """C-14 option dead_card_exchanges_per_turn=65536 was an OverflowError on loading a file;
    now it is past the option's range (one line), and the top of the range, more
    exchanges than a hand holds, plays exactly as unlimited."""
    board = "*8*/10/10/10/10/10/10/10/10/*8*"
    text = f"classic[dead_card_exchanges_per_turn=65536] {board} bg 0 ?7/?7 -/- - 90 0 0"
    assert "must be 0..40 or unlimited, not 65536" in fails("show", "-", input=text)
    games = []
    for limit in ("40", "unlimited"):
        text = f"classic[dead_card_exchanges_per_turn={limit}] {board} bg 0 ?7/?7 -/- - 90 0 0"
        games.append(
            json.loads(ok("show", "-", "--play-random", "--seed", "4", "--json", input=text))["played"]
        )
    assert games[0] == games[1] and any(t.startswith("~") for t in games[0])


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda d: Path("/dev/zero"), "/dev/zero: larger than 1 MB: not a position file"),
        (lambda d: d, "cannot read position file: Is a directory"),
        (lambda d: d / "missing.sqn", "cannot read position file: No such file or directory"),
        (lambda d: (os.mkfifo(d / "fifo"), d / "fifo")[1], "fifo:1:1: empty position"),
        (lambda d: (d / "bin").write_bytes(bytes(range(128, 256))) and d / "bin", "bin: not UTF-8 text"),
        (lambda d: (d / "z").write_bytes(b"\0" * 100) and d / "z", "z: binary data (a NUL byte at offset 0)"),
    ],
    ids=["dev-zero", "directory", "missing", "fifo-without-writer", "binary", "nul"],
)
def test_files_that_are_not_positions_are_one_line(make, expected, tmp_path):
    """Whatever the path names, show ends at once with one line naming it (no MemoryError,
    no hang, no codec message)."""
    path = make(tmp_path)
    line = fails("show", str(path))
    assert line.startswith(f"seqsolve: {path}") and expected in line, line


def test_stdin_that_is_not_a_position_is_one_line():
    """Standard input has the 1 MB limit and the UTF-8 check of a file."""
    assert (
        fails("show", "-", input=b"\xff\xfe") == "seqsolve: <stdin>: not UTF-8 text (byte 0xff at offset 0)"
    )
    line = fails("show", "-", input=b"1" * (2 << 20))
    assert line == "seqsolve: <stdin>: larger than 1 MB: not a position file"


def test_subprocess_exit_codes_and_streams(tmp_path):
    """The real entry point: exit codes, one stderr line, nothing on stdout."""
    bad = tmp_path / "bad.sqn"
    bad.write_text("classic *8*/10 bg 0\n")
    proc = subprocess.run(
        [sys.executable, "-m", "seqsolve", "show", str(bad)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(f"seqsolve: {bad}:1:")
    proc = subprocess.run(
        [sys.executable, "-m", "seqsolve", "apply", "example:2", "AH@f2", "AH@f2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("seqsolve: move 2 'AH@f2' is illegal:")
    proc = subprocess.run(
        [sys.executable, "-m", "seqsolve", "--version"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and proc.stdout.strip() == f"seqsolve {__version__}"


def test_click_is_the_command_framework():
    assert isinstance(main, click.Group)
