"""Snapshots written before the engine core moved 风声再临 into engine/rulesets/return/
(commit a46b44c) still restore, and the restored match continues exactly as it did then:
the same actions give byte-identical snapshots. The fixture holds games with and without
characters, stopped at a response point, an intel arrival and the character choice."""

from __future__ import annotations

import base64
import dataclasses
import json
from pathlib import Path

import pytest

from engine import Game

FIXTURE = json.loads((Path(__file__).parent / "data" / "snapshots_a46b44c.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", FIXTURE["games"], ids=lambda g: f"seed{g['seed']}-{g['players']}p")
def test_an_old_snapshot_restores_and_continues_the_same(game: dict[str, object]) -> None:
    restored = Game.restore(base64.b64decode(str(game["snapshot"])))
    assert restored.state.ruleset == "return"
    assert restored.ruleset.id == "return"
    pending = restored.pending
    assert (pending.kind if pending else None) == game["pending_kind_at_snapshot"]
    actions = game["actions"]
    assert isinstance(actions, list) and actions
    for seat, action in actions:
        assert action in restored.legal_actions(seat)
        restored.apply(seat, action)
    then = Game.restore(base64.b64decode(str(game["after"])))
    # The game state continues exactly as it did then, all but the count of log lines: skill
    # lines that name hand cards still hidden now show them only to their user and holders
    # and "?" to the rest (docs/rule-decisions.md §17, docs/security/leaks.md), one line each.
    assert dataclasses.replace(restored.state, event_count=0) == dataclasses.replace(then.state, event_count=0)
    assert restored.state.event_count >= then.state.event_count
