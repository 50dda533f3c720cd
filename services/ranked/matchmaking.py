"""Matchmaking: tickets become ranked matches (docs/ranked.md, "Matchmaking").

A ticket names a ruleset (``return`` unless it says otherwise) and a player-count range the
ruleset allows (:func:`queue_settings`, read from the engine's registry): each ruleset has
a queue of its own, so tickets of different rulesets never share a match.

:func:`form_groups` is the pure pairing rule; :func:`tick` is one pass of the Celery task
``matchmaking.tick`` (run by Celery beat every ``tick_s``, and callable at any time): read
the queue, form groups, claim each group atomically (:meth:`RankedStore.claim`: a ticket
never lands in two matches, even with concurrent ticks), create the match through the
engine service, then notify every ticket holder on its Redis channel.

A ranked match's id (``rk-`` and 14 random hex digits) must name a match that matchmaking
itself created: the engine refuses an id it already has (``ALREADY_EXISTS``, raised here as
:class:`MatchIdTaken`), and matchmaking then gives the tickets back and tries a fresh id
(never seating anyone in a match someone else dealt). The deal's seed is left to the
engine, which draws it from the OS CSPRNG (services/engine/matches.py).

The rating window: a ticket waiting ``w`` seconds accepts opponents whose mu is within
``window(w) = min(window_base + window_growth * w, window_max)`` of its own; two tickets
pair when each accepts the other. After ``fill_after_ms`` (60 s) the oldest ticket's group is
completed with house bots; a group of two or more bots and no person, after the shorter
``bot_fill_after_ms`` (5 s): bots gain nothing from waiting for people, and a bot-only table
plays at the bot-speed clock (docs/ranked.md, "Matchmaking"; docs/bots.md).

One person, one seat (docs/ranked.md, "What a rated table forbids"): a group never holds two
tickets that are :func:`kept_apart` — one owner (a person and their bots, two bots of one
owner), or accounts seen from one client address within ``address_window_ms``
(``FENGSHENG_MM_ADDRESS_WINDOW_MS``, services/config.py). Such tickets go to separate tables,
or wait; house bots may fill either table. Casual tables (services/ranked/casual.py) are
never rated and may seat them together.
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.rulesets import get_ruleset
from services import config
from services.bot_levels import DEFAULT_BANDS, bands_from_env, level_for_rating
from services.ranked.ladder import DEFAULT_RULESET, current_season, known_ruleset
from services.ranked.player_ids import house_id
from services.ranked.store import RankedStore, SeatPlan, player_of

log = logging.getLogger("fengsheng.matchmaking")

#: a ticket's player count when it names none (if its ruleset allows it; else the smallest)
DEFAULT_PLAYERS = 5
#: fresh ids tried for one group when the engine already has a match of that id
CREATE_ATTEMPTS = 3


def player_counts(ruleset: str) -> tuple[int, ...]:
    """The table sizes ``ruleset`` allows (its identity table's keys), smallest first;
    ``ValueError`` naming the known rulesets for an unknown one."""
    return tuple(sorted(get_ruleset(known_ruleset(ruleset)).identity_table))


def queue_settings(ruleset: str, min_players: int, max_players: int) -> tuple[str, int, int]:
    """A ticket's ``(ruleset, min, max)`` from a request's (empty ruleset: ``return``; 0 min:
    5 if allowed, else the smallest count; 0 max: min); ``ValueError`` with the ruleset's
    allowed counts when the range holds a count the ruleset does not allow."""
    ruleset = ruleset or DEFAULT_RULESET
    counts = player_counts(ruleset)
    lo = min_players or (DEFAULT_PLAYERS if DEFAULT_PLAYERS in counts else counts[0])
    hi = max_players or lo
    if lo > hi or any(n not in counts for n in range(lo, hi + 1)):
        raise ValueError(f"{ruleset} is played by {counts[0]} to {counts[-1]} players: the range must satisfy "
                         f"{counts[0]} <= min_players <= max_players <= {counts[-1]} (got {lo}..{hi})")  # fmt: skip
    return ruleset, lo, hi


class MatchIdTaken(Exception):
    """The engine already has a match with this id: not one matchmaking created, so no one
    is seated in it."""


def new_match_id() -> str:
    """A ranked match id: ``rk-`` and 14 hex digits from the OS CSPRNG."""
    return "rk-" + secrets.token_hex(7)


@dataclass(frozen=True)
class Schedule:
    """The matchmaking settings (environment variables in brackets; every duration in ms,
    the older ``*_S`` names are refused: :func:`services.config.ms_env`)."""

    #: milliseconds between ticks (Celery beat) [FENGSHENG_MM_TICK_MS]
    tick_ms: float = 2000.0
    #: rating window (in mu) at enqueue time [FENGSHENG_MM_WINDOW_BASE]
    window_base: float = 2.0
    #: how fast it widens, mu per second waited [FENGSHENG_MM_WINDOW_GROWTH]
    window_growth: float = 0.25
    #: the widest window [FENGSHENG_MM_WINDOW_MAX]
    window_max: float = 25.0
    #: after this wait (ms), empty seats are filled with house bots [FENGSHENG_MM_FILL_AFTER_MS]
    fill_after_ms: float = 60000.0
    #: the same for a group of two or more bots and no person [FENGSHENG_MM_BOT_FILL_AFTER_MS]
    bot_fill_after_ms: float = 5000.0
    #: house bots [FENGSHENG_MM_HOUSE_BOT]: ``level`` picks easy / normal / hard by the table's
    #: mean rating (services/bot_levels.py); a level or a policy name fixes it
    house_bot: str = "level"
    #: mu bands easy | normal | hard for ``level`` [FENGSHENG_MM_LEVEL_BANDS, "LOW,HIGH"]
    level_bands: tuple[float, float] = DEFAULT_BANDS
    #: turn timer (ms) of ranked matches: a missed deadline gets the default action
    #: [FENGSHENG_RANKED_TURN_TIMEOUT_MS]
    turn_timeout_ms: float = 30000.0
    #: per-decision clock (ms) of ranked matches of bots only (docs/bots.md, "Time controls";
    #: with the bots' bank, services/engine/clock.py) [FENGSHENG_RANKED_BOT_TURN_TIMEOUT_MS]
    bot_turn_timeout_ms: float = 1000.0
    #: accounts seen from one client address within this many ms never share a table;
    #: 0: the address rule off [FENGSHENG_MM_ADDRESS_WINDOW_MS, services/config.py]
    address_window_ms: float = config.DEFAULT_ADDRESS_WINDOW_MS

    @classmethod
    def from_env(cls) -> Schedule:
        env = os.environ.get

        def num(name: str, default: float) -> float:
            return float(env(name) or default)

        def ms(name: str, default: float) -> float:
            return config.ms_env(name, default, was=name.removesuffix("_MS") + "_S")

        return cls(
            tick_ms=ms("FENGSHENG_MM_TICK_MS", cls.tick_ms),
            window_base=num("FENGSHENG_MM_WINDOW_BASE", cls.window_base),
            window_growth=num("FENGSHENG_MM_WINDOW_GROWTH", cls.window_growth),
            window_max=num("FENGSHENG_MM_WINDOW_MAX", cls.window_max),
            fill_after_ms=ms("FENGSHENG_MM_FILL_AFTER_MS", cls.fill_after_ms),
            bot_fill_after_ms=ms("FENGSHENG_MM_BOT_FILL_AFTER_MS", cls.bot_fill_after_ms),
            house_bot=env("FENGSHENG_MM_HOUSE_BOT") or cls.house_bot,
            level_bands=bands_from_env(),
            turn_timeout_ms=ms("FENGSHENG_RANKED_TURN_TIMEOUT_MS", cls.turn_timeout_ms),
            bot_turn_timeout_ms=ms("FENGSHENG_RANKED_BOT_TURN_TIMEOUT_MS", cls.bot_turn_timeout_ms),
            address_window_ms=config.address_window_ms(),
        )

    def clock_ms(self, seats: list[SeatPlan]) -> float:
        """The turn timer (ms) of a match of ``seats``: the bot-speed clock when all are bots."""
        return self.bot_turn_timeout_ms if all(s.kind != "human" for s in seats) else self.turn_timeout_ms

    def fill_wait_ms(self, group: list[dict[str, Any]]) -> float:
        """How long a group's oldest ticket waits before house bots fill its empty seats:
        ``bot_fill_after_ms`` for two or more bots and no person (nothing to wait for: a
        bot-only table), else ``fill_after_ms``.

        >>> s = Schedule(fill_after_ms=60000, bot_fill_after_ms=5000)
        >>> s.fill_wait_ms([{"bot": True}, {"bot": True}]), s.fill_wait_ms([{"bot": True}])
        (5000, 60000)
        >>> s.fill_wait_ms([{"bot": True}, {"bot": False}])
        60000
        """
        if len(group) >= 2 and all(t.get("bot") for t in group):
            return min(self.bot_fill_after_ms, self.fill_after_ms)
        return self.fill_after_ms

    def window(self, waited_s: float) -> float:
        return min(self.window_base + self.window_growth * max(waited_s, 0.0), self.window_max)


@dataclass(frozen=True)
class Group:
    """Tickets (all of one ruleset) that become one match."""

    tickets: tuple[dict[str, Any], ...]
    players: int  # tickets + house bots
    ruleset: str = DEFAULT_RULESET

    @property
    def house_seats(self) -> int:
        return self.players - len(self.tickets)


def person_of(ticket: dict[str, Any]) -> str:
    """The person behind a ticket: a bot's owner, a person themselves (their player id)."""
    return str(ticket.get("owner") or player_of(ticket["holder"]))


def kept_apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two tickets may never share a rated table: one holder, one person behind both
    (:func:`person_of`), or one client address between them (``addresses``: the ticket's own
    and its holder's others seen within the window, :func:`with_addresses`)."""
    if a["holder"] == b["holder"] or person_of(a) == person_of(b):
        return True
    return not frozenset(a.get("addresses", ())).isdisjoint(b.get("addresses", ()))


def with_addresses(tickets: list[dict[str, Any]], recent: dict[str, frozenset[str]], window_s: float
                   ) -> list[dict[str, Any]]:  # fmt: skip
    """The tickets, each with ``addresses``: the one it queued from and those its holder was
    seen from within the window (``recent``); none when the window is 0 (the rule off)."""
    if window_s <= 0:
        return [{**t, "addresses": frozenset()} for t in tickets]
    return [{**t, "addresses": recent.get(t["holder"], frozenset()) | ({t["address"]} if t.get("address") else set())}
            for t in tickets]  # fmt: skip


def form_groups(tickets: list[dict[str, Any]], now_ms: int, schedule: Schedule) -> list[Group]:
    """Each ruleset's tickets apart (:func:`form_ruleset_groups`): a match never mixes
    rulesets."""
    queues: dict[str, list[dict[str, Any]]] = {}
    for t in tickets:
        queues.setdefault(t.get("ruleset") or DEFAULT_RULESET, []).append(t)
    return [g for ruleset in sorted(queues) for g in form_ruleset_groups(queues[ruleset], now_ms, schedule, ruleset)]


def form_ruleset_groups(tickets: list[dict[str, Any]], now_ms: int, schedule: Schedule,
                        ruleset: str = DEFAULT_RULESET) -> list[Group]:  # fmt: skip
    """Greedy, oldest first, over one ruleset's tickets: each ticket gathers the compatible
    tickets nearest its rating (both windows accept, player-count ranges intersect, none
    :func:`kept_apart` from another) up to the largest count they all accept; a group forms
    once it reaches the smallest such count, or, after :meth:`Schedule.fill_wait_ms` (the
    shorter ``bot_fill_after_ms`` for two or more bots and no person), with house bots in the
    empty seats."""
    waiting = sorted(tickets, key=lambda t: (t["enqueued_ms"], t["ticket_id"]))
    used: set[str] = set()
    groups: list[Group] = []

    def win(t: dict[str, Any]) -> float:
        return schedule.window((now_ms - t["enqueued_ms"]) / 1000.0)

    for anchor in waiting:
        if anchor["ticket_id"] in used:
            continue
        lo, hi = anchor["min_players"], anchor["max_players"]
        group = [anchor]
        others = [t for t in waiting if t["ticket_id"] not in used and t is not anchor]
        others.sort(key=lambda t: abs(t["rating"] - anchor["rating"]))
        for t in others:
            if len(group) >= hi:
                break
            new_lo, new_hi = max(lo, t["min_players"]), min(hi, t["max_players"])
            if new_lo > new_hi or len(group) + 1 > new_hi or any(kept_apart(t, g) for g in group):
                continue
            if all(abs(t["rating"] - g["rating"]) <= min(win(t), win(g)) for g in group):
                group.append(t)
                lo, hi = new_lo, new_hi
        if len(group) >= lo:
            players = len(group)
        elif now_ms - anchor["enqueued_ms"] >= schedule.fill_wait_ms(group):
            players = lo
        else:
            continue
        used.update(t["ticket_id"] for t in group)
        groups.append(Group(tuple(group), players, ruleset))
    return groups


def house_level(group: Group, schedule: Schedule) -> str:
    """The house bots' level (or fixed policy) for ``group``: by the rating band of the mean
    rating (mu) of its tickets when ``house_bot`` is ``level`` (issue 14)."""
    if schedule.house_bot != "level":
        return schedule.house_bot
    ratings = [float(t.get("rating", 25.0)) for t in group.tickets]
    return level_for_rating(sum(ratings) / len(ratings) if ratings else 25.0, schedule.level_bands)


def seat_plan(group: Group, schedule: Schedule, rng: random.Random) -> list[SeatPlan]:
    """Random seats for the group's tickets and its house bots (labelled as bots)."""
    order = list(group.tickets) + [None] * group.house_seats
    rng.shuffle(order)
    seats: list[SeatPlan] = []
    house = 0
    level = house_level(group, schedule)
    for seat, t in enumerate(order):
        if t is None:
            house += 1
            # each level (or fixed policy) is its own ladder identity: house-normal-1 … (no "#")
            pid = house_id(level, house)
            seats.append(SeatPlan(seat, level, pid, f"house {level} #{house}", True))
        else:
            kind = "external" if t["bot"] else "human"
            seats.append(SeatPlan(seat, kind, player_of(t["holder"]), t["name"], t["bot"], t["holder"],
                                  t["ticket_id"]))  # fmt: skip
    return seats


#: create_match(match_id, seat kinds, turn_timeout_ms, ruleset): creates the match in the
#: engine service; raises :class:`MatchIdTaken` when the id is taken (ALREADY_EXISTS: a match
#: this call did not create), any other exception on failure.
CreateMatch = Callable[[str, list[str], float, str], None]


def tick(
    store: RankedStore,
    create_match: CreateMatch,
    schedule: Schedule,
    *,
    now_ms: int | None = None,
    rng: random.Random | None = None,
) -> dict[str, Any]:
    """One matchmaking pass; returns what it did (``formed``: match id -> ticket ids)."""
    now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
    rng = rng or random.SystemRandom()
    formed: dict[str, list[str]] = {}
    lost = 0
    season = current_season(now_ms / 1000.0)
    queued = store.queued()
    window_s = schedule.address_window_ms / 1000
    recent = store.recent_addresses(sorted({t["holder"] for t in queued}), window_s, now_ms)
    for group in form_groups(with_addresses(queued, recent, window_s), now_ms, schedule):
        seats = seat_plan(group, schedule, rng)
        tids = [s.ticket_id for s in seats if s.ticket_id]
        match_id = _create(store, create_match, schedule, season, group.ruleset, seats, tids)
        if match_id is None:
            lost += 1
            continue
        if not match_id:
            continue
        store.confirm(match_id, tids)
        formed[match_id] = tids
        for tid in tids:
            ticket = store.ticket(tid)
            if ticket is not None:
                store.publish(ticket)
        log.info("ranked %s match %s: %s", group.ruleset, match_id, [(s.seat, s.kind, s.player_id) for s in seats])
    return {"formed": formed, "lost_claims": lost, "queued": len(store.queued())}


def _create(
    store: RankedStore,
    create_match: CreateMatch,
    schedule: Schedule,
    season: str,
    ruleset: str,
    seats: list[SeatPlan],
    tids: list[str],
) -> str | None:
    """Claim the group's tickets for a fresh id and create its match: the match id; ``None``
    when the claim was lost (another tick took, or a holder withdrew, one of the tickets);
    ``""`` when no match could be created (the tickets are back in the queue)."""
    for _attempt in range(CREATE_ATTEMPTS):
        match_id = new_match_id()
        if not store.claim(match_id, season, seats, schedule.clock_ms(seats) / 1000, ruleset):
            return None
        try:
            create_match(match_id, [s.kind for s in seats], schedule.clock_ms(seats), ruleset)
        except MatchIdTaken:
            log.warning("ranked match id %s already exists in the engine (not ours); trying another", match_id)
            store.release(match_id, tids)
            continue
        except Exception:
            log.warning("could not create ranked match %s; its tickets go back to the queue", match_id,
                        exc_info=True)  # fmt: skip
            store.release(match_id, tids)
            return ""
        return match_id
    return ""
