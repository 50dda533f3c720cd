"""The core is neutral (issue 31 §2): ``engine/state.py`` keeps only what every edition has,
each ruleset declares its own per-seat and per-match record (``Seat.ext`` / ``State.ext``),
and no docstring of the core (``engine/*.py``, the rulesets' packages aside) names an
edition. A field added back to ``Seat`` or ``State`` for one edition, or a docstring that
says "风声再临" / "谍战篇" / "classic", fails here."""

from __future__ import annotations

import ast
import dataclasses
import itertools
from pathlib import Path

import pytest

from engine import Game
from engine.rulesets import RULESET_IDS, get_ruleset
from engine.state import Item, MatchExt, Seat, SeatExt, State

ENGINE = Path(__file__).resolve().parents[2] / "engine"

#: What every edition's seat has. A field only some editions have belongs in the ruleset's
#: own record (``Ruleset.seat_record``), not here.
CORE_SEAT = ("identity", "hand", "intel", "alive", "identity_revealed", "character", "exposed", "options", "ext")
#: What every edition's match has (``Ruleset.match_record`` for the rest).
CORE_STATE = ("ruleset", "players", "seed", "tutorial", "characters", "rng", "seats", "pile", "discard", "removed",
              "turn", "turn_number", "pile_exhausted_once", "transit", "received", "locked", "chain", "timing",
              "stack", "prompt", "decision", "event_count", "over", "winners", "reason", "end", "kills", "window",
              "fresh", "marks", "cause", "character_pool", "pool_setting", "ext")


def names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def test_seat_and_state_hold_only_the_core_fields() -> None:
    assert names(Seat) == CORE_SEAT, "a Seat field only some editions have goes in the ruleset's seat record"
    assert names(State) == CORE_STATE, "a State field only some editions have goes in the ruleset's match record"
    assert names(SeatExt) == () and names(MatchExt) == ()


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_no_rulesets_own_field_is_in_the_core(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    own = set(names(rules.seat_record)) | set(names(rules.match_record))
    assert own.isdisjoint(CORE_SEAT + CORE_STATE)
    assert issubclass(rules.seat_record, SeatExt) and issubclass(rules.match_record, MatchExt)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_match_carries_its_rulesets_records(ruleset: str) -> None:
    """Dealt and restored, every seat and the match hold the ruleset's own record type."""
    rules = get_ruleset(ruleset)
    game = Game.new(ruleset, players=min(rules.identity_table), seed=4, characters=True)
    for st in (game.state, Game.restore(game.snapshot()).state):
        assert type(st.ext) is rules.match_record
        assert all(type(p.ext) is rules.seat_record for p in st.seats)


def edition_names() -> set[str]:
    """Every ruleset's printed name, its short forms and the ids that are no common word."""
    found = {"再临", "谍战", "classic", "Classic"}
    for ruleset in RULESET_IDS:
        zh = get_ruleset(ruleset).zh
        if zh != "风声":  # the game's own name, every edition's
            found.add(zh)
    return found


def docstrings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append((getattr(node, "lineno", 1), doc))
        # attribute docstrings: a string statement right after an assignment
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for prev, stmt in itertools.pairwise(body):
                if (isinstance(prev, ast.AnnAssign | ast.Assign) and isinstance(stmt, ast.Expr)
                        and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)):
                    out.append((stmt.lineno, stmt.value.value))
    return out


def test_core_docstrings_name_no_edition() -> None:
    forbidden = edition_names()
    named = [f"{path.name}:{line}: {word}" for path in sorted(ENGINE.glob("*.py"))
             for line, doc in docstrings(path) for word in sorted(forbidden) if word in doc]
    assert named == [], "core docstrings name an edition (say what the rule is, or move the text to the ruleset)"


def test_the_docstring_check_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""A match of 风声再临."""\n\nclass A:\n    x: int = 0\n    """谍战篇\'s x."""\n')
    found = [word for _, doc in docstrings(module) for word in sorted(edition_names()) if word in doc]
    assert "风声再临" in found and "谍战" in found


def test_edition_rules_of_draw_and_place_intel_are_the_rulesets() -> None:
    """Cards drawn during a chain cannot join it in 风声再临 only (its ``drawn`` hook), and
    a ruleset that receives intel its own way (谍战篇) is told so by ``place_intel`` rather
    than left with a frame it has no handler for."""
    fresh: dict[str, tuple[list[int], list[int]]] = {}
    for ruleset in ("return", "classic"):
        game = Game.new(ruleset, players=5, seed=2)
        game.state.chain.append(Item(kind="probe", user=0))
        fresh[ruleset] = (game.draw(0, 2), list(game.state.fresh))
    assert fresh["return"][1] == fresh["return"][0] != []
    assert fresh["classic"][1] == [] and fresh["classic"][0] != []
    spy = Game.new("spy", players=5, seed=2)
    before = list(spy.state.seats[0].intel)
    with pytest.raises(NotImplementedError, match="spy ruleset places intel its own way"):
        spy.place_intel(0, [spy.state.pile[-1]], [1], cause="test")
    assert spy.state.seats[0].intel == before
