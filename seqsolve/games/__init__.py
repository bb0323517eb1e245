"""The games seqsolve plays, one folder each: :mod:`.sequence` (the board game)."""
