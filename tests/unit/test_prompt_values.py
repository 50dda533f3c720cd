"""A prompt's options are :class:`engine.action.Action` values, never their text (issue 27,
issue 31 §1): every ruleset builds them as values and the legal actions read them as such.
A snapshot writes their canonical text (format 5's bytes) and reads it back once on restore.

Walks seeded random games of each ruleset with characters on (the character deal, the
skills' ``trigger`` and the cards' and skills' ``choose`` decisions list options)."""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.action import Action
from engine.snapshot import state_from_bytes

#: (ruleset, player counts): 谍战篇 seats 5–8, the others 3–7 here.
RULESETS = [("return", (3, 5, 7)), ("classic", (3, 5, 7)), ("spy", (5, 6, 8))]
SEEDS = range(6)


@pytest.mark.parametrize(("ruleset", "counts"), RULESETS)
def test_prompt_options_are_values_and_survive_a_snapshot(ruleset: str, counts: tuple[int, ...]) -> None:
    with_options = 0
    for players in counts:
        for seed in SEEDS:
            game = Game.new(ruleset=ruleset, players=players, seed=seed, characters=True)
            pick = random.Random(seed).choice
            st = game.state
            while not st.over and st.turn_number <= 200:
                p = st.prompt
                assert p is not None
                assert all(type(o) is Action for o in p.options), (ruleset, seed, p.kind, p.options)
                if p.options:
                    with_options += 1
                    snap = game.snapshot()
                    back = state_from_bytes(snap).prompt
                    assert back is not None
                    assert all(type(o) is Action for o in back.options)
                    assert back.options == p.options
                    assert [o.canonical for o in back.options] == [o.canonical for o in p.options]
                    assert Game.restore(snap).snapshot() == snap
                    if p.kind in ("choose", "character"):  # the legal list is the prompt's options
                        assert game.legal_actions(p.seat) == p.options
                game.apply(p.seat, pick(game.legal_actions(p.seat)))
    assert with_options > 10, f"{ruleset}: too few decisions with listed options were walked ({with_options})"


def test_a_prompt_of_text_options_is_not_a_snapshot_the_engine_writes() -> None:
    """The snapshot writes a prompt's options as the canonical text of values: a prompt that
    held text (the old form) would not restore to the same values."""
    game = Game.new(ruleset="return", players=5, seed=1, characters=True)
    p = game.state.prompt
    assert p is not None and p.kind == "character" and p.options
    snap = game.snapshot()
    texts = [o.canonical for o in p.options]
    for text in texts:
        assert text.encode() in snap  # written as its canonical text
    restored = state_from_bytes(snap).prompt
    assert restored is not None
    assert [o.option for o in restored.options] == [o.option for o in p.options]
    assert all(o.kind == "choose" for o in restored.options)
