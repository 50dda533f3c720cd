"""The answer composers (issue 27 §4 "Compose, don't enumerate"): the web client's
gateway/static/js/compose.js (run under node) and the terminal's fengsheng/compose.py.

The legal actions of every decision of seeded random games in each ruleset (with
characters, so skills show up) go through the wire's JSON (``action_message`` →
``to_dict``, what the gateway sends); for each action a walker taps the composer's buttons
that keep it open (plain choices, or toggles then confirm) and checks that:
- every legal action is reached, exactly it, and no step offers a value no action has;
- a step never offers a single value (it would be a useless tap);
- a 谍战篇 send takes at most 3 taps;
- the JS and the Python composer ask the same questions and tap the same count.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine.game import Game
from engine.observation import action_message
from fengsheng.compose import Chosen, can_add, next_step, set_for
from gateway.convert import to_dict

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "gateway" / "static" / "js" / "compose.js"

#: the walk, in node: for each decision's legal list, for each action, the taps to reach it
WALK_JS = r"""
import { readFileSync } from "node:fs";
import * as C from "./compose.mjs";
const decisions = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const legal of decisions) {
  const row = [];
  for (const target of legal) {
    const path = [];
    const slots = [];
    let taps = 0, got = null, bad = "";
    for (let guard = 0; guard < 40 && !got && !bad; guard++) {
      const step = C.nextStep(legal, path);
      if (step.done) { got = step.done.text; break; }
      slots.push(step.slot);
      const offered = step.choices.length + (step.multi ? step.multi.sets.length : 0);
      if (offered < 2) { bad = `step ${step.slot} offers ${offered}`; break; }
      for (const c of step.choices) if (!c.reach.length) bad = "empty reach";
      const choice = step.choices.find((c) => c.reach.some((a) => a.text === target.text));
      if (choice) {
        taps++;
        if (choice.reach.length === 1) { got = choice.reach[0].text; break; }
        path.push({ slot: step.slot, key: choice.key, elements: choice.elements });
        continue;
      }
      const set = step.multi && step.multi.sets.find((s) => s.reach.some((a) => a.text === target.text));
      if (!set) { bad = `no way on at ${step.slot}`; break; }
      const picked = [];
      for (const e of set.elements) {
        if (!C.canAdd(step.multi, picked, e)) { bad = "toggle refused"; break; }
        picked.push(e); taps++;
      }
      const found = C.setFor(step.multi, picked);
      if (!found || found.key !== set.key) { bad = "confirm refused"; break; }
      taps++;
      if (found.reach.length === 1) { got = found.reach[0].text; break; }
      path.push({ slot: step.slot, key: found.key, elements: found.elements });
    }
    row.push({ got, taps, bad, slots });
  }
  out.push(row);
}
process.stdout.write(JSON.stringify(out));
"""


def _decisions(ruleset: str, seeds: range, players: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """(decision kind, legal actions as the gateway's JSON) for every decision of random games."""
    import random

    out: list[tuple[str, list[dict[str, Any]]]] = []
    for seed in seeds:
        game = Game.new(ruleset=ruleset, players=players, seed=seed, characters=True)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and steps < 400:
            p = game.pending
            assert p is not None
            legal = game.legal_actions(p.seat)
            if len(legal) > 1:
                out.append((p.kind, [to_dict(action_message(a)) for a in legal]))
            game.apply(p.seat, rng.choice(legal))
            steps += 1
    return out


def _py_walk(legal: list[dict[str, Any]], target: dict[str, Any]) -> tuple[str | None, int, list[str]]:
    path: list[Chosen] = []
    taps = 0
    slots: list[str] = []
    for _ in range(40):
        step = next_step(legal, path)
        if step.done is not None:
            return str(step.done["text"]), taps, slots
        slots.append(step.slot)
        choice = next((c for c in step.choices if any(a["text"] == target["text"] for a in c.reach)), None)
        if choice is not None:
            taps += 1
            if len(choice.reach) == 1:
                return str(choice.reach[0]["text"]), taps, slots
            path.append(Chosen(step.slot, choice.key, choice.elements))
            continue
        s = next(s for s in step.sets if any(a["text"] == target["text"] for a in s.reach))
        picked: list[str] = []
        for e in s.elements:
            assert can_add(step, picked, e)
            picked.append(e)
            taps += 1
        found = set_for(step, picked)
        assert found is not None and found.key == s.key
        taps += 1
        if len(found.reach) == 1:
            return str(found.reach[0]["text"]), taps, slots
        path.append(Chosen(step.slot, found.key, found.elements))
    return None, taps, slots


@pytest.fixture(scope="module")
def node(tmp_path_factory: pytest.TempPathFactory) -> Path:
    exe = shutil.which("node")
    if exe is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    where = tmp_path_factory.mktemp("composer")
    (where / "compose.mjs").write_text(JS.read_text(encoding="utf-8"), encoding="utf-8")
    (where / "walk.mjs").write_text(WALK_JS, encoding="utf-8")
    return where


def _js_walk(node_dir: Path, decisions: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    done = subprocess.run(
        ["node", str(node_dir / "walk.mjs")], input=json.dumps(decisions), capture_output=True, text=True,
        timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("ruleset", "players"), [("return", 5), ("classic", 5), ("spy", 5)])
def test_every_legal_action_is_composed_step_by_step(node: Path, ruleset: str, players: int) -> None:
    decisions = _decisions(ruleset, range(3), players)
    assert len(decisions) > 50
    walks = _js_walk(node, [legal for _, legal in decisions])
    sends = 0
    for (kind, legal), row in zip(decisions, walks, strict=True):
        for target, walk in zip(legal, row, strict=True):
            assert not walk["bad"], (kind, target["text"], walk)
            assert walk["got"] == target["text"], (kind, target["text"], walk)
            py = _py_walk(legal, target)
            assert py == (walk["got"], walk["taps"], walk["slots"]), (target["text"], py, walk)
            if ruleset == "spy" and target["kind"] == "send":
                sends += 1
                # issue 27 §4 acceptance (a): a 谍战篇 send in at most 3 taps
                assert walk["taps"] <= 3, (target["text"], walk)
    if ruleset == "spy":
        assert sends > 20


def test_a_multi_card_choice_is_a_multi_select() -> None:
    """Sets of two or more cards (帽子戏法 "at least 2", a hand-over of several cards) are
    picked by toggles and a confirm; a toggle is offered only while a legal set holds it."""
    legal = [
        {"text": "pass", "kind": "pass"},
        {"text": "choose 3,5 to 1", "kind": "choose", "picks": [3, 5], "to": [1]},
        {"text": "choose 3,7 to 1", "kind": "choose", "picks": [3, 7], "to": [1]},
        {"text": "choose 3,5 to 2", "kind": "choose", "picks": [3, 5], "to": [2]},
    ]
    step = next_step(legal, [])
    assert step.slot == "head" and [c.key for c in step.choices] == ["bare:pass"]
    assert step.elements == ["pick:3", "pick:5", "pick:7"]
    assert can_add(step, ["pick:5"], "pick:3") and not can_add(step, ["pick:5"], "pick:7")
    assert set_for(step, ["pick:3"]) is None
    found = set_for(step, ["pick:5", "pick:3"])
    assert found is not None and [a["text"] for a in found.reach] == ["choose 3,5 to 1", "choose 3,5 to 2"]
    after = next_step(legal, [Chosen("head", found.key, found.elements)])
    assert after.slot == "to" and [c.key for c in after.choices] == ["seat:1", "seat:2"]
