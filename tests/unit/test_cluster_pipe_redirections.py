"""The cluster write path (services/engine/redis_cluster_pipe.py) follows ``MOVED`` and ``ASK`` a
bounded number of times: against nodes that redirect every command for good (two nodes that
disagree about a slot, a broken configuration) it gives up with ``RedirectionLoop``, which the
service maps to ``UNAVAILABLE`` like any store failure, instead of a request that never ends.

The nodes are fakes on loopback speaking just enough RESP; no Redis is needed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import hiredis
import pytest

from fengsheng.redis_errors import STORE_UNAVAILABLE
from services.engine.redis_cluster_pipe import MAX_REDIRECTIONS, ClusterPipelinedConnection, RedirectionLoop

SLOT = 1234


@dataclass
class FakeNode:
    """Answers each command with ``answer(command)`` (a RESP reply, bytes); counts them."""

    answer: Callable[[list[bytes]], bytes]
    commands: list[list[bytes]] = field(default_factory=list)
    port: int = 0

    async def start(self) -> asyncio.Server:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            parser = hiredis.Reader()
            while data := await reader.read(65536):
                parser.feed(data)
                while (command := parser.gets()) is not False:
                    self.commands.append(command)
                    writer.write(self.answer(command))
                await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        return server


class FakeCluster:
    """What the pipe reads of redis-py's ``RedisCluster``: a slot map naming ``node`` for
    every slot, and a map reload that changes nothing."""

    def __init__(self, port: int) -> None:
        self.connection_kwargs: dict[str, Any] = {}
        self.reloads = 0
        node = SimpleNamespace(host="127.0.0.1", port=port)
        self.nodes_manager = SimpleNamespace(
            slots_cache={SLOT: [node]}, get_node_from_slot=lambda slot: node, initialize=self._reload
        )

    async def _reload(self) -> None:
        self.reloads += 1

    async def initialize(self) -> None:
        pass

    def keyslot(self, key: str) -> int:
        return SLOT


def _pipe(port: int) -> ClusterPipelinedConnection:
    return ClusterPipelinedConnection(cast(Any, FakeCluster(port)), failover_s=30.0)


def test_a_node_that_answers_moved_forever_is_unavailable_not_a_hang() -> None:
    async def main() -> None:
        a, b = FakeNode(lambda c: b"-MOVED %d 127.0.0.1:%d\r\n" % (SLOT, b.port)), FakeNode(lambda c: b"")
        b.answer = lambda c: b"-MOVED %d 127.0.0.1:%d\r\n" % (SLOT, a.port)  # and back
        servers = [await a.start(), await b.start()]
        pipe = _pipe(a.port)
        try:
            with pytest.raises(RedirectionLoop) as caught:
                await asyncio.wait_for(pipe.execute("HGET", "fs:m:{x}", "version"), 10)
            assert isinstance(caught.value, STORE_UNAVAILABLE)  # so UNAVAILABLE, as other Redis failures
            assert "MOVED" in str(caught.value) and "HGET" in str(caught.value)
            assert len(a.commands) + len(b.commands) == MAX_REDIRECTIONS + 1
            assert len(b.commands) > 0  # the MOVED's node was asked, not only the map's
            assert pipe.redirects["moved"] == MAX_REDIRECTIONS
        finally:
            pipe.close()
            for s in servers:
                s.close()

    asyncio.run(main())


def test_a_node_that_answers_ask_forever_is_unavailable_not_a_hang() -> None:
    async def main() -> None:
        def answer(command: list[bytes]) -> bytes:
            if command[0].upper() == b"ASKING":
                return b"+OK\r\n"
            return b"-ASK %d 127.0.0.1:%d\r\n" % (SLOT, node.port)

        node = FakeNode(answer)
        server = await node.start()
        pipe = _pipe(node.port)
        try:
            with pytest.raises(RedirectionLoop, match="ASK"):
                await asyncio.wait_for(pipe.execute("HGET", "fs:m:{x}", "version"), 10)
            assert pipe.redirects["ask"] == 0  # no command was answered
        finally:
            pipe.close()
            server.close()

    asyncio.run(main())


def test_one_moved_is_followed_to_the_node_named() -> None:
    async def main() -> None:
        new = FakeNode(lambda c: b"$1\r\n7\r\n")
        new_server = await new.start()
        old = FakeNode(lambda c: b"-MOVED %d 127.0.0.1:%d\r\n" % (SLOT, new.port))
        old_server = await old.start()
        pipe = _pipe(old.port)  # a map from before a resharding, and a reload that does not help yet
        try:
            assert await asyncio.wait_for(pipe.execute("HGET", "fs:m:{x}", "version"), 10) == b"7"
            assert pipe.redirects["moved"] == 1
        finally:
            pipe.close()
            old_server.close()
            new_server.close()

    asyncio.run(main())
