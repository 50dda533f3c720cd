"""Issue 27 §3, the bot side: ``decide`` gets typed values. The SDK's legal actions carry
every field of the engine's :class:`engine.Action` (kind, card, target seats, mode / arrow,
lock, named cards, options …) beside their text, and its events their kind and typed
arguments (an ``action`` event the seat may see: the action as a value), in every ruleset;
no value is read from notation or from a log line."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from engine import Game
from engine.action import Action as EngineAction
from engine.bots import POLICIES
from engine.game import EVENT_FORMAT
from fengsheng.bot.examples import heuristic_decide
from fengsheng.v1 import game_pb2
from fengsheng_bot import Action, Event, Observation
from fengsheng_bot.client import ask
from gateway.convert import to_dict

ROOT = Path(__file__).resolve().parents[2]

RULESETS = ("return", "classic", "spy")
FIELDS = ("kind", "card", "pile", "skill", "to", "on", "chain", "cards", "mode", "arrow", "code", "alt", "picks",
          "options", "face")  # fmt: skip


def _same(value: Action, engine: EngineAction) -> None:
    assert value.text == str(engine)
    for name in FIELDS:
        assert getattr(value, name) == getattr(engine, name), (name, value.text)
    assert value.lock == (None if engine.lock < 0 else engine.lock)


def _games(ruleset: str, seeds: range, cap: int = 400) -> Any:
    """Each decision of v2 self-play: (game, seat) before the seat answers."""
    for seed in seeds:
        g = Game.new(ruleset=ruleset, players=5, seed=seed)
        rng = random.Random(seed)
        while (p := g.pending) is not None and g.decision_number < cap:
            yield g, p.seat
            g.apply(p.seat, POLICIES["v2"](g.observation(p.seat), g.legal_actions(p.seat), rng))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_legal_actions_are_the_engines_values(ruleset: str) -> None:
    kinds: set[str] = set()
    sends_with: set[str] = set()
    for g, seat in _games(ruleset, range(2)):
        view = Observation(g.observation(seat))
        legal = g.legal_actions(seat)
        assert len(view.legal) == len(legal) > 0
        for value, engine in zip(view.legal, legal, strict=True):
            _same(value, engine)
            kinds.add(value.kind)
            if value.kind == "send":
                sends_with |= {f for f in ("mode", "arrow", "to") if getattr(value, f)}
                sends_with |= {"lock"} if value.lock is not None else set()
    assert {"pass", "send", "play"} <= kinds
    # 再临 / classic sends name a mode, 谍战篇's an arrow or a target (and may lock a seat)
    assert sends_with >= ({"to", "lock"} if ruleset == "spy" else {"mode", "to"})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_events_are_kinds_and_typed_arguments(ruleset: str) -> None:
    games = list(_games(ruleset, range(1), cap=300))
    g, _ = games[-1]
    for seat in range(5):
        obs = g.observation(seat, include_events=True)
        mine = g.events_for(seat)
        typed = Observation(obs).events
        assert len(typed) == len(mine) > 10
        acted = 0
        for value, engine, msg in zip(typed, mine, obs.events, strict=True):
            assert isinstance(value, Event) and msg.format == EVENT_FORMAT
            assert (value.index, value.kind, value.seat, value.template) == (engine.index, engine.kind, engine.seat,
                                                                             engine.key)  # fmt: skip
            assert value.args == engine.args
            if engine.action is not None:
                acted += 1
                assert value.action is not None and value.template == "action.action"
                _same(value.action, engine.action)
            else:
                assert value.action is None and not msg.HasField("action")
        assert acted > 5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_hidden_action_carries_no_value_to_the_others(ruleset: str) -> None:
    """Another seat's hidden action (a face-down send, a 试探 …) reaches the other seats as
    its public form only: a row of its own with typed arguments, or the action with its
    hidden cards face down (``shown``); the value taken (and its card) stays with the
    audience."""
    hidden = 0
    g = list(_games(ruleset, range(1), cap=200))[-1][0]
    for e in g.events:
        if e.key != "action.action" or not e.audience:
            continue
        for viewer in range(-1, 5):
            shown = [m for m in g.observation(viewer, include_events=True).events if m.index == e.index]
            if e.visible_to(viewer):
                assert shown and shown[0].HasField("action")
            else:
                hidden += 1
                assert not any(m.HasField("action") for m in shown)
                public = [m for m in g.observation(viewer, include_events=True).events if m.index == e.index + 1]
                assert public and public[0].kind == "action" and public[0].template != "action.action"
                assert not public[0].HasField("action")
                if public[0].template == "action.hidden":
                    face_down = public[0].shown
                    assert e.action is not None and face_down.kind == e.action.kind
                    assert e.action.card not in (face_down.card, *face_down.cards) or not e.action.card
                else:
                    assert not public[0].HasField("shown")
    assert hidden > 0


def test_decide_answers_with_a_value_or_its_text() -> None:
    obs = game_pb2.Observation(ruleset="return", players=5, viewer=1,
                               legal=[game_pb2.Action(text="pass", kind="pass"),
                                      game_pb2.Action(text="send 7 direct to 3", kind="send", card=7, mode="direct",
                                                      to=[3])])  # fmt: skip
    texts = ["pass", "send 7 direct to 3"]

    def by_value(o: Observation, legal: list[Action]) -> Action:
        return next(a for a in legal if a.kind == "send" and a.target == 3 and a.lock is None)

    assert ask(by_value, obs, texts, "t") == "send 7 direct to 3"
    assert ask(lambda o, legal: legal[0].text, obs, texts, "t") == "pass"
    # an action is never equal to a string: that is a bug in the bot, answered by the default
    assert ask(lambda o, legal: legal[0] if "pass" in legal else None, obs, texts, "t") is None
    with pytest.raises(TypeError, match=r"compare action\.kind"):
        _ = Action(text="pass", kind="pass") == "pass"
    # values without their texts (or the other way round) are refused, not guessed
    assert ask(by_value, obs, ["pass"], "t") is None


def test_the_example_bots_answer_with_legal_values() -> None:
    for g, seat in _games("spy", range(1), cap=120):
        view = Observation(g.observation(seat, include_events=True))
        answer = heuristic_decide(view, view.legal)
        assert isinstance(answer, Action) and answer in view.legal


def test_the_protocol_docs_json_values_are_the_gateways() -> None:
    """docs/protocol.md's JSON examples of actions and events are exactly what the gateway
    prints for those messages (gateway/convert.py: every field, a oneof or an ``optional``
    field only when set), and an event's ``action`` is its ``text``'s action."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Actions as values"):doc.index("## Redis layout")]
    actions = events = 0
    for body in re.findall(r"```json\n(.*?)```", section, re.S):
        example = json.loads(body)
        if example.get("type") == "prompt":
            for a in example["legal"]:
                assert to_dict(json_format.ParseDict(a, game_pb2.Action())) == a
                actions += 1
            continue
        msg = json_format.ParseDict(example, game_pb2.Event())
        assert to_dict(msg) == example and msg.format == EVENT_FORMAT
        if msg.HasField("action"):
            assert msg.action.text == next(a.text for a in msg.args if a.name == "action")
            actions += 1
        events += 1
    assert actions >= 4 and events >= 4
