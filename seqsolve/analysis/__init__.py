"""Analysis of a position and annotation of a recorded game: what to play, and why.

:mod:`.search` drives the compiled search and ranks every legal turn (its docstring
says how the search is used); :mod:`.threats` finds the exact answers and threats
by trying moves; :mod:`.spec` reads what is asked for; :mod:`.results` holds what
is found; :mod:`.annotate` walks a recorded game.
"""
