"""The platform's side of the bot SDK (docs/bots.md).

The SDK itself — :func:`run_bot`, :class:`BotClient` — is the standalone ``fengsheng-bot``
distribution (``sdk/python``, import name :mod:`fengsheng_bot`), which the platform
installs and re-exports here. What needs the engine stays in the platform: the example bots
(:mod:`fengsheng.bot.examples`, ``python -m fengsheng.bot --bot heuristic``), the belief
helper (:mod:`fengsheng.bot.belief`) and the local arenas (:mod:`fengsheng.bot.arena`,
:mod:`fengsheng.bot.command`).
"""

from fengsheng_bot import Action, BotClient, BotError, Decide, Event, MatchSummary, Observation, run_bot

__all__ = ["Action", "BotClient", "BotError", "Decide", "Event", "MatchSummary", "Observation", "run_bot"]
