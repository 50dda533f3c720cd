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
from fengsheng_bot.values import Action, Event, Observation, legal_values

log = logging.getLogger("fengsheng.bot")

#: ``decide(observation, legal_actions) -> action``: ``observation`` is the seat's view
#: (:class:`~fengsheng_bot.values.Observation`: every field of ``fengsheng.v1.Observation``,
#: its ``events`` every event the seat has seen in the match as typed
#: :class:`~fengsheng_bot.values.Event` values), ``legal_actions`` the legal actions as
#: :class:`~fengsheng_bot.values.Action` values; return one of them (or its ``text``;
#: ``None``: the default action).
Decide = Callable[[Observation, list[Action]], "Action | str | None"]


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
    #: every seat's identity at game end, by seat (``"LATENT"``, ``"MILITARY"`` …: proto Identity names)
    identities: list[str] = field(default_factory=list)
    #: why the game ended: a proto ``EndReason`` name (``"END_INTEL"``, ``"END_LAST_STANDING"`` …)
    end_reason: str = ""
    #: each seat's victory condition public at game end, by seat ("" for none: Outcome.tasks)
    tasks: list[str] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return any(s in self.winners for s in self.seats)


def _status(exc: grpc.RpcError) -> str:
    """``CODE: details`` of a failed call (the ``BotError`` text; its code before the colon)."""
    call: Any = exc  # a grpc.Call too, whether or not grpc's type stubs say so
    return f"{call.code().name}: {call.details()}"


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
            raise BotError("a bot needs its API token (POST /api/bots on the gateway, with its owner's player token)")
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

    def join_queue(self, min_players: int = 5, max_players: int = 0, ruleset: str = "") -> None:
        """Queue for a ranked match of ``ruleset`` (an id of ``GET /api/rulesets``; empty:
        ``return``) with ``min_players``..``max_players`` seats (0: ``min_players``), a range
        that ruleset is played by (else an ``invalid_argument`` error message)."""
        self.send(bs.BotMessage(join_queue=bs.QueueRequest(min_players=min_players, max_players=max_players,
                                                           ruleset=ruleset)))  # fmt: skip

    def open_table(self, seats: list[str] | None = None, players: int = 0, ruleset: str = "", *,
                   queue: bool = False, fill_after_ms: int = 0, clock_ms: int = 0,
                   bank_ms: int = 0) -> None:  # fmt: skip
        """Open a casual (never rated) table, outside the queue: ``seats`` in order, each
        ``"me"`` (once), ``"heuristic"``/``"random"`` (house bots) or a bot's or player's id
        (a challenge); none: this bot and ``players - 1`` house bots (0: 5 seats). Answered
        by a ``ticket``: ``matched`` at once with house bots only, else ``pending`` until
        every challenged bot and player accepts (then ``matched``, or ``declined`` /
        ``expired``); the match is played like a ranked one.

        ``queue=True`` (no ``seats``): wait in the bots-only queue of that ruleset and table
        size for other bots; after ``fill_after_ms`` ms (0: at once) house bots fill the
        seats still free. The ``ticket`` is ``queued``, then ``matched``.

        ``clock_ms``, ``bank_ms``: the table's time control (docs/bots.md, "Time controls"): the
        per-decision clock, 1000, 5000 or 30000 (0: 1000 at a table of bots only, else 30000),
        and each seat's bank (0 with clock_ms 0: the clock's default)."""
        self.send(bs.BotMessage(table=bs.TableRequest(seats=seats or [], players=players, ruleset=ruleset,
                                                      queue=queue, fill_after_ms=fill_after_ms, clock_ms=clock_ms,
                                                      bank_ms=bank_ms)))  # fmt: skip

    def answer_challenge(self, ticket_id: str, accept: bool = True) -> None:
        """Accept (or decline) a challenge: a ``ticket`` in state ``invited`` whose
        ``challenger`` names who challenges (answered by the ticket as it changes)."""
        self.send(bs.BotMessage(answer=bs.ChallengeAnswer(ticket_id=ticket_id, accept=accept)))

    def leave_queue(self, ticket_id: str = "") -> None:
        self.send(bs.BotMessage(leave_queue=bs.TicketRequest(ticket_id=ticket_id)))

    def events(self, match_id: str, seat: int) -> None:
        """Ask for every event ``seat`` has seen in ``match_id`` (answered by a ``history`` message)."""
        self.send(bs.BotMessage(events=bs.EventsRequest(match_id=match_id, seat=seat)))

    def act(self, match_id: str, seat: int, decision: int, action: str = "", *, use_default: bool = False) -> None:
        self.send(bs.BotMessage(action=bs.BotAction(match_id=match_id, seat=seat, decision=decision,
                                                    action=action, use_default=use_default)))  # fmt: skip

    def _unary(self, method: str, request: Any) -> Any:
        """One unary ``BotService`` call with this bot's token (a ``BotError`` if refused)."""
        with grpc.insecure_channel(self.address) as channel:
            call = getattr(bs_grpc.BotServiceStub(channel), method)
            try:
                return call(request, metadata=[("authorization", f"Bearer {self.token}")], timeout=15)
            except grpc.RpcError as exc:
                raise BotError(_status(exc)) from exc

    def list_tokens(self) -> bs.BotTokens:
        """This bot's live tokens (``BotService.ListTokens``): ``token_id`` and ``created_ms`` each."""
        result: bs.BotTokens = self._unary("ListTokens", bs.OwnTokenRequest())
        return result

    def revoke_token(self, token_id: str) -> bs.BotTokens:
        """Revoke one of this bot's tokens (it may be this client's own); the tokens left."""
        result: bs.BotTokens = self._unary("RevokeToken", bs.OwnTokenRequest(token_id=token_id))
        return result

    def rotate_token(self) -> bs.BotAccount:
        """A new token for this bot (``account.token``, shown once); every older one, this
        client's too, is revoked, so this client switches to the new token."""
        account: bs.BotAccount = self._unary("RotateToken", bs.OwnTokenRequest())
        self.token = account.token
        return account

    def messages(self) -> Iterator[bs.ServerMessage]:
        """Open the stream; every message the platform sends, until :meth:`close`."""
        self._channel = grpc.insecure_channel(self.address)
        stub = bs_grpc.BotServiceStub(self._channel)
        call = stub.Connect(self._requests(), metadata=[("authorization", f"Bearer {self.token}")])
        try:
            yield from call
        except grpc.RpcError as exc:
            call_error: Any = exc  # a grpc.Call too (code, details), whether or not grpc's stubs say so
            if call_error.code() == grpc.StatusCode.CANCELLED:
                return
            raise BotError(_status(exc)) from exc
        finally:
            call.cancel()

    def close(self) -> None:
        self._out.put(None)
        if self._channel is not None:
            threading.Timer(0.5, self._channel.close).start()


#: errors of a queue request worth retrying (the answer says how long to wait)
RETRY_JOIN_KINDS = frozenset({"rate_limited", "too_many_matches"})
#: stream failures worth reconnecting for (the engine restarting, a network blip)
RECONNECT_CODES = frozenset({"UNAVAILABLE", "DEADLINE_EXCEEDED", "INTERNAL", "UNKNOWN", "RESOURCE_EXHAUSTED"})
#: give up after this many reconnections in a row without a welcome (then raise: exit non-zero)
MAX_RECONNECTS = 8


def backoff_s(attempt: int, floor: float = 0.0) -> float:
    """Capped exponential backoff with jitter for the ``attempt``-th retry (0-based), at
    least ``floor`` (the platform's ``retry_after_ms``, in seconds)."""
    import random

    return max(floor, min(30.0, 0.5 * 2.0**attempt) * (0.5 + random.random() / 2))


@dataclass
class _Session:
    """What :func:`run_bot` remembers across reconnections."""

    done: list[MatchSummary] = field(default_factory=list)
    playing: dict[str, MatchSummary] = field(default_factory=dict)
    #: (match, seat) -> every event the seat has seen (match_start, then each decision's new ones)
    history: dict[tuple[str, int], list[game_pb2.Event]] = field(default_factory=dict)
    #: (match, seat) -> the first events of ``history`` as values (each converted once)
    typed: dict[tuple[str, int], list[Event]] = field(default_factory=dict)
    pending: dict[tuple[str, int], int] = field(default_factory=dict)  # decision awaiting its result
    sent: dict[tuple[str, int], str] = field(default_factory=dict)  # the action sent for it
    join_attempts: int = 0
    queued: bool = False  # a ticket is queued or matched for us
    #: challenges this bot accepted whose match has not started yet (ticket ids)
    accepted: set[str] = field(default_factory=set)

    def owes(self, matches: int) -> bool:
        """Whether :func:`run_bot` may not return yet: fewer than ``matches`` done, or a match
        (or an accepted challenge's match) of this bot still to play: a seat is never left in
        a running match."""
        return len(self.done) < matches or bool(self.playing) or bool(self.accepted)

    def room(self, matches: int) -> bool:
        """Whether one more match fits in ``matches``: those done, playing and accepted."""
        return len(self.done) + len(self.playing) + len(self.accepted) < matches


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
    ruleset: str = "",
    casual: bool = False,
    seats: list[str] | None = None,
    accept: Callable[[bs.Ticket], bool] | None = None,
    fill_after_ms: int | None = None,
    challenges_only: bool = False,
) -> list[MatchSummary]:
    """Queue for ``matches`` ranked matches of ``ruleset`` (empty: ``return``) one after
    another and play them with ``decide``; returns a summary of each.

    ``decide`` gets the seat's observation whose ``events`` are **every** event the seat has
    seen in the match so far (the platform sends only the new ones with each decision; the
    SDK keeps the rest). A ``decide`` that raises, returns ``None`` or something that is not
    an action, or returns an illegal action, costs that decision only: the bot answers it
    with the default action at once. A refused queue request (rate or match limit) is sent
    again after the wait the platform names; a lost stream is reconnected with backoff.
    Nothing fails silently: what cannot be retried (a bad token, a newer stream of the same
    bot taking over, reconnections failing :data:`MAX_RECONNECTS` times in a row) raises
    :class:`BotError`.

    ``casual=True``: no queue and no rating; each match is a casual table opened at once
    (:meth:`BotClient.open_table`) with ``seats`` (default: this bot and house bots at
    ``min_players`` seats), so a bot plays as fast as it and the house bots decide; a table
    that challenges others waits for their answers, and one declined or expired is opened
    again after a growing wait.

    ``casual=True, fill_after_ms=MS``: each table comes from the bots-only queue instead: other
    bots waiting for the same ruleset and table size sit with this one, and after ``MS``
    milliseconds (0: at once) house bots fill the seats still free.

    Challenges to this bot (a ``ticket`` in state ``invited``) are answered with
    ``accept(ticket)``; without one, a challenge is accepted while fewer than ``matches``
    matches are done, playing or accepted, and declined past that. An accepted challenge's
    match is played and counted like the others.

    ``challenges_only=True``: the bot never queues or opens a table of its own; it waits for
    challenges, answers them as above, and returns once it has played ``matches`` of them.

    ``run_bot`` never leaves a seat in a running match: it returns only when ``matches``
    matches are done **and** no match of this bot is still being played and no accepted
    challenge is still to start (those are finished first, so it may return more than
    ``matches`` summaries)."""
    client_box: list[BotClient] = []
    state = _Session()

    def join() -> None:
        if challenges_only or state.queued or state.playing or state.accepted or len(state.done) >= matches:
            return
        state.queued = True
        if casual and fill_after_ms is not None:
            client_box[-1].open_table(None, min_players, ruleset, queue=True, fill_after_ms=fill_after_ms)
        elif casual:
            client_box[-1].open_table(seats, 0 if seats else min_players, ruleset)
        else:
            client_box[-1].join_queue(min_players, max_players, ruleset)

    def join_later(wait: float) -> None:
        log.warning("not queued; queueing again in %.1f s", wait)
        timer = threading.Timer(wait, join)
        timer.daemon = True
        timer.start()

    reconnects = 0
    while state.owes(matches):
        client = BotClient(token=token, address=address, url=url)
        client_box.append(client)
        try:
            for msg in client.messages():
                if msg.WhichOneof("kind") == "welcome":
                    reconnects = 0
                if on_message is not None:
                    on_message(msg)
                _handle(msg, decide, client, state, join, join_later, accept, matches)
                if not state.owes(matches):
                    break
            else:
                raise BotError("UNAVAILABLE: the platform closed the stream")
        except BotError as exc:
            code = str(exc).split(":", 1)[0]
            if code not in RECONNECT_CODES or reconnects >= MAX_RECONNECTS:
                client.close()
                raise
            wait = backoff_s(reconnects)
            reconnects += 1
            log.warning("stream lost (%s); reconnecting in %.1f s", exc, wait)
            client.close()
            time.sleep(wait)
            continue
        client.close()
    return state.done


def _handle(
    msg: bs.ServerMessage,
    decide: Decide,
    client: BotClient,
    state: _Session,
    join: Callable[[], None],
    join_later: Callable[[float], None],
    accept: Callable[[bs.Ticket], bool] | None = None,
    matches: int = 1,
) -> bool:
    """React to one message; True when a match just ended."""
    kind = msg.WhichOneof("kind")
    playing = state.playing
    if kind == "welcome":
        log.info("connected as %s (%s)", msg.welcome.name, msg.welcome.bot_id)
        for match_id in msg.welcome.active_matches:
            playing.setdefault(match_id, MatchSummary(match_id, [], []))
        join()  # unless a match is resumed or a ticket is still queued
    elif kind == "ticket":
        t = msg.ticket
        if t.challenger:  # a challenge to this bot, not its own ticket
            _challenge(t, client, state, accept, matches)
            return False
        was_queued, state.queued = state.queued, t.state in ("queued", "claimed", "matched", "pending")
        if t.state in ("declined", "expired"):  # our challenge did not come about: again, later
            if was_queued and not playing:
                log.warning("the table's challenge was %s", t.state)
                join_later(backoff_s(state.join_attempts, 1.0))
                state.join_attempts += 1
            return False
        if t.state != "pending":  # a challenge's waits grow until one comes about
            state.join_attempts = 0
        if was_queued and t.state == "left" and not playing:
            join_later(backoff_s(0))  # our ticket was taken out of the queue: queue again
    elif kind == "match_start":
        m = msg.match_start
        playing.setdefault(m.match_id, MatchSummary(m.match_id, [], [])).seats = list(m.seats)
        for seat in m.seats:
            state.history[(m.match_id, seat)] = list(m.events)
            state.typed.pop((m.match_id, seat), None)
    elif kind == "history":
        h = msg.history
        state.history[(h.match_id, h.seat)] = list(h.events)
        state.typed.pop((h.match_id, h.seat), None)
    elif kind == "decision":
        _decision(msg.decision, decide, client, state)
    elif kind == "defaulted":
        d = msg.defaulted
        playing.setdefault(d.match_id, MatchSummary(d.match_id, [d.seat], [])).defaults += 1
        state.pending.pop((d.match_id, d.seat), None)
        log.warning("decision %d of %s seat %d was answered for the bot (%s): %s%s", d.decision, d.match_id, d.seat,
                    d.reason, " ".join(d.applied), "; the seat is away until it acts" if d.away else "")  # fmt: skip
    elif kind == "error":
        _error(msg.error, client, state, join_later)
    elif kind == "match_end":
        end = msg.match_end
        summary = playing.pop(end.match_id, MatchSummary(end.match_id, list(end.seats), []))
        summary.seats = list(end.seats) or summary.seats
        summary.winners = list(end.outcome.winners)
        summary.identities = [game_pb2.Identity.Name(i) for i in end.outcome.identities]
        summary.end_reason = game_pb2.EndReason.Name(end.outcome.end_reason)
        summary.tasks = list(end.outcome.tasks)
        for key in [k for k in state.history if k[0] == end.match_id]:
            del state.history[key]
            state.typed.pop(key, None)
        state.done.append(summary)
        state.queued = False
        log.info("match %s over: %s", end.match_id, "won" if summary.won else "lost")
        join()  # the next match, if more are wanted
        return True
    return False


def _challenge(t: bs.Ticket, client: BotClient, state: _Session, accept: Callable[[bs.Ticket], bool] | None,
               matches: int) -> None:  # fmt: skip
    """A challenge's ticket: answer an invitation (``accept``; without it, accept while a
    match fits in ``matches``), and follow the accepted ones until their match starts or
    they close."""
    if t.state == "invited":
        if t.ticket_id in state.accepted:
            return  # already answered (the ticket sent again on a reconnection)
        yes = state.room(matches) if accept is None else bool(accept(t))
        log.info("challenged by %s (%s): %s", t.challenger, t.ticket_id, "accepting" if yes else "declining")
        if yes:
            state.accepted.add(t.ticket_id)
        client.answer_challenge(t.ticket_id, yes)
    elif t.state == "matched":
        state.accepted.discard(t.ticket_id)
        if t.match_id and all(d.match_id != t.match_id for d in state.done):  # ours to play from now on
            state.playing.setdefault(t.match_id, MatchSummary(t.match_id, [t.seat], []))
    elif t.state != "accepted":  # declined, expired, left: no match comes of it
        state.accepted.discard(t.ticket_id)


def full_observation(seen: list[game_pb2.Event], pushed: game_pb2.Observation) -> game_pb2.Observation:
    """The observation ``decide`` gets: ``pushed`` (a decision's observation, whose
    ``events`` are only those since the seat's previous decision) with ``events`` replaced
    by the seat's whole history. ``seen`` (the events the seat saw before) is extended with
    the new ones in place. The online client and the offline arena
    (:mod:`fengsheng.bot.arena`, in the platform) both build ``decide``'s input here."""
    seen.extend(pushed.events)  # the events since the previous decision
    observation = game_pb2.Observation()
    observation.CopyFrom(pushed)
    del observation.events[:]
    observation.events.extend(seen)  # decide sees the whole history
    return observation


def ask(decide: Decide, observation: game_pb2.Observation, legal: list[str], where: str,
        typed: list[Event] | None = None) -> str | None:  # fmt: skip
    """``decide``'s answer as the text to send, or None (answer with the default action)
    when it raised or returned ``None``/something that is not an action. ``observation`` is
    the decision's observation (whose ``legal`` are ``legal``'s values); ``decide`` gets it
    and the legal actions as typed values. ``typed``: the seat's events of this match as
    values so far (extended here with the new ones: each event is converted once), when the
    caller keeps them. ``where`` names the decision in logs."""
    try:
        if typed is None:
            view = Observation(observation)
        else:
            typed.extend(Event.from_proto(e) for e in observation.events[len(typed):])
            view = Observation(observation, list(typed))
        action = decide(view, legal_values(observation, legal))
    except Exception:
        log.exception("decide failed at %s; sending the default action", where)
        return None
    if isinstance(action, Action):
        return action.text
    if not isinstance(action, str) or not action.strip():
        if action is not None and not isinstance(action, str):
            log.warning("decide returned %r (not an action) at %s; sending the default action",
                        type(action).__name__, where)  # fmt: skip
        return None
    return action


def _decision(d: bs.DecisionRequest, decide: Decide, client: BotClient, state: _Session) -> None:
    summary = state.playing.setdefault(d.match_id, MatchSummary(d.match_id, [d.seat], []))
    summary.decisions += 1
    observation = full_observation(state.history.setdefault((d.match_id, d.seat), []), d.observation)
    action = ask(decide, observation, list(d.legal_actions), f"{d.match_id} decision {d.decision}",
                 state.typed.setdefault((d.match_id, d.seat), []))  # fmt: skip
    if action is None:
        summary.defaults += 1
        state.pending[(d.match_id, d.seat)] = d.decision
        state.sent[(d.match_id, d.seat)] = ""
        client.act(d.match_id, d.seat, d.decision, use_default=True)
        return
    state.pending[(d.match_id, d.seat)] = d.decision
    state.sent[(d.match_id, d.seat)] = action
    client.act(d.match_id, d.seat, d.decision, action)


def _error(e: bs.BotError, client: BotClient, state: _Session, join_later: Callable[[float], None]) -> None:
    log.warning("platform: %s %s: %s", e.code, e.kind, e.message)
    key = (e.match_id, e.seat)
    if e.match_id and state.pending.get(key) == e.decision:
        if e.code == "RESOURCE_EXHAUSTED":
            time.sleep(min(max(e.retry_after_ms / 1000, 0.05), 1.0))  # try again shortly, before the deadline
            client.act(e.match_id, e.seat, e.decision, state.sent.get(key, ""), use_default=not state.sent.get(key))
        elif e.kind == "illegal" and state.sent.get(key):
            state.sent[key] = ""
            state.playing.setdefault(e.match_id, MatchSummary(e.match_id, [e.seat], [])).defaults += 1
            client.act(e.match_id, e.seat, e.decision, use_default=True)  # at once, before the deadline
        else:
            state.pending.pop(key, None)
    elif not e.match_id and e.code == "INVALID_ARGUMENT" and state.queued and not state.playing:
        # the queue request itself is wrong (an unknown ruleset, a count it is not played
        # by): asking again would be refused again, and waiting would idle silently
        raise BotError(f"INVALID_ARGUMENT: the queue refused the bot's settings: {e.message}")
    elif not e.match_id and e.kind in RETRY_JOIN_KINDS and not state.playing:
        # a refused queue request: ask again after the wait the platform names, with backoff
        state.queued = False
        join_later(backoff_s(state.join_attempts, e.retry_after_ms / 1000))
        state.join_attempts += 1


def decide_with(policy: Callable[..., Any], seed: Any = None) -> Decide:
    """Wrap an ``(observation, legal, rng)`` policy of the platform (``engine.bots``: it
    takes a ``fengsheng.v1.Observation`` and :class:`engine.Action` values) as a ``decide``
    that answers with one of its legal :class:`Action` values; needs the platform's engine."""
    import random

    from engine.action import Action as EngineAction

    rng = random.Random(seed)

    def decide(observation: Observation, legal_actions: list[Action]) -> Action:
        # the engine's value of each legal action, built from its typed fields
        values = [EngineAction(a.kind, card=a.card, pile=a.pile, skill=a.skill, to=a.to, on=a.on, chain=a.chain,
                               cards=a.cards, mode=a.mode, arrow=a.arrow, lock=-1 if a.lock is None else a.lock,
                               code=a.code, alt=a.alt, picks=a.picks, options=a.options, face=a.face)
                  for a in legal_actions]  # fmt: skip
        chosen = policy(observation.proto, values, rng)
        return legal_actions[values.index(chosen)]

    return decide
