"""Every JSON example in docs/bots.md is checked against what the platform really sends or
takes (issue 17, defect 7): the gateway's one JSON shape (int64 as numbers, enums by name,
gateway/convert.py), the one error shape (gateway/errors.py), the card table.

Blocks are fenced as ```json send (a BotMessage), ```json receive (a ServerMessage),
```json error (an error body) and ```json http GET /api/cards... (the card data).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from engine.rulesets import get_ruleset
from fengsheng.v1 import bot_service_pb2 as bs
from gateway.convert import to_dict
from gateway.errors import GRPC_TO_HTTP
from services.engine.rulesets import ruleset_info

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
BLOCK = re.compile(r"```json([^\n]*)\n(.*?)```", re.S)


def deck(ruleset: str) -> dict[int, dict[str, Any]]:
    """``GET /api/cards?ruleset=`` as the gateway answers it (gateway/rulesets.py: the
    engine's ``ListRulesets`` deck, each card through ``to_dict``), by card number."""
    return {card.number: to_dict(card) for card in ruleset_info(get_ruleset(ruleset)).cards}


def blocks() -> list[tuple[str, str]]:
    found = [(info.strip(), body) for info, body in BLOCK.findall(DOC.read_text(encoding="utf-8"))]
    assert found, "docs/bots.md has no JSON examples"
    return found


def is_part_of(example: Any, actual: Any, where: str = "$") -> None:
    """``example`` shows a part of ``actual``: the same keys with the same values and types
    (a JSON string where the platform sends a number, or a number for an enum name, fails)."""
    if isinstance(example, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        for key, value in example.items():
            assert key in actual, f"{where}.{key}: no such field"
            is_part_of(value, actual[key], f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(actual, list) and len(example) == len(actual), f"{where}: {actual!r}"
        for i, (a, b) in enumerate(zip(example, actual, strict=True)):
            is_part_of(a, b, f"{where}[{i}]")
    else:
        assert type(example) is type(actual) and example == actual, f"{where}: doc {example!r}, sent {actual!r}"


@pytest.mark.parametrize(("info", "body"), blocks(), ids=lambda v: v.split("\n")[0][:40])
def test_every_json_example_is_what_the_platform_speaks(info: str, body: str) -> None:
    example = json.loads(body)
    kind = info.split()[0] if info else ""
    assert kind in ("send", "receive", "error", "http"), f"untagged JSON block: {info!r}"
    if kind == "send":
        # the gateway parses it into a BotMessage exactly (no unknown field)
        message = json_format.Parse(body, bs.BotMessage())
        assert message.WhichOneof("kind") == next(iter(example))
        is_part_of(example, to_dict(message))
    elif kind == "receive":
        # what the gateway sends is to_dict of the ServerMessage: the example must be part of it
        message = json_format.Parse(body, bs.ServerMessage())
        assert message.WhichOneof("kind") == next(iter(example))
        is_part_of(example, to_dict(message))
    elif kind == "error":
        error = example["error"]
        assert set(example) == {"error"} and {"status", "code", "kind", "message"} <= set(error)
        assert GRPC_TO_HTTP[grpc.StatusCode[error["code"].upper()]] == error["status"]
        if "retry_after_ms" in error:
            assert isinstance(error["retry_after_ms"], int) and error["retry_after_ms"] > 0
    else:
        assert info.split()[1:] == ["GET", "/api/cards?ruleset=return"], info
        cards = deck(example["ruleset"])
        for number, card in example["cards"].items():
            assert card == cards[int(number)]


def test_the_message_tables_name_every_message_of_the_protocol() -> None:
    text = DOC.read_text(encoding="utf-8")
    for field in [*bs.BotMessage.DESCRIPTOR.fields, *bs.ServerMessage.DESCRIPTOR.fields]:
        assert re.search(rf"^\| `{field.name}` \|", text, re.M), f"{field.name} is not in a message table"
    assert "celery beat" not in text.lower().replace("embeds the matchmaking beat", "")
    assert "GET /api/cards" in text
