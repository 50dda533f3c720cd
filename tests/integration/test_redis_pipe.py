"""The pipelined Redis connection of the action write (services/engine/redis_pipe.py), against a
real Redis: replies reach their own callers under concurrency, an error reply fails only
its caller, a flushed script is loaded again, a cancelled caller does not put the
connection out of step, a killed connection fails what was in flight and the next call
reconnects, and the database and password of the URL are honoured (also on uvloop)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterator

import pytest
import redis
import redis.asyncio as aioredis
import uvloop

from services.engine.redis_pipe import PipelinedConnection
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


def run(fn: Callable[[], Awaitable[None]], *, use_uvloop: bool = False) -> None:
    if use_uvloop:
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(fn())
    else:
        asyncio.run(fn())


@pytest.fixture
def prefix() -> str:
    return f"test:pipe:{secrets.token_hex(4)}:"


@pytest.fixture
def sync(redis_url: str, prefix: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.mark.parametrize("use_uvloop", [False, True], ids=["asyncio", "uvloop"])
def test_concurrent_replies_reach_their_callers(
    redis_url: str, prefix: str, sync: redis.Redis, use_uvloop: bool
) -> None:
    async def main() -> None:
        pipe = PipelinedConnection.like(aioredis.Redis.from_url(redis_url))
        try:
            values = [secrets.token_hex(8) for _ in range(300)]
            replies = await asyncio.gather(*(pipe.execute("ECHO", v) for v in values))
            assert replies == [v.encode() for v in values]
            counts = await asyncio.gather(*(pipe.execute("INCR", prefix + "n") for _ in range(200)))
            assert sorted(counts) == list(range(1, 201))
        finally:
            pipe.close()

    run(main, use_uvloop=use_uvloop)
    assert sync.get(prefix + "n") == b"200"


def test_an_error_reply_fails_only_its_caller(redis_url: str, prefix: str, sync: redis.Redis) -> None:
    sync.set(prefix + "text", "not a number")

    async def main() -> None:
        pipe = PipelinedConnection.like(aioredis.Redis.from_url(redis_url))
        try:
            results = await asyncio.gather(
                pipe.execute("ECHO", "before"),
                pipe.execute("INCR", prefix + "text"),
                pipe.execute("ECHO", "after"),
                return_exceptions=True,
            )
            assert results[0] == b"before" and results[2] == b"after"
            assert isinstance(results[1], redis.exceptions.ResponseError)
            assert "not an integer" in str(results[1])
            assert await pipe.execute("PING") == b"PONG"
        finally:
            pipe.close()

    run(main)


def test_a_flushed_script_is_loaded_again(redis_url: str, prefix: str, sync: redis.Redis) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        script = client.register_script("return redis.call('INCRBY', KEYS[1], ARGV[1])")
        pipe = PipelinedConnection.like(client)
        try:
            assert await pipe.evalsha(script, [prefix + "s"], [5]) == 5
            sync.script_flush()
            assert await pipe.evalsha(script, [prefix + "s"], [2]) == 7
        finally:
            pipe.close()
            await client.aclose()

    run(main)


def test_a_cancelled_caller_leaves_the_connection_in_step(redis_url: str, prefix: str) -> None:
    async def main() -> None:
        pipe = PipelinedConnection.like(aioredis.Redis.from_url(redis_url))
        try:
            slow = asyncio.ensure_future(pipe.execute("BLPOP", prefix + "empty", 0.3))
            await asyncio.sleep(0.05)
            slow.cancel()
            # sent after the blocking command: its reply must not be taken for this one
            assert await pipe.execute("ECHO", "next") == b"next"
            assert slow.cancelled()
        finally:
            pipe.close()

    run(main)


def test_a_killed_connection_fails_in_flight_commands_and_the_next_call_reconnects(
    redis_url: str, prefix: str, sync: redis.Redis
) -> None:
    async def main() -> None:
        pipe = PipelinedConnection.like(aioredis.Redis.from_url(redis_url))
        try:
            my_id = await pipe.execute("CLIENT", "ID")
            blocked = asyncio.ensure_future(pipe.execute("BLPOP", prefix + "never", 5))
            await asyncio.sleep(0.1)
            assert sync.client_kill_filter(_id=my_id) == 1
            with pytest.raises(redis.exceptions.ConnectionError):
                await asyncio.wait_for(blocked, 3)
            assert await pipe.execute("ECHO", "again") == b"again"
            assert await pipe.execute("CLIENT", "ID") != my_id
        finally:
            pipe.close()

    run(main)


def test_unreachable_redis_is_a_connection_error() -> None:
    server = RedisServer().start()
    url = server.url
    server.stop()

    async def main() -> None:
        pipe = PipelinedConnection.like(aioredis.Redis.from_url(url))
        with pytest.raises(redis.exceptions.ConnectionError, match="cannot connect"):
            await pipe.execute("PING")

    run(main)


@pytest.mark.parametrize("use_uvloop", [False, True], ids=["asyncio", "uvloop"])
def test_password_and_database_of_the_url(use_uvloop: bool) -> None:
    with RedisServer(password="") as server:  # no password until the test sets its own
        admin = redis.Redis(host=server.host, port=server.port)
        admin.config_set("requirepass", "s3cret")
        admin = redis.Redis(host=server.host, port=server.port, password="s3cret", db=3)
        url = f"redis://:s3cret@{server.host}:{server.port}/3"

        async def main() -> None:
            pipe = PipelinedConnection.like(aioredis.Redis.from_url(url))
            try:
                # several callers at once while the connection is still being opened: every
                # command must run after AUTH and SELECT
                await asyncio.gather(*(pipe.execute("SET", f"k{i}", i) for i in range(20)))
            finally:
                pipe.close()
            wrong = PipelinedConnection.like(aioredis.Redis.from_url(url.replace("s3cret", "wrong")))
            with pytest.raises(redis.exceptions.AuthenticationError):  # as redis-py raises it
                await wrong.execute("PING")
            wrong.close()

        run(main, use_uvloop=use_uvloop)
        assert admin.mget([f"k{i}" for i in range(20)]) == [str(i).encode() for i in range(20)]
        admin.close()


def test_group_commit_shares_writes_under_load_and_never_delays_a_lone_command(redis_url: str, prefix: str) -> None:
    async def main() -> None:
        pipe = PipelinedConnection.like(aioredis.Redis.from_url(redis_url), coalesce_s=0.2)
        try:
            # a burst: once the gaps are short, commands are held and go out together
            counts = await asyncio.gather(*(pipe.execute("INCR", prefix + "g") for _ in range(300)))
            assert sorted(counts) == list(range(1, 301))
            assert pipe.stats.commands >= 300 and pipe.stats.writes < pipe.stats.commands / 3
            # after a pause the moving gap is long again: a lone command is written at once
            await asyncio.sleep(1.0)
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            assert await pipe.execute("ECHO", "alone") == b"alone"
            assert loop.time() - t0 < 0.1  # well under the 0.2 s hold
        finally:
            pipe.close()

    run(main)


def test_held_commands_fail_with_the_connection(redis_url: str, prefix: str, sync: redis.Redis) -> None:
    async def main() -> None:
        pipe = PipelinedConnection.like(aioredis.Redis.from_url(redis_url), coalesce_s=5.0)
        try:
            my_id = await pipe.execute("CLIENT", "ID")
            protocol = pipe._protocol
            assert protocol is not None
            protocol.gap = 0.0  # as if under load: the next commands are held
            held = [asyncio.ensure_future(pipe.execute("INCR", prefix + "h")) for _ in range(3)]
            await asyncio.sleep(0.1)
            assert len(protocol.held) == 3 and not any(f.done() for f in held)
            sync.client_kill_filter(_id=my_id)
            for fut in held:
                with pytest.raises(redis.exceptions.ConnectionError):
                    await asyncio.wait_for(fut, 3)
            assert sync.get(prefix + "h") is None  # never written
            assert await pipe.execute("ECHO", "again") == b"again"
        finally:
            pipe.close()

    run(main)
