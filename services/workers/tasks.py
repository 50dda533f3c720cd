"""Celery tasks: ``bots.move`` and ``timers.expire``.

Both are thin: they call the engine service over gRPC (address: ``FENGSHENG_ENGINE_ADDR``,
set by ``fengsheng worker --engine``), so workers hold no match state and need no access
to the store, and every write goes through the one code path that checks decision
numbers. Both take ids, re-read the match, and are idempotent by decision number: a task
for a decision that is no longer open is a no-op (FAILED_PRECONDITION from Act counts as
done). Transient failures (engine unreachable, its Redis restarting or still loading its AOF,
CAS contention: ``UNAVAILABLE``, ``DEADLINE_EXCEEDED``, ``ABORTED``) are retried with backoff.
A bot's thinking time is the task's countdown, set when it is queued: no task sleeps in its
thread. Each answer is then held until a release time that ignores what the seat holds
(:mod:`services.bot_timing`): a hold on the chain loop, not in the task's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import grpc
from celery import Task
from celery.exceptions import MaxRetriesExceededError, Retry

from engine import Game
from engine.bots import POLICIES
from engine.notation import parse
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services import config
from services.bot_levels import search_budget_ms
from services.bot_timing import COMPUTE_TIMES, ComputeTimes, Pace, hold_until, hold_until_blocking
from services.channels import engine_channel
from services.workers.celery_app import app
from services.workers.chains import ENGINE_CHANNEL_OPTIONS, Cursor, StreamEnded, chain_loop

log = logging.getLogger("fengsheng.tasks")

#: gRPC codes worth retrying: the engine is restarting, or too busy, or contended.
TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.ABORTED})
RPC_TIMEOUT_S = 10.0

_stub_lock = threading.Lock()
_stub: tuple[int, str, es_grpc.EngineServiceStub] | None = None


def engine_stub() -> es_grpc.EngineServiceStub:
    """One channel per worker process (made after any fork), shared by its threads.

    Several comma-separated addresses: round-robin over the replicas with failover
    (:class:`services.balance.RoundRobinStub`)."""
    global _stub
    import os

    addr = config.engine_addr()
    with _stub_lock:
        if "," in addr and (_stub is None or _stub[0] != os.getpid() or _stub[1] != addr):
            from services.balance import RoundRobinStub, split_addresses

            # it quacks like EngineServiceStub for unary calls (the blocking chain uses unary Act)
            _stub = (os.getpid(), addr, cast("es_grpc.EngineServiceStub", RoundRobinStub(split_addresses(addr))))
        if _stub is None or _stub[0] != os.getpid() or _stub[1] != addr:
            # with the service credential (services/channels.py)
            channel = engine_channel(addr, options=ENGINE_CHANNEL_OPTIONS)
            _stub = (os.getpid(), addr, es_grpc.EngineServiceStub(channel))
        return _stub[2]


#: how long a task keeps retrying in place while the broker (Redis) is down
BROKER_DOWN_RETRY_S = 300.0


class BrokerDown(Exception):
    """``task.retry`` could not publish the retry (Redis down): retry in this thread instead."""

    def __init__(self, countdown: float) -> None:
        super().__init__(f"broker unreachable; retrying in place in {countdown:.1f}s")
        self.countdown = countdown


def _retry(
    task: Task[Any, Any],
    exc: grpc.RpcError,
    args: tuple[Any, ...] | None = None,
    kwargs: dict[str, Any] | None = None,
) -> None:
    """Retry a transient failure with capped exponential backoff; re-raise otherwise.

    The retry is a new message on the broker. When the broker is the Redis that just went
    away, publishing fails, and letting that failure end the task would drop the decision's
    only task (its outbox entry is gone): :class:`BrokerDown` makes :func:`_in_place` run
    the task again in this thread after the countdown instead."""
    if exc.code() in TRANSIENT:
        countdown = min(2.0, 0.1 * 2**task.request.retries)
        try:
            retry = task.retry(args=args, kwargs=kwargs, exc=exc, countdown=countdown, max_retries=60)
        except Retry:
            raise
        except Exception as publish_failed:
            if isinstance(publish_failed, (grpc.RpcError, MaxRetriesExceededError)):
                raise
            log.warning("%s: cannot publish a retry (%s); retrying in place", task.name, publish_failed)
            raise BrokerDown(countdown) from exc
        raise retry
    raise exc


def _in_place(fn: Callable[..., str]) -> Callable[..., str]:
    """Run the task body again (it is idempotent) while :class:`BrokerDown` says so."""

    @functools.wraps(fn)
    def run(self: Task[Any, Any], *args: Any, **kwargs: Any) -> str:
        deadline = time.monotonic() + BROKER_DOWN_RETRY_S
        countdown = 0.1
        while True:
            try:
                return fn(self, *args, **kwargs)
            except BrokerDown as down:
                if time.monotonic() > deadline:
                    raise
                countdown = max(countdown, down.countdown)
                time.sleep(countdown)
                countdown = min(2.0, countdown * 2)

    return run


#: A ``bots.move`` task plays at most this many consecutive house bot decisions of its match
#: (``ActRequest.play_next_bot``) and for at most ``CHAIN_BUDGET_S``, then lets the engine
#: queue the next one on the broker, so one match's bots never hold a worker thread that
#: other matches' bots are waiting for.
CHAIN_MAX_MOVES = 64
CHAIN_BUDGET_S = 1.0


class StreamRefusal(grpc.RpcError):
    """An ``ActStream`` refusal (``ActResponse.error``), raised like the unary ``Act``'s error:
    ``code()`` and ``details()``."""

    def __init__(self, error: es.ActError) -> None:
        super().__init__(error.message)
        self._code = next((c for c in grpc.StatusCode if c.value[0] == error.code), grpc.StatusCode.UNKNOWN)
        self._details = error.message

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def needs_search(cur: Cursor, obs: Any) -> bool:
    """Whether the seat's policy searches (the hard level) at this decision."""
    return bool(getattr(POLICIES.get(cur.policy), "needs_game", False)) and len(obs.legal_actions) > 1


def decide(stub: Any, cur: Cursor, obs: Any) -> str:
    """The move of the cursor's seat's bot for its decision, from that seat's own observation
    only (the search bot: from worlds sampled from that view, :func:`search_move`, over the
    blocking ``stub``)."""
    actions = [parse(a) for a in obs.legal_actions]  # the wire's text form, read once here
    rng = random.Random(f"{cur.match_id}:{cur.seat}:{cur.decision}")
    fn = POLICIES.get(cur.policy, POLICIES["random"])
    if needs_search(cur, obs):
        try:
            searched = search_move(stub, fn, cur.match_id, cur.seat, cur.decision, rng)
            if searched is None or searched in obs.legal_actions:
                return searched or str(fn(obs, actions, rng))
            # legal only in the sampled world (a card it resampled): refused by the engine, it
            # would cost a second Act, a delay only searched answers had; v2 answers instead
            log.warning("bots.move search chose %r, not legal here match=%s decision=%s; playing v2",
                        searched, cur.match_id, cur.decision)  # fmt: skip
        except grpc.RpcError:
            raise
        except Exception:  # a search bug must not stall the match: v2 answers instead
            log.exception("bots.move search failed match=%s decision=%s; playing v2", cur.match_id, cur.decision)
    return str(fn(obs, actions, rng))


def _timed_decide(stub: Any, cur: Cursor, obs: Any) -> tuple[str, float]:
    """:func:`decide`, and the ``time.monotonic()`` at which it returned (in the thread that
    computed it: the wait for the loop to take the answer back is not compute time)."""
    action = decide(stub, cur, obs)
    return action, time.monotonic()


def _release(cur: Cursor, obs: Any, taken_up: float, ready: float, release: float, times: ComputeTimes) -> float:
    """The release time of an answer computed at ``ready``: with a choice, its compute time
    is recorded; without one, it is held at least as long as a recent answer with a choice of
    the same level and kind took to compute (services/bot_timing.py)."""
    kind = obs.pending.kind
    if len(obs.legal_actions) > 1:
        times.record(cur.policy, kind, ready - taken_up)
        late_ms = 1000 * (ready - release)
        if late_ms > 1:
            log.info("bots.move answer late by %.0f ms match=%s decision=%s policy=%s (raise "
                     "FENGSHENG_BOT_SEARCH_MARGIN_MS / FENGSHENG_BOT_THINK_MS)", late_ms, cur.match_id,
                     cur.decision, cur.policy)  # fmt: skip
        return release
    return max(release, taken_up + times.draw(cur.policy, kind))


async def paced_move(cur: Cursor, obs: Any, taken_up: float, search_stub: Callable[[], Any], pace: Pace,
                     times: ComputeTimes = COMPUTE_TIMES) -> str:
    """The answer of the cursor's seat to its open decision, as the outside sees it: decided
    from the seat's own observation (:func:`decide`; a search in a thread of its own, over
    ``search_stub()``), then held on the loop until the release time drawn from ``pace``
    when the decision was ``taken_up`` (``time.monotonic()``), before anything of the seat was
    read, or, without a choice, until a recent compute time of its level and kind (``times``)
    has passed (:mod:`services.bot_timing`: the time depends on the level, never on the hand)."""
    release = pace.release_at(cur.policy, taken_up, cur.clock_ms)
    if needs_search(cur, obs):  # holds a thread for its budget: not this loop's
        action, ready = await asyncio.to_thread(_timed_decide, search_stub(), cur, obs)
    else:
        action, ready = _timed_decide(None, cur, obs)
    await hold_until(_release(cur, obs, taken_up, ready, release, times))
    return action


def paced_move_blocking(stub: Any, cur: Cursor, obs: Any, taken_up: float, pace: Pace,
                        times: ComputeTimes = COMPUTE_TIMES) -> str:
    """:func:`paced_move` on the blocking path: the hold is a sleep in the task's thread."""
    release = pace.release_at(cur.policy, taken_up, cur.clock_ms)
    action, ready = _timed_decide(stub, cur, obs)
    hold_until_blocking(_release(cur, obs, taken_up, ready, release, times))
    return action


def search_move(stub: es_grpc.EngineServiceStub, fn: Any, match_id: str, seat: int, decision: int,
                rng: random.Random) -> str | None:
    """The search bot's move (the "hard" level): it plays out worlds sampled from the
    seat's view (the engine service's ``Determinize``), within the per-decision budget
    ``FENGSHENG_SEARCH_BUDGET_MS`` (services/bot_levels.py), so a search task holds its
    worker thread no longer than that. None when the decision moved on meanwhile."""
    obs = stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=seat, include_events=True),
                              timeout=RPC_TIMEOUT_S)
    reply = stub.Determinize(es.DeterminizeRequest(match_id=match_id, seat=seat, seed=rng.getrandbits(63)),
                             timeout=RPC_TIMEOUT_S)
    if reply.decision != decision or obs.pending.number != decision:
        return None
    game = Game.restore(reply.snapshot)
    t0 = time.perf_counter()
    action = str(fn.decide(game, seat, rng, budget_ms=search_budget_ms(), events=list(obs.events), observation=obs))
    log.info("bots.move search match=%s decision=%s took %.0f ms", match_id, decision,
             1000 * (time.perf_counter() - t0))
    return action


def _request(cur: Cursor, action: str, started: float) -> es.ActRequest:
    """The chain's move ``action`` for its open decision; it asks for the next house bot turn
    while the chain may go on (``CHAIN_MAX_MOVES``, ``CHAIN_BUDGET_S``; house bots only)."""
    cur.moves += 1
    chain = cur.origin == "bot" and cur.moves < CHAIN_MAX_MOVES and time.monotonic() - started < CHAIN_BUDGET_S
    return es.ActRequest(match_id=cur.match_id, seat=cur.seat, decision=cur.decision, action=action,
                         origin=cur.origin, play_next_bot=chain)  # fmt: skip


def _default_instead(request: es.ActRequest, exc: grpc.RpcError) -> es.ActRequest:
    """A policy bug must not stall the match: the same decision's default action instead of
    a refused (``INVALID_ARGUMENT``) one; anything else is raised again."""
    if exc.code() != grpc.StatusCode.INVALID_ARGUMENT:
        raise exc
    log.error("bots.move %s chose %r: %s; using the default", request.match_id, request.action, exc.details())
    fixed = es.ActRequest()
    fixed.CopyFrom(request)
    fixed.ClearField("action")
    fixed.use_default = True
    return fixed


def _next(cur: Cursor, res: es.ActResponse) -> Any:
    """Move the cursor to the house bot turn the engine handed back (leased to this task), and
    return that seat's observation; None when the chain ends."""
    log.info("bots.move done match=%s seat=%s decision=%s", cur.match_id, cur.seat, cur.decision)
    if not res.HasField("next_bot"):
        return None
    turn = res.next_bot
    cur.seat, cur.decision, cur.policy = turn.seat, turn.decision, turn.policy
    return turn.observation


def _stale(cur: Cursor, obs: Any) -> bool:
    if obs.pending.number != cur.decision or obs.pending.seat != cur.seat or not obs.legal_actions:
        log.info("bots.move stale match=%s decision=%s (open: %s)", cur.match_id, cur.decision, obs.pending.number)
        return True
    return False


def _chain_blocking(stub: Any, cur: Cursor) -> str:
    """The chain on blocking gRPC, one unary ``Act`` per move (workers given several engine
    addresses: :class:`services.balance.RoundRobinStub` fails over call by call)."""
    started = taken_up = time.monotonic()
    pace = Pace.from_env()
    obs = stub.GetObservation(es.GetObservationRequest(match_id=cur.match_id, seat=cur.seat), timeout=RPC_TIMEOUT_S)
    if _stale(cur, obs):
        return "stale"
    while obs is not None:
        action = paced_move_blocking(stub, cur, obs, taken_up, pace)  # its own seat's view only
        request = _request(cur, action, started)
        try:
            res = stub.Act(request, timeout=RPC_TIMEOUT_S)
        except grpc.RpcError as exc:
            res = stub.Act(_default_instead(request, exc), timeout=RPC_TIMEOUT_S)
        taken_up = time.monotonic()
        obs = _next(cur, res)
    return "applied"


async def _chain_async(stub: es_grpc.EngineServiceStub, cur: Cursor) -> str:
    """The chain on the process's chain loop (:mod:`services.workers.chains`): one
    ``ActStream`` for the whole chain, every move a write and a read on the loop."""
    started = taken_up = time.monotonic()
    pace = Pace.from_env()
    obs = await stub.GetObservation(es.GetObservationRequest(match_id=cur.match_id, seat=cur.seat),
                                    timeout=RPC_TIMEOUT_S)  # fmt: skip
    if _stale(cur, obs):
        return "stale"
    call: Any = None

    async def act(request: es.ActRequest) -> es.ActResponse:
        nonlocal call
        if call is None:
            call = stub.ActStream(timeout=RPC_TIMEOUT_S + CHAIN_BUDGET_S * 2)
        await call.write(request)
        res = await call.read()
        if res is grpc.aio.EOF:
            raise StreamEnded()
        if res.HasField("error"):
            raise StreamRefusal(res.error)
        return res  # type: ignore[no-any-return]

    try:
        while obs is not None:
            action = await paced_move(cur, obs, taken_up, engine_stub, pace)
            request = _request(cur, action, started)
            try:
                res = await act(request)
            except grpc.RpcError as exc:
                res = await act(_default_instead(request, exc))
            taken_up = time.monotonic()
            obs = _next(cur, res)
    finally:
        if call is not None:
            with contextlib.suppress(Exception):
                await call.done_writing()
            call.cancel()
    return "applied"


@app.task(name="bots.move", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
@_in_place
def bot_move(
    self: Task[Any, Any],
    match_id: str,
    seat: int,
    decision: int,
    policy: str = "random",
    origin: str = "bot",
    clock_ms: int = 0,
) -> str:
    """Play ``seat``'s move for ``decision`` with the named policy: a house bot's seat
    (``origin="bot"``) or an away seat's stand-in (``origin="away"``, services/engine/matches.py).

    A house bot's task then goes on with its match's following house bot decisions while
    they need no think delay (``ActRequest.play_next_bot``: the engine hands back each one
    as a :class:`BotTurn` with that seat's own observation, queues no task for it and leases
    it to this task), up to ``CHAIN_MAX_MOVES`` / ``CHAIN_BUDGET_S``: one message on the
    chain's ``ActStream`` per move instead of a broker round trip, a GetObservation and an
    Act, all on the process's chain loop (:mod:`services.workers.chains`). Each move is
    decided from its own seat's observation only.

    The table's ``bot_delay_ms`` is the task's countdown (services/engine/scheduler.py): the
    task runs when it is due. Every answer is then held until its release time
    (:func:`paced_move`, services/bot_timing.py), which depends on the level and the table's
    per-decision clock ``clock_ms`` (0: untimed; public facts of the table) and not on the
    seat's hand, on the chain loop, not in the worker thread."""
    log.info("bots.move start match=%s seat=%s decision=%s", match_id, seat, decision)
    cur = Cursor(match_id, seat, decision, policy, origin, clock_ms=clock_ms)
    try:
        loop = chain_loop()
        if loop is None:
            return _chain_blocking(engine_stub(), cur)
        result: str = loop.run(_chain_async(loop.stub, cur))
        return result
    except grpc.RpcError as exc:
        code = exc.code()
        if code == grpc.StatusCode.FAILED_PRECONDITION:
            log.info("bots.move no-op match=%s decision=%s: %s", cur.match_id, cur.decision, exc.details())
            return "stale" if cur.moves <= 1 else "applied"
        if code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
            log.error("bots.move dropped match=%s decision=%s: %s %s", cur.match_id, cur.decision, code, exc.details())
            return "dropped"
        # retry the decision this task was at (a chained one is leased to it)
        _retry(self, exc, args=(cur.match_id, cur.seat, cur.decision),
               kwargs={"policy": cur.policy, "origin": origin, "clock_ms": clock_ms})
    return "applied"


@app.task(name="timers.expire", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
@_in_place
def timer_expire(self: Task[Any, Any], match_id: str, decision: int) -> str:
    """If ``decision`` is still open, apply its seat's default action."""
    stub = engine_stub()
    try:
        legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1), timeout=RPC_TIMEOUT_S)
        if legal.decision != decision or legal.seat_to_act < 0:
            return "stale"
        res = stub.Act(
            es.ActRequest(
                match_id=match_id, seat=legal.seat_to_act, decision=decision, use_default=True, origin="timer"
            ),
            timeout=RPC_TIMEOUT_S,
        )
    except grpc.RpcError as exc:
        code = exc.code()
        if code == grpc.StatusCode.FAILED_PRECONDITION:
            return "stale"
        if code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
            log.error("timers.expire dropped match=%s decision=%s: %s", match_id, decision, exc.details())
            return "dropped"
        _retry(self, exc)
    log.info("timers.expire applied match=%s decision=%s action=%s", match_id, decision, list(res.applied))
    return "applied"
