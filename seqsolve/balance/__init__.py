"""Rule-variant balance: how fair and how decisive each variant is.

A *grid* of variants (:mod:`.grid`) (presets, ``--vary`` options, seatings) is expanded into
:class:`VariantPoint` s.  For every point the match runner plays self-play
games with every bot fixed on its seat and a fresh deal per game
(``MatchConfig(fixed_seats=True)``), recording per-game details
(the game's ``tally``: legal-move counts, exchanges, jacks, reshuffles, the final
chips and sequences).  Optionally it also plays two kinds of matches:

* **restricted play** -- the bot against the same bot barred from a rule
  (``restricted:no=two_eyed``; see :mod:`seqsolve.games.sequence.bots.restricted`): the
  bot's score says how much the rule is worth to a player;
* **skill versus luck** -- a strong bot against a weak one: the more the
  strong bot wins, the more the variant rewards skill.

Every run is the match runner's: seeds per game from ``SeedSequence``, one
resumable JSON-lines record file per point and job under the output folder,
and a ``manifest.json`` naming the run (:mod:`.manifest`).  The games of a point come from
a stream of the root seed keyed by the point itself (:mod:`seqsolve.play.seeds`) (not its place in the grid), so adding a
variant to a grid changes nothing for the others, and the same variant listed
twice (a *replica*) gets its own, independent games.

A *race* (:mod:`.race`, the ``fair`` command) plays the same self-play games for the
candidate values of compensation rules, in rounds, and drops the clearly unfair ones on
anytime-valid intervals (:mod:`.sequential`).

Everything reported is computed from the records by :func:`.metrics.summarize_point`
(the metrics are defined in docs/balance-metrics.md) and written out by
:mod:`.output` and :mod:`.plots`.
"""
