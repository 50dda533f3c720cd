"""No skill id is named outside its ruleset's ``characters/`` directory (issue 31 §1).

The core and a ruleset's cards, flow and legal actions ask the characters through hooks
(``engine/skill.py``); a string literal equal to a skill id anywhere else in ``engine/``
means a rule that knows a character by name. The ids are read from each ruleset's
character table (its data, not its code). A few known exceptions are listed in
:data:`ALLOWED` with the reason; the list may only shrink (an entry no longer found fails).
"""

from __future__ import annotations

import ast
import csv
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
RULESETS = ENGINE / "rulesets"

#: (ruleset, file relative to the repository, skill id) -> why it is still there.
ALLOWED: dict[tuple[str, str, str], str] = {
    # Mark tags that happen to be the skill's id; the marks modules are being merged into
    # one shared set (issue 31 §3) by another change, so they stay until then.
    ("return", "engine/rulesets/return/marks.py", "qiao_zhuang"): "mark tag (QiaoZhuang)",
    ("return", "engine/rulesets/return/marks.py", "yi_ai_xuan_ming"): "mark tag (Declared)",
    ("return", "engine/rulesets/return/marks.py", "qi_che_bao_shuai"): "mark tag (QiChe)",
    # The notation writes 急送's cards before its target (docs/notation.md); the canonical
    # text must be the same whether or not the 谍战篇 package is loaded.
    ("spy", "engine/action.py", "ji_song"): "notation word order (TARGET_LAST)",
}


def skill_ids(ruleset: str) -> frozenset[str]:
    """The skill ids of a ruleset's character table (``data/<id>-characters.tsv``)."""
    path = RULESETS / ruleset / "data" / f"{ruleset}-characters.tsv"
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    return frozenset(s for row in rows for s in row["skills"].split(",") if s)


def literals(source: str) -> list[tuple[int, str]]:
    """Every string literal of a module (docstrings included), with its line."""
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def files_for(ruleset: str) -> list[Path]:
    """The engine modules that may not name ``ruleset``'s skills: the core (outside
    ``rulesets/``) and the ruleset's own package outside ``characters/``."""
    core = [p for p in ENGINE.rglob("*.py") if RULESETS not in p.parents]
    own = [p for p in (RULESETS / ruleset).rglob("*.py") if (RULESETS / ruleset / "characters") not in p.parents]
    return sorted(core + own)


@cache
def found(ruleset: str) -> frozenset[tuple[str, str, str, int]]:
    ids = skill_ids(ruleset)
    out: set[tuple[str, str, str, int]] = set()
    for path in files_for(ruleset):
        for line, text in literals(path.read_text(encoding="utf-8")):
            if text in ids:
                out.add((ruleset, str(path.relative_to(ROOT)), text, line))
    return frozenset(out)


def test_tables_have_skill_ids() -> None:
    for ruleset in ("classic", "return", "spy"):
        ids = skill_ids(ruleset)
        assert len(ids) > 20, (ruleset, len(ids))
    assert "cheng_fu" in skill_ids("spy") and "ji_min" in skill_ids("return") and "jiu_ji" in skill_ids("classic")


def test_scanner_finds_a_named_skill() -> None:
    """The scan sees a skill id written as a literal (this test can fail)."""
    src = 'def shielded(g, seat):\n    return has_skill(g, seat, "cheng_fu")\n'
    assert (2, "cheng_fu") in literals(src)


def test_no_skill_id_outside_characters() -> None:
    hits = set().union(*(found(r) for r in ("classic", "return", "spy")))
    unexpected = sorted(h for h in hits if h[:3] not in ALLOWED)
    assert not unexpected, "skill ids named outside characters/ (add a hook instead):\n" + "\n".join(
        f"{path}:{line}: {sid!r} ({ruleset})" for ruleset, path, sid, line in unexpected)


def test_allowlist_only_shrinks() -> None:
    """Every allowed exception is still there: a fixed one must leave the list."""
    hits = {h[:3] for r in ("classic", "return", "spy") for h in found(r)}
    stale = sorted(set(ALLOWED) - hits)
    assert not stale, f"remove these from ALLOWED, they are gone: {stale}"
