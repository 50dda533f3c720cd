"""Celery tasks of ranked play: ``matchmaking.tick`` and ``ladder.update``.

Thin, like :mod:`services.workers.tasks`: they take ids, re-read Redis and the engine service
(over gRPC, ``FENGSHENG_ENGINE_ADDR``), and call one function of the service layer.

- ``matchmaking.tick`` (Celery beat, every ``FENGSHENG_MM_TICK_MS``; also callable): one
  :func:`services.ranked.matchmaking.tick`, then a sweep of unrated ranked matches that are over
  (in case a game-over hook was lost) which queues ``ladder.update`` for them.
- ``ladder.update(match_id)``: rates a finished ranked match once (the ladder's done marker
  is written in the same MULTI/EXEC as the ratings); a no-op for unranked matches, for
  matches not over yet, and for matches already rated. The engine service queues it when a
  write ends a game (:meth:`services.engine.scheduler.CeleryScheduler.game_over`).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import grpc
from celery import Task

from engine.observation import IDENTITY
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import game_pb2
from services import config
from services.bot_levels import SEAT_KINDS
from services.engine.clock import BOT_BANK_MS, PEOPLE_BANK_MS
from services.ranked.audit import MatchFacts
from services.ranked.audit_store import match_facts
from services.ranked.ladder import MatchResult, Participant, RedisLadder
from services.ranked.matchmaking import MatchIdTaken, Schedule, tick
from services.ranked.store import RankedStore
from services.workers.celery_app import app
from services.workers.tasks import RPC_TIMEOUT_S, TRANSIENT, engine_stub

log = logging.getLogger("fengsheng.ranked")


_lock = threading.Lock()
_store: tuple[str, RankedStore] | None = None


def ranked_store() -> RankedStore:
    global _store
    url = config.role_url("ranked")  # FENGSHENG_RANKED_REDIS_URL, else FENGSHENG_REDIS_URL
    with _lock:
        if _store is None or _store[0] != url:
            _store = (url, RankedStore.from_url(url))
        return _store[1]


def create_match(match_id: str, kinds: list[str], turn_timeout_ms: float, ruleset: str) -> None:
    """Create a ranked match of ``ruleset`` in the engine (seed 0: the engine deals from its
    CSPRNG; house-bot seats are played by the engine's policies for that ruleset). An id
    the engine already has is someone else's match: :class:`MatchIdTaken`, never "created"."""
    bank_ms = BOT_BANK_MS if "human" not in kinds else PEOPLE_BANK_MS  # a match of bots only: the bots' bank
    settings = es.MatchSettings(ruleset=ruleset, players=len(kinds), seats=[SEAT_KINDS[k] for k in kinds],
                                turn_timeout_ms=round(turn_timeout_ms), time_bank_ms=bank_ms)  # fmt: skip
    try:
        engine_stub().CreateMatch(es.CreateMatchRequest(settings=settings, match_id=match_id), timeout=RPC_TIMEOUT_S)
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.ALREADY_EXISTS:
            raise MatchIdTaken(match_id) from exc
        raise


def sweep_finished(store: RankedStore, limit: int = 50) -> list[str]:
    """Queue ``ladder.update`` for unrated ranked matches that are over (or gone)."""
    sent = []
    for match_id in store.active(limit):
        try:
            legal = engine_stub().ListLegalActions(
                es.ListLegalActionsRequest(match_id=match_id, seat=-1), timeout=RPC_TIMEOUT_S
            )
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                record = store.match(match_id)
                store.finish(match_id, record["seats"] if record else [])
            continue
        if legal.seat_to_act < 0:
            ladder_update.delay(match_id)
            sent.append(match_id)
    return sent


@app.task(name="matchmaking.tick", acks_late=True, ignore_result=True)
def matchmake() -> dict[str, Any]:
    """One matchmaking pass (see :func:`services.ranked.matchmaking.tick`) and the finished-match sweep."""
    store = ranked_store()
    schedule = Schedule.from_env()
    # one pass per period however many beats run (every worker embeds one): a short lock
    if not store.redis.set("mm:{mm}:tick-lock", "1", nx=True, px=max(1, int(schedule.tick_ms * 0.8))):
        return {"skipped": True}
    result = tick(store, create_match, schedule)
    result["swept"] = sweep_finished(store)
    if result["formed"]:
        log.info("matchmaking.tick formed %s", result["formed"])
    return result


def rate_match(store: RankedStore, ladder: RedisLadder, match_id: str) -> str:
    """Rate one finished ranked match: ``rated``, ``already``, ``unranked`` or ``not_over``.

    Every seat's identity is the engine's truth from the outcome (all identities are public
    at game end), not the spectator's seat views, where a living loser's stays hidden."""
    record = store.match(match_id)
    if record is None:
        return "unranked"
    if record.get("casual"):  # casual and challenge tables are never rated
        store.finish(match_id, record["seats"])
        return "casual"
    obs = engine_stub().GetObservation(es.GetObservationRequest(match_id=match_id, seat=-1), timeout=RPC_TIMEOUT_S)
    if not obs.outcome.over:
        return "not_over"
    identity = dict(enumerate(int(i) for i in obs.outcome.identities))
    winners = set(obs.outcome.winners)
    result = MatchResult(
        match_id=match_id,
        season=record["season"],
        ruleset=obs.ruleset or record["ruleset"],
        participants=tuple(
            Participant(
                s.player_id,
                s.name,
                s.bot,
                s.seat,
                s.seat in winners,
                identity.get(s.seat, game_pb2.IDENTITY_UNSPECIFIED),
            )
            for s in record["seats"]
        ),
    )
    # a second run (redelivery, the sweep) reads no replay: the done marker answers
    done = not ladder.rated(match_id) and ladder.record(result, audit_facts(store, record, result, obs.outcome))
    store.finish(match_id, record["seats"])
    return "rated" if done else "already"


_IDENTITY_ID: dict[int, str] = {int(number): name for name, number in IDENTITY.items()}


def audit_facts(store: RankedStore, record: dict[str, Any], result: MatchResult, outcome: Any) -> MatchFacts:
    """The collusion audit's facts of a finished ranked match (services/ranked/audit.py):
    seats and accounts from the record, queue joins from the tickets, every intel deed from
    the engine's own history (``GetReplay``, replayed here). A transient engine error is
    raised (the task retries); a history that cannot be replayed is logged and leaves the
    match without soft-play facts, never unrated."""
    identities = [_IDENTITY_ID.get(int(i), "") for i in outcome.identities]
    enq = {}
    for s in record["seats"]:
        ticket = store.ticket(s.ticket_id) if s.ticket_id else None
        if ticket is not None:
            enq[s.ticket_id] = ticket["enqueued_ms"]
    replay = None
    try:
        replay = engine_stub().GetReplay(es.GetReplayRequest(match_id=result.match_id), timeout=RPC_TIMEOUT_S)
        return match_facts(result.match_id, result.ruleset, result.finished_at, record["seats"], identities, enq,
                           replay)  # fmt: skip
    except grpc.RpcError as exc:
        if exc.code() in TRANSIENT:
            raise
        log.warning("ladder.update %s: no replay for the audit (%s)", result.match_id, exc.code())
    except (ValueError, KeyError, IndexError):  # IllegalAction is a ValueError
        log.exception("ladder.update %s: the history did not replay; audited without soft play", result.match_id)
    return match_facts(result.match_id, result.ruleset, result.finished_at, record["seats"], identities, enq, None)


@app.task(name="ladder.update", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def ladder_update(self: Task[Any, Any], match_id: str) -> str:
    """Rate a finished ranked match exactly once (idempotent on the match id)."""
    store = ranked_store()
    try:
        outcome = rate_match(store, RedisLadder(store.redis), match_id)
    except grpc.RpcError as exc:
        if exc.code() in TRANSIENT:
            raise self.retry(exc=exc, countdown=min(5.0, 0.2 * 2**self.request.retries), max_retries=30) from exc
        if exc.code() == grpc.StatusCode.NOT_FOUND:
            return "gone"
        raise
    log.info("ladder.update %s: %s", match_id, outcome)
    return outcome
