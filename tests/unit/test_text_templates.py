"""Events are values (issue 27 §2; issue 16 §1): every event a ruleset's engine logs is a
template key of that ruleset's text table (engine/text.py, ``data/<id>-text.tsv``) with
typed arguments, and its English line, Chinese and English texts are rendered from them.

Covered for every ruleset of the registry (engine/rulesets/__init__.py). Nets:
- every row has both templates with exactly the placeholders of its English line;
- statically, every key the code passes to ``log`` (and ``public=``) has a row, and every
  prompt kind passed to ``ask`` has one;
- the events of seeded random games (with and without characters) and of the scenarios
  (tests/scenarios/<id>/, which reach the rare skills) carry a known key and arguments of
  their placeholders' types, and their line is the template rendered from them; so do their
  prompts (values too: the decision half of issue 27), a prompt row's key with its typed
  arguments;
- statically, every prompt key the code asks with has a prompt row and every prompt row is
  asked by some code (no dead row).

Hidden information: the public variant of a private event carries only its own template's
arguments, so what it does not name never reaches a seat outside the audience
(tests/unit/test_face_down_draws.py checks the cards of face-down draws in every ruleset).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import Game
from engine.game import EVENT_FORMAT, Event
from engine.rulesets import PACKAGES, RULESET_IDS, get_ruleset
from engine.text import (
    PATTERNS,
    PLACEHOLDER,
    ArgValue,
    check_args,
    event_templates,
    placeholder_type,
    prompt_templates,
    structure,
    templates,
    text_file,
)
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
    assert len(keys) == len(set(keys)), "two rows have the same key"
    for row in rows:
        wanted = set(row.names)
        for lang, template in (("zh", row.zh), ("en", row.en)):
            assert template.strip(), f"{row.key}: no {lang} template"
            used = {a + b for a, b in PLACEHOLDER.findall(template)}
            assert used <= wanted, f"{row.key}: the {lang} template uses {used - wanted}, not in the line"
            assert wanted <= used, f"{row.key}: the {lang} template drops {wanted - used}"
        for name in wanted:
            assert placeholder_type(name) in PATTERNS, f"{row.key}: unknown placeholder type {name}"
        assert not re.search(r"[\u4e00-\u9fff]", row.en.replace(row.english, "")) or "{zh" in row.english, (
            f"{row.key}: Chinese in the English template"
        )
        assert row.key.startswith(f"{row.kind}.") or row.key.startswith(f"prompt.{row.kind}."), row.key


_KEY = re.compile(r"\"([a-z_]+\.[a-z0-9_]+)\"")
_LOG_CALL = re.compile(r"\.log\((?:[^()]|\([^()]*\))*\)", re.S)
_ASK = re.compile(r"\.ask\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*\"([a-z_]+)\"")


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_key_the_code_logs_has_a_row(ruleset_id: str) -> None:
    """Template keys passed to ``log`` (and as ``public=``) in the ruleset's package and the
    engine's own events (engine/game.py) each have an event row; decision kinds passed to
    ``ask`` each have a prompt row."""
    get_ruleset(ruleset_id)
    sources = [*_package_dir(ruleset_id).rglob("*.py"), ROOT / "engine" / "game.py"]
    events: set[str] = set()  # keys written in log calls
    literals: set[str] = set()  # every string of the code shaped like a key
    prompts: set[str] = set()
    for path in sources:
        code = path.read_text(encoding="utf-8")
        for call in _LOG_CALL.findall(code):
            events |= set(_KEY.findall(call))
        literals |= set(_KEY.findall(code))
        prompts |= set(_ASK.findall(code))
    assert "action.action" in events and "draw.draws_n" in events and prompts, PACKAGES[ruleset_id]
    table = event_templates(ruleset_id)
    have = {r.kind for r in templates(ruleset_id) if r.scope == "prompt"}
    missing = sorted(events - set(table)) + sorted(f"prompt {k}" for k in prompts - have)
    assert not missing, f"{ruleset_id}: keys without a row in {text_file(ruleset_id).name}: {missing}"
    # and no event row is dead: the table holds the templates the engine logs, nothing else
    unused = sorted(set(table) - literals)
    assert not unused, f"{ruleset_id}: rows no code logs in {text_file(ruleset_id).name}: {unused}"
    # prompts: every key the code asks with (a literal, or a family built from a prefix such
    # as 再临's prompt.trigger.window.<window>) has a row, and every row is asked
    code = "\n".join(p.read_text(encoding="utf-8")
                     for p in [*sources, ROOT / "engine" / "choosing.py"])
    asked = set(_PROMPT_KEY.findall(code))
    prefixes = set(_PROMPT_PREFIX.findall(code))
    rows = prompt_templates(ruleset_id)
    assert not sorted(asked - set(rows)), f"{ruleset_id}: prompt keys without a row: {sorted(asked - set(rows))}"
    dead = sorted(k for k in rows if k not in asked and not any(k.startswith(p) for p in prefixes))
    assert not dead, f"{ruleset_id}: prompt rows no code asks with: {dead}"


_PROMPT_KEY = re.compile(r"\"(prompt\.[a-z_]+\.[a-z0-9_.]*[a-z0-9_])\"")
_PROMPT_PREFIX = re.compile(r"f\"(prompt\.[a-z_.]+\.)\{")


def _check_event(ruleset_id: str, event: Event, problems: set[str]) -> None:
    row = event_templates(ruleset_id).get(event.key)
    if row is None:
        problems.add(f"unknown key {event.key!r}: {event.text}")
        return
    try:
        check_args(row, event.args)
    except TypeError as exc:
        problems.add(str(exc))
        return
    if set(event.args) != set(row.names):
        problems.add(f"{event.key}: arguments {sorted(event.args)} are not the template's {row.names}")
    if event.kind != row.kind or event.text != row.line(event.args):
        problems.add(f"{event.key}: {event.text!r} is not its template rendered")


Asked = tuple[str, str, str, dict[str, ArgValue]]
"""A prompt as asked: its decision kind, English line, key and arguments."""


def _check_prompt(ruleset_id: str, asked: Asked, problems: set[str]) -> None:
    """A prompt is a value: a prompt row's key of its decision kind, arguments of the row's
    placeholders and types, and its line that row rendered from them."""
    kind, text, key, args = asked
    row = prompt_templates(ruleset_id).get(key)
    if row is None or row.kind != kind:
        problems.add(f"prompt {kind}: {text} ({key or 'no key'})")
        return
    try:
        check_args(row, args)
    except TypeError as exc:
        problems.add(str(exc))
        return
    if set(args) != set(row.names) or text != row.line(args):
        problems.add(f"{key}: {text!r} is not its template rendered from {args}")


def _random_games(ruleset_id: str, characters: bool) -> Iterator[tuple[Game, list[Asked]]]:
    players = sorted(get_ruleset(ruleset_id).identity_table)
    for seed in range(GAMES):
        prompts: list[Asked] = []

        def record(game: Game, _decisions: int, prompts: list[Asked] = prompts) -> None:
            p = game.state.prompt
            if p is not None:
                prompts.append((p.kind, p.text, p.key, p.args))

        result = play_random(seed, players[seed % len(players)], check=record, characters=characters,
                             ruleset=ruleset_id)
        yield result.game, prompts


@pytest.mark.parametrize("characters", [True, False], ids=["characters", "no-characters"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_random_games_log_only_typed_events_with_a_row(ruleset_id: str, characters: bool) -> None:
    if characters and not get_ruleset(ruleset_id).characters:
        pytest.skip(f"{ruleset_id} has no characters")
    problems: set[str] = set()
    for game, prompts in _random_games(ruleset_id, characters):
        for event in game.events:
            _check_event(ruleset_id, event, problems)
        for asked in prompts:
            _check_prompt(ruleset_id, asked, problems)
    assert not problems, f"{ruleset_id}:\n" + "\n".join(sorted(problems)[:40])


def _scenario_game(path: Path, problems: set[str]) -> Game | None:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "steps" not in data:
        return None
    try:
        game = Game.from_position(data)
    except Exception:  # a scenario that expects its position to be refused
        return None
    for step in data["steps"]:
        if not isinstance(step, str):
            continue
        p = game.state.prompt
        if p is not None:
            _check_prompt(game.state.ruleset, (p.kind, p.text, p.key, p.args), problems)
        try:
            play_step(game, step)
        except Exception:  # a scenario step that expects an illegal action
            break
    return game


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_scenarios_log_only_typed_events_with_a_row(ruleset_id: str) -> None:
    folder = ROOT / "tests" / "scenarios" / ruleset_id
    files = sorted(folder.rglob("*.yaml"))
    if not files:
        pytest.skip(f"no scenario of {ruleset_id}")
    problems: set[str] = set()
    for path in files:
        game = _scenario_game(path, problems)
        for event in game.events if game else ():
            _check_event(ruleset_id, event, problems)
    assert not problems, f"{ruleset_id}:\n" + "\n".join(sorted(problems)[:40])


def test_a_wrong_argument_is_refused() -> None:
    """The net can fail: an unknown key, a missing argument and a card given as text are
    refused when the event is logged, and so are an unknown prompt key and a prompt argument
    of the wrong type; a prompt without a key (a line) is reported."""
    game = Game.new(ruleset="return", players=5, seed=1)
    with pytest.raises(KeyError):
        game.log("skill.does_something_new", 3, {"seat": 3})
    with pytest.raises(TypeError, match="missing"):
        game.log("skill.uses_id", 3, {"seat": 3})
    with pytest.raises(TypeError, match="cards"):
        game.log("draw.draws_cards", 3, {"seat": 3, "cards": "17 40"})
    with pytest.raises(KeyError):
        game.ask(3, "trigger", "prompt.trigger.something_new", args={})
    with pytest.raises(TypeError, match="seat"):
        game.ask(3, "trigger", "prompt.trigger.window.turn_end", args={"seat": "3"})
    problems: set[str] = set()
    _check_prompt("return", ("trigger", "seat 3 does something new", "", {}), problems)
    assert problems == {"prompt trigger: seat 3 does something new (no key)"}
    # an old snapshot's prompt (a line, no key) is still matched to its row at the edge
    assert structure("return", "trigger", "seat 3's turn ends: use a skill or pass") is not None


def test_observations_carry_template_and_typed_arguments() -> None:
    """The protobuf events carry the row's key and one typed argument per placeholder; the
    pending decision its prompt row's key."""
    game = play_random(3, 5, characters=True, ruleset="return").game
    restored = Game.new(ruleset="return", players=5, seed=3, characters=True)
    obs = restored.observation(restored.state.prompt.seat if restored.state.prompt else 0)
    assert obs.pending.template.startswith("prompt.character."), obs.pending
    # a prompt naming a seat carries it as an argument, written as the line writes it
    for _ in range(400):
        p = game_p = restored.state.prompt
        if p is None or "seat" in p.args:
            break
        restored.apply(p.seat, restored.legal_actions(p.seat)[0])
    assert game_p is not None and "seat" in game_p.args, "no prompt named a seat"
    pending = restored.observation(game_p.seat).pending
    assert pending.template == game_p.key and pending.args["seat"] == str(game_p.args["seat"])
    # and typed, as an event's arguments (what the clients render: Decision.arguments)
    typed = {a.name: a for a in pending.arguments}
    assert set(typed) == set(game_p.args) and typed["seat"].WhichOneof("value") == "seat"
    assert typed["seat"].seat == game_p.args["seat"]
    assert [a.name for a in pending.arguments] == list(prompt_templates("return")[game_p.key].names)
    events = [e.to_proto() for e in game.events]
    assert all(e.template and e.format == EVENT_FORMAT == 3 for e in events)
    skill = next(e for e in events if e.kind == "skill")
    assert [(a.name, a.WhichOneof("value")) for a in skill.args] == [("seat", "seat"), ("id", "id")]
    assert skill.args[0].seat == skill.seat
    draw = next(e for e in events if e.template == "draw.draws_n")
    assert [(a.name, a.WhichOneof("value")) for a in draw.args] == [("seat", "seat"), ("n", "count")]
