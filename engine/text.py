"""Structured text: the templates that render events (and prompts) from typed values
(issue 16 §1, issue 27).

An event is a value: a template key and typed arguments (:class:`engine.game.Event`). Each
ruleset keeps a table of templates (``data/<id>-text.tsv`` in its package), one row per
shape of line: its key, kind, the English line of the engine's log (what the CLI, the
scenario files and the leak checks read), and the Chinese and English templates the clients
render. Rendering goes one way only, from (key, arguments) to text: nothing here, or in a
client, recovers an event's arguments from its words.

Placeholders name their type by prefix (digits may follow: ``{seat2}``), and an argument's
value has that type (:func:`check_args`):

========== ======================= ==============================================
prefix     value                   English line
========== ======================= ==============================================
``seat``   a seat number (int)     ``3``
``seats``  seat numbers (tuple)    ``0 3`` (none: empty)
``card``   a card id (int; 0: face down)   ``17`` (face down: ``?``)
``cards``  card ids (tuple)        ``17 40``
``n``      a count (int)           ``2`` — another seat's draw carries only this
``id``     an id (str)             card function, character, skill, identity, mode
``ids``    ids (tuple of str)      ``a,b``
``zh``     a printed Chinese name  as is
``text``   free text               as is
``action`` an action in notation   as is (docs/notation.md)
``reason`` a game-over reason      as is (the clients translate it)
========== ======================= ==============================================

A prompt (``scope`` ``prompt``) is a value too (issue 27's decision half): ``Game.ask`` takes
a prompt row's key and its typed arguments, the English line is rendered from them once,
and the wire carries the key and the arguments (``Decision.template``, ``Decision.args``)
for the clients to render. Every prompt row says what is asked and names the seats and
cards involved; its Chinese template holds no English word, id or rule citation
(tests/unit/test_prompt_templates.py). :func:`structure` remains only for a prompt restored
from a snapshot written before prompts were values (its line, matched to its row).
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from engine.rulesets import PACKAGES

#: The value of an event argument (its type is given by its placeholder's prefix).
ArgValue = int | str | tuple[int, ...] | tuple[str, ...]

#: Placeholder type -> the regular expression of its value in a prompt line.
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
#: Placeholder types whose value is an int, a tuple of ints, a str, a tuple of str.
INT_TYPES = frozenset({"seat", "card", "n"})
INTS_TYPES = frozenset({"seats", "cards"})
STRS_TYPES = frozenset({"ids"})
#: Placeholder types written into the English line as ``str(value)``.
PLAIN_TYPES = frozenset({"seat", "n", "id", "zh", "text", "action", "reason"})
PLACEHOLDER = re.compile(r"\{([a-z]+)(\d*)\}")
SCOPES = ("event", "prompt")


@dataclass(frozen=True, slots=True)
class Template:
    """One row of a ruleset's text table: events of ``kind`` with key ``key`` read
    ``english`` in the engine's log and render as ``zh`` or ``en`` in the clients."""

    key: str
    scope: str
    kind: str
    english: str
    zh: str
    en: str
    parts: tuple[tuple[str, str, str], ...]
    """The English line cut at its placeholders: (literal before, name, type); the last
    piece has no name."""
    names: tuple[str, ...] = ()
    """The placeholder names of the English line, in order."""
    fields: tuple[tuple[str, str], ...] = ()
    """(name, type) of each placeholder, in order."""
    types: tuple[tuple[str, type], ...] = ()
    """(name, Python type of its value) of each placeholder, in order."""

    def line(self, args: Mapping[str, ArgValue]) -> str:
        """The English line of these arguments (the engine's log, the scenario files)."""
        if not self.fields:
            return self.english
        out: list[str] = []
        for literal, name, kind in self.parts:
            out.append(literal)
            if name:
                v = args[name]
                out.append(str(v) if kind in PLAIN_TYPES else english_value(kind, v))
        return "".join(out)

    @property
    def regex(self) -> re.Pattern[str]:
        """The regular expression of a prompt line of this row."""
        return compile_match(self.english)


def make_template(key: str, scope: str, kind: str, english: str, zh: str, en: str) -> Template:
    """A row of a text table, its English line cut at its placeholders."""
    parts = cut(english)
    fields = tuple((name, t) for _, name, t in parts if name)
    types = tuple((name, python_type(t)) for name, t in fields)
    return Template(key, scope, kind, english, zh, en, parts, tuple(n for n, _ in fields), fields, types)


def python_type(kind: str) -> type:
    """The Python type of an argument of placeholder type ``kind``."""
    if kind in INT_TYPES:
        return int
    if kind in INTS_TYPES or kind in STRS_TYPES:
        return tuple
    return str


def placeholder_type(name: str) -> str:
    """``seat2`` -> ``seat``."""
    return name.rstrip("0123456789")


def english_value(kind: str, value: ArgValue) -> str:
    """One argument as the English line writes it."""
    if kind == "card":
        return "?" if value == 0 else str(value)
    if kind in INTS_TYPES:
        assert isinstance(value, tuple)
        return " ".join("?" if v == 0 and kind == "cards" else str(v) for v in value)
    if kind in STRS_TYPES:
        assert isinstance(value, tuple)
        return ",".join(map(str, value))
    return str(value)


def check_args(row: Template, args: Mapping[str, ArgValue]) -> None:
    """Raise ``TypeError`` unless ``args`` gives every placeholder of ``row`` a value of
    its type: an int for a seat, a card or a count, a tuple for a list (of ints for seats
    and cards, of str for ids), a str for an id or a name. Checked at every event (the
    engine's hot path): the value's own type, not each item of a list."""
    for name, want in row.types:
        v = args.get(name, _MISSING)
        if type(v) is not want:
            if v is _MISSING:
                raise TypeError(f"event {row.key}: missing argument {name!r}")
            raise TypeError(f"event {row.key}: argument {name!r} is {v!r}, not a {want.__name__}")


_MISSING: Any = object()  # no argument value is this very object


def cut(english: str) -> tuple[tuple[str, str, str], ...]:
    """An English line cut at its placeholders (:attr:`Template.parts`)."""
    parts: list[tuple[str, str, str]] = []
    pos = 0
    for m in PLACEHOLDER.finditer(english):
        if m.group(1) not in PATTERNS:
            raise ValueError(f"unknown placeholder type {m.group(0)!r} in {english!r}")
        parts.append((english[pos : m.start()], m.group(1) + m.group(2), m.group(1)))
        pos = m.end()
    parts.append((english[pos:], "", ""))
    return tuple(parts)


@lru_cache(maxsize=1024)
def compile_match(match: str) -> re.Pattern[str]:
    """The regular expression of a prompt line: literal text, placeholders as groups."""
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
    """A digest key (kept for prompt rows written without one)."""
    digest = hashlib.sha1(f"{scope}\t{kind}\t{match}".encode()).hexdigest()[:8]
    return f"{kind}.{digest}"


@cache
def templates(ruleset_id: str) -> tuple[Template, ...]:
    """Every row of a ruleset's text table, in file order.

    Columns, tab-separated: scope (``event``/``prompt``), key, kind, English line, Chinese
    template, English template. ``#`` starts a comment line. Keys are unique per table."""
    rows: list[Template] = []
    path = text_file(ruleset_id)
    if not path.exists():
        return ()
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 6 or cells[0] not in SCOPES:
            raise ValueError(f"{path.name}:{number}: want scope, key, kind, English line, zh, en separated by tabs")
        scope, key, kind, english, zh, en = cells
        if key in seen:
            raise ValueError(f"{path.name}:{number}: key {key!r} twice")
        seen.add(key)
        rows.append(make_template(key, scope, kind, english, zh, en))
    return tuple(rows)


@cache
def event_templates(ruleset_id: str) -> dict[str, Template]:
    """The event rows of a ruleset's table by key."""
    return {row.key: row for row in templates(ruleset_id) if row.scope == "event"}


@cache
def prompt_templates(ruleset_id: str) -> dict[str, Template]:
    """The prompt rows of a ruleset's table by key."""
    return {row.key: row for row in templates(ruleset_id) if row.scope == "prompt"}


@cache
def _prompts_by_kind(ruleset_id: str) -> dict[str, tuple[Template, ...]]:
    out: dict[str, list[Template]] = {}
    for row in templates(ruleset_id):
        if row.scope == "prompt":
            out.setdefault(row.kind, []).append(row)
    return {kind: tuple(rows) for kind, rows in out.items()}


@lru_cache(maxsize=65536)
def structure(ruleset_id: str, kind: str, text: str) -> tuple[Template, dict[str, str]] | None:
    """The prompt row a prompt line of ``kind`` matches and its arguments, or ``None`` when
    no row does (the clients then show the line as it is). Events never come here: they
    are values from the start."""
    if ruleset_id not in PACKAGES:
        return None
    for row in _prompts_by_kind(ruleset_id).get(kind, ()):
        m = row.regex.fullmatch(text)
        if m is not None:
            return row, {k: v for k, v in m.groupdict().items() if v is not None}
    return None


def set_arg(arg: Any, kind: str, value: ArgValue) -> None:
    """Fill a protobuf ``EventArg`` (its ``name`` set) with ``value``, in the field its
    placeholder type ``kind`` names: an event's arguments and a prompt's alike."""
    if kind == "seat":
        arg.seat = int(value)  # type: ignore[arg-type]
    elif kind == "card":
        arg.card = int(value)  # type: ignore[arg-type]
    elif kind == "n":
        arg.count = int(value)  # type: ignore[arg-type]
    elif kind == "seats":
        arg.seats.values.extend(value)
    elif kind == "cards":
        arg.cards.values.extend(value)
    elif kind == "ids":
        arg.ids.values.extend(value)
    elif kind == "id":
        arg.id = str(value)
    else:
        arg.text = str(value)


def prompt_arguments(ruleset_id: str, key: str,
                     args: tuple[tuple[str, ArgValue], ...]) -> tuple[tuple[str, str, ArgValue], ...]:
    """A keyed prompt's typed arguments in its row's order: (name, placeholder type, value)
    (``Decision.arguments``)."""
    given = dict(args)
    return tuple([(name, kind, given[name]) for name, kind in prompt_templates(ruleset_id)[key].fields])


def fill_prompt(ruleset_id: str, kind: str, text: str, message: object, key: str = "",
                args: tuple[tuple[str, ArgValue], ...] = (), *, typed: bool = True) -> None:
    """Set ``template`` and ``args`` of a protobuf Decision from the prompt's value: its
    ``key`` and typed ``args``, each written as the English line writes it (a seat or a
    card as its number, a list space-separated). A prompt without a key (restored from a
    snapshot an engine before prompt values wrote) is matched to its row by its line."""
    if key:
        row = prompt_templates(ruleset_id)[key]
        message.template = key  # type: ignore[attr-defined]
        kinds = dict(row.fields)
        message.args.update({name: english_value(kinds[name], v) for name, v in args})  # type: ignore[attr-defined]
        if typed:  # in the row's order (Decision.arguments)
            for name, kind_, value in prompt_arguments(ruleset_id, key, args):
                set_arg(message.arguments.add(name=name), kind_, value)  # type: ignore[attr-defined]
        return
    found = structure(ruleset_id, kind, text)
    if found is None:
        return
    row, words = found
    message.template = row.key  # type: ignore[attr-defined]
    message.args.update(words)  # type: ignore[attr-defined]
