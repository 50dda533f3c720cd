"""The Python SDK for 风声 bots (docs/bots.md), the ``fengsheng-bot`` distribution.

A bot is one function, ``decide(observation, legal_actions) -> action``::

    from fengsheng_bot import run_bot

    def decide(observation, legal_actions):
        return legal_actions[0]

    run_bot(decide, token="fsb_...", url="http://127.0.0.1:8000", matches=1)

:func:`run_bot` connects to ``BotService.Connect`` with the bot's API token, queues for
ranked matches, calls ``decide`` for every decision of the bot's seats and sends the
answers, until ``matches`` ranked matches are over. It needs only grpcio and protobuf (the
generated ``fengsheng.v1`` modules ship with it); the platform's example bots, belief
helper and local arena are in the platform package (:mod:`fengsheng.bot`).
"""

from fengsheng_bot.client import BotClient, BotError, Decide, MatchSummary, run_bot

__all__ = ["BotClient", "BotError", "Decide", "MatchSummary", "run_bot"]
