"""The characters of 谍战篇: the 33 of the base box (spy digest §9) and the expansion
characters added so far (column ``expansion`` of ``data/spy-characters.tsv``), one module
per implemented character. Only base characters all of whose skills are implemented are
dealt (:func:`playable`): expansion content is not part of the base ruleset (digest §1.4);
scenarios and positions may seat an expansion character by its id."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from ..skills import SKILLS
from ..table import ROWS, Row

for _mod in pkgutil.iter_modules([str(Path(__file__).parent)]):
    importlib.import_module(f"{__name__}.{_mod.name}")

def implemented(cid: str) -> bool:
    """Every skill of the character has its object (passive ones answer hooks)."""
    return all(s in SKILLS for s in ROWS[cid].skills)


def playable() -> list[str]:
    """Characters that can be dealt: base characters with every skill implemented
    (docs/rulesets.md)."""
    return [cid for cid, row in ROWS.items() if not row.expansion and implemented(cid)]


__all__ = ["ROWS", "SKILLS", "Row", "playable"]
