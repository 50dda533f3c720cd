"""The gateway's request limits mirror the engine service's (the gateway imports nothing from
services/, so the numbers are written twice): a match the gateway accepts, the engine accepts."""

from __future__ import annotations

from gateway import schemas
from services import limits


def test_gateway_and_engine_agree_on_bot_delay_and_turn_timer() -> None:
    assert schemas.MAX_BOT_DELAY_S == limits.MAX_BOT_DELAY_S
    assert schemas.MAX_TURN_TIMEOUT_S == limits.MAX_TURN_TIMEOUT_S
