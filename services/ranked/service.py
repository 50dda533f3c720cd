"""The ranked-play service layer: what the ``RankedService`` and ``BotService`` servicers
(:mod:`services.ranked.grpc`) call. Async; Redis work runs in threads on the synchronous
:class:`services.ranked.store.RankedStore` (the same code the Celery tasks use).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fengsheng.display_text import TextRefused, clean_name
from fengsheng.v1 import game_pb2
from services import config
from services.client_address import address_key
from services.engine.matches import ActResult, MatchService
from services.errors import (
    BadRequest,
    Exhausted,
    Forbidden,
    MatchNotFound,
    NameTaken,
    Replaced,
    Unauthenticated,
)
from services.limits import BotLimits, LimitExceeded, RateLimiter
from services.ranked.ladder import (
    ALL_TIME,
    BOT,
    HUMAN,
    RedisLadder,
    Standing,
    current_season,
    known_ruleset,
    season_scope,
)
from services.ranked.matchmaking import queue_settings
from services.ranked.store import RankedStore, bot_holder, bot_live_key, notify_channel, player_of

#: what a bot past its concurrent-match limit is told to wait before queueing again
MATCHES_RETRY_AFTER_S = 5.0
#: longest bot name, in characters (after cleaning: fengsheng/display_text.py)
BOT_NAME_MAX = 40
#: answers to one pushed decision that never count against the request rate (the first, and
#: retries after an illegal one); more count like any other request
FREE_ANSWERS = 3


@dataclass(frozen=True)
class BotIdentity:
    """A registered bot, as its token names it: its id, name and owner (a player id)."""

    bot_id: str
    name: str
    owner: str

    @property
    def holder(self) -> str:
        return bot_holder(self.bot_id)


@dataclass(frozen=True)
class Decision:
    """One decision of a bot's seat, as pushed on its stream."""

    match_id: str
    seat: int
    number: int
    observation: game_pb2.Observation
    legal: list[str]
    default_action: str
    #: the clock plus what is left of the seat's bank (0: untimed), by the server's clock
    deadline_ms: int
    #: what is left of the seat's bank as the decision opens (ms)
    bank_ms: int = 0


@dataclass(frozen=True)
class Started:
    """A bot's seat in a match, as it starts watching it: every event the seat has seen so far."""

    events: list[game_pb2.Event]
    #: the match's time control: the per-decision clock (0: untimed) and each seat's bank, ms
    clock_ms: int = 0
    bank_ms: int = 0


@dataclass(frozen=True)
class Defaulted:
    """The platform answered a pushed decision for the bot: its timer ran out (``timeout``),
    or the seat is away and the house policy answered (``away``)."""

    match_id: str
    seat: int
    number: int
    applied: list[str]
    reason: str
    away: bool


@dataclass(frozen=True)
class Seen:
    """One event the bot's seat may see, as it happens (between decisions, after the seat is
    out too): pushed on its stream as ``SeatEvent``."""

    match_id: str
    seat: int
    event: game_pb2.Event


@dataclass(frozen=True)
class Ended:
    """The match is over: its outcome and the events the seat saw since its previous decision
    (the trailing events, the game-over event last)."""

    outcome: game_pb2.Outcome
    events: list[game_pb2.Event]


@dataclass
class RankedService:
    matches: MatchService
    store: RankedStore
    redis_url: str
    limits: BotLimits = field(default_factory=BotLimits.from_env)
    #: how long a client address ties accounts together (services/config.py)
    address_window_ms: float = field(default_factory=config.address_window_ms)
    _limiter: RateLimiter | None = None

    def __post_init__(self) -> None:
        self.ladder = RedisLadder(self.store.redis)

    @property
    def limiter(self) -> RateLimiter:
        if self._limiter is None:
            self._limiter = RateLimiter(self.redis_url, self.limits)
        return self._limiter

    async def close(self) -> None:
        if self._limiter is not None:
            await self._limiter.close()

    # ---- accounts -----------------------------------------------------------------------
    async def register_bot(self, name: str, owner: str) -> tuple[str, str]:
        """A new bot account owned by the player ``owner`` (a trusted caller's word: the
        gateway's player token): ``(bot_id, token)``. No owner, no bot: a rated table never
        seats a bot beside its owner or another bot of that owner (docs/ranked.md)."""
        if not owner:
            raise Unauthenticated("registering a bot needs a player token: that player owns the bot "
                                  "(POST /api/guests makes one)")  # fmt: skip
        try:  # the one cleaner of names and chat (docs/security.md, "Names and chat")
            name = clean_name(name, BOT_NAME_MAX)
        except TextRefused as exc:
            raise BadRequest(f"{exc} ({exc.code})") from exc
        if name.casefold().startswith("house"):
            raise NameTaken(f"bot names starting with 'house' are reserved for the platform's house bots: {name!r}")
        account = await asyncio.to_thread(self.store.register_bot, name, owner)
        if account is None:
            raise NameTaken(f"another bot is named {name!r} (names are unique, case-insensitive)")
        return account

    async def _account_for(self, bot_id: str, owner: str, bot_token: str) -> dict[str, Any]:
        """``bot_id``'s account when the caller owns it: the owning player (``owner``, a
        trusted caller's word) or a live token of that very bot; else refused."""
        if bot_token:
            bot = await self.authenticate(bot_token)
            if bot.bot_id != bot_id:
                raise Forbidden(f"this token is bot {bot.bot_id}'s, not {bot_id[:40]}'s")
        elif not owner:
            raise Unauthenticated("managing a bot's tokens needs its owner's player token or one of its tokens")
        account = await asyncio.to_thread(self.store.bot_account, bot_id) if bot_id else None
        if account is None:
            raise MatchNotFound(f"no bot {bot_id[:40]!r}")
        if not bot_token and account["owner"] != owner:
            raise Forbidden(f"bot {bot_id} is not yours")
        return account

    @staticmethod
    def _public(account: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in account.items() if k != "owner"}

    async def list_bots(self, owner: str, bot_token: str) -> list[dict[str, Any]]:
        """The caller's bots with their live tokens (by token id): a player's every bot, a
        bot token's own bot."""
        if bot_token:
            bot = await self.authenticate(bot_token)
            return [self._public(await self._account_for(bot.bot_id, "", bot_token))]
        if not owner:
            raise Unauthenticated("listing bots needs a player token (the owner) or a bot token")
        out = []
        for bot_id in await asyncio.to_thread(self.store.owned_bots, owner):
            account = await asyncio.to_thread(self.store.bot_account, bot_id)
            if account is not None and account["owner"] == owner:
                out.append(self._public(account))
        return out

    async def revoke_token(self, bot_id: str, token_id: str, owner: str, bot_token: str) -> dict[str, Any]:
        """Revoke one token; the account as it is now. Streams it opened end (``revoked``)."""
        await self._account_for(bot_id, owner, bot_token)
        if not await asyncio.to_thread(self.store.revoke_token, bot_id, token_id):
            raise MatchNotFound(f"bot {bot_id} has no live token {token_id[:40]!r}")
        account = await asyncio.to_thread(self.store.bot_account, bot_id)
        return self._public(account or {"bot_id": bot_id, "tokens": []})

    async def rotate_token(self, bot_id: str, owner: str, bot_token: str) -> tuple[str, str, str]:
        """A new token for the bot, every older one revoked: ``(name, token, token_id)``."""
        account = await self._account_for(bot_id, owner, bot_token)
        token, token_id = await asyncio.to_thread(self.store.rotate_token, bot_id)
        return account["name"], token, token_id

    async def open_table(self, holder: str, name: str, *, bot: BotIdentity | None, ruleset: str, players: int,
                         seats: list[str], queue: bool = False, fill_after_s: float = 0.0,
                         clock_ms: int = 0, bank_ms: int = 0) -> dict[str, Any]:  # fmt: skip
        """A casual (never rated) table: :func:`services.ranked.casual.open_table`; ``queue``: a bot
        waits for other bots first, :func:`services.ranked.casual.join_bots_queue` (at the
        bot-speed clock). ``clock_ms``, ``bank_ms``: the table's time control (0: the default)."""
        from services.ranked.casual import join_bots_queue, open_table

        if queue:
            if bot is None or seats:
                raise BadRequest("the bots-only queue takes bots, with no seats named (players, ruleset)")
            if clock_ms or bank_ms:
                raise BadRequest("the bots-only queue plays at the bot-speed clock: no clock_ms or bank_ms")
            return await join_bots_queue(self, bot, ruleset=ruleset, players=players, fill_after_s=fill_after_s)
        return await open_table(self, holder, name, bot=bot, ruleset=ruleset, players=players, seats=seats,
                                clock_ms=clock_ms, bank_ms=bank_ms)

    async def answer_challenge(self, ticket_id: str, holder: str, name: str, accept: bool, *,
                               bot: BotIdentity | None) -> tuple[dict[str, Any], bool]:  # fmt: skip
        """Accept or decline a challenge's invitation: :func:`services.ranked.casual.answer`."""
        from services.ranked.casual import answer

        return await answer(self, ticket_id, holder, name, accept, bot=bot)

    async def token_live(self, token: str) -> bool:
        return await asyncio.to_thread(self.store.token_live, token)

    async def authenticate(self, token: str) -> BotIdentity:
        found = await asyncio.to_thread(self.store.bot_of_token, token)
        if found is None:
            raise Unauthenticated("missing or unknown bot token (metadata `authorization: Bearer <token>`)")
        return BotIdentity(*found)

    async def take(self, bot: BotIdentity) -> None:
        """One request of ``bot`` against its rate limit."""
        try:
            await self.limiter.take(bot.bot_id)
        except LimitExceeded as exc:
            raise Exhausted(str(exc), retry_after_s=exc.retry_after_s) from exc

    async def open_stream(self, bot: BotIdentity, stream_id: str) -> None:
        """Make ``stream_id`` the bot's one live stream: its older stream, if any, is replaced
        (it is told at once, or at the latest within :data:`services.ranked.connection.LIVE_CHECK_S`, and closes;
        its actions are refused from now on). A Connect takes one unit of the request rate, so
        reconnecting in a loop is limited like any other request."""
        await self.take(bot)
        await self.go_live(bot, stream_id)

    async def go_live(self, bot: BotIdentity, stream_id: str) -> None:
        """Make ``stream_id`` the bot's one live stream: older ones are replaced, told at once
        (a ``{"live": stream_id}`` notice on the bot's channel) and close."""
        await asyncio.to_thread(self.store.redis.set, bot_live_key(bot.bot_id), stream_id, ex=7 * 24 * 3600)
        await asyncio.to_thread(self.store.redis.publish, notify_channel(bot.holder), json.dumps({"live": stream_id}))

    async def is_live(self, bot: BotIdentity, stream_id: str) -> bool:
        live = await asyncio.to_thread(self.store.redis.get, bot_live_key(bot.bot_id))
        return live is not None and (live.decode() if isinstance(live, bytes) else live) == stream_id

    async def refresh_stream(self, bot: BotIdentity, stream_id: str) -> None:
        await asyncio.to_thread(self.store.redis.zadd, f"lim:bot:streams:{bot.bot_id}", {stream_id: time.time()})

    async def close_stream(self, bot: BotIdentity, stream_id: str) -> None:
        await asyncio.to_thread(self.store.redis.zrem, f"lim:bot:streams:{bot.bot_id}", stream_id)

    # ---- queue --------------------------------------------------------------------------
    async def join(
        self, holder: str, name: str, *, bot: BotIdentity | None, min_players: int, max_players: int,
        ruleset: str = "", address: str,
    ) -> dict[str, Any]:
        """Queue ``holder`` for a ranked match of ``ruleset`` (default ``return``) with a
        player range that ruleset allows; the holder's queued ticket with other settings is
        replaced. The ticket's rating is the holder's all-time mu on that ruleset's ladder.
        ``address``: the client address the request came from (required: the gateway's
        :class:`services.client_address.ClientAddress`, or a bot stream's); recorded for the
        holder, and with the ticket's owner (a bot's owner, a person themselves) what keeps
        accounts apart at a rated table (docs/ranked.md, "What a rated table forbids")."""
        if not address:
            raise BadRequest("a queue request needs the client's address (client_address)")
        address = address_key(address)
        try:
            ruleset, lo, hi = queue_settings(ruleset, min_players, max_players)
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        if bot is not None:
            await self.take(bot)
            load = await asyncio.to_thread(self.store.bot_load, bot.bot_id)
            if load >= self.limits.max_matches:
                raise Exhausted(
                    f"bot {bot.bot_id}: at most {self.limits.max_matches} concurrent ranked matches "
                    f"(queued, playing or pending challenges: {load})",
                    kind="too_many_matches",
                    retry_after_s=MATCHES_RETRY_AFTER_S,
                )
            holder, name = bot.holder, bot.name
        if not holder:
            raise BadRequest("a ticket needs a holder")
        owner = bot.owner if bot is not None else player_of(holder)
        ladder = BOT if bot is not None else HUMAN
        rating = await asyncio.to_thread(self.ladder.rating, ladder, holder.split(":", 1)[-1], ALL_TIME, ruleset)
        await self.seen(holder, address)
        _, ticket = await asyncio.to_thread(
            self.store.join, holder, name, bot=bot is not None, rating=rating.mu, min_players=lo, max_players=hi,
            ruleset=ruleset, owner=owner, address=address,
        )
        return ticket

    async def seen(self, holder: str, address: str) -> None:
        """``holder`` (a person's ``h:`` or a bot's ``b:``) was seen from client ``address``
        (as :func:`services.client_address.address_key` counts it: an IPv6 address by its
        /64): kept for the address window (``FENGSHENG_MM_ADDRESS_WINDOW_MS``)."""
        await asyncio.to_thread(self.store.record_address, holder, address_key(address),
                                self.address_window_ms / 1000)

    async def leave(self, ticket_id: str, holder: str) -> dict[str, Any]:
        """Take the holder's ticket out of the queue (empty id: its current ticket); the
        ticket as it is now (``left``, or ``matched``/``claimed`` if it was too late)."""
        return (await self.leave_published(ticket_id, holder))[0]

    async def leave_published(self, ticket_id: str, holder: str) -> tuple[dict[str, Any], bool]:
        """:meth:`leave`, and whether the change was published to the holder (true when
        the ticket left the queue now: its followers are told, so a stream that follows
        the holder need not send it again)."""
        if not ticket_id:
            current = await asyncio.to_thread(self.store.holder_ticket, holder)
            if current is None:
                raise MatchNotFound("no queued ticket")
            ticket_id = current["ticket_id"]
        result, ticket = await asyncio.to_thread(self.store.leave, ticket_id, holder)
        if result == "not_found" or (ticket is None and result != "forbidden"):
            raise MatchNotFound(f"no ticket {ticket_id!r}")
        if result == "forbidden":
            raise Forbidden("this ticket belongs to someone else")
        assert ticket is not None
        return ticket, result == "left"

    async def ticket(self, ticket_id: str, holder: str) -> dict[str, Any]:
        ticket = await asyncio.to_thread(self.store.ticket, ticket_id)
        if ticket is None:
            raise MatchNotFound(f"no ticket {ticket_id!r}")
        if holder and ticket["holder"] != holder:
            raise Forbidden("this ticket belongs to someone else")
        from services.ranked.casual import expire_due

        return await expire_due(self, ticket)  # a challenge past its deadline: expired now

    async def follow(self, holder: str, *, subscribed: asyncio.Event | None = None, streams: bool = False
                     ) -> AsyncIterator[dict[str, Any]]:  # fmt: skip
        """The holder's current ticket (if any) and its open challenge invitations, then
        every change published for it. ``subscribed`` is set once changes are heard (a change
        made after it is never missed); ``streams``: also the notices ``{"live": STREAM_ID}``
        a bot's new stream publishes (:meth:`go_live`), else they are skipped."""
        import redis.asyncio as aredis
        import redis.exceptions as redis_errors

        from services.redis_client import subscriber_url

        while True:  # resubscribe (and re-read the current ticket) if Redis drops us
            # on a cluster: any primary hears every PUBLISH (services/redis_client.py)
            client = aredis.Redis.from_url(subscriber_url(self.redis_url, self.store.redis))
            try:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                try:
                    await pubsub.subscribe(notify_channel(holder))
                    if subscribed is not None:
                        subscribed.set()
                    current = await asyncio.to_thread(self.store.holder_ticket, holder)
                    if current is not None:
                        yield current
                    # invitations sent while no stream of the holder's was listening
                    for invitation in await asyncio.to_thread(self.store.open_invitations, holder):
                        if current is None or invitation["ticket_id"] != current["ticket_id"]:
                            yield invitation
                    while True:
                        msg = await pubsub.get_message(timeout=5.0)
                        if msg is not None:
                            data = json.loads(msg["data"])
                            if streams or "live" not in data:
                                yield data
                except (ConnectionError, OSError, redis_errors.ConnectionError, redis_errors.TimeoutError):
                    await asyncio.sleep(0.5)
                finally:
                    await pubsub.aclose()
            finally:
                await client.aclose()

    # ---- ladders ------------------------------------------------------------------------
    async def leaderboard(self, ladder: str, season: str, limit: int, ruleset: str = ""
                          ) -> tuple[str, str, str, list[Standing]]:  # fmt: skip
        """``(ladder, season, ruleset, rows)`` of one ruleset's ladder (default ``return``)."""
        ladder = ladder or HUMAN
        if ladder not in (HUMAN, BOT):
            raise BadRequest("ladder is human or bot")
        try:
            ruleset = known_ruleset(ruleset)
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        if season == "current":
            season = current_season()
        scope = season_scope(season) if season else ALL_TIME
        rows = await asyncio.to_thread(
            self.ladder.leaderboard, ladder, scope, min(max(limit or 50, 1), 500), 0, ruleset
        )
        return ladder, season or "all", ruleset, rows

    async def history(self, ladder: str, player_id: str, limit: int, ruleset: str = "") -> list[dict[str, Any]]:
        """A player's rated matches, newest first: of ``ruleset``, or of every ruleset (``""``)."""
        ladder = ladder or HUMAN
        if ladder not in (HUMAN, BOT):
            raise BadRequest("ladder is human or bot")
        try:
            only = known_ruleset(ruleset) if ruleset else None
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        entries = await asyncio.to_thread(self.ladder.history, ladder, player_id, min(max(limit or 50, 1), 200), only)
        if not entries and not await asyncio.to_thread(self._known, ladder, player_id):
            raise MatchNotFound(f"no player {player_id[:60]!r} on the {ladder} ladder")
        return entries

    async def audit(self, ruleset: str = "", matches: int = 0, everyone: bool = False, limit: int = 0,
                    z: float = 0.0) -> dict[str, Any]:  # fmt: skip
        """The collusion audit of the stored rated matches (services/ranked/audit.py) as plain
        data: for operators only (the gateway checks the operator token)."""
        from services.ranked import audit_store
        from services.ranked.audit import Thresholds, report

        try:
            only = known_ruleset(ruleset) if ruleset else ""
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        if matches < 0 or limit < 0 or z < 0:
            raise BadRequest("matches, limit and z must be >= 0")
        facts, skipped = await asyncio.to_thread(audit_store.load, self.store.redis, limit=matches, ruleset=only)
        th = Thresholds(z=z) if z else Thresholds()
        body = await asyncio.to_thread(report, facts, th, everyone=everyone, limit=min(limit or 100, 1000))
        body["skipped_other_format"] = skipped
        return body

    def _known(self, ladder: str, player_id: str) -> bool:
        """Whether ``player_id`` is on ``ladder`` (rated once, on any ruleset) or is a live
        bot account (a new bot has an empty history, not an unknown id)."""
        from services.ranked.ladder import NAMES_KEY
        from services.ranked.store import bot_key

        if self.store.redis.hexists(NAMES_KEY, f"{ladder}:{player_id}"):
            return True
        return ladder == BOT and bool(player_id) and bool(self.store.redis.exists(bot_key(player_id)))

    async def bot_profile(self, bot_id: str, limit: int, ruleset: str = "") -> dict[str, Any]:
        """A registered bot's public profile (never its owner or token): its ratings on the bot
        ladder of every ruleset (``rulesets``); ``all_time`` and ``season`` those of ``ruleset``
        (``""``: the ruleset it played most, ``return`` when none), ``recent`` of that ruleset
        when one is named, else of every ruleset, newest first."""
        from engine.rulesets import RULESET_IDS
        from services.ranked.store import bot_key

        try:
            only = known_ruleset(ruleset) if ruleset else None
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        raw = await asyncio.to_thread(self.store.redis.hgetall, bot_key(bot_id)) if bot_id else {}
        if not raw:
            raise MatchNotFound(f"no bot {bot_id[:40]!r}")
        season = current_season()

        def ratings(rs: str) -> dict[str, Any]:
            return {"ruleset": rs, "all_time": self.ladder.rating(BOT, bot_id, ALL_TIME, rs),
                    "season": self.ladder.rating(BOT, bot_id, season_scope(season), rs)}  # fmt: skip

        every, recent, active = await asyncio.gather(
            asyncio.gather(*(asyncio.to_thread(ratings, rs) for rs in RULESET_IDS)),
            asyncio.to_thread(self.ladder.history, BOT, bot_id, min(max(limit or 10, 1), 50), only),
            asyncio.to_thread(self.store.bot_load, bot_id),
        )
        chosen = only or max(every, key=lambda r: r["all_time"].games)["ruleset"]
        mine = next(r for r in every if r["ruleset"] == chosen)
        all_time, this_season = mine["all_time"], mine["season"]
        return {
            "bot_id": bot_id,
            "name": raw.get(b"name", b"").decode(),
            "created_ms": int(raw.get(b"created", b"0") or 0) * 1000,
            "all_time": all_time,
            "season": this_season,
            "season_name": season,
            "active_matches": active,
            "recent": recent,
            "ruleset": chosen,
            "rulesets": list(every),
        }

    async def ranked_match(self, match_id: str) -> tuple[dict[str, Any], bool]:
        record = await asyncio.to_thread(self.store.match, match_id)
        if record is None:
            raise MatchNotFound(f"no ranked match {match_id!r}")
        return record, await asyncio.to_thread(self.ladder.rated, match_id)

    # ---- bots at the table --------------------------------------------------------------
    async def seats_of(self, bot: BotIdentity, match_id: str) -> tuple[list[int], float, int]:
        """``bot``'s seats in a ranked match, the match's turn timer and its player count."""
        record = await asyncio.to_thread(self.store.match, match_id)
        if record is None:
            return [], 0.0, 0
        seats = [s.seat for s in record["seats"] if s.holder == bot.holder]
        return seats, record["turn_timeout_s"], len(record["seats"])

    async def active_matches(self, bot: BotIdentity) -> list[str]:
        return await asyncio.to_thread(self.store.bot_matches, bot.bot_id)

    async def act(self, bot: BotIdentity, match_id: str, seat: int, decision: int, action: str,
                  use_default: bool, *, free: bool = False, stream_id: str = "") -> ActResult:  # fmt: skip
        """Apply a bot's action. ``free``: it answers a decision pushed to this stream, which
        never counts against the request rate (docs/bots.md, "Limits"). ``stream_id``: the
        stream it came on, which must be the bot's live one."""
        if not free:
            await self.take(bot)
        if stream_id and not await self.is_live(bot, stream_id):
            raise Replaced("a newer stream of this bot took over; this one no longer acts")
        seats, _, _ = await self.seats_of(bot, match_id)
        if seat not in seats:
            raise Forbidden(f"bot {bot.bot_id} does not play seat {seat} of match {match_id!r}")
        return await self.matches.act(match_id, seat, decision, action, origin="bot-external",
                                      use_default=use_default)  # fmt: skip

    async def seat_events(self, bot: BotIdentity, match_id: str, seat: int) -> list[game_pb2.Event]:
        """Every event ``seat`` may see so far (its audience includes the seat, or is everyone)."""
        seats, _, _ = await self.seats_of(bot, match_id)
        if seat not in seats:
            raise Forbidden(f"bot {bot.bot_id} does not play seat {seat} of match {match_id!r}")
        events, _, _ = await self._history(match_id, seat)
        return events

    async def _history(self, match_id: str, seat: int) -> tuple[list[game_pb2.Event], str, game_pb2.Decision | None]:
        """The events ``seat`` may see from the match's start, the last stream id read, and
        the decision open as of that entry."""
        from services.engine.stream_view import seat_items

        events: list[game_pb2.Event] = []
        after, pending = "", None
        while True:
            writes = await self.matches.store.read_writes(match_id, after=after, count=2048)
            for w in writes:
                after = w.stream_id
                for item in seat_items(w, seat):
                    if item.event is not None:
                        events.append(item.event)
                    pending = item.pending
            if len(writes) < 2048:
                return events, after, pending

    async def decisions(self, bot: BotIdentity, match_id: str, seat: int, timeout_s: float
                        ) -> AsyncIterator[Started | Seen | Decision | Defaulted | Ended]:  # fmt: skip
        """What ``seat``'s bot is told: :class:`Started` (the seat's events so far), each
        event the seat may see as it happens (:class:`Seen`, filtered for the seat by
        services/engine/stream_view.py: never another seat's private event), each decision of
        the seat as it opens (once) with the events the seat saw since its previous one, a
        :class:`Defaulted` for each pushed decision the platform answered for it, then
        :class:`Ended` (the outcome and the events since the seat's previous decision)."""
        events, after, pending = await self._history(match_id, seat)
        clock_ms, bank_ms = await self.matches.time_control(match_id)
        yield Started(events, clock_ms, bank_ms)
        seen: list[game_pb2.Event] = []  # since the last decision pushed
        prompted: set[int] = set()
        open_number = -1  # the seat's decision open last (pushed or not): who answers it?

        async def push(p: game_pb2.Decision, opened_ms: int) -> Decision | None:
            obs = await self.matches.observation(match_id, seat)
            if obs.pending.number != p.number or obs.pending.seat != seat:
                return None  # an old decision replayed from the stream
            legal = await self.matches.legal_actions(match_id, seat)
            if legal.decision != p.number or not legal.actions:
                return None  # answered meanwhile (by the timer, or an away seat's stand-in)
            prompted.add(p.number)
            deadline, bank = await self.matches.deadline_ms(match_id, seat, opened_ms)
            obs.events.extend(seen)
            seen.clear()
            return Decision(match_id, seat, p.number, obs, list(legal.actions), legal.default_action, deadline, bank)

        async def answered(number: int) -> Defaulted | None:
            entry = await self.matches.answer_of(match_id, number)
            if entry is None or entry.origin not in ("timer", "away") or entry.seat != seat:
                return None
            reason = "timeout" if entry.origin == "timer" else "away"
            away = await self.matches.is_away(match_id, seat)
            return Defaulted(match_id, seat, number, [entry.action], reason, away)

        if pending is not None and pending.seat == seat and after:
            open_number = pending.number
            first = await push(pending, int(after.split("-", 1)[0]))
            if first is not None:
                yield first
        async for item in self.matches.watch(match_id, seat, after):
            if item.event is not None:
                seen.append(item.event)
                yield Seen(match_id, seat, item.event)
            p = item.pending
            over = item.outcome is not None and item.outcome.over
            if open_number >= 0 and (over or (p is not None and p.number > open_number)):
                notice = await answered(open_number)
                open_number = -1
                if notice is not None:
                    yield notice
            if over:
                assert item.outcome is not None
                yield Ended(item.outcome, list(seen))
                return
            if p is None or p.seat != seat or p.number in prompted:
                continue
            open_number = max(open_number, p.number)
            decision = await push(p, int(item.event_id.split("-", 1)[0]))
            if decision is not None:
                yield decision
