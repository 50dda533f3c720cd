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


def test_a_character_whose_skills_differ_from_its_table_row_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table says which skills a character has; a module defining others stops the
    ruleset from loading (the fact is stated once, and checked)."""
    row = characters.TABLE["lao_gui"]
    wrong = type(row)(row.id, row.zh, row.en, row.stateful, ("jiu_ji", "no_such_skill"), row.mission)
    monkeypatch.setitem(characters.TABLE, "lao_gui", wrong)
    with pytest.raises(ValueError, match="lao_gui"):
        characters._load()


def test_the_ruleset_character_table_has_every_character_with_its_mission() -> None:
    from engine.rulesets import get_ruleset

    table = get_ruleset("return").characters
    assert list(table) == list(characters.CHARACTER_IDS) and len(table) == 25
    assert table["lao_gui"].skills == ("jiu_ji", "cheng_fu") and table["lao_gui"].zh == "老鬼"
    assert all(c.mission and c.en for c in table.values())
    # every skill belongs to exactly one character of the table
    owners = [s for c in table.values() for s in c.skills]
    assert sorted(owners) == sorted(set(owners)) == sorted(get_ruleset("return").skills)


@pytest.mark.parametrize("ruleset_id", ["return", "classic"])
def test_every_character_has_its_english_name_as_the_web_client_shows_it(ruleset_id: str) -> None:
    """The table's ``en`` is an English name (Old Ghost for 老鬼), not the id's pinyin again,
    and it is the name the web client's dictionary gives (one name per character)."""
    import re
    from pathlib import Path

    from engine.rulesets import get_ruleset

    js = (Path(__file__).resolve().parents[2] / "gateway" / "static" / "js" / "i18n.js").read_text(encoding="utf-8")
    block = js[js.index("const CHARACTERS = {"):]
    web = dict(re.findall(r'(\w+): \["[^"]+", "([^"]+)"\]', block[:block.index("};")]))
    table = get_ruleset(ruleset_id).characters
    assert {cid: c.en for cid, c in table.items()} == {cid: web[cid] for cid in table}
    pinyin = [cid for cid, c in table.items() if c.en.lower().replace(" ", "_") == cid]
    assert sorted(pinyin) == ["dai_li", "xiao_bai"]  # a historical name; 小白 is how the game says it
