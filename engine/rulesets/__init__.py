"""The registry of rulesets: ruleset id -> its package under ``engine/rulesets/``.

A ruleset package builds a :class:`engine.ruleset.Ruleset` named ``RULESET``; it is
imported the first time a match of that ruleset is made or restored. Adding a ruleset
adds one line to :data:`PACKAGES`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import SetupError
from engine.ruleset import Ruleset

#: Ruleset id -> package. ``return`` is 风声再临 (its package name is a Python keyword, so
#: it is reached through this table, never by a ``from … import`` statement).
PACKAGES: dict[str, str] = {
    "return": "engine.rulesets.return",
    "classic": "engine.rulesets.classic",
    "spy": "engine.rulesets.spy",
}
RULESET_IDS: tuple[str, ...] = tuple(PACKAGES)

_LOADED: dict[str, Ruleset] = {}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; :class:`SetupError` naming the known ones otherwise."""
    found = _LOADED.get(ruleset_id)
    if found is not None:
        return found
    if ruleset_id not in PACKAGES:
        raise SetupError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(RULESET_IDS)}")
    loaded = importlib.import_module(PACKAGES[ruleset_id]).RULESET
    if not isinstance(loaded, Ruleset) or loaded.id != ruleset_id:
        raise TypeError(f"{PACKAGES[ruleset_id]}.RULESET is not the Ruleset {ruleset_id!r}")
    _LOADED[ruleset_id] = loaded
    return loaded


def ruleset_module(ruleset_id: str, name: str) -> ModuleType:
    """A module of a ruleset's package (``ruleset_module("return", "deck")``), for tools
    and tests that read a ruleset's own tables."""
    get_ruleset(ruleset_id)
    return importlib.import_module(f"{PACKAGES[ruleset_id]}.{name}")


__all__ = ["PACKAGES", "RULESET_IDS", "Ruleset", "get_ruleset", "ruleset_module"]
