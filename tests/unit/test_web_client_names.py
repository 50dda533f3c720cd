"""The web client's dictionary (gateway/static/js/i18n.js) names what every registered
ruleset can show: its identities (by id and by the proto enum name the observations use)
and every decision kind of the core. Parametrized over ``RULESET_IDS``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.game import Game
from engine.kinds import PROMPT_KINDS
from engine.observation import build_observation
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.v1 import game_pb2

SOURCE = (Path(__file__).resolve().parents[2] / "gateway" / "static" / "js" / "i18n.js").read_text(encoding="utf-8")
#: `id: ["中文", "English"]` entries of every table
ENTRIES = dict(re.findall(r'(?<![\w.])(\w+): \["([^"]+)", "[^"]+"\]', SOURCE))


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_identity_of_the_ruleset_is_named(ruleset_id: str) -> None:
    for identity in get_ruleset(ruleset_id).identities:
        assert game_pb2.Identity.Value(identity.upper()) > 0  # observations spell the enum name
        assert re.search(r"[\u4e00-\u9fff]", ENTRIES.get(identity.upper(), "")), identity.upper()
        assert ENTRIES.get(identity) == ENTRIES.get(identity.upper()), identity


def test_every_identity_has_a_colour() -> None:
    """render.js and result.js (the result panel) colour each identity enum value the
    rulesets use."""
    js = Path(__file__).resolve().parents[2] / "gateway" / "static" / "js"
    render = (js / "render.js").read_text(encoding="utf-8")
    table = (js / "result.js").read_text(encoding="utf-8")
    for ruleset_id in RULESET_IDS:
        for identity in get_ruleset(ruleset_id).identities:
            assert re.search(rf'{identity.upper()}: "id-(red|blue|green)"', render), identity
            assert re.search(rf'{identity.upper()}: "(red|blue|green)"', table), identity


@pytest.mark.parametrize("kind", PROMPT_KINDS)
def test_every_decision_kind_is_named(kind: str) -> None:
    assert f"kind_{kind}" in ENTRIES, kind


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_mission_has_its_chinese_text(ruleset_id: str) -> None:
    """missions.js translates the secret mission of every character of the ruleset that has
    one (the English comes from the engine's character table through GET /api/rulesets)."""
    source = (Path(__file__).resolve().parents[2] / "gateway" / "static" / "js" / "missions.js").read_text("utf-8")
    block = re.search(rf"\n  {ruleset_id}: \{{(.*?)\n  \}}", source, re.S)
    assert block, f"no {ruleset_id} table in missions.js"
    zh = dict(re.findall(r'(\w+): "([^"]+)"', block.group(1)))
    for character in get_ruleset(ruleset_id).characters.values():
        if getattr(character, "mission", ""):
            assert re.search(r"[\u4e00-\u9fff]", zh.get(character.id, "")), character.id


def _decisions(ruleset_id: str, games: int) -> Iterator[tuple[Game, int]]:
    """Every decision (the game and the seat asked) of ``games`` seeded random games with
    characters, each answered at random after it is yielded."""
    import random

    rules = get_ruleset(ruleset_id)
    counts = sorted(rules.identity_table)
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new(ruleset=ruleset_id, players=counts[seed % len(counts)], seed=seed,
                        characters=bool(rules.characters))
        for _ in range(3000):
            pending = game.pending
            if pending is None or game.outcome is not None:
                break
            yield game, pending.seat
            game.apply(pending.seat, rng.choice(game.legal_actions(pending.seat)))


def _action_words(ruleset_id: str, games: int) -> set[str]:
    """Every word of every legal action met in ``games`` seeded random games with
    characters (each seat's actions at every decision), as the action buttons show them."""
    return {word for game, seat in _decisions(ruleset_id, games)
            for action in game.legal_texts(seat) for word in action.split()}


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_action_word_is_named(ruleset_id: str) -> None:
    """An action's words (composer.js, text.js actionPieces) are notation words i18n.js names,
    or ids the client learns from GET /api/rulesets (functions, characters, skills), or
    numbers: no English word is left on a Chinese button (a 江湖令 choice showed
    ``choose blue``)."""
    rules = get_ruleset(ruleset_id)
    known = set(ENTRIES) | set(rules.cards.function) | set(rules.characters) | set(rules.skills)
    unnamed = {
        w for w in _action_words(ruleset_id, 40)
        if w not in known and not re.fullmatch(r"#?[\d,+\-]+", w)
        and not (w.count(",") and set(w.split(",")) <= known)  # a list of names (actionWord splits it)
    }
    assert not unnamed, sorted(unnamed)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_chain_kind_is_named(ruleset_id: str) -> None:
    """The chain panel (render.js chainKind) names each kind of chain item the engine shows:
    its own words (declare, receive, skill) or a card function or skill id of the ruleset.
    A classic 警觉 on the chain read ``skill`` in a Chinese table."""
    render = (Path(__file__).resolve().parents[2] / "gateway" / "static" / "js" / "render.js").read_text("utf-8")
    body = re.search(r"function chainKind\(kind\) \{(.*?)\n\}", render, re.S)
    assert body
    own = set(re.findall(r'kind === "(\w+)"\) return t\("(\w+)"\)', body.group(1)))
    assert all(word in ENTRIES for _, word in own), own
    rules = get_ruleset(ruleset_id)
    known = {kind for kind, _ in own} | set(rules.cards.function) | set(rules.skills)
    kinds = {item.kind for game, seat in _decisions(ruleset_id, 30) for item in build_observation(game, seat).chain}
    assert kinds - known == set(), sorted(kinds - known)


JS = Path(__file__).resolve().parents[2] / "gateway" / "static" / "js"
#: a name a user chose, put into a string: `${m.name}`, `${seatInfo.player}`, `${x.challenger}`...
NAME_IN_TEXT = re.compile(r"\$\{[^}]*\.(name|player|challenger|opponent)\}")


@pytest.mark.parametrize("source", sorted(p.name for p in JS.glob("*.js") if p.name != "i18n.js"))
def test_user_names_are_never_put_into_text(source: str) -> None:
    """Issue 26: chat lines and seat labels printed names inside their text, so a name with a
    bidi override reordered the rest of the line. A name is shown only through render.js
    ``playerName`` (a ``<bdi>``); the one place a name may sit in a string is an attribute
    read aloud (``aria-label``), never drawn. tests/e2e/test_web_names.py draws it."""
    lines = (JS / source).read_text(encoding="utf-8").splitlines()
    inline = [f"{source}:{n}: {line.strip()}" for n, line in enumerate(lines, 1)
              if NAME_IN_TEXT.search(line) and '"aria-label"' not in line]  # fmt: skip
    assert not inline, inline


def test_seat_labels_and_chat_lines_isolate_names() -> None:
    render = (JS / "render.js").read_text(encoding="utf-8")
    seat_name = re.search(r"export function seatName\(.*?\n\}", render, re.S)
    assert seat_name and "playerName(seatInfo.player)" in seat_name.group(0)
    assert re.search(r'h\("bdi", \{', render)  # playerName makes a <bdi>
    chat = (JS / "chat.js").read_text(encoding="utf-8")
    line = re.search(r"function line\(m, mutedSet\) \{.*?\n  \}", chat, re.S)
    assert line and line.group(0).count("playerName(m.name)") == 2
