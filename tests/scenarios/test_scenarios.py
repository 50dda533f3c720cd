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
