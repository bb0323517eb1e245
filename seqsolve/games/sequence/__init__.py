"""Sequence, the board game: cards, board, rules, moves, positions and their text
forms, and :class:`~.state.State`, the Python face of the compiled core
(``seqsolve._core``); :data:`~.game.SEQUENCE` is the game behind the interface of
:mod:`seqsolve.games.base`, as the runners see it.  The rule IDs in the docstrings
(C-25, P-11, D-4) are those of RULES.md.
"""
