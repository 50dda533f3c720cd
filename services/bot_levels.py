"""Bot levels (issue 14): what "easy", "normal" and "hard" mean, for the lobby, the REST API,
the terminal client and ranked fill.

=======  ===================  ==========================================================
level    seat kind            policy (``engine.bots.POLICIES``)
=======  ===================  ==========================================================
easy     ``BOT_RANDOM``       ``random``: any legal action
normal   ``BOT_V2``           ``v2``: heuristic v2, plays its identity (engine/bots_v2.py)
hard     ``BOT_SEARCH``       ``search``: determinized search (engine/search.py); ``v2`` if absent
=======  ===================  ==========================================================

Ranked fill picks the level of its house bots by the rating band of the humans and bots it
completes (:func:`level_for_rating`), and each level is its own ladder identity
(``house-easy-1``, ``house-normal-1`` …), so the ladder rates the levels apart.
"""

from __future__ import annotations

import os

from engine.bots import POLICIES
from fengsheng.v1 import engine_service_pb2 as es

#: Level -> the seat kind name the services and the gateway use for it.
LEVELS: dict[str, str] = {"easy": "random", "normal": "v2", "hard": "search"}
#: Seat kind name -> protobuf seat kind (levels included, as their kinds).
SEAT_KINDS: dict[str, es.SeatKind] = {
    "human": es.HUMAN,
    "external": es.BOT_EXTERNAL,
    "random": es.BOT_RANDOM,
    "heuristic": es.BOT_HEURISTIC,
    "v2": es.BOT_V2,
    "search": es.BOT_SEARCH,
}
SEAT_KINDS.update({level: SEAT_KINDS[kind] for level, kind in LEVELS.items()})
#: Default rating bands (player mu) between easy | normal | hard; a new player starts at 25.
DEFAULT_BANDS = (22.0, 30.0)


def search_available() -> bool:
    """Whether the engine has a search bot registered (``POLICIES["search"]``)."""
    return "search" in POLICIES


def policy_of_kind(kind: int) -> str | None:
    """The ``POLICIES`` name that answers for a seat of this kind, or None (a human or an
    external bot). ``BOT_SEARCH`` falls back to ``v2`` if no search bot is registered."""
    if kind == es.BOT_RANDOM:
        return "random"
    if kind == es.BOT_HEURISTIC:
        return "heuristic"
    if kind == es.BOT_V2:
        return "v2"
    if kind == es.BOT_SEARCH:
        return "search" if search_available() else "v2"
    return None


def level_note(level: str) -> str:
    """What a level plays as now, for the lobby and ``GET /api/bot-levels``."""
    if level == "hard" and not search_available():
        return "search is not available yet: plays as normal (heuristic v2)"
    return {"easy": "random legal moves", "normal": "heuristic v2", "hard": "search"}[level]


#: The search bot's default thinking budget per decision (issue 14: 200 ms).
DEFAULT_SEARCH_BUDGET_MS = 200.0


def search_budget_ms() -> float:
    """``FENGSHENG_SEARCH_BUDGET_MS``: the hard level's search time per decision in the bot
    workers (1–5000 ms, default 200); the task holds its worker thread that long at most
    (plus one playout), so other tasks are not starved. Every hard answer, searched or not,
    is released no earlier than this budget plus a margin (services/bot_timing.py)."""
    raw = os.environ.get("FENGSHENG_SEARCH_BUDGET_MS")
    try:
        value = float(raw) if raw else DEFAULT_SEARCH_BUDGET_MS
    except ValueError:
        value = DEFAULT_SEARCH_BUDGET_MS
    return min(5000.0, max(1.0, value)) if value == value else DEFAULT_SEARCH_BUDGET_MS


def bands_from_env() -> tuple[float, float]:
    """``FENGSHENG_MM_LEVEL_BANDS`` = ``LOW,HIGH`` (mu): below LOW easy, from HIGH hard."""
    raw = os.environ.get("FENGSHENG_MM_LEVEL_BANDS")
    if not raw:
        return DEFAULT_BANDS
    low, high = (float(x) for x in raw.split(",", 1))
    return (low, high) if low <= high else (high, low)


def level_for_rating(rating: float, bands: tuple[float, float] = DEFAULT_BANDS) -> str:
    """The house-bot level for a table whose players' mean rating (mu) is ``rating``.

    >>> level_for_rating(15.0), level_for_rating(25.0), level_for_rating(35.0)
    ('easy', 'normal', 'hard')
    """
    low, high = bands
    if rating < low:
        return "easy"
    if rating >= high:
        return "hard"
    return "normal"
