"""A slow, obvious reference of the rules, for parity tests against the core.

Written for clarity with sets and lists, never for speed (STYLE habit 9).
The compiled core must agree with it move for move:

* :mod:`.sequences` (``overlap_allows``, ``eligible_windows``,
  ``maximum_declarations``) are the sequence rules C-24..C-28;
* :mod:`.game` (``RefGame``) is a whole full-information game (classic, Numbers or the
  draft variant): ``legal_moves()`` lists the P-13 strings in canonical order
  and ``apply()`` plays one action, raising ``ValueError`` with the reason
  when it is illegal.

Nothing in the package imports it: it is the oracle the tests and
``benchmarks/bench.py`` compare the compiled core with (``seqsolve bench`` times
the core alone).
"""
