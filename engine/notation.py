"""The text form of actions (docs/notation.md): the one module that reads it.

:func:`parse` turns a line of notation into an :class:`engine.action.Action`;
``str(action)`` writes the canonical line back. The shapes (``play N [to S] [on M]
[code C] [as F]``, ``send …``, ``skill …``, ``choose …``) are shared by every ruleset; the
words a ruleset adds (秘密下达 codes and their ASCII aliases) come from its
:attr:`engine.ruleset.Ruleset.code_aliases`. Text is read only at the edges: scenario files,
the CLI, replays, snapshots and services that receive text.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.action import BARE, Action
from engine.errors import NotationError

PLAY_KEYS = ("to", "on", "code", "as")
SKILL_KEYS = ("to", "cards", "on", "choose")
SEND_MODES = ("secret", "direct", "text")
ARROWS = ("left", "right")
FACES = ("exposed", "hidden")

#: Canonical lines already read (legal actions repeat across decisions and games).
CACHE: dict[str, Action] = {}
_CACHE_MAX = 200_000


def _numbers(word: str, line: str) -> tuple[int, ...]:
    parts = word.split(",")
    if not all(p.isdigit() for p in parts):
        raise NotationError(f"expected numbers, got {word!r} in {line!r}")
    return tuple(int(p) for p in parts)


def _number(word: str, line: str) -> int:
    if not word.isdigit():
        raise NotationError(f"expected a number, got {word!r} in {line!r}")
    return int(word)


def _pairs(words: list[str], keys: tuple[str, ...], line: str) -> dict[str, str]:
    opts: dict[str, str] = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key not in keys or key in opts or i + 1 >= len(words):
            raise NotationError(f"unexpected {key!r} in {line!r}")
        opts[key] = words[i + 1]
        i += 2
    return opts


def parse(text: str, code_aliases: Mapping[str, str] | None = None) -> Action:
    """The action a line of notation names. Case of ASCII words and extra spaces are
    ignored; options may come in any order; ``code`` words are resolved through
    ``code_aliases``. Raises :class:`engine.errors.NotationError` for a line that is not
    an action (legality is the game's business)."""
    hit = CACHE.get(text)
    if hit is not None:
        return hit
    action = _parse(text, code_aliases or {})
    if len(CACHE) < _CACHE_MAX:
        CACHE[text] = action
    return action


def _parse(line: str, code_aliases: Mapping[str, str]) -> Action:
    words = [w if any(ord(ch) > 127 for ch in w) else w.lower() for w in line.split()]
    if not words:
        raise NotationError("empty action")
    kind, rest = words[0], words[1:]
    if kind in BARE:
        if rest:
            raise NotationError(f"{kind!r} takes nothing: {line!r}")
        return Action(kind)
    if not rest:
        raise NotationError(f"incomplete action {line!r}")
    if kind == "play":
        card = _number(rest[0], line)
        opts = _pairs(rest[1:], PLAY_KEYS, line)
        on, chain = 0, 0
        if "on" in opts:
            if opts["on"].startswith("#"):
                chain = _number(opts["on"][1:], line)
            else:
                on = _number(opts["on"], line)
        code = opts.get("code", "")
        return Action("play", card=card, to=_numbers(opts["to"], line) if "to" in opts else (), on=on,
                      chain=chain, code=code_aliases.get(code, code), alt=opts.get("as", ""))
    if kind == "send":
        pile = rest[0] == "pile"
        card = 0 if pile else _number(rest[0], line)
        mode, arrow, lock = "", "", -1
        to: tuple[int, ...] = ()
        i = 1
        while i < len(rest):
            w = rest[i]
            if w in SEND_MODES and not mode:
                mode = w
            elif w in ARROWS and not arrow:
                arrow = w
            elif w == "to" and not to and i + 1 < len(rest):
                i += 1
                to = _numbers(rest[i], line)
            elif w == "lock" and lock < 0 and i + 1 < len(rest):
                i += 1
                lock = _number(rest[i], line)
            else:
                raise NotationError(f"unexpected {w!r} in {line!r}")
            i += 1
        return Action("send", card=card, pile=pile, mode=mode, to=to, arrow=arrow, lock=lock)
    if kind == "skill":
        opts = _pairs(rest[1:], SKILL_KEYS, line)
        return Action("skill", skill=rest[0], to=_numbers(opts["to"], line) if "to" in opts else (),
                      cards=_numbers(opts["cards"], line) if "cards" in opts else (),
                      on=_number(opts["on"], line) if "on" in opts else 0,
                      options=tuple(opts["choose"].split(",")) if "choose" in opts else ())
    if kind == "choose":
        given: tuple[int, ...] = ()
        if len(rest) >= 3 and rest[-2] == "to":
            given = _numbers(rest[-1], line)
            rest = rest[:-2]
        face = ""
        if len(rest) == 2 and rest[1] in FACES:
            face, rest = rest[1], rest[:1]
        if all(ch.isdigit() or ch == "," for w in rest for ch in w):
            picks = tuple(n for w in rest for n in _numbers(w, line))
            return Action("choose", picks=picks, face=face, to=given)
        if len(rest) != 1:
            raise NotationError(f"unexpected words in {line!r}")
        return Action("choose", options=tuple(rest[0].split(",")), face=face, to=given)
    raise NotationError(f"unknown action {kind!r} in {line!r}")


def normalize(action: str, code_aliases: Mapping[str, str] | None = None) -> str:
    """The canonical spelling of ``action`` (raises :class:`NotationError` when it is not
    an action)."""
    return str(parse(action, code_aliases))
