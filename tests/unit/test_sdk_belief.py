"""The SDK's belief helper (issue 14 point 6): the example bot of docs/bots.md ("Who is who")
runs as written, and the helper answers from the observation alone."""

from __future__ import annotations

import random
import re
from pathlib import Path

from engine import Game
from engine.bots import POLICIES
from fengsheng.bot.belief import belief_of, identity_odds, same_side_odds

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_bot_in_the_docs_runs(capsys: object) -> None:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text[text.index("## Who is who: the belief helper"):]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    code = block.group(1)
    assert len(code.strip().splitlines()) <= 30
    scope: dict[str, object] = {"__name__": "example"}
    exec(compile(code, "docs/bots.md", "exec"), scope)  # our own documentation
    report = scope["report"]
    assert report.total.games == 4  # type: ignore[attr-defined]


def test_helper_answers_from_the_observation() -> None:
    g = Game.new(players=5, seed=4)
    rng = random.Random(4)
    while (p := g.pending) is not None and g.decision_number < 150:
        g.apply(p.seat, POLICIES["v2"](g.observation(p.seat), g.legal_actions(p.seat), rng))
    for seat in range(5):
        obs = g.observation(seat, include_events=True)
        odds = identity_odds(obs)
        assert odds[seat][g.state.seats[seat].identity] > 1 - 1e-9
        side = same_side_odds(obs)
        assert side[seat] > 1 - 1e-9 and all(0 <= x <= 1 + 1e-9 for x in side)
        assert belief_of(obs).seat == seat
