"""Sequence Stacks (RULES.md §4): the pure card game of the fifth rule book, the
tool's second game.  Cards (:mod:`.cards`), the variant (:mod:`.rules`), decisions
as integers and their notation (:mod:`.actions`), positions (:mod:`.position`);
docs/stacks.md is the written contract they keep."""
