"""A bot's connection: one ``BotService.Connect`` stream, orchestrated (docs/bots.md).

:class:`BotConnection` is what the servicer's ``Connect`` runs: it authenticates the bot and
makes this stream its live one (an older stream of the same bot is replaced), welcomes it,
follows its tickets, watches each match it plays and pushes every decision of its seats,
answers the messages it sends (actions, queue and table requests, challenge answers, event
history) and checks once a second that the stream is still the bot's live one and its token
still valid. The servicer stays a translation: it hands over the request stream and yields
what comes back.

Errors about one message go back as a ``BotError`` and the stream stays open; the stream's
opening fails, and it ends, by raising :class:`services.errors.Unauthenticated`,
:class:`~services.errors.Exhausted`, :class:`~services.errors.Replaced` or
:class:`~services.errors.Revoked`, which the servicers' interceptor turns into a status
(:class:`services.grpc_guard.MapErrors`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

from fengsheng.v1 import bot_service_pb2 as bs
from services.errors import Replaced, Revoked, ServiceError
from services.ranked.messages import bot_error, ticket_pb
from services.ranked.service import (
    FREE_ANSWERS,
    BotIdentity,
    Decision,
    Defaulted,
    Ended,
    RankedService,
    Seen,
    Started,
)

log = logging.getLogger(__name__)

#: how often a stream checks that it is still its bot's live one
LIVE_CHECK_S = 1.0


class BotConnection:
    """One bot's stream: :meth:`open` it, then iterate :meth:`run`."""

    def __init__(self, service: RankedService, bot: BotIdentity, token: str, stream_id: str, address: str) -> None:
        self.service = service
        self.bot = bot
        self.token = token
        self.stream_id = stream_id
        #: the stream's client address (services/ranked/grpc.py, stream_address): its tickets'
        self.address = address
        #: what goes out, in order; None ends the stream
        self.out: asyncio.Queue[bs.ServerMessage | None] = asyncio.Queue()
        #: match id -> the task pushing that match's decisions
        self.watching: dict[str, asyncio.Task[None]] = {}
        #: decisions pushed on this stream -> answers left that do not count against the rate
        self.pushed: dict[tuple[str, int, int], int] = {}
        #: set once the bot's ticket changes are heard: requests wait for it, so that a change
        #: they cause (a table ``matched``) reaches the stream once, by :meth:`_follow`
        self.following = asyncio.Event()
        #: the stream is closing (replaced or revoked): say so once
        self.closing = False

    @classmethod
    async def open(cls, service: RankedService, token: str, address: str) -> BotConnection:
        """Authenticate ``token``'s bot and make a new stream its live one (its older stream is
        replaced: it notices and closes); the bot was seen from client ``address``. Raises
        ``Unauthenticated`` or ``Exhausted``."""
        bot = await service.authenticate(token)
        stream_id = secrets.token_hex(6)
        await service.open_stream(bot, stream_id)
        await service.seen(bot.holder, address)
        return cls(service, bot, token, stream_id, address)

    async def run(self, requests: AsyncIterator[bs.BotMessage]) -> AsyncIterator[bs.ServerMessage]:
        """The stream's messages: the welcome, then whatever the helpers put out, until the
        bot hangs up. Ends by raising ``Replaced`` or ``Revoked`` when that is why it ends."""
        svc, bot = self.service, self.bot
        active = await svc.active_matches(bot)
        yield bs.ServerMessage(server_ms=int(time.time() * 1000), welcome=bs.Welcome(
            bot_id=bot.bot_id, name=bot.name, max_concurrent_matches=svc.limits.max_matches,
            actions_per_s=svc.limits.rate, burst=svc.limits.burst, active_matches=active))  # fmt: skip
        loop = asyncio.get_running_loop()
        helpers = [loop.create_task(self._follow()), loop.create_task(self._receive(requests)),
                   loop.create_task(self._lease())]  # fmt: skip
        for match_id in active:
            self._start(match_id)
        replaced = revoked = False
        try:
            while True:
                msg = await self.out.get()
                if msg is None:
                    break
                replaced = (
                    msg.WhichOneof("kind") == "error" and msg.error.kind == Replaced.kind and not msg.error.match_id
                )
                revoked = msg.WhichOneof("kind") == "error" and msg.error.kind == Revoked.kind
                msg.server_ms = int(time.time() * 1000)  # the bot's reference for deadline_ms
                yield msg
        finally:
            tasks = [*helpers, *self.watching.values()]
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task
        if replaced:
            raise Replaced("replaced by a newer stream of this bot (same token)")
        if revoked:
            raise Revoked("this bot token was revoked")

    # ---- what goes out ------------------------------------------------------------------
    def _start(self, match_id: str) -> None:
        """Watch ``match_id`` (once) and push its decisions to this stream."""
        if match_id and match_id not in self.watching:
            self.watching[match_id] = asyncio.get_running_loop().create_task(self._watch(match_id))

    async def _watch(self, match_id: str) -> None:
        svc, bot, out, pushed = self.service, self.bot, self.out, self.pushed
        seats, timeout_s, players = await svc.seats_of(bot, match_id)
        if not seats:
            return
        try:
            async for item in svc.decisions(bot, match_id, seats[0], timeout_s):
                if isinstance(item, Seen):
                    out.put_nowait(bs.ServerMessage(event=bs.SeatEvent(
                        match_id=item.match_id, seat=item.seat, event=item.event)))  # fmt: skip
                elif isinstance(item, Started):
                    out.put_nowait(bs.ServerMessage(match_start=bs.MatchStart(
                        match_id=match_id, seats=seats, players=players,
                        events=item.events, clock_ms=item.clock_ms, bank_ms=item.bank_ms)))  # fmt: skip
                elif isinstance(item, Decision):
                    pushed[(item.match_id, item.seat, item.number)] = FREE_ANSWERS
                    out.put_nowait(bs.ServerMessage(decision=bs.DecisionRequest(
                        match_id=item.match_id, seat=item.seat, decision=item.number,
                        observation=item.observation, legal_actions=item.legal,
                        default_action=item.default_action, deadline_ms=item.deadline_ms,
                        bank_ms=item.bank_ms)))  # fmt: skip
                elif isinstance(item, Defaulted):
                    pushed.pop((item.match_id, item.seat, item.number), None)
                    out.put_nowait(bs.ServerMessage(defaulted=bs.Defaulted(
                        match_id=item.match_id, seat=item.seat, decision=item.number, applied=item.applied,
                        reason=item.reason, away=item.away)))  # fmt: skip
                elif isinstance(item, Ended):
                    out.put_nowait(bs.ServerMessage(match_end=bs.MatchEnd(
                        match_id=match_id, outcome=item.outcome, seats=seats, events=item.events)))  # fmt: skip
                    for key in [k for k in pushed if k[0] == match_id]:
                        del pushed[key]
        except ServiceError as exc:
            out.put_nowait(bot_error(exc, match_id=match_id))

    async def _follow(self) -> None:
        """The bot's tickets as they change; a matched one starts its match's watch."""
        async for ticket in self.service.follow(self.bot.holder, subscribed=self.following, streams=True):
            if "live" in ticket:  # a stream of this bot went live: if not this one, it is replaced
                if ticket["live"] != self.stream_id:
                    self._close(bot_error(Replaced("a newer stream of this bot took over (same token); "
                                                   "this one is closed")))  # fmt: skip
                    return
                continue
            self.out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
            if ticket["state"] == "matched":
                self._start(ticket["match_id"])

    async def _lease(self) -> None:
        """Once a second: still the bot's live stream, its token still valid? Else close."""
        svc = self.service
        while True:
            await asyncio.sleep(LIVE_CHECK_S)
            if not await svc.token_live(self.token):
                self._close(bot_error(Revoked("this bot token was revoked; the stream is closed")))
                return
            if not await svc.is_live(self.bot, self.stream_id):
                self._close(bot_error(Replaced("a newer stream of this bot took over (same token); "
                                               "this one is closed")))  # fmt: skip
                return

    def _close(self, error: bs.ServerMessage) -> None:
        """Send ``error`` (why the stream ends), then end it; once, whoever notices first."""
        if not self.closing:
            self.closing = True
            self.out.put_nowait(error)
            self.out.put_nowait(None)

    # ---- what comes in ------------------------------------------------------------------
    async def _receive(self, requests: AsyncIterator[bs.BotMessage]) -> None:
        try:
            async for msg in requests:
                if not self.following.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.following.wait(), 10.0)
                await self._handle(msg)
        except Exception:
            log.warning("bot %s: stream reader failed", self.bot.bot_id, exc_info=True)
        self.out.put_nowait(None)

    async def _handle(self, msg: bs.BotMessage) -> None:
        """Answer one message of the bot; a refusal is a ``BotError`` naming what it was about."""
        svc, bot, out = self.service, self.bot, self.out
        kind = msg.WhichOneof("kind")
        try:
            if kind == "action":
                await self._answer(msg.action)
            elif kind == "join_queue":
                q = msg.join_queue
                ticket = await svc.join("", "", bot=bot, min_players=q.min_players,
                                        max_players=q.max_players, ruleset=q.ruleset,
                                        address=self.address)  # fmt: skip
                out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
            elif kind == "table":
                t = msg.table
                ticket = await svc.open_table("", "", bot=bot, ruleset=t.ruleset, players=t.players,
                                              seats=list(t.seats), queue=t.queue,
                                              fill_after_s=t.fill_after_ms / 1000, clock_ms=t.clock_ms,
                                              bank_ms=t.bank_ms)  # fmt: skip
                if ticket["state"] == "matched":  # published: _follow() brings it, once
                    self._start(ticket["match_id"])
                else:  # a challenge's "pending", the bots-only queue's "queued": not published
                    out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
            elif kind == "answer":
                a = msg.answer
                ticket, published = await svc.answer_challenge(a.ticket_id, "", "", a.accept, bot=bot)
                if not published:  # else _follow() brings it: one message per change
                    out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
            elif kind == "leave_queue":
                await svc.take(bot)
                ticket, published = await svc.leave_published(msg.leave_queue.ticket_id, bot.holder)
                if not published:  # else _follow() brings it: one message per change
                    out.put_nowait(bs.ServerMessage(ticket=ticket_pb(ticket)))
            elif kind == "events":
                await svc.take(bot)
                r = msg.events
                events = await svc.seat_events(bot, r.match_id, r.seat)
                out.put_nowait(bs.ServerMessage(history=bs.EventHistory(
                    match_id=r.match_id, seat=r.seat, events=events)))  # fmt: skip
        except ServiceError as exc:
            where: dict[str, Any] = {}
            if kind == "action":
                where = {"match_id": msg.action.match_id, "seat": msg.action.seat,
                         "decision": msg.action.decision}  # fmt: skip
            elif kind == "events":
                where = {"match_id": msg.events.match_id, "seat": msg.events.seat}
            out.put_nowait(bot_error(exc, **where))

    async def _answer(self, a: bs.BotAction) -> None:
        """Apply the bot's action; an answer to a decision pushed here is never rate limited."""
        key = (a.match_id, a.seat, a.decision)
        left = self.pushed.get(key, 0)
        if left > 0:
            self.pushed[key] = left - 1
        res = await self.service.act(self.bot, a.match_id, a.seat, a.decision, a.action, a.use_default,
                                     free=left > 0, stream_id=self.stream_id)  # fmt: skip
        self.pushed.pop(key, None)
        self.out.put_nowait(bs.ServerMessage(result=bs.ActionResult(
            match_id=a.match_id, seat=a.seat, decision=a.decision, applied=res.applied)))  # fmt: skip
