"""The 33 base characters of 谍战篇 (spy digest §9): the table (``data/spy-characters.tsv``,
from the digest) and the skills, one module per implemented character. Only characters all
of whose skills are implemented are dealt (:func:`playable`)."""

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
    """Characters that can be dealt: every skill implemented (docs/rulesets.md)."""
    return [cid for cid in ROWS if implemented(cid)]


__all__ = ["ROWS", "SKILLS", "Row", "playable"]
