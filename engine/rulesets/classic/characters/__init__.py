"""The 25 classic characters (digest §10): one module per character, discovered from the
rows of ``data/classic-characters.tsv`` (docs/classic-characters.md)."""

from __future__ import annotations

from .base import MISSIONS, PENDING, ROWS, SKILLS, Mission, Skill, _load_modules, playable

_load_modules()

__all__ = ["MISSIONS", "PENDING", "ROWS", "SKILLS", "Mission", "Skill", "playable"]
