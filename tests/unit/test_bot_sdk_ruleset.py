"""The bot SDK queues for the ruleset it is told (``join_queue(..., ruleset=)``,
``run_bot(ruleset=)``, ``python -m fengsheng.bot --ruleset``); empty is the platform's
default (``return``). tests/integration/test_bot_api.py plays a match of one this way."""

from __future__ import annotations

from typing import Any

import pytest

from fengsheng.bot import BotClient
from fengsheng.bot import __main__ as cli
from fengsheng.v1 import bot_service_pb2 as bs


def test_join_queue_sends_the_ruleset() -> None:
    client = BotClient(token="fsb_x", address="127.0.0.1:9")  # never dialled: nothing is read
    client.join_queue(3, 9, ruleset="classic")
    client.join_queue(4)
    sent = [client._out.get_nowait(), client._out.get_nowait()]
    assert sent[0] == bs.BotMessage(join_queue=bs.QueueRequest(min_players=3, max_players=9, ruleset="classic"))
    assert sent[1].join_queue.ruleset == "" and sent[1].join_queue.min_players == 4


def test_the_command_line_passes_the_ruleset_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def record(decide: Any, **kwargs: Any) -> list[Any]:
        seen.update(kwargs)
        return []

    monkeypatch.setenv("FENGSHENG_BOT_TOKEN", "fsb_x")
    monkeypatch.setattr(cli, "run_bot", record)
    assert cli.main(["--address", "127.0.0.1:9", "--ruleset", "classic", "--players", "8"]) == 0
    assert seen["ruleset"] == "classic" and seen["min_players"] == 8
    assert cli.main(["--address", "127.0.0.1:9"]) == 0
    assert seen["ruleset"] == ""
