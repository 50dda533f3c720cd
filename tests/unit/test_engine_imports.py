"""The engine's modules import each other in layers: no import inside a function (the
old way of dodging an import circle) and no circle among module-level imports. Imports
under ``if TYPE_CHECKING:`` are for annotations only and do not count."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def runtime_imports(path: Path) -> list[tuple[ast.ImportFrom | ast.Import, bool]]:
    """(import node, inside a function) for every import not under ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[ast.ImportFrom | ast.Import, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for sub in child.orelse:
                    visit(sub, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, in_function))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


def targets(path: Path, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The engine modules an import runs: the named module, its parent packages, and for
    ``from X import name`` the submodule ``X.name`` when there is one."""
    me = module_name(path)
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = me.split(".") if is_package(path) else me.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            mod = ".".join(base + ([node.module] if node.module else []))
        else:
            mod = node.module or ""
        names = [mod] + [f"{mod}.{a.name}" for a in node.names]
    out: set[str] = set()
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            cand = ".".join(parts[:i])
            # A parent package of the importer is already being imported: not an edge.
            if cand in known and not me.startswith(cand + ".") and cand != me:
                out.add(cand)
    return out


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in ENGINE.rglob("*.py")}
    known = set(files)
    return {m: {t for node, _ in runtime_imports(p) for t in targets(p, node, known)} for m, p in files.items()}


def test_no_import_inside_a_function() -> None:
    inside = sorted(f"{p.relative_to(ENGINE.parent)}:{node.lineno}"
                    for p in ENGINE.rglob("*.py") for node, in_function in runtime_imports(p) if in_function)
    assert inside == []


def test_no_import_cycle() -> None:
    edges = graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def walk(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(edges.get(m, ())):
            if state.get(n) == 1:
                cycles.append(path[path.index(n):] + [n] if n in path else [m, n])
            elif n not in state:
                walk(n, path + [n])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            walk(m, [m])
    assert cycles == []


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """A function-level import and a two-module circle are both seen."""
    a = tmp_path / "a.py"
    a.write_text("def f():\n    import json\n", encoding="utf-8")
    assert [in_fn for _, in_fn in runtime_imports(a)] == [True]
    b = tmp_path / "b.py"
    b.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import c\nimport d\n", encoding="utf-8")
    assert [type(n).__name__ for n, _ in runtime_imports(b)] == ["ImportFrom", "Import"]
