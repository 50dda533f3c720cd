"""Rule scenarios: YAML files that pin a position, play decisions and check the result
(shared/spec/scenario-format.md). Used by ``fengsheng scenario`` and by pytest."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine import Game, IllegalAction, SetupError
from engine.action import PASS
from engine.errors import NotationError
from engine.game import RULESETS, Event
from engine.notation import parse

SETUP_KEYS = {"name", "source", "ruleset", "seed", "seats", "pile", "discard", "removed", "relations",
              "pile_exhausted_once", "turn", "step", "steps", "deaths", "expect", "tutorial", "notes", "description"}
SEAT_EXPECT = {"hand_count", "hand", "intel", "alive", "exposed", "identity_revealed", "character", "intel_count",
               "hand_includes", "hand_within", "relation"}
EXPECT_KEYS = {"seats", "pile_top", "discard_contains", "removed_contains", "legal_includes", "legal_excludes",
               "to_act", "game_over", "winners", "killers", "pile_count", "discard_top", "seen", "not_seen"}
#: What an event pattern under ``seen`` / ``not_seen`` may name.
EVENT_KEYS = {"kind", "seat", "seats", "cards", "text_contains"}
PASS_CAP = 500


@dataclass(frozen=True)
class Result:
    """One scenario's verdict: ``ok``, ``FAIL`` (a rule mismatch or an illegal step) or
    ``ERROR`` (the file or its set-up is broken)."""

    path: str
    name: str
    status: str
    message: str = ""

    def line(self) -> str:
        tail = f": {self.message}" if self.message else ""
        return f"{self.status:<5} {self.name} ({self.path}){tail}"


class Mismatch(Exception):
    """An expectation that does not hold."""


class BadScenario(ValueError):
    """The scenario asks something that cannot be checked (an ERROR, not a FAIL)."""


def find_files(paths: Iterable[str | Path]) -> list[Path]:
    """Scenario files under the given files or folders (``.yaml`` / ``.yml``), sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml")))
        else:
            out.append(p)
    return out


def run_file(path: Path) -> Result:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        return Result(str(path), path.stem, "ERROR", f"cannot read: {exc}")
    if not isinstance(data, dict):
        return Result(str(path), path.stem, "ERROR", "not a YAML mapping")
    return run_scenario(data, str(path))


def run_scenario(data: dict[str, Any], path: str = "<scenario>") -> Result:
    name = str(data.get("name") or Path(path).stem)
    if "name" not in data:
        return Result(path, name, "ERROR", "missing required key 'name'")
    unknown = set(data) - SETUP_KEYS
    if unknown:
        return Result(path, name, "ERROR", f"unknown keys: {', '.join(sorted(unknown))}")
    ruleset = data.get("ruleset", "return")
    if ruleset not in RULESETS:
        return Result(path, name, "ERROR", f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}")
    # relations (nemesis, employer, secret_character) are set up by Game.from_position.
    try:
        game = Game.from_position(data)
    except SetupError as exc:
        return Result(path, name, "ERROR", f"set-up: {exc}")
    steps = data.get("steps") or []
    if not isinstance(steps, list):
        return Result(path, name, "ERROR", "steps: expected a list")
    try:
        for i, step in enumerate(steps, 1):
            if isinstance(step, dict):
                if set(step) != {"expect"}:
                    return Result(path, name, "ERROR", f"step {i}: a mapping step must be {{expect: …}}")
                try:
                    check(game, step["expect"])
                except Mismatch as exc:
                    return Result(path, name, "FAIL", f"step {i} expect: {exc}")
                continue
            problem = play_step(game, str(step))
            if problem:
                return Result(path, name, "FAIL", f"step {i} {str(step)!r}: {problem}")
        check(game, data.get("expect") or {})
    except Mismatch as exc:
        return Result(path, name, "FAIL", str(exc))
    except BadScenario as exc:
        return Result(path, name, "ERROR", str(exc))
    except (KeyError, TypeError, ValueError) as exc:
        return Result(path, name, "ERROR", f"bad scenario data: {exc!r}")
    return Result(path, name, "ok")


def play_step(game: Game, step: str) -> str | None:
    """Apply ``"SEAT: ACTION"`` or the ``"*: pass [until S]"`` macro; return a problem."""
    if ":" not in step:
        raise ValueError(f"step {step!r} is not 'SEAT: ACTION'")
    who, action = (part.strip() for part in step.split(":", 1))
    if who == "*":
        words = action.split()
        until = int(words[2]) if len(words) == 3 and words[:2] == ["pass", "until"] else None
        if words != ["pass"] and until is None:
            raise ValueError(f"'*' steps are '*: pass' or '*: pass until S', got {action!r}")
        for _ in range(PASS_CAP):
            p = game.pending
            if p is None or p.seat == until or PASS not in game.legal_actions(p.seat):
                return None
            game.apply(p.seat, "pass")
        return f"more than {PASS_CAP} passes"
    seat = int(who)
    try:
        game.apply(seat, action)
    except IllegalAction as exc:
        return str(exc)
    return None


def _multiset(value: Any) -> Counter[int]:
    return Counter(int(v) for v in (value or []))


def check(game: Game, expect: dict[str, Any]) -> None:
    """Raise :class:`Mismatch` at the first expectation that does not hold."""
    unknown = set(expect) - EXPECT_KEYS
    if unknown:
        raise ValueError(f"unknown expect keys: {', '.join(sorted(unknown))}")
    st = game.state
    for seat_key, wanted in (expect.get("seats") or {}).items():
        i = int(seat_key)
        if not 0 <= i < st.players:
            raise ValueError(f"expect seat {i} does not exist")
        bad = set(wanted) - SEAT_EXPECT
        if bad:
            raise ValueError(f"unknown seat expect keys: {', '.join(sorted(bad))}")
        p = st.seats[i]
        actual: dict[str, Any] = {
            "hand_count": len(p.hand), "alive": p.alive, "exposed": p.exposed,
            "identity_revealed": p.identity_revealed, "character": p.character or None,
            "intel_count": len(p.intel),
        }
        for key, want in wanted.items():
            if key in ("hand", "intel"):
                have = getattr(p, key)
                if _multiset(want) != Counter(have):
                    raise Mismatch(f"seat {i} {key}: expected {sorted(want or [])}, got {sorted(have)}")
            elif key == "hand_includes":
                # A multiset subset: for cards taken at random (抽), name what must be there.
                missing = _multiset(want) - Counter(p.hand)
                if missing:
                    raise Mismatch(f"seat {i} hand_includes: {sorted(missing.elements())} not in {sorted(p.hand)}")
            elif key == "hand_within":
                # Every hand card is one of these (multiset): a random take's possible outcomes.
                extra = Counter(p.hand) - _multiset(want)
                if extra:
                    raise Mismatch(f"seat {i} hand_within: {sorted(extra.elements())} not among {sorted(want or [])}")
            elif key == "relation":
                if p.ext.tie() != (-1 if want is None else int(want)):
                    raise Mismatch(f"seat {i} relation: expected {want!r}, got {p.ext.tie()}")
            elif actual[key] != want:
                raise Mismatch(f"seat {i} {key}: expected {want!r}, got {actual[key]!r}")
    if "pile_top" in expect:
        want = [int(c) for c in expect["pile_top"]]
        have = list(reversed(st.pile))[: len(want)]
        if have != want:
            raise Mismatch(f"pile_top: expected {want}, got {have}")
    if "pile_count" in expect and len(st.pile) != int(expect["pile_count"]):
        raise Mismatch(f"pile_count: expected {expect['pile_count']}, got {len(st.pile)}")
    if "discard_top" in expect and (not st.discard or st.discard[-1] != int(expect["discard_top"])):
        raise Mismatch(f"discard_top: expected {expect['discard_top']}, got {st.discard[-1:] or None}")
    for key, zone in (("discard_contains", st.discard), ("removed_contains", st.removed)):
        if key in expect:
            missing = _multiset(expect[key]) - Counter(zone)
            if missing:
                raise Mismatch(f"{key}: {sorted(missing.elements())} not in {sorted(zone)}")
    for key, should in (("legal_includes", True), ("legal_excludes", False)):
        for seat_key, actions in (expect.get(key) or {}).items():
            pend = game.pending
            if not should and (pend is None or pend.seat != int(seat_key)):
                # Nothing is legal for a seat that is not to act: excluding actions there
                # would pass whatever the rules say, so the scenario is wrong, not the engine.
                to_act = f"seat {pend.seat} is" if pend else "nobody is"
                raise BadScenario(f"legal_excludes: seat {seat_key} is not to act ({to_act}), so it checks nothing")
            legal = set(game.legal_actions(int(seat_key)))
            for action in actions:
                try:
                    listed = parse(str(action), game.ruleset.code_aliases) in legal
                except NotationError:
                    listed = False
                if listed != should:
                    verb = "not legal" if should else "legal"
                    raise Mismatch(f"{key}: {action!r} is {verb} for seat {seat_key}; legal: {sorted(map(str, legal))}")
    if "to_act" in expect:
        p = game.pending
        have_seat = p.seat if p else None
        if have_seat != expect["to_act"]:
            kind = f" ({p.kind})" if p else ""
            raise Mismatch(f"to_act: expected {expect['to_act']!r}, got {have_seat!r}{kind}")
    if "game_over" in expect and st.over != bool(expect["game_over"]):
        raise Mismatch(f"game_over: expected {expect['game_over']}, got {st.over}")
    if "winners" in expect and sorted(st.winners) != sorted(int(w) for w in expect["winners"] or []):
        raise Mismatch(f"winners: expected {sorted(expect['winners'] or [])}, got {sorted(st.winners)}")
    for key, should in (("seen", True), ("not_seen", False)):
        for viewer, patterns in (expect.get(key) or {}).items():
            events = game.events_for(int(viewer))
            for pattern in patterns or []:
                hit = any(_event_matches(e, pattern) for e in events)
                if hit != should:
                    verb = "no event" if should else "an event"
                    raise Mismatch(f"{key}: {verb} matching {pattern!r} is visible to seat {viewer}")
    if "killers" in expect:
        have_k = {d: sorted(k) for d, k in game.killers().items()}
        for dead, who in (expect["killers"] or {}).items():
            if have_k.get(int(dead)) != sorted(int(w) for w in who):
                raise Mismatch(f"killers of {dead}: expected {sorted(who)}, got {have_k.get(int(dead))}")


def _event_matches(event: Event, pattern: dict[str, Any]) -> bool:
    """Whether an event fits a ``seen`` / ``not_seen`` pattern: same kind, acting seat,
    named seats and cards (multisets), and text containing ``text_contains``."""
    if not isinstance(pattern, dict) or not pattern or set(pattern) - EVENT_KEYS:
        raise BadScenario(f"event pattern {pattern!r}: use the keys {', '.join(sorted(EVENT_KEYS))}")
    if "kind" in pattern and event.kind != pattern["kind"]:
        return False
    if "seat" in pattern and event.seat != int(pattern["seat"]):
        return False
    if "seats" in pattern and Counter(event.seats) != _multiset(pattern["seats"]):
        return False
    if "cards" in pattern and Counter(event.cards) != _multiset(pattern["cards"]):
        return False
    return "text_contains" not in pattern or str(pattern["text_contains"]) in event.text


def run_paths(paths: Iterable[str | Path]) -> Iterator[Result]:
    for f in find_files(paths):
        yield run_file(f)
