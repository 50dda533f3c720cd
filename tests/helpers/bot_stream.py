"""A bot's live stream read on a thread, for tests that watch what the platform sends a bot.

>>> got = pump_messages(BotClient(token=token, address=address))   # doctest: +SKIP
>>> got.get(timeout=20).WhichOneof("kind")                          # doctest: +SKIP
'welcome'
"""

from __future__ import annotations

import queue
import threading

from fengsheng.bot import BotClient, BotError
from fengsheng.v1 import bot_service_pb2 as bs


def pump_messages(client: BotClient) -> queue.Queue[bs.ServerMessage | BotError]:
    """Open ``client``'s stream on a daemon thread: every message it is sent goes into the
    queue, then the :class:`BotError` that ended the stream, if one did."""
    got: queue.Queue[bs.ServerMessage | BotError] = queue.Queue()

    def pump() -> None:
        try:
            for msg in client.messages():
                got.put(msg)
        except BotError as exc:
            got.put(exc)

    threading.Thread(target=pump, daemon=True).start()
    return got
