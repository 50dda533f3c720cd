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
from services.ladder import HUMAN, MatchResult, Participant, RedisLadder

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
