"""What clients may know of the engine's rulesets (``ListRulesets``), built from the
registry (:mod:`engine.rulesets`), and the check a new match's settings must pass.

Everything here is derived from a registered :class:`engine.ruleset.Ruleset`: its id and
Chinese name, the player counts (the keys of its identity table), its identities, its
character table, and its printed deck. A ruleset added to the registry appears here, in
the gateway's ``GET /api/rulesets`` and ``GET /api/cards`` and in the clients' forms,
with no edit outside its package.

The printed deck: the core's :class:`engine.ruleset.CardTable` holds what the rules read
(function, colours); how a card travels (transmission, 转向, 加密) is printed data the
clients show. Both come from the ruleset package's deck table
(``<package>/data/<id>-deck.tsv``, the copy of ``shared/rules/<id>-deck.tsv`` the ruleset
itself loads), found through the registry's package for a registered id; every row is
checked against the CardTable, so the clients can never show a card other than the one
the engine plays.
"""

from __future__ import annotations

import csv
import functools
import importlib.resources
import io

from engine.errors import SetupError
from engine.ruleset import CardTable, Ruleset
from engine.rulesets import PACKAGES, RULESET_IDS, get_ruleset
from engine.text import templates
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import game_pb2
from services.errors import BadRequest

#: what an empty ``MatchSettings.ruleset`` means: the registry's first ruleset
DEFAULT_RULESET = RULESET_IDS[0]


def _color(table: CardTable, number: int) -> str:
    if table.is_red[number] and table.is_blue[number]:
        return "red+blue"
    if table.is_red[number]:
        return "red"
    if table.is_blue[number]:
        return "blue"
    return "black" if table.is_black[number] else ""


def _deck_rows(ruleset: Ruleset) -> dict[int, dict[str, str]]:
    """The ruleset package's printed deck table, card number -> row ({} when it ships none)."""
    data = importlib.resources.files(PACKAGES[ruleset.id]).joinpath("data", f"{ruleset.id}-deck.tsv")
    if not data.is_file():
        return {}
    rows = csv.DictReader(io.StringIO(data.read_text(encoding="utf-8")), delimiter="\t")
    return {int(row["card"]): row for row in rows}


@functools.cache
def function_and_skill_texts(ruleset_id: str) -> dict[tuple[str, str], tuple[str, str]]:
    """What each card function and skill does, ``(kind, id) -> (zh, en)``, from the ruleset
    package's ``data/<id>-texts.tsv`` ({} when it ships none)."""
    data = importlib.resources.files(PACKAGES[ruleset_id]).joinpath("data", f"{ruleset_id}-texts.tsv")
    if not data.is_file():
        return {}
    lines = [line for line in data.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return {(row["kind"], row["id"]): (row["zh"], row["en"]) for row in csv.DictReader(lines, delimiter="\t")}


def deck_cards(ruleset: Ruleset) -> list[es.DeckCard]:
    """Every printed card of the ruleset, 1..n: function and colours from its CardTable,
    transmission and markers from its deck table. Raises ``ValueError`` when the two
    disagree (a deck table that is not the one the engine plays)."""
    table = ruleset.cards
    rows = _deck_rows(ruleset)
    if rows and sorted(rows) != list(table.all_cards):
        raise ValueError(f"{ruleset.id}: the deck table's card numbers are not 1..{table.count}")
    texts = function_and_skill_texts(ruleset.id)
    cards = []
    for number in table.all_cards:
        row = rows.get(number, {})
        # 谍战篇 prints dual colours with black (``red+black``) in its ``colors`` column
        color = row.get("colors") or _color(table, number)
        if row and (row.get("function") != table.function[number] or row.get("color", color) != color):
            raise ValueError(f"{ruleset.id}: card {number} of the deck table is not the engine's card")
        cards.append(
            es.DeckCard(
                number=number,
                function=table.function[number],
                function_zh=table.function_zh[number],
                color=color,
                # 谍战篇 has arrows instead of send modes: ``left`` / ``right`` / ``up``
                transmission=row.get("transmission") or row.get("direction", ""),
                direction_any=row.get("direction_any") == "yes",
                encrypted=row.get("encrypted") == "yes",
                lock_icon=row.get("lock") == "yes",
                text_zh=texts.get(("function", table.function[number]), ("", ""))[0],
                text_en=texts.get(("function", table.function[number]), ("", ""))[1],
            )
        )
    return cards


def ruleset_info(ruleset: Ruleset) -> es.RulesetInfo:
    """One ruleset as clients need to know it (see the module doc)."""
    info = es.RulesetInfo(
        id=ruleset.id,
        zh=ruleset.zh,
        players=sorted(ruleset.identity_table),
        identities=list(ruleset.identities),
        characters=bool(ruleset.characters),
        cards=deck_cards(ruleset),
    )
    for row in templates(ruleset.id):
        info.texts.append(
            es.TextTemplate(key=row.key, scope=row.scope, kind=row.kind, zh=row.zh, en=row.en,
                            match=row.english if row.scope == "prompt" else "")
        )
    for (kind, ident), (zh, en) in function_and_skill_texts(ruleset.id).items():
        if kind == "rule":  # the rules page's paragraphs (victory …): scope "rule", kind the id
            info.texts.append(es.TextTemplate(key=f"rule.{ident}", scope="rule", kind=ident, zh=zh, en=en))
    for players, counts in sorted(ruleset.identity_table.items()):
        info.identity_table[players].CopyFrom(game_pb2.IntList(values=list(counts)))
    texts = function_and_skill_texts(ruleset.id)
    for character in ruleset.characters.values():
        info.character_table.append(
            es.CharacterEntry(
                id=character.id,
                zh=character.zh,
                en=character.en,
                skills=list(character.skills),
                skills_zh=[str(getattr(ruleset.skills.get(s), "zh", "") or "") for s in character.skills],
                mission=str(getattr(character, "mission", "") or ""),
                skills_text_zh=[texts.get(("skill", s), ("", ""))[0] for s in character.skills],
                skills_text_en=[texts.get(("skill", s), ("", ""))[1] for s in character.skills],
            )
        )
    return info


@functools.cache
def rulesets() -> es.Rulesets:
    """Every registered ruleset, in the registry's order (built once per process)."""
    return es.Rulesets(
        rulesets=[ruleset_info(get_ruleset(rid)) for rid in RULESET_IDS],
        default_ruleset=DEFAULT_RULESET,
    )


def players_text(counts: list[int] | tuple[int, ...]) -> str:
    """``3 to 7`` for a contiguous range, else the counts listed (``3, 5 or 7``)."""
    ordered = sorted(counts)
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    return ", ".join(map(str, ordered[:-1])) + f" or {ordered[-1]}"


def check_settings(ruleset_id: str, players: int) -> Ruleset:
    """The ruleset of a new match, or :class:`BadRequest` (``INVALID_ARGUMENT``): an unknown
    ruleset (naming the known ones), or a player count outside its identity table."""
    try:
        ruleset = get_ruleset(ruleset_id)
    except SetupError as exc:
        raise BadRequest(str(exc)) from exc
    if players not in ruleset.identity_table:
        raise BadRequest(
            f"ruleset {ruleset.id!r} ({ruleset.zh}) is played by {players_text(tuple(ruleset.identity_table))} "
            f"players, not {players}"
        )
    return ruleset
