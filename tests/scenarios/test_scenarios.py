"""Every scenario file under tests/scenarios/ runs inside pytest too (one test each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fengsheng.scenario import find_files, run_file

HERE = Path(__file__).parent
FILES = find_files([HERE])


def test_there_are_enough_scenarios() -> None:
    # Issue 2 acceptance 1: at least 60 rulebook scenarios for the core rules.
    assert len(find_files([HERE / "return"])) >= 60


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(HERE)) for f in FILES])
def test_scenario(path: Path) -> None:
    result = run_file(path)
    assert result.status == "ok", result.line()


def test_every_scenario_cites_its_source() -> None:
    """Every rule decision in tests cites the rulebook page or the digest section."""
    import yaml

    missing = [str(f.relative_to(HERE)) for f in FILES
               if not str((yaml.safe_load(f.read_text(encoding="utf-8")) or {}).get("source", "")).strip()]
    assert missing == []


def test_each_scenario_names_the_ruleset_of_its_folder() -> None:
    """The runner dispatches on ``ruleset:``; the project's files live under
    ``tests/scenarios/<ruleset>/``, so a file and its folder must agree."""
    import yaml

    wrong = {str(f.relative_to(HERE)): (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).get("ruleset", "return")
             for f in FILES}
    assert {k: v for k, v in wrong.items() if k.split("/")[0] != v} == {}


def test_every_character_has_scenarios() -> None:
    """Issue 3: each character has scenario files (at least 4), 100 or more in all."""
    from engine.rulesets import get_ruleset

    CHARACTERS = get_ruleset("return").characters

    names = [f.name for f in find_files([HERE / "return" / "characters"])]
    assert len(names) >= 100
    thin = {c: n for c in CHARACTERS if (n := sum(1 for x in names if x.startswith(c + "_"))) < 4}
    assert thin == {}
