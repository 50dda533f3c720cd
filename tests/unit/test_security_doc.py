"""docs/security.md and its detail pages name, for each threat, the test that holds it: every
test they name must exist, so a renamed or deleted test cannot leave a row holding nothing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "security.md", *sorted((ROOT / "docs" / "security").glob("*.md"))]
#: ``tests/x/test_y.py::test_z``, ``test_y.py::test_z`` or a bare ``::test_z`` after one of them
REF = re.compile(r"(?:((?:tests/[\w/]+/)?test_\w+\.py))?::(test_\w+)|`((?:tests/[\w/]+/)?test_\w+\.py)`")


def _test_file(name: str) -> Path:
    if name.startswith("tests/"):
        return ROOT / name
    found = list((ROOT / "tests").rglob(name))
    assert len(found) == 1, f"{name}: {len(found)} files of that name under tests/"
    return found[0]


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_test_the_security_pages_name_exists() -> None:
    checked = 0
    for page in PAGES:
        current: Path | None = None
        for line in page.read_text(encoding="utf-8").splitlines():
            current = None  # a bare ``::name`` refers to the file named before it on the same line
            for m in REF.finditer(line):
                file_name, test, whole_file = m.group(1), m.group(2), m.group(3)
                if whole_file:
                    assert _test_file(whole_file).exists(), f"{page.name}: {whole_file}"
                    current = _test_file(whole_file)
                    checked += 1
                    continue
                if file_name:
                    current = _test_file(file_name)
                assert current is not None, f"{page.name}: ::{test} names no file"
                assert test in _test_names(current), f"{page.name}: {current.name}::{test} does not exist"
                checked += 1
    assert checked > 50  # the pages do name their tests
