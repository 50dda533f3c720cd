"""Actions are values (issue 27 point 1): every legal action of a random game in each
ruleset is an :class:`engine.Action` whose text form reads back to the same value, text and
value are applied alike, and text that is not an action is refused with the legal list."""

from __future__ import annotations

import random

import pytest

from engine import Action, Game, IllegalAction, NotationError
from engine.action import PASS
from engine.notation import parse


@pytest.mark.parametrize("ruleset", ["return", "classic", "spy"])
@pytest.mark.parametrize("characters", [False, True])
def test_every_legal_action_round_trips_through_its_text(ruleset: str, characters: bool) -> None:
    seen = 0
    for seed in range(3):
        g = Game.new(ruleset=ruleset, players=5, seed=seed, characters=characters)
        rng = random.Random(seed)
        while (p := g.pending) is not None and g.state.turn_number < 60:
            legal = g.legal_actions(p.seat)
            for a in legal:
                assert isinstance(a, Action)
                text = str(a)
                assert parse(text) == a, text
                assert str(parse(text)) == text
                assert hash(parse(text)) == hash(a)
            seen += len(legal)
            g.apply(p.seat, rng.choice(legal))
    assert seen > 100


def test_text_and_value_apply_alike() -> None:
    a, b = Game.new(players=5, seed=4), Game.new(players=5, seed=4)
    rng = random.Random(1)
    for _ in range(200):
        p = a.pending
        if p is None:
            break
        action = rng.choice(a.legal_actions(p.seat))
        a.apply(p.seat, action)
        b.apply(p.seat, "  " + str(action).upper().replace(" ", "  ") + " ")
        assert a.history == b.history
        assert a.snapshot() == b.snapshot()


def test_play_options_in_any_order_and_code_aliases() -> None:
    act = parse("play 7 as lock to 1")
    assert act == Action("play", card=7, to=(1,), alt="lock")
    assert str(act) == "play 7 to 1 as lock"
    assert parse("play 12 code ting_feng", {"ting_feng": "听风"}).code == "听风"
    assert str(parse("skill ji_song to 2 cards 3,4")) == "skill ji_song cards 3,4 to 2"
    assert str(parse("send 5 to 3 lock 3")) == "send 5 to 3 lock 3"
    assert parse("choose 3,4 to 1") == Action("choose", picks=(3, 4), to=(1,))
    assert str(parse("choose lao_qiang hidden")) == "choose lao_qiang hidden"


@pytest.mark.parametrize("text", ["", "play", "play x", "send 3 sideways", "flip 3", "pass now", "play 3 to"])
def test_text_that_is_no_action_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse(text)
    g = Game.new(players=5, seed=1)
    p = g.pending
    assert p is not None
    before = g.snapshot()
    with pytest.raises(IllegalAction) as err:
        g.apply(p.seat, text)
    assert err.value.legal == g.legal_actions(p.seat)
    assert g.snapshot() == before


def test_illegal_value_lists_the_alternatives() -> None:
    g = Game.new(players=5, seed=1)
    p = g.pending
    assert p is not None and PASS not in g.legal_actions(p.seat)
    with pytest.raises(IllegalAction) as err:
        g.apply(p.seat, PASS)
    assert err.value.legal and all(isinstance(a, Action) for a in err.value.legal)
