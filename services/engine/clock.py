"""Time controls and away seats (docs/bots.md, "Time controls" and "Away seats").

A timed match (``MatchSettings.turn_timeout_ms`` > 0) gives every decision of a seat that is
not a house bot a *clock* (``turn_timeout_ms``) and each such seat a *bank*
(``MatchSettings.time_bank_ms``): extra time the seat may spend, over the whole match, past
its clock. A decision's timer runs for the clock plus what is left of the seat's bank; an
answer later than the clock spends the overrun from the bank; a decision the timer answers
(a *default*) empties the bank.

A default counts against the seat; an answer in time clears the count; a late answer (the
timer already answered) changes nothing. After :func:`away_after_default` defaults in a
row the seat is *away* for the rest of the match: the house policy answers its decisions at
once and the seat's own actions are refused (kind ``away``).

Per match, one Redis hash (:func:`away_key`, in the match's hash slot) holds: per seat
``N`` its consecutive defaults, ``bN`` its bank left (ms; absent: the full bank), and
``open`` = ``DECISION:MS``, when the decision now timed was opened (by the engine's clock).

The time controls a table may choose (:data:`CLOCKS_MS`, :data:`MAX_BANK_MS`) and their
defaults (:func:`time_control`) are here too: a table of bots only defaults to the bot-speed
clock, any table with a person to the people's clock.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any

from fengsheng.redis_errors import STORE_UNAVAILABLE
from fengsheng.v1 import engine_service_pb2 as es
from services.errors import BadRequest

log = logging.getLogger(__name__)

#: the per-decision clocks a table may choose (ms): bot speed, quick, people
CLOCKS_MS = (1000, 5000, 30000)
#: a table of bots only: its default clock and bank (ms)
BOT_CLOCK_MS, BOT_BANK_MS = 1000, 2000
#: a table with a person: its default clock and bank (ms)
PEOPLE_CLOCK_MS, PEOPLE_BANK_MS = 30000, 0
#: the largest bank a table may choose (ms)
MAX_BANK_MS = 300000
#: how long a match's clock record lives (it outlives any match; refreshed on every default)
CLOCK_TTL_S = 7 * 24 * 3600


@dataclass(frozen=True)
class TimeControl:
    """A table's per-decision clock and each seat's bank, in ms."""

    clock_ms: int
    bank_ms: int

    @property
    def clock_s(self) -> float:
        return self.clock_ms / 1000

    @property
    def bank_s(self) -> float:
        return self.bank_ms / 1000


def time_control(clock_ms: int, bank_ms: int, *, bots_only: bool) -> TimeControl:
    """The time control a table asked for (0: the default of a bots-only table, or of a
    table with a person), checked against the documented set; :class:`BadRequest` otherwise."""
    if clock_ms == 0 and bank_ms == 0:
        return TimeControl(BOT_CLOCK_MS, BOT_BANK_MS) if bots_only else TimeControl(PEOPLE_CLOCK_MS, PEOPLE_BANK_MS)
    if clock_ms == 0:
        clock_ms = BOT_CLOCK_MS if bots_only else PEOPLE_CLOCK_MS
    if clock_ms not in CLOCKS_MS:
        raise BadRequest(f"clock_ms must be one of {', '.join(map(str, CLOCKS_MS))} (or 0: the default)")
    if not 0 <= bank_ms <= MAX_BANK_MS:
        raise BadRequest(f"bank_ms must be 0..{MAX_BANK_MS}")
    return TimeControl(clock_ms, bank_ms)


def away_key(match_id: str) -> str:
    """Hash of a match's seat clocks: defaults in a row, bank left, the open timed decision."""
    return f"fs:m:{{{match_id}}}:away"


def away_after_default() -> int:
    """``FENGSHENG_AWAY_AFTER``: consecutive defaults that make a seat away (default 3)."""
    return max(1, int(os.environ.get("FENGSHENG_AWAY_AFTER") or 3))


def _int(raw: Any, default: int) -> int:
    return default if raw is None else int(raw)


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock as read (:meth:`SeatClocks.read`): the open timed decision
    (``DECISION:MS``), its defaults in a row, its bank left (None: the full bank)."""

    opened: str
    misses: int
    bank_ms: int | None
    away: bool


@dataclass
class SeatClocks:
    """The seat clocks and away counts of matches, in the match store's Redis."""

    redis: Any
    away_after: int

    async def opened(self, match_id: str, seat: int, decision: int, now_ms: int,
                     settings: es.MatchSettings) -> tuple[bool, float]:  # fmt: skip
        """Record that ``decision`` of ``seat`` opened at ``now_ms`` and is timed; returns
        (whether the seat is away, its timer's countdown in seconds: clock + bank left)."""
        key = away_key(match_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(key, "open", f"{decision}:{now_ms}")
        pipe.hmget(key, str(seat), f"b{seat}")
        pipe.expire(key, CLOCK_TTL_S)
        try:
            _, (misses, bank), _ = await pipe.execute()
        except STORE_UNAVAILABLE:  # the timer still ends the decision (without the bank)
            log.warning("could not read the clock of %s seat %s", match_id, seat, exc_info=True)
            return False, settings.turn_timeout_ms / 1000
        away = _int(misses, 0) >= self.away_after
        return away, (settings.turn_timeout_ms + _int(bank, settings.time_bank_ms)) / 1000

    async def bank_ms(self, match_id: str, seat: int, settings: es.MatchSettings) -> int:
        """What is left of ``seat``'s bank (ms)."""
        raw = await self.redis.hget(away_key(match_id), f"b{seat}")
        return _int(raw, settings.time_bank_ms)

    async def read(self, match_id: str, seat: int) -> SeatClock:
        """``seat``'s clock now (one read); an unreachable store reads as a fresh clock."""
        try:
            opened, misses, bank = await self.redis.hmget(away_key(match_id), "open", str(seat), f"b{seat}")
        except STORE_UNAVAILABLE:
            log.warning("could not read the clock of %s seat %s", match_id, seat, exc_info=True)
            return SeatClock("", 0, None, False)
        text = opened.decode() if isinstance(opened, bytes) else opened or ""
        count = _int(misses, 0)
        return SeatClock(text, count, None if bank is None else int(bank), count >= self.away_after)

    async def answered(self, match_id: str, seat: int, decision: int, now_ms: int, settings: es.MatchSettings,
                       clock: SeatClock) -> None:  # fmt: skip
        """``seat`` answered ``decision`` itself, in time (``clock``: as read before): its
        defaults in a row start again from 0, and an answer past the clock spends the
        overrun from its bank."""
        if clock.away:
            return  # away for the rest of the match
        key = away_key(match_id)
        number, _, at = clock.opened.partition(":")
        over = now_ms - int(at) - settings.turn_timeout_ms if number == str(decision) and at else 0
        if not clock.misses and over <= 0:
            return  # nothing to write
        pipe = self.redis.pipeline(transaction=False)
        if clock.misses:
            pipe.hdel(key, str(seat))
        if over > 0:
            bank = settings.time_bank_ms if clock.bank_ms is None else clock.bank_ms
            pipe.hset(key, f"b{seat}", max(0, bank - over))
            pipe.expire(key, CLOCK_TTL_S)
        try:
            await pipe.execute()
        except STORE_UNAVAILABLE:
            log.warning("could not charge the clock of %s seat %s", match_id, seat, exc_info=True)

    async def defaulted(self, match_id: str, seat: int) -> Any:
        """One more default of ``seat``, whose bank it spends; returns the bank as it was (for
        :meth:`undo_default`)."""
        key = away_key(match_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hincrby(key, str(seat), 1)
        pipe.hget(key, f"b{seat}")
        pipe.hset(key, f"b{seat}", 0)
        pipe.expire(key, CLOCK_TTL_S)
        try:
            misses, bank, _, _ = await pipe.execute()
        except STORE_UNAVAILABLE:  # the count restarts: the seat is away a little later
            log.warning("could not count a default of %s seat %s", match_id, seat, exc_info=True)
            return None
        if int(misses) == self.away_after:
            log.info("match %s seat %s is away after %d defaults in a row", match_id, seat, int(misses))
        return bank

    async def undo_default(self, match_id: str, seat: int, bank: Any) -> None:
        """The default counted by :meth:`defaulted` was not written after all: one fewer, and
        the bank back as it was (``bank``: what :meth:`defaulted` returned)."""
        key = away_key(match_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hincrby(key, str(seat), -1)
        if bank is None:
            pipe.hdel(key, f"b{seat}")
        else:
            pipe.hset(key, f"b{seat}", bank)
        try:
            await pipe.execute()
        except STORE_UNAVAILABLE:
            log.warning("could not take back a default of %s seat %s", match_id, seat, exc_info=True)

    async def is_away(self, match_id: str, seat: int) -> bool:
        """Whether ``seat`` is away (answered at once by the house policy to the match's end)."""
        misses = await self.redis.hget(away_key(match_id), str(seat))
        return misses is not None and int(misses) >= self.away_after
