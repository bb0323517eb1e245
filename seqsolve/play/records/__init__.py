"""Match record files: the one place that reads, checks, locks, appends and replays them.

A record file is JSON lines: a header ``{"seqsolve": "match", "format": 1,
"config": {...}}`` naming the match, then one object per finished game (see
:data:`GAME_FIELDS`).  One concern a module: :mod:`.schema` (what a header and a game
record must hold), :mod:`.reading` (every reader checks the whole file first),
:mod:`.writing` (locked, appended, resumed), :mod:`.outputs` (the other files and
folders a run writes) and :mod:`.replay` (a recorded game back into a state).  Callers
import from here, so a name keeps its address when it moves between them.
"""

from __future__ import annotations

from .outputs import check_output_file, check_output_folder, make_output_folder, write_figure, write_text
from .reading import (
    Scan,
    check_file,
    check_files,
    check_seed_scheme,
    find_game,
    games_by_number,
    loads_json,
    read_records,
    recorded_seed,
    scan,
    scan_bytes,
)
from .replay import Replay, Step, game_ending, result_text, start_state, turns
from .schema import (
    GAME_FIELDS,
    OPTIONAL_FIELDS,
    RECORD_FORMAT,
    UNFINISHED,
    RecordError,
    check_game,
    check_header,
)
from .writing import FolderLock, RecordFile, record_lines

__all__ = [
    "GAME_FIELDS",
    "OPTIONAL_FIELDS",
    "RECORD_FORMAT",
    "UNFINISHED",
    "FolderLock",
    "RecordError",
    "RecordFile",
    "Replay",
    "Scan",
    "Step",
    "check_file",
    "check_files",
    "check_game",
    "check_header",
    "check_output_file",
    "check_output_folder",
    "check_seed_scheme",
    "find_game",
    "game_ending",
    "games_by_number",
    "loads_json",
    "make_output_folder",
    "read_records",
    "record_lines",
    "recorded_seed",
    "result_text",
    "scan",
    "scan_bytes",
    "start_state",
    "turns",
    "write_figure",
    "write_text",
]
