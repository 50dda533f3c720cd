"""A Redis Cluster on loopback, from the same ``redis-server`` binary as
:class:`services.redis_server.RedisServer`: for integration tests and benchmarks of the
platform against a cluster (``primaries`` primaries, each with ``replicas`` replicas).

The nodes share one generated password (``requirepass`` and ``masterauth``), and a short
``cluster-node-timeout`` so that a killed primary's replica takes over within a few seconds.
:attr:`RedisCluster.url` is a ``redis+cluster://`` URL (services/redis_client.py) naming one
node: cluster clients discover the rest.

>>> with RedisCluster() as cluster:        # doctest: +SKIP
...     print(cluster.url)
redis+cluster://:Qm9...@127.0.0.1:40123/0
"""

from __future__ import annotations

import random
import socket
import time
from types import TracebackType

import redis

from services.config import with_password
from services.engine.store import N_SLOTS, key_slot
from services.redis_server import RedisServer


def _cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free too (so at most 55535)."""
    for _ in range(1000):
        port = random.randint(20000, 55000)
        try:
            for p in (port, port + 10000):
                with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


class RedisCluster:
    """``primaries`` × (1 + ``replicas``) ``redis-server`` children forming one cluster."""

    def __init__(self, *, primaries: int = 3, replicas: int = 1, node_timeout_ms: int = 1000) -> None:
        import secrets

        self.password = secrets.token_urlsafe(24)
        self.primaries: list[RedisServer] = []
        self.replicas: list[RedisServer] = []
        self.node_timeout_ms = node_timeout_ms
        for i in range(primaries * (1 + replicas)):
            port = _cluster_port()
            extra = [
                "cluster-enabled yes",
                "cluster-config-file nodes.conf",
                f"cluster-node-timeout {node_timeout_ms}",
                f'masterauth "{self.password}"',
                "cluster-replica-validity-factor 0",  # a replica may always take over
                "appendonly no",
            ]
            server = RedisServer(port=port, password=self.password, extra_config=extra)
            (self.primaries if i < primaries else self.replicas).append(server)
        self._n_replicas = replicas

    @property
    def nodes(self) -> list[RedisServer]:
        return self.primaries + self.replicas

    @property
    def url(self) -> str:
        """``redis+cluster://:PW@HOST:PORT/0`` of the first live node."""
        node = next(n for n in self.nodes if n.process is not None)
        return with_password(f"redis+cluster://{node.host}:{node.port}/0", self.password)

    def client(self, node: RedisServer) -> redis.Redis:
        return redis.Redis(host=node.host, port=node.port, password=self.password, socket_timeout=5)

    def start(self, timeout: float = 30.0) -> RedisCluster:
        for node in self.nodes:
            node.start()
        try:
            self._form(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _form(self, timeout: float) -> None:
        n = len(self.primaries)
        for i, node in enumerate(self.primaries):
            lo, hi = i * N_SLOTS // n, (i + 1) * N_SLOTS // n
            self.client(node).execute_command("CLUSTER ADDSLOTS", *range(lo, hi))
        first = self.nodes[0]
        for node in self.nodes[1:]:
            self.client(node).execute_command("CLUSTER MEET", first.host, first.port)
        deadline = time.monotonic() + timeout
        ids = [self.client(p).execute_command("CLUSTER MYID") for p in self.primaries]
        for k, node in enumerate(self.replicas):
            primary_id = ids[k % n]
            while True:  # the replica must have heard of its primary first
                try:
                    self.client(node).execute_command("CLUSTER REPLICATE", primary_id)
                    break
                except redis.ResponseError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
        self.wait_ok(deadline - time.monotonic())

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every live node says ``cluster_state:ok`` and every live replica's link is up."""
        deadline = time.monotonic() + timeout
        while True:
            if all(self._ok(node) for node in self.nodes if node.process is not None):
                return
            if time.monotonic() > deadline:
                raise TimeoutError("the Redis Cluster did not become ready")
            time.sleep(0.05)

    def _ok(self, node: RedisServer) -> bool:
        try:
            c = self.client(node)
            if c.cluster("info").get("cluster_state") != "ok":
                return False
            repl = c.info("replication")
            return repl.get("role") == "master" or repl.get("master_link_status") == "up"
        except redis.RedisError:
            return False

    def primary_of(self, key: str) -> RedisServer:
        """The live node serving ``key``'s slot now."""
        for node in self.nodes:
            if node.process is None:
                continue
            c = self.client(node)
            if c.info("replication").get("role") != "master":
                continue
            slot = key_slot(key)
            for lo, hi, *owners in c.execute_command("CLUSTER SLOTS"):
                if lo <= slot <= hi:
                    port = int(owners[0][1])
                    return next(x for x in self.nodes if x.port == port)
        raise LookupError(key)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> RedisCluster:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
