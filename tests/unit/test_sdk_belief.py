"""The SDK's belief helper (issue 14 point 6): the example bot of docs/bots.md ("Who is who")
runs as written, and the helper answers from the observation alone."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from engine import Game
from engine.belief import RECEIVED, Belief
from engine.bots import POLICIES
from fengsheng.bot import belief as belief_module
from fengsheng.bot.belief import belief_of, identity_odds, same_side_odds
from fengsheng.v1 import game_pb2
from fengsheng_bot import Observation

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_bot_in_the_docs_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """It runs as written in every ruleset, and its belief branch (a send to a named seat,
    read from the typed legal actions) fires in each: 谍战篇's ↑ sends included."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text[text.index("## Who is who: the belief helper"):]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    code = block.group(1)
    assert len(code.strip().splitlines()) <= 30
    asked: Counter[str] = Counter()

    def counting(observation: Observation) -> list[float]:
        asked[observation.ruleset] += 1
        return same_side_odds(observation)

    monkeypatch.setattr(belief_module, "same_side_odds", counting)
    scope: dict[str, object] = {"__name__": "example"}
    exec(compile(code, "docs/bots.md", "exec"), scope)  # our own documentation
    report = scope["report"]
    assert report.total.games == 2  # type: ignore[attr-defined]
    assert set(asked) == {"return", "classic", "spy"}, asked


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


def _a_weighed_send(ruleset: str) -> tuple[game_pb2.Observation, int, int, int]:
    """A v2 game of ``ruleset`` up to the first intel received whose sender's identity the
    viewer does not know: (the viewer's observation, the viewer, the sender, the index of
    the event of the intel received)."""
    for seed in range(40):
        g = Game.new(ruleset=ruleset, players=5, seed=seed)
        rng = random.Random(seed)
        sender = -1
        while (p := g.pending) is not None and g.decision_number < 400:
            before = len(g.events)
            g.apply(p.seat, POLICIES["v2"](g.observation(p.seat), g.legal_actions(p.seat), rng))
            for e in g.events[before:]:
                if e.kind == "send":
                    sender = e.seat
                elif e.kind in RECEIVED and e.cards and not e.audience and sender >= 0:
                    viewer = (sender + 2) % 5
                    obs = g.observation(viewer, include_events=True)
                    if identity_odds(obs)[sender][g.state.seats[sender].identity] < 0.99:
                        return obs, viewer, sender, e.index
                    sender = -1
    raise AssertionError(f"no intel received from an unknown sender in 40 {ruleset} games")


def _upto(obs: game_pb2.Observation, last: int) -> game_pb2.Observation:
    cut = game_pb2.Observation()
    cut.CopyFrom(obs)
    del cut.events[:]
    cut.events.extend(e for e in obs.events if e.index <= last)
    return cut


@pytest.mark.parametrize("ruleset", ["return", "classic", "spy"])
def test_the_helper_weighs_each_rulesets_sends(ruleset: str) -> None:
    """Issue 27 §3: the helper follows the sends and receives of every ruleset (谍战篇's
    ``send 53 to 0`` / ``send 53 left`` and its ``receive`` events too), read as values:
    the intel received moves its sender's identity odds, as the bot sees them through the
    SDK (typed events) and through the message alike."""
    obs, viewer, sender, received = _a_weighed_send(ruleset)
    before, after = _upto(obs, received - 1), _upto(obs, received)
    b = Belief(ruleset, 5, viewer)
    b.observe(before)
    new = b.features(e for e in after.events if e.index == received)
    assert [who for who, _ in new] == [sender]
    modes = ("left", "right", "up") if ruleset == "spy" else ("secret", "direct", "text")
    assert new[0][1].startswith("send:") and new[0][1].split(":")[2] in modes
    assert new[0][1] in b.table  # the fitted model weighs this ruleset's sends
    for view in (Observation(before), before):
        odds_before = identity_odds(view)[sender]
        odds_after = identity_odds(Observation(after) if isinstance(view, Observation) else after)[sender]
        assert max(abs(odds_after[i] - odds_before[i]) for i in odds_before) > 1e-4
