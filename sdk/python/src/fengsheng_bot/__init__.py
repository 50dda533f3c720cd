"""The Python SDK for 风声 bots (docs/bots.md), the ``fengsheng-bot`` distribution.

A bot is one function, ``decide(observation, legal_actions) -> action``::

    from fengsheng_bot import run_bot

    def decide(observation, legal_actions):
        accept = [a for a in legal_actions if a.kind == "accept"]
        return accept[0] if accept else legal_actions[0]

    run_bot(decide, token="fsb_...", url="http://127.0.0.1:8000", matches=1)

``legal_actions`` are :class:`Action` values (``kind``, ``card``, target seats ``to``, a
send's ``mode``/``arrow``/``lock``, a choice's ``picks``/``options`` …, and ``text``, the
notation); ``observation`` is the seat's ``fengsheng.v1.Observation`` read through an
:class:`Observation`, whose ``events`` are typed :class:`Event` values (``kind``, ``seat``,
``args`` by name, ``action``). No bot parses notation or log lines.

:func:`run_bot` connects to ``BotService.Connect`` with the bot's API token, queues for
ranked matches, calls ``decide`` for every decision of the bot's seats and sends the
answers, until ``matches`` ranked matches are over. It needs only grpcio and protobuf (the
generated ``fengsheng.v1`` modules ship with it); the platform's example bots, belief
helper and local arena are in the platform package (:mod:`fengsheng.bot`).
"""

from fengsheng_bot.client import BotClient, BotError, Decide, MatchSummary, run_bot
from fengsheng_bot.values import Action, Event, Observation

__all__ = ["Action", "BotClient", "BotError", "Decide", "Event", "MatchSummary", "Observation", "run_bot"]
