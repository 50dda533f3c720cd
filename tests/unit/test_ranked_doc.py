"""docs/ranked.md and the ladder history endpoint agree (issue 17 §7: "history fields named
differently from ranked.md"): the doc's example of ``GET /api/ranked/players/{id}/history``
has exactly the fields, and their JSON types, of what the gateway answers for a match rated
by the real ladder code on a real Redis; the doc's list of entry fields names exactly those.

Blocks are fenced as ```json http GET /api/ranked/players/...``` (as in docs/bots.md,
tests/unit/test_bots_doc.py)."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis

from engine.rulesets import RULESET_IDS
from fengsheng.v1 import game_pb2
from gateway.ranked_routes import history_body
from services.ranked.ladder import HUMAN, MatchResult, Participant, RedisLadder

DOC = Path(__file__).resolve().parents[2] / "docs" / "ranked.md"
BLOCK = re.compile(r"```json http GET (/api/ranked/players/[^\n]*)\n(.*?)```", re.S)


def history_examples() -> list[tuple[str, dict[str, Any]]]:
    found = [(path, json.loads(body)) for path, body in BLOCK.findall(DOC.read_text(encoding="utf-8"))]
    assert found, "docs/ranked.md has no example of the history endpoint"
    return found


@pytest.fixture(scope="module")
def answered(redis_url: str) -> dict[str, Any]:
    """What the gateway answers for a player after one rated match (the path of a real
    request: RedisLadder.history, the JSON of HistoryResponse.entries, the route's body)."""
    ladder = RedisLadder(redis.Redis.from_url(redis_url))
    tag = uuid.uuid4().hex[:8]  # own player ids: nothing else in this Redis is touched
    ids = [f"doc-{tag}-{seat}" for seat in range(5)]
    identities = [game_pb2.MILITARY, game_pb2.LATENT, game_pb2.MILITARY, game_pb2.LATENT, game_pb2.MILITARY]
    parts = tuple(Participant(pid, pid, seat == 4, seat, seat in (0, 2, 4), identities[seat])
                  for seat, pid in enumerate(ids))  # fmt: skip
    ladder.record(MatchResult(f"rk-doc-{tag}", "2026-12", parts, ruleset=RULESET_IDS[-1]))
    entries = ladder.history(HUMAN, ids[0], 50, None)
    assert len(entries) == 1
    return history_body(ids[0], HUMAN, "", [json.dumps(e) for e in entries])


def same_shape(example: Any, actual: Any, where: str = "$") -> None:
    """The same fields (no more, no fewer) with the same JSON types, all the way down."""
    if isinstance(example, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        assert set(example) == set(actual), f"{where}: doc {sorted(example)}, sent {sorted(actual)}"
        for key in example:
            same_shape(example[key], actual[key], f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(actual, list) and len(actual) >= 1, f"{where}: {actual!r}"
        for i, item in enumerate(example):
            same_shape(item, actual[0], f"{where}[{i}]")
    else:
        assert type(example) is type(actual), f"{where}: doc {example!r}, sent {actual!r}"


@pytest.mark.parametrize(("path", "example"), history_examples(), ids=lambda v: str(v)[:40])
def test_the_history_example_is_what_the_gateway_answers(
    path: str, example: dict[str, Any], answered: dict[str, Any]
) -> None:
    same_shape(example, answered)
    player = path.split("/")[4]
    assert example["player_id"] == player and example["ladder"] in ("human", "bot")
    for entry in example["matches"]:
        assert entry["ruleset"] in RULESET_IDS
        assert entry["identity"] in game_pb2.Identity.DESCRIPTOR.values_by_name  # by enum name, as the gateway sends it
        assert entry["players"] > entry["seat"] >= 0
    sent = answered["matches"][0]
    assert sent["identity"] == "MILITARY" and sent["won"] is True and sent["ruleset"] == RULESET_IDS[-1]


def test_the_doc_names_every_field_of_a_history_entry(answered: dict[str, Any]) -> None:
    text = DOC.read_text(encoding="utf-8")
    paragraph = re.search(r"A \*\*history entry\*\*(.*?)\n\n", text, re.S)
    assert paragraph, "docs/ranked.md has no history entry paragraph"
    listed = re.search(r":\s*((?:`[a-z_]+`,\s*)+`[a-z_]+`)\.", paragraph.group(1))
    assert listed, "the history entry paragraph lists no fields"
    names = re.findall(r"`([a-z_]+)`", listed.group(1))
    assert names == list(answered["matches"][0]), names


def test_the_arena_and_benchmark_commands_run_as_written(redis_url: str, tmp_path: Path) -> None:
    """Every line of docs/ranked.md's shell block runs and succeeds ("every example in the
    docs runs in a test", issue 17): as written, except for fewer ``--matches`` (the figures
    are not what is tested here) and the test's own Redis instead of the default one."""
    import os
    import shlex
    import subprocess
    import sys

    root = DOC.parents[1]
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    lines = [ln.split("  #", 1)[0].strip() for block in blocks for ln in block.splitlines() if ln.strip()]
    assert any(ln.startswith("fengsheng arena") for ln in lines) and any("bench/" in ln for ln in lines), lines
    from urllib.parse import urlsplit

    parts = urlsplit(re.sub(r"/\d*$", "", redis_url) + "/12")  # the password goes by env, never argv
    db = f"{parts.scheme}://{parts.hostname}:{parts.port}{parts.path}"
    env = {**os.environ, "PYTHONPATH": str(root), "FENGSHENG_REDIS_PASSWORD": parts.password or ""}
    exe = Path(sys.executable).with_name("fengsheng")
    for line in lines:
        argv = shlex.split(line)
        argv = [exe.as_posix() if a == "fengsheng" else sys.executable if a == "python" else a for a in argv]
        argv = [db if a.startswith("redis://") else a for a in argv]
        at = argv.index("--matches")
        argv[at + 1] = "8"
        if "bench/ladder.py" in line:
            argv += ["--updates", "200"]
        out = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=root, env=env)
        assert out.returncode == 0, (line, out.stdout[-1000:], out.stderr[-2000:])
        assert out.stdout.strip(), line
