"""Who is asked by a classic automatic skill depends on public information only
(design.md "Prompt order must not leak hands"; docs/rule-decisions.md, classic): at every
moment an automatic skill could fire in random classic games with characters, the seats
it asks stay the same when the hidden information (hand contents, face-down characters,
unrevealed identities) is dealt differently among the seats."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import Game
from engine.rulesets.classic import flow, legal
from engine.rulesets.classic.cards import table
from engine.rulesets.classic.characters import base
from fengsheng.simulate import play_random


def _reshuffle(g: Game, pick: random.Random) -> None:
    """Deal the hidden information again: hand contents (sizes kept: they are public),
    characters of the living face-down seats, identities not yet revealed."""
    seats = g.state.seats
    cards = [c for s in seats for c in s.hand]
    pick.shuffle(cards)
    for s in seats:
        n = len(s.hand)
        s.hand[:] = cards[:n]
        del cards[:n]
    down = [s for s in seats if s.alive and s.character and not s.exposed]
    chars = [s.character for s in down]
    pick.shuffle(chars)
    for s, c in zip(down, chars, strict=True):
        s.character = c
    secret = [s for s in seats if not s.identity_revealed]
    ids = [s.identity for s in secret]
    pick.shuffle(ids)
    for s, i in zip(secret, ids, strict=True):
        s.identity = i


def _asked(g: Game, before: int) -> list[int]:
    """The seats of the skill frames ``fire`` pushed, in order."""
    return [fr.seat for fr in g.state.stack[before:] if fr.kind == "skill_step"]


def test_asked_seats_do_not_depend_on_hidden_information(monkeypatch: pytest.MonkeyPatch) -> None:
    real = base.fire
    checked: list[str] = []
    pick = random.Random(7)

    def fire(g: Game, event: str, seat: int, **kw: Any) -> None:
        snap = g.snapshot()
        chain_at = next((i for i, it in enumerate(g.state.chain) if it is kw.get("item")), -1)
        before = len(g.state.stack)
        real(g, event, seat, **kw)
        asked = _asked(g, before)
        for _ in range(3):
            other = Game.restore(snap)
            _reshuffle(other, pick)
            okw = dict(kw)
            if chain_at >= 0:
                okw["item"] = other.state.chain[chain_at]
            real(other, event, seat, **okw)
            assert _asked(other, before) == asked, (event, seat, asked)
        checked.append(event)

    wrapped: Callable[..., None] = fire
    for mod in (flow, legal, table):
        monkeypatch.setattr(mod, "fire", wrapped)
    for seed in range(24):
        play_random(seed, 3 + seed % 5, ruleset="classic", characters=True)
    # The check saw the moments that matter (a test that could not fail proves nothing).
    assert {"used_on", "received", "dying", "seen_through"} <= set(checked)
