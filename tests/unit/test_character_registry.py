"""The character registry: every listed character is loaded, or start-up fails."""

from __future__ import annotations

import pytest

from engine.rulesets import ruleset_module

characters = ruleset_module("return", "characters")


def test_a_missing_character_module_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A listed character whose module is gone is an import error, not a character that
    silently drops out of the pool (and out of the tests that would skip without it)."""
    monkeypatch.setattr(characters, "CHARACTER_IDS", (*characters.CHARACTER_IDS, "no_such_character"))
    with pytest.raises(ModuleNotFoundError, match="no_such_character"):
        characters._load()
