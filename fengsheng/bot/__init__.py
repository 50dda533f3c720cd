"""The Python SDK for 风声 bots (docs/bots.md).

A bot is one function, ``decide(observation, legal_actions) -> action``::

    from fengsheng.bot import run_bot

    def decide(observation, legal_actions):
        return legal_actions[0]

    run_bot(decide, token="fsb_...", url="http://127.0.0.1:8000", matches=1)

:func:`run_bot` connects to ``BotService.Connect`` with the bot's API token, queues for
ranked matches, calls ``decide`` for every decision of the bot's seats and sends the
answers, until ``matches`` ranked matches are over. Example bots:
:mod:`fengsheng.bot.examples` (``python -m fengsheng.bot --bot heuristic --token ...``).
"""

from fengsheng.bot.client import BotClient, BotError, MatchSummary, run_bot

__all__ = ["BotClient", "BotError", "MatchSummary", "run_bot"]
