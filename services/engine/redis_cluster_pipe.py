"""The engine's pipelined hot path (services/engine/redis_pipe.py) against a Redis Cluster.

One :class:`services.engine.redis_pipe.PipelinedConnection` per primary; each command goes to the
primary of its first key's hash slot, from the slot map of redis-py's cluster client
(:class:`redis.asyncio.RedisCluster`, which the rest of the store uses). Redirections and
failovers are followed here:

- ``MOVED``: the slot map is stale (a failover, a resharding): send again to the node named,
  and reload the map for the next commands;
- ``ASK``: the slot is migrating: send ``ASKING`` and the command to the node named, back to
  back on one connection;
- at most :data:`MAX_REDIRECTIONS` of those per command, and none after ``failover_s``: then
  :class:`RedirectionLoop` (nodes that disagree about a slot for good, a broken
  configuration), a ``ClusterDownError``, so ``UNAVAILABLE`` to the service's callers
  (fengsheng/redis_errors.py) rather than a request that never ends;
- a lost connection, ``CLUSTERDOWN``, ``TRYAGAIN``, ``READONLY``: a primary died and its
  replica is taking over: wait a little, reload the map and send again, up to
  ``failover_s`` seconds.

:attr:`ClusterPipelinedConnection.redirects` counts what was followed (``moved``: map
reloads after a ``MOVED``; ``ask``: commands answered by the node an ``ASK`` named;
``retry``: resends after a lost connection, ``TRYAGAIN``, ...; and by command,
``ask EVALSHA``, ``ask HGET``, ``tryagain EVALSHA``, ...), for tests and logs
(tests/integration/test_redis_cluster_migration.py checks that a slot migration under live
matches was followed, not merely survived). While a slot migrates, an action's script runs
where all its keys are (services/engine/store.py, ``ACT_SCRIPT``, declares only keys that exist):
through ``ASK`` once they have moved; a match whose keys are split between the two nodes is
answered ``TRYAGAIN`` and resent with backoff, within ``failover_s``.

Sending an action's script again is safe: its compare-and-set answers "the version moved
on" when the first send was applied after all, and the service then re-reads the match.

``wait_replicas`` (``FENGSHENG_REDIS_WAIT_REPLICAS``): after each write, ``WAIT`` until that
many replicas have it (up to ``wait_timeout_ms``) before the write counts as done. Redis
replicates asynchronously, so without it a primary that dies right after answering can take
acknowledged actions with it; with 1 (and one replica per primary) the replica that takes
over has every acknowledged action. A write no replica confirmed in time is reported as a
connection error (unknown outcome), never as success.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import time
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ConnectionError,
    MovedError,
    NoScriptError,
    ReadOnlyError,
    RedisError,
    TimeoutError,
    TryAgainError,
)

from services.engine.redis_pipe import Arg, PipelinedConnection, WriteStats

log = logging.getLogger(__name__)

_RETRY = (ConnectionError, TimeoutError, ClusterDownError, TryAgainError, ReadOnlyError, OSError)

#: ``MOVED`` and ``ASK`` followed for one command before giving up (redis-py's cluster client
#: allows as many). A command needs one or two: a resharding's ``ASK``, then perhaps a
#: ``MOVED`` once the slot is handed over.
MAX_REDIRECTIONS = 16


class RedirectionLoop(ClusterDownError):
    """The cluster kept redirecting a command (``MOVED``/``ASK``) beyond
    :data:`MAX_REDIRECTIONS` or ``failover_s``. The command was not run (a redirection is an
    answer instead of running it). A ``ClusterDownError``: the store is unavailable, retry."""


def wait_replicas_from_env() -> int:
    return int(os.environ.get("FENGSHENG_REDIS_WAIT_REPLICAS", "0") or 0)


class ClusterPipelinedConnection:
    """:class:`PipelinedConnection`'s interface (``execute``, ``evalsha``, ``stats``,
    ``close``), routed by hash slot over a cluster's primaries."""

    def __init__(
        self,
        cluster: aioredis.RedisCluster,
        *,
        coalesce_s: float = 0.0,
        wait_replicas: int | None = None,
        wait_timeout_ms: int = 2000,
        failover_s: float = 20.0,
    ) -> None:
        self.cluster = cluster
        self.coalesce_s = coalesce_s
        self.wait_replicas = wait_replicas_from_env() if wait_replicas is None else wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.failover_s = failover_s
        self.stats = WriteStats()
        #: redirections and retries followed: ``moved``, ``ask``, ``retry``
        self.redirects: collections.Counter[str] = collections.Counter()
        self._conns: dict[tuple[str, int], PipelinedConnection] = {}
        kw = dict(cluster.connection_kwargs)
        self._settings = {
            "unix": False,
            "tls": bool(kw.get("ssl")) or kw.get("connection_class", object).__name__ == "SSLConnection",
            "password": kw.get("password"),
            "username": kw.get("username"),
            "ssl_ca_certs": kw.get("ssl_ca_certs"),
            "ssl_cert_reqs": kw.get("ssl_cert_reqs", "required"),
            "socket_connect_timeout": kw.get("socket_connect_timeout") or 5.0,
        }

    def _conn(self, host: str, port: int) -> PipelinedConnection:
        conn = self._conns.get((host, port))
        if conn is None:
            conn = PipelinedConnection({**self._settings, "host": host, "port": port}, coalesce_s=self.coalesce_s)
            conn.stats = self.stats
            self._conns[(host, port)] = conn
        return conn

    async def _primary(self, key: str) -> PipelinedConnection:
        manager = self.cluster.nodes_manager
        if not manager.slots_cache:
            await self.cluster.initialize()
        node = manager.get_node_from_slot(self.cluster.keyslot(key))
        return self._conn(node.host, int(node.port))

    async def _refresh(self) -> None:
        with contextlib.suppress(RedisError):  # still electing: the next attempt reloads again
            await self.cluster.nodes_manager.initialize()

    async def _send(self, key: str, commands: list[tuple[Arg, ...]]) -> list[Any]:
        deadline = time.monotonic() + self.failover_s
        asking: tuple[str, int] | None = None
        moved_to: tuple[str, int] | None = None
        redirections = 0
        delay = 0.05
        while True:
            try:
                if asking is not None:
                    conn = self._conn(*asking)
                    replies = (await conn.execute_many(("ASKING",), *commands))[1:]
                    self.redirects["ask"] += 1  # counted once the node asked answered
                    self.redirects["ask " + str(commands[0][0])] += 1
                    return replies
                conn = self._conn(*moved_to) if moved_to is not None else await self._primary(key)
                return await conn.execute_many(*commands)
            except MovedError as exc:  # first: redis-py's MovedError is a subclass of AskError
                redirections += 1
                self._check_redirections(redirections, deadline, exc, commands[0][0])
                self.redirects["moved"] += 1
                log.debug("MOVED slot %s -> %s:%s", exc.slot_id, exc.host, exc.port)
                asking = None
                # the node named, not the map: a map read from a node the hand-over has not
                # reached yet would send us back where we were answered MOVED
                moved_to = (exc.host, int(exc.port))
                await self._refresh()
                continue
            except AskError as exc:
                redirections += 1
                self._check_redirections(redirections, deadline, exc, commands[0][0])
                log.debug("ASK slot %s -> %s:%s", exc.slot_id, exc.host, exc.port)
                asking = (exc.host, int(exc.port))
                continue
            except _RETRY as exc:
                if time.monotonic() + delay > deadline:
                    raise
                self.redirects["retry"] += 1
                if isinstance(exc, TryAgainError):
                    self.redirects["tryagain " + str(commands[0][0])] += 1
                log.debug("retrying after %s: %s", type(exc).__name__, exc)
                asking = moved_to = None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
                await self._refresh()

    def _check_redirections(self, redirections: int, deadline: float, exc: AskError, name: Arg) -> None:
        if redirections <= MAX_REDIRECTIONS and time.monotonic() <= deadline:
            return
        kind = "MOVED" if isinstance(exc, MovedError) else "ASK"
        raise RedirectionLoop(
            f"{name!s}: still redirected after {redirections - 1} redirections followed (limit "
            f"{MAX_REDIRECTIONS}, or {self.failover_s:g} s); "
            f"the last: {kind} slot {exc.slot_id} -> {exc.host}:{exc.port}"
        ) from exc

    async def execute(self, *command: Arg) -> Any:
        """Send one keyed command (its first argument after the name is the key)."""
        return (await self._send(str(command[1]), [command]))[0]

    async def evalsha(self, script: Any, keys: list[str], args: Sequence[Arg]) -> Any:
        """Run a registered ``Script`` on the primary of ``keys[0]``'s slot (all its keys share
        that slot), then ``WAIT`` for ``wait_replicas`` replicas when asked to."""
        call: tuple[Arg, ...] = ("EVALSHA", script.sha, len(keys), *keys, *args)
        commands = [call]
        if self.wait_replicas:
            commands.append(("WAIT", self.wait_replicas, self.wait_timeout_ms))
        try:
            replies = await self._send(keys[0], commands)
        except NoScriptError:
            # the node that answered may be one an ASK sent us to, not the slot's primary in
            # the map: load the script on every primary
            await self._load_everywhere(script.script)
            replies = await self._send(keys[0], commands)
        if self.wait_replicas and int(replies[1]) < self.wait_replicas:
            raise ConnectionError(
                f"write not confirmed by {self.wait_replicas} replica(s) within {self.wait_timeout_ms} ms"
            )
        return replies[0]

    async def _load_everywhere(self, source: str) -> None:
        manager = self.cluster.nodes_manager
        if not manager.slots_cache:
            await self.cluster.initialize()
        for node in self.cluster.get_primaries():
            with contextlib.suppress(*_RETRY):  # a dead primary: its replica loads it on its turn
                await self._conn(node.host, int(node.port)).execute_many(("SCRIPT", "LOAD", source))

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()
