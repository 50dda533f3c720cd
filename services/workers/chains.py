"""A worker process's house bot chains, played on one event loop.

A ``bots.move`` task plays its match's consecutive house bot decisions over one
``ActStream`` (``ActRequest.play_next_bot``, :mod:`services.workers.tasks`). With a blocking
gRPC stream each move crosses three threads of the worker (the task's, grpc's request
iterator and its channel spinner), each hand-over a wait for the GIL among the pool's other
threads; the engine, answering moves that arrive one by one, then batches nothing either.
Here every chain of the process runs as a coroutine on one loop thread with a ``grpc.aio``
channel: a move is a write and a read on the loop, and the task's own thread only waits for
the chain's result. Each move is still decided from its own seat's observation only
(:func:`services.workers.tasks.decide`); a search decision (the hard level, which holds a
thread for its budget) runs in a thread of its own so it never stalls the other chains.

One loop per worker process, made on first use after any fork; workers given several engine
addresses (:class:`services.balance.RoundRobinStub`) play their chains on the blocking path.
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import grpc

from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services import config
from services.channels import engine_aio_channel

#: a worker's channel to the engine: reconnect quickly after an engine restart, and spread
#: calls over the pods behind one DNS name (dns:///engine-headless:50051)
ENGINE_CHANNEL_OPTIONS = (
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
    ("grpc.lb_policy_name", "round_robin"),
)

#: the most search decisions one worker process runs at once (threads made as needed)
SEARCH_THREADS = 64


@dataclass(slots=True)
class Cursor:
    """Where a chain is: the decision it is at (a chained one is leased to the task, which
    retries from here on a transient failure) and how many moves it has played."""

    match_id: str
    seat: int
    decision: int
    policy: str
    origin: str
    moves: int = 0
    #: the match's per-decision clock (ms; 0: untimed): the house bots' pace scales with it
    #: (services/bot_timing.py); one chain plays one match, so it holds for the whole chain
    clock_ms: int = 0


class StreamEnded(grpc.RpcError):
    """The engine closed the chain's stream without an answer (it is going away): retried
    like ``UNAVAILABLE``."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "the engine closed the bot chain's stream"


class ChainLoop:
    """The loop thread of one worker process and its ``grpc.aio`` channel to the engine."""

    def __init__(self, address: str) -> None:
        self.pid = os.getpid()
        self.address = address
        self.loop = asyncio.new_event_loop()
        # search decisions (asyncio.to_thread): at least as many at once as the pool runs tasks, not
        # asyncio's default of cores + 4, so a busy hard level never queues behind itself
        self.loop.set_default_executor(ThreadPoolExecutor(max_workers=SEARCH_THREADS, thread_name_prefix="search"))
        self._thread = threading.Thread(target=self.loop.run_forever, name="fengsheng-bot-chains", daemon=True)
        self._thread.start()
        self.stub: es_grpc.EngineServiceStub = asyncio.run_coroutine_threadsafe(self._connect(), self.loop).result()

    async def _connect(self) -> es_grpc.EngineServiceStub:
        # with the service credential (services/channels.py)
        channel = engine_aio_channel(self.address, options=ENGINE_CHANNEL_OPTIONS)
        return es_grpc.EngineServiceStub(channel)

    def run(self, coro: Any) -> Any:
        """Run ``coro`` on the loop; block the calling (task) thread until it is done."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()


_lock = threading.Lock()
_current: ChainLoop | None = None


def chain_loop() -> ChainLoop | None:
    """This process's chain loop (made after any fork), or None when the worker has several
    engine addresses (their round-robin failover is the blocking path's)."""
    global _current
    addr = config.engine_addr()
    if "," in addr:
        return None
    with _lock:
        if _current is None or _current.pid != os.getpid() or _current.address != addr:
            _current = ChainLoop(addr)
        return _current


__all__ = ["ENGINE_CHANNEL_OPTIONS", "ChainLoop", "Cursor", "StreamEnded", "chain_loop"]
