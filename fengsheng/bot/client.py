"""The SDK's client: one gRPC stream (``BotService.Connect``) carrying everything.

It dials the engine server's *bot listener* (``fengsheng engine-server --bot-port``,
default port 50052), which serves ``BotService`` and nothing else, and sends only the bot's
own token (``authorization: Bearer <token>``). It never holds, and never needs, the
platform's service credential: the internal listener would refuse it (docs/bots.md).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc

from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from fengsheng.v1 import game_pb2

log = logging.getLogger("fengsheng.bot")

#: ``decide(observation, legal_actions) -> action``: ``observation`` is the seat's
#: ``fengsheng.v1.Observation`` (its own view only), ``legal_actions`` the legal actions in
#: notation (docs/notation.md); return one of them.
Decide = Callable[[game_pb2.Observation, list[str]], str]


class BotError(Exception):
    """The platform refused the bot (bad token, too many streams...)."""


@dataclass
class MatchSummary:
    """One finished match of this bot."""

    match_id: str
    seats: list[int]
    winners: list[int]
    decisions: int = 0
    defaults: int = 0  # decisions answered with the default action (decide failed or was illegal)

    @property
    def won(self) -> bool:
        return any(s in self.winners for s in self.seats)


def grpc_address(url: str) -> str:
    """The bot listener's gRPC address, as the gateway at ``url`` advertises it
    (``GET /api/bots/connect-info``)."""
    with urllib.request.urlopen(url.rstrip("/") + "/api/bots/connect-info", timeout=10) as reply:
        return str(json.load(reply)["grpc"])


@dataclass
class BotClient:
    """A connected bot. ``address`` is the bot listener's gRPC ``host:port`` (else
    ``$FENGSHENG_BOT_ADDR``; else, with only ``url`` (the gateway), it is asked from the
    gateway's ``/api/bots/connect-info``)."""

    token: str
    address: str = ""
    url: str = ""
    _out: queue.Queue[bs.BotMessage | None] = field(default_factory=queue.Queue)
    _channel: grpc.Channel | None = None

    def __post_init__(self) -> None:
        if not self.token:
            raise BotError("a bot needs its API token (POST /api/bots on the gateway)")
        if not self.address:
            self.address = os.environ.get("FENGSHENG_BOT_ADDR", "") or grpc_address(self.url or "http://127.0.0.1:8000")

    def _requests(self) -> Iterator[bs.BotMessage]:
        while True:
            msg = self._out.get()
            if msg is None:
                return
            yield msg

    def send(self, msg: bs.BotMessage) -> None:
        self._out.put(msg)

    def join_queue(self, min_players: int = 5, max_players: int = 0) -> None:
        self.send(bs.BotMessage(join_queue=bs.QueueRequest(min_players=min_players, max_players=max_players)))

    def leave_queue(self, ticket_id: str = "") -> None:
        self.send(bs.BotMessage(leave_queue=bs.TicketRequest(ticket_id=ticket_id)))

    def act(self, match_id: str, seat: int, decision: int, action: str = "", *, use_default: bool = False) -> None:
        self.send(bs.BotMessage(action=bs.BotAction(match_id=match_id, seat=seat, decision=decision,
                                                    action=action, use_default=use_default)))  # fmt: skip

    def messages(self) -> Iterator[bs.ServerMessage]:
        """Open the stream; every message the platform sends, until :meth:`close`."""
        self._channel = grpc.insecure_channel(self.address)
        stub = bs_grpc.BotServiceStub(self._channel)
        call = stub.Connect(self._requests(), metadata=[("authorization", f"Bearer {self.token}")])
        try:
            yield from call
        except grpc.RpcError as exc:
            code = exc.code()  # type: ignore[attr-defined]
            if code == grpc.StatusCode.CANCELLED:
                return
            raise BotError(f"{code.name}: {exc.details()}") from exc  # type: ignore[attr-defined]
        finally:
            call.cancel()

    def close(self) -> None:
        self._out.put(None)
        if self._channel is not None:
            threading.Timer(0.5, self._channel.close).start()


def run_bot(
    decide: Decide,
    *,
    token: str,
    url: str = "",
    address: str = "",
    matches: int = 1,
    min_players: int = 5,
    max_players: int = 0,
    on_message: Callable[[bs.ServerMessage], None] | None = None,
) -> list[MatchSummary]:
    """Queue for ``matches`` ranked matches one after another and play them with ``decide``;
    returns a summary of each. A ``decide`` that raises, or returns an illegal action, costs
    that decision only: the bot answers it with the default action instead."""
    client = BotClient(token=token, address=address, url=url)
    done: list[MatchSummary] = []
    playing: dict[str, MatchSummary] = {}
    pending: dict[tuple[str, int], int] = {}  # (match, seat) -> decision awaiting its result
    sent: dict[tuple[str, int], str] = {}  # (match, seat) -> the action sent for it
    for msg in client.messages():
        if on_message is not None:
            on_message(msg)
        kind = msg.WhichOneof("kind")
        if kind == "welcome":
            log.info("connected as %s (%s)", msg.welcome.name, msg.welcome.bot_id)
            for match_id in msg.welcome.active_matches:
                playing.setdefault(match_id, MatchSummary(match_id, [], []))
            if not playing:
                client.join_queue(min_players, max_players)
        elif kind == "match_start":
            m = msg.match_start
            playing.setdefault(m.match_id, MatchSummary(m.match_id, [], [])).seats = list(m.seats)
        elif kind == "decision":
            d = msg.decision
            summary = playing.setdefault(d.match_id, MatchSummary(d.match_id, [d.seat], []))
            summary.decisions += 1
            try:
                action = decide(d.observation, list(d.legal_actions))
            except Exception:
                log.exception("decide failed at %s decision %d; sending the default action", d.match_id, d.decision)
                summary.defaults += 1
                client.act(d.match_id, d.seat, d.decision, use_default=True)
                continue
            pending[(d.match_id, d.seat)] = d.decision
            sent[(d.match_id, d.seat)] = action
            client.act(d.match_id, d.seat, d.decision, action)
        elif kind == "error":
            e = msg.error
            log.warning("platform: %s %s: %s", e.code, e.kind, e.message)
            if e.code == "RESOURCE_EXHAUSTED" and pending.get((e.match_id, e.seat)) == e.decision:
                time.sleep(0.2)  # over the request rate: try again shortly, before the deadline
                client.act(e.match_id, e.seat, e.decision, sent.get((e.match_id, e.seat), ""),
                           use_default=not sent.get((e.match_id, e.seat)))  # fmt: skip
            elif e.kind == "illegal" and pending.get((e.match_id, e.seat)) == e.decision:
                del pending[(e.match_id, e.seat)]
                playing.setdefault(e.match_id, MatchSummary(e.match_id, [e.seat], [])).defaults += 1
                client.act(e.match_id, e.seat, e.decision, use_default=True)  # retry before the deadline
        elif kind == "match_end":
            end = msg.match_end
            summary = playing.pop(end.match_id, MatchSummary(end.match_id, list(end.seats), []))
            summary.seats = list(end.seats) or summary.seats
            summary.winners = list(end.outcome.winners)
            done.append(summary)
            log.info("match %s over: %s", end.match_id, "won" if summary.won else "lost")
            if len(done) >= matches:
                break
            if not playing:
                client.join_queue(min_players, max_players)
    client.close()
    return done


def decide_with(policy: Callable[..., str], seed: Any = None) -> Decide:
    """Wrap an ``(observation, legal, rng)`` policy (``engine.bots``) as a ``decide``."""
    import random

    rng = random.Random(seed)
    return lambda observation, legal_actions: policy(observation, legal_actions, rng)
