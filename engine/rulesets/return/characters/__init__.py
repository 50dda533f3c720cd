"""The 25 characters of 风声再临 (digest §9): the character table
(``data/return-characters.tsv``: id, names, state or not, skill ids, mission) and one
module per character.

Each character module defines ``SKILLS`` (its :class:`Skill` objects, one class per skill
id of its row) and ``MISSION`` (:class:`Mission`). Adding a character touches the table,
its own module and its tests. A listed character whose module is missing, or whose skills
differ from its row, stops the ruleset from loading.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..skills import (
    CHARACTERS,
    MISSIONS,
    SKILLS,
    available_characters,
    has_skill,
    mark_used,
    skills_of,
    state_allows,
    usable,
)
from .base import Character, Mission, Skill, load_table, switch_state

TABLE_FILE = Path(__file__).resolve().parent.parent / "data" / "return-characters.tsv"
#: The character table, in the digest's order.
TABLE: dict[str, Character] = load_table(TABLE_FILE)

#: Character ids in the digest's order; a module ``characters/<id>.py`` of this package each.
CHARACTER_IDS: tuple[str, ...] = tuple(TABLE)


def _load() -> None:
    """Import every listed character module; a missing one is an ImportError at start-up
    (never a character that silently vanishes from the pool)."""
    for cid in CHARACTER_IDS:
        mod = importlib.import_module(f"{__name__}.{cid}")
        row = TABLE[cid]
        skills = {skill.id: skill for skill in mod.SKILLS}
        if sorted(skills) != sorted(row.skills):
            raise ValueError(f"character {cid}: the table lists skills {row.skills}, "
                             f"its module defines {tuple(skills)}")
        CHARACTERS[cid] = row
        MISSIONS[cid] = mod.MISSION
        SKILLS.update(skills)


_load()


__all__ = [
    "CHARACTERS", "CHARACTER_IDS", "MISSIONS", "SKILLS", "TABLE", "Character", "Mission", "Skill",
    "available_characters", "has_skill", "mark_used", "skills_of", "state_allows", "switch_state", "usable",
]
