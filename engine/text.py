"""Structured text: the template and arguments of an event or a prompt (issue 16 §1).

The engine writes every event and prompt as a line of English notation (``seat 3 uses
ju_ji``). Each ruleset keeps a table of templates (``data/<id>-text.tsv`` in its package):
one row per shape of line, with the English pattern the engine writes, its kind, and the
Chinese and English templates the clients render. :func:`structure` finds the row a line
matches and the arguments it carries, so a client never parses English: it renders the
template of its player's language with the arguments (cards by name, seats by name).

The arguments are pieces of the line itself, so a template shows nothing the line (already
checked for leaks per viewer: fengsheng/text_leaks.py) does not. Adding a ruleset adds its
table; tests/unit/test_text_templates.py fails on any line a ruleset emits without a row.

Placeholders name their type by prefix (digits may follow: ``{seat2}``): ``seat`` a seat
number, ``card`` a card number (``?`` when face down), ``cards`` card numbers separated by
spaces or commas, ``seats`` seat numbers so separated (``-``: none), ``n`` a count,
``id`` an id (card function, character, skill, identity, mode, word), ``ids`` ids
separated by commas, ``zh`` a printed
Chinese name, ``text`` free text, ``action`` an action in notation (docs/notation.md),
``reason`` a game-over reason (the clients translate it).
"""

from __future__ import annotations

import hashlib
import importlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from engine.rulesets import PACKAGES

#: Placeholder type -> the regular expression of its value in an engine line.
PATTERNS: dict[str, str] = {
    "seats": r"-?\d+(?:[ ,]-?\d+)*|-",
    "seat": r"-?\d+",
    "cards": r"(?:\d+|\?)(?:[ ,](?:\d+|\?))*",
    "card": r"\d+|\?",
    "n": r"\d+",
    "ids": r"[a-z][a-z_]*(?:,[a-z][a-z_]*)*",
    "id": r"[a-z][a-z_]*",
    "zh": r"[^\x00-\x7f]+",
    "text": r".+",
    "action": r".+",
    "reason": r".+",
}
PLACEHOLDER = re.compile(r"\{([a-z]+)(\d*)\}")
SCOPES = ("event", "prompt")


@dataclass(frozen=True, slots=True)
class Template:
    """One row of a ruleset's text table: lines of ``kind`` shaped like ``match`` are
    rendered as ``zh`` or ``en``."""

    key: str
    scope: str
    kind: str
    match: str
    zh: str
    en: str
    regex: re.Pattern[str]

    def placeholders(self) -> list[str]:
        """The placeholder names of the English pattern, in order."""
        return [a + b for a, b in PLACEHOLDER.findall(self.match)]


def placeholder_type(name: str) -> str:
    """``seat2`` -> ``seat``."""
    return name.rstrip("0123456789")


def compile_match(match: str) -> re.Pattern[str]:
    """The regular expression of an English pattern: literal text, placeholders as groups."""
    out: list[str] = []
    pos = 0
    for m in PLACEHOLDER.finditer(match):
        out.append(re.escape(match[pos : m.start()]))
        out.append(f"(?P<{m.group(1)}{m.group(2)}>{PATTERNS[m.group(1)]})")
        pos = m.end()
    out.append(re.escape(match[pos:]))
    return re.compile("".join(out), re.DOTALL)


def text_file(ruleset_id: str) -> Path:
    """The text table of a ruleset: ``data/<id>-text.tsv`` in its package."""
    module = importlib.import_module(PACKAGES[ruleset_id])
    assert module.__file__ is not None
    return Path(module.__file__).with_name("data") / f"{ruleset_id}-text.tsv"


def template_key(scope: str, kind: str, match: str) -> str:
    """A row's key: its kind and a digest of its pattern (stable while the pattern is)."""
    digest = hashlib.sha1(f"{scope}\t{kind}\t{match}".encode()).hexdigest()[:8]
    return f"{kind}.{digest}"


@cache
def templates(ruleset_id: str) -> tuple[Template, ...]:
    """Every row of a ruleset's text table, in file order (the first match wins).

    Columns, tab-separated: scope (``event``/``prompt``), kind, English pattern, Chinese
    template, English template. ``#`` starts a comment line."""
    rows: list[Template] = []
    path = text_file(ruleset_id)
    if not path.exists():
        return ()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 5 or cells[0] not in SCOPES:
            raise ValueError(f"{path.name}:{number}: want scope, kind, pattern, zh, en separated by tabs")
        scope, kind, match, zh, en = cells
        rows.append(Template(template_key(scope, kind, match), scope, kind, match, zh, en, compile_match(match)))
    return tuple(rows)


@cache
def _by_kind(ruleset_id: str, scope: str) -> dict[str, tuple[Template, ...]]:
    out: dict[str, list[Template]] = {}
    for row in templates(ruleset_id):
        if row.scope == scope:
            out.setdefault(row.kind, []).append(row)
    return {kind: tuple(rows) for kind, rows in out.items()}


@lru_cache(maxsize=65536)
def structure(ruleset_id: str, scope: str, kind: str, text: str) -> tuple[Template, dict[str, str]] | None:
    """The row a line of ``kind`` matches and its arguments, or ``None`` when no row does
    (the clients then show the line as it is)."""
    if ruleset_id not in PACKAGES:
        return None
    for row in _by_kind(ruleset_id, scope).get(kind, ()):
        m = row.regex.fullmatch(text)
        if m is not None:
            return row, {k: v for k, v in m.groupdict().items() if v is not None}
    return None


def fill(ruleset_id: str, scope: str, kind: str, text: str, message: object) -> None:
    """Set ``template`` and ``args`` of a protobuf Event or Decision from its line."""
    found = structure(ruleset_id, scope, kind, text)
    if found is None:
        return
    row, args = found
    message.template = row.key  # type: ignore[attr-defined]
    message.args.update(args)  # type: ignore[attr-defined]
