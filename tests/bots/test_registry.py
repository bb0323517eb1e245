"""Each game has its own bots under the same names (issue 12): ``make_bot(spec, game)``
asks the game, a bot that wraps another gets one of the same game, and an unknown bot
of a game says so in one line."""

from __future__ import annotations

import pytest

from seqsolve.bots import Bot, BotError, bot_classes, make_bot
from seqsolve.games.sequence.bots.simple import RandomBot
from seqsolve.games.sequence.game import SEQUENCE


class _Coin(Bot):
    """A bot of the toy game: always its first legal action."""

    name = "random"
    summary = "the first legal action"
    params: dict = {}


class _Toy:
    """A second game as far as the bot registry sees one: a name and its bots."""

    name = "toy"

    @staticmethod
    def bot_classes():
        return {"random": _Coin, "restricted": SEQUENCE.bot_classes()["restricted"]}


def test_the_default_game_is_sequence():
    assert bot_classes() == SEQUENCE.bot_classes() == bot_classes(SEQUENCE)
    assert type(make_bot("random")) is RandomBot
    assert type(make_bot("random", SEQUENCE)) is RandomBot


def test_a_second_game_registers_its_own_bot_under_the_same_name():
    assert type(make_bot("random", _Toy())) is _Coin
    assert set(bot_classes(_Toy())) == {"random", "restricted"}


def test_an_unknown_bot_of_a_game_names_the_game_in_one_line():
    with pytest.raises(BotError) as found:
        make_bot("greedy", _Toy())
    message = str(found.value)
    assert message == "unknown bot 'greedy' of toy (known: random, restricted; see 'seqsolve bots')"
    with pytest.raises(BotError, match=r"^unknown bot 'alphazero' \(known: random, greedy,"):
        make_bot("alphazero")  # Sequence's message, as users know it


def test_a_wrapped_bot_is_one_of_the_same_game():
    bot = make_bot("restricted:no=exchange,bot=random", _Toy())
    assert type(bot.inner) is _Coin
    assert type(make_bot("restricted:no=exchange,bot=random").inner) is RandomBot


@pytest.mark.parametrize("name", ["draft", "classic[hand_bonus=1]", "stacks"])
def test_a_variant_given_as_a_bot_is_named_a_variant(name):
    with pytest.raises(BotError) as found:
        make_bot(name)
    assert str(found.value).endswith(f": {name!r} is a variant, which the commands take with --variant")
    assert "\n" not in str(found.value)
