"""The core's trigger windows (engine/windows.py; docs/decisions.md "Trigger windows in the
core"): turn order from a start seat, the listener index, the cover of face-down seats and
the per-seat frames pushed so the first seat answers first — checked on a fake game and on
real matches of every ruleset."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from engine import windows
from engine.action import PASS
from engine.game import Game
from engine.rulesets import RULESET_IDS, get_ruleset
from engine.state import Frame, Seat


@dataclass
class _State:
    players: int
    seats: list[Seat] = field(default_factory=list)


@dataclass
class _Game:
    state: _State
    stack: list[Frame] = field(default_factory=list)

    def push(self, fr: Frame) -> None:
        self.stack.append(fr)


def test_seats_in_turn_order_from_the_start_seat() -> None:
    assert windows.seats_from(_State(5), 3) == [3, 4, 0, 1, 2]  # type: ignore[arg-type]
    assert windows.seats_from(_State(3), 0) == [0, 1, 2]  # type: ignore[arg-type]


def test_a_face_down_seat_is_a_living_one_with_a_hidden_character() -> None:
    assert windows.face_down(Seat(identity="latent", character="shan_ling", exposed=False))
    assert not windows.face_down(Seat(identity="latent", character="shan_ling", exposed=True))
    assert not windows.face_down(Seat(identity="latent", character="shan_ling", exposed=False, alive=False))
    assert not windows.face_down(Seat(identity="latent", character="", exposed=False))  # characters off


def test_per_seat_frames_run_in_turn_order_from_the_start() -> None:
    game = _Game(_State(4))
    asked = {0: ["a"], 1: [], 2: ["b", "c"], 3: ["d"]}
    windows.open_per_seat(game, 2, lambda s: [Frame("trigger", seat=s, text=t) for t in asked[s]])  # type: ignore[arg-type]
    # a stack: the top frame (last pushed) is the first asked
    assert [fr.text for fr in reversed(game.stack)] == ["b", "c", "d", "a"]


def test_listeners_are_indexed_once_per_window() -> None:
    calls = 0

    def registry() -> list[tuple[str, tuple[str, ...]]]:
        nonlocal calls
        calls += 1
        return [("kan_po", ("received",)), ("jiu_ji", ("received", "turn_end")), ("x", ())]

    listening = windows.Listeners(registry)
    assert listening("received") == {"kan_po", "jiu_ji"}
    assert listening("turn_end") == {"jiu_ji"}
    assert listening("received") == {"kan_po", "jiu_ji"}
    assert listening("nothing") == frozenset()
    assert calls == 3  # once per window name, not per call


def _trigger_prompts(ruleset_id: str, games: int) -> list[tuple[int, int, list[int]]]:
    """(game, seat, the seats of the frames waiting on the stack) at every trigger prompt of
    ``games`` seeded characters-on matches (always passing, so the matches are the same up
    to who is asked when)."""
    rules = get_ruleset(ruleset_id)
    counts = sorted(rules.identity_table)
    seen: list[tuple[int, int, list[int]]] = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new(ruleset=ruleset_id, players=counts[seed % len(counts)], seed=seed, characters=True)
        for _ in range(4000):
            pending = game.pending
            if pending is None or game.outcome is not None:
                break
            actions = game.legal_actions(pending.seat)
            if pending.kind == "trigger":
                seen.append((seed, pending.seat, [fr.seat for fr in game.state.stack]))
                action = PASS if PASS in actions else actions[0]
            else:
                action = rng.choice(actions)
            game.apply(pending.seat, action)
    return seen


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_ruleset_asks_in_the_cores_order(ruleset_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ruleset's windows take their order from the core: with ``seats_from`` turned
    backwards, the same matches ask the seats in another order (prompts, or the frames
    queued behind one)."""
    if not get_ruleset(ruleset_id).characters:
        pytest.skip("no characters, no trigger windows")
    forward = _trigger_prompts(ruleset_id, 20)
    assert len(forward) > 20, "too few trigger prompts to compare"
    real = windows.seats_from
    monkeypatch.setattr(windows, "seats_from", lambda st, start: [real(st, start)[0], *reversed(real(st, start)[1:])])
    assert _trigger_prompts(ruleset_id, 20) != forward
