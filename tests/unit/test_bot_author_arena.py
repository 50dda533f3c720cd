"""The local arena for bot authors (issue 17, "a local arena for your own bot"): an author's
own ``decide`` against the built-in bots, offline on the engine, fed what the SDK feeds it
online (the seat's observation whose events are every event the seat has seen so far,
built by the SDK's own :func:`fengsheng_bot.client.full_observation`), with win rates per
identity and 95% Wilson intervals, for every ruleset of the registry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fengsheng.bot.arena as arena
from engine import Game
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.bot.examples import heuristic_decide, random_decide
from fengsheng.cli import main
from fengsheng.v1 import game_pb2
from fengsheng_bot import Action, Observation, client


def smallest(ruleset: str) -> int:
    return min(get_ruleset(ruleset).identity_table)


def test_wilson_interval() -> None:
    assert arena.wilson(0, 0) == (0.0, 1.0)
    lo, hi = arena.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = arena.wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_decide_sees_its_seats_whole_event_history_as_online(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    games: list[Game] = []
    real_new = Game.new

    class Spy:
        @staticmethod
        def new(**kw: Any) -> Game:
            g = real_new(**kw)
            games.append(g)
            return g

    monkeypatch.setattr(arena, "Game", Spy)
    merged: list[int] = []
    real_full = client.full_observation

    def counting_full(seen: list[game_pb2.Event], pushed: game_pb2.Observation) -> game_pb2.Observation:
        merged.append(len(pushed.events))
        return real_full(seen, pushed)

    monkeypatch.setattr(arena, "full_observation", counting_full)
    checked = {"decisions": 0, "others": 0}

    def decide(observation: Observation, legal: list[Action]) -> Action:
        game = games[-1]
        seat = observation.viewer
        # exactly every event the seat may see so far: public ones and its own private ones,
        # as the messages and as typed values
        assert list(observation.proto.events) == list(game.observation(seat, include_events=True).events)
        assert [(e.index, e.template, e.args) for e in observation.events] == [
            (e.index, e.key, e.args) for e in game.events_for(seat)]
        assert all(not e.audience or seat in e.audience for e in observation.events)
        assert [a.text for a in legal] == list(game.legal_texts(seat))
        checked["decisions"] += 1
        checked["others"] += sum(1 for e in observation.events if e.seat != seat)
        return heuristic_decide(observation, legal)

    report = arena.play(decide, opponents=["heuristic", "random"], matches=3, players=smallest(ruleset),
                        ruleset=ruleset, seed=7)  # fmt: skip
    assert checked["decisions"] == report.decisions > 0
    assert checked["others"] > 0  # not blind between decisions: other seats' moves are there
    assert len(merged) == report.decisions  # built by the SDK's own merge, once per decision
    assert report.total.games == 3 and sum(t.games for t in report.by_identity.values()) == 3
    assert set(report.by_identity) <= set(game_pb2.Identity.keys()) - {"IDENTITY_UNSPECIFIED"}


def test_a_bad_answer_costs_only_that_decision() -> None:
    calls = {"n": 0}

    def flaky(observation: Observation, legal: list[Action]) -> str | None:
        calls["n"] += 1
        if calls["n"] % 3 == 0:
            raise RuntimeError("bug in the bot")
        if calls["n"] % 3 == 1:
            return None
        return "not an action at all"

    report = arena.play(flaky, opponents=["random"], matches=2, players=3, seed=2)
    assert report.total.games == 2
    assert report.decisions == calls["n"] > 0
    assert report.defaults + report.illegal == report.decisions
    assert report.illegal > 0 and report.defaults > 0


def test_refuses_what_is_not_played() -> None:
    with pytest.raises(ValueError, match="not 99"):
        arena.play(random_decide, players=99)
    with pytest.raises(ValueError, match="unknown bot"):
        arena.play(random_decide, opponents=["nobody"], matches=1)
    with pytest.raises(ValueError, match="module:function"):
        arena.load("nocolon")


def test_the_command_plays_an_authors_module_function(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bot", "fengsheng.bot.examples:heuristic_decide", "--bots", "random",
                 "--matches", "4", "--players", "4", "--json"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matches"] == 4 and out["total"]["games"] == 4
    for tally in out["by_identity"].values():
        assert 0.0 <= tally["low"] <= tally["win_rate"] <= tally["high"] <= 1.0
    assert main(["arena", "--bot", "fengsheng.bot.examples:heuristic_decide", "--matches", "2"]) == 0
    text = capsys.readouterr().out
    assert "95% interval" in text and "all" in text
    assert main(["arena", "--bot", "no_such_module_xyz:decide", "--matches", "1"]) == 2


def test_the_installed_command_finds_the_authors_file_in_the_current_directory(tmp_path: Path) -> None:
    """``fengsheng arena --bot mybot:decide`` from the directory holding ``mybot.py`` (the
    console script's own directory is on its path, the current one is not by itself)."""
    (tmp_path / "mybot.py").write_text(
        "def decide(observation, legal_actions):\n    return 'pass' if 'pass' in legal_actions else legal_actions[0]\n"
    )
    exe = Path(sys.executable).with_name("fengsheng")
    for spec in ("mybot:decide", f"{tmp_path / 'mybot.py'}:decide"):
        out = subprocess.run([str(exe), "arena", "--bot", spec, "--matches", "2", "--players", "3", "--json"],
                             capture_output=True, text=True, timeout=120, cwd=tmp_path)  # fmt: skip
        assert out.returncode == 0, out.stderr[-2000:]
        assert json.loads(out.stdout)["total"]["games"] == 2


def test_the_arena_commands_of_the_bot_doc_run_as_written(tmp_path: Path) -> None:
    """docs/bots.md's ``fengsheng arena --bot`` lines, run as written next to a ``mybot.py``."""
    import shlex

    doc = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    lines = [ln.split("#", 1)[0].strip() for ln in doc.splitlines() if ln.startswith("fengsheng arena --bot ")]
    assert len(lines) >= 2
    (tmp_path / "mybot.py").write_text("from fengsheng.bot.examples import heuristic_decide as decide\n")
    exe = Path(sys.executable).with_name("fengsheng")
    for line in lines:
        argv = shlex.split(line)
        out = subprocess.run([str(exe), *argv[1:]], capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert out.returncode == 0, (line, out.stderr[-2000:])
        assert ("95% interval" in out.stdout) or json.loads(out.stdout)["total"]["games"] == 20, out.stdout
