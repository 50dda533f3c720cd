"""Issue 16 §1 (structured text): every event and prompt a ruleset's engine emits has a row
in that ruleset's text table (engine/text.py, ``data/<id>-text.tsv``) with a Chinese and an
English template, so the clients never show the engine's English notation.

Covered for every ruleset of the registry (engine/rulesets/__init__.py): a new ruleset
fails here until its table has the rows of its events and prompts. Three nets:
- statically, every kind its code passes to ``log``/``ask`` has a row;
- the lines of seeded random games (with and without characters) each match a row;
- the lines of its scenarios (tests/scenarios/<id>/, which reach the rare skills) too.

Hidden information: a row's arguments are pieces of the line it matches (the line is what
the viewer already receives: fengsheng/text_leaks.py checks it), and its templates use no
placeholder the line does not fill, so a template can show nothing the line does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import Game
from engine.rulesets import PACKAGES, RULESET_IDS, get_ruleset
from engine.text import PATTERNS, PLACEHOLDER, placeholder_type, structure, templates, text_file
from fengsheng.scenario import play_step
from fengsheng.simulate import play_random

ROOT = Path(__file__).resolve().parents[2]
GAMES = 60  # seeded random games per ruleset and setting


def _package_dir(ruleset_id: str) -> Path:
    return text_file(ruleset_id).parent.parent


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_row_has_both_templates_with_the_lines_placeholders(ruleset_id: str) -> None:
    rows = templates(ruleset_id)
    assert rows, f"{text_file(ruleset_id)} is missing or empty: a ruleset needs its text table"
    keys = [r.key for r in rows]
    assert len(keys) == len(set(keys)), "two rows of the same kind have the same pattern"
    for row in rows:
        wanted = set(row.placeholders())
        for lang, template in (("zh", row.zh), ("en", row.en)):
            assert template.strip(), f"{row.kind} {row.match!r}: no {lang} template"
            used = {a + b for a, b in PLACEHOLDER.findall(template)}
            assert used <= wanted, f"{row.match!r}: the {lang} template uses {used - wanted}, not in the line"
            assert wanted <= used, f"{row.match!r}: the {lang} template drops {wanted - used}"
        for name in wanted:
            assert placeholder_type(name) in PATTERNS, f"{row.match!r}: unknown placeholder type {name}"
        assert not re.search(r"[\u4e00-\u9fff]", row.en.replace(row.match, "")) or "{zh" in row.match, (
            f"{row.match!r}: Chinese in the English template"
        )


_LOG = re.compile(r"\.log\(\s*\"([a-z_]+)\"")
_ASK = re.compile(r"\.ask\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*\"([a-z_]+)\"")


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_kind_the_code_emits_has_a_row(ruleset_id: str) -> None:
    """Event kinds passed to ``log`` and decision kinds passed to ``ask`` in the ruleset's
    package (and the engine's own ``action`` echo) each have a row."""
    get_ruleset(ruleset_id)
    sources = [*_package_dir(ruleset_id).rglob("*.py"), ROOT / "engine" / "game.py"]
    events: set[str] = set()
    prompts: set[str] = set()
    for path in sources:
        code = path.read_text(encoding="utf-8")
        events |= set(_LOG.findall(code))
        prompts |= set(_ASK.findall(code))
    assert "action" in events and prompts, f"found no log/ask call in {PACKAGES[ruleset_id]}"
    have = {(r.scope, r.kind) for r in templates(ruleset_id)}
    missing = sorted({("event", k) for k in events} - have) + sorted({("prompt", k) for k in prompts} - have)
    assert not missing, f"{ruleset_id}: kinds without a row in {text_file(ruleset_id).name}: {missing}"


def _check_line(ruleset_id: str, scope: str, kind: str, text: str, missing: set[str]) -> None:
    found = structure(ruleset_id, scope, kind, text)
    if found is None:
        missing.add(f"{scope} {kind}: {text}")
        return
    row, args = found
    assert set(args) == set(row.placeholders())
    for value in args.values():
        assert value in text, f"argument {value!r} is not part of the line {text!r}"


def _lines(game: Game) -> Iterator[tuple[str, str, str]]:
    for e in game.events:
        yield "event", e.kind, e.text


def _random_lines(ruleset_id: str, characters: bool) -> Iterator[tuple[str, str, str]]:
    players = sorted(get_ruleset(ruleset_id).identity_table)
    prompts: list[tuple[str, str, str]] = []

    def record(game: Game, _decisions: int) -> None:
        p = game.state.prompt
        if p is not None:
            prompts.append(("prompt", p.kind, p.text))

    for seed in range(GAMES):
        prompts.clear()

        result = play_random(
            seed, players[seed % len(players)], check=record, characters=characters, ruleset=ruleset_id
        )
        yield from prompts
        yield from _lines(result.game)


@pytest.mark.parametrize("characters", [True, False], ids=["characters", "no-characters"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_random_games_emit_only_lines_with_a_row(ruleset_id: str, characters: bool) -> None:
    if characters and not get_ruleset(ruleset_id).characters:
        pytest.skip(f"{ruleset_id} has no characters")
    missing: set[str] = set()
    for scope, kind, text in _random_lines(ruleset_id, characters):
        _check_line(ruleset_id, scope, kind, text, missing)
    assert not missing, f"{ruleset_id}: lines without a row:\n" + "\n".join(sorted(missing)[:40])


def _scenario_lines(path: Path) -> Iterator[tuple[str, str, str]]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "steps" not in data:
        return
    try:
        game = Game.from_position(data)
    except Exception:  # a scenario that expects its position to be refused
        return
    for step in data["steps"]:
        if not isinstance(step, str):
            continue
        p = game.state.prompt
        if p is not None:
            yield "prompt", p.kind, p.text
        try:
            play_step(game, step)
        except Exception:  # a scenario step that expects an illegal action
            break
    yield from _lines(game)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_scenarios_emit_only_lines_with_a_row(ruleset_id: str) -> None:
    folder = ROOT / "tests" / "scenarios" / ruleset_id
    files = sorted(folder.rglob("*.yaml"))
    if not files:
        pytest.skip(f"no scenario of {ruleset_id}")
    missing: set[str] = set()
    for path in files:
        for scope, kind, text in _scenario_lines(path):
            _check_line(ruleset_id, scope, kind, text, missing)
    assert not missing, f"{ruleset_id}: lines without a row:\n" + "\n".join(sorted(missing)[:40])


def test_an_unknown_line_is_caught() -> None:
    """The net can fail: a line no row matches is reported."""
    missing: set[str] = set()
    _check_line("return", "event", "skill", "seat 3 does something new", missing)
    assert missing == {"event skill: seat 3 does something new"}


def test_observations_carry_template_and_arguments() -> None:
    """The protobuf events and the pending decision carry the row's key and arguments."""
    game = play_random(3, 5, characters=True, ruleset="return").game
    restored = Game.new(ruleset="return", players=5, seed=3, characters=True)
    obs = restored.observation(restored.state.prompt.seat if restored.state.prompt else 0)
    assert obs.pending.template.startswith("character."), obs.pending
    events = [e.to_proto() for e in game.events]
    assert all(e.template for e in events)
    skill = next(e for e in events if e.kind == "skill")
    assert set(skill.args) == {"seat", "id"} and skill.args["seat"] == str(skill.seat)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_each_viewer_gets_only_arguments_of_its_own_lines(ruleset_id: str) -> None:
    """Hidden information: what each seat and a spectator receive (their observations with
    events, as the services send them) carries template arguments taken from the line that
    viewer receives, never from another viewer's version of it (a private event's public
    twin, ``?`` for a face-down card, has its own arguments)."""
    for seed in range(6):
        game = play_random(seed, 5, characters=bool(get_ruleset(ruleset_id).characters), ruleset=ruleset_id).game
        private_cards: set[str] = set()
        # cards named only in private lines (a draw, a look at a hand) and never in a public one
        public = {v for e in game.events if not e.audience or -1 in e.audience for v in re.findall(r"\d+", e.text)}
        private_only = {str(c) for e in game.events if e.audience and -1 not in e.audience for c in e.cards} - public
        for viewer in (*range(game.state.players), -1):
            obs = game.observation(viewer, include_events=True)
            assert obs.events, "no events"
            for event in obs.events:
                assert event.template, event.text
                for name, value in event.args.items():
                    assert value in event.text, (viewer, name, value, event.text)
                if viewer >= 0 and list(event.audience) == [viewer]:
                    private_cards.update(v for k, v in event.args.items() if k.startswith("card"))
                if viewer == -1:  # a spectator's lines are public ones: none of a seat's private cards
                    assert not event.audience or -1 in event.audience
                    shown = {v for k, v in event.args.items() if k.startswith("card")}
                    assert not shown & private_only, (event.text, shown & private_only)
        assert private_cards, "no private event carried a card"
