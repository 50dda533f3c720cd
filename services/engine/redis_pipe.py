"""One pipelined Redis connection for the engine service's hot path: the action write.

Every action is one script call (:data:`services.engine.store.ACT_SCRIPT`). Through redis-py's
asyncio client each call costs the engine process about 200 µs of CPU on the reference
machine (2 cores): the connection pool's lock and condition, the retry wrapper, the
stream reader, the parser wrapper, the command packer in Python, on top of the socket
calls. That was as much as the rules engine and gRPC together, and capped the service at
about 40% of the bare gRPC echo ceiling (``bench/service_load.py``; docs/decisions.md,
"The action write bypasses redis-py's client").

:class:`PipelinedConnection` is the thinnest client that keeps the same guarantees: an
``asyncio.Protocol`` over one connection, commands packed and replies parsed by
``hiredis`` (the Redis project's C protocol library, which redis-py itself uses for
parsing), any number of commands in flight, replies handed back in order. It costs about
60 µs per call. Everything else in the store still goes through redis-py.

Group commit (``coalesce_s``, the engine's ``--group-commit-ms``, default 0.5 ms): while
commands arrive closer together than that (a moving average of the gaps), a command is held
up to that long and goes out in one write with those that follow; Redis answers them in one
read. Each action is still its own script, applied in order. Under load this halves the
socket work per action on both sides (``bench/service_load.py``: about 25 % more actions/s);
a quiet server writes each action at once, so a lone move never waits.

Semantics are those of redis-py for a single command: an error reply raises the exception
redis-py raises for it (``ResponseError``; ``NoScriptError`` for ``NOSCRIPT``;
``BusyLoadingError``, a ``ConnectionError``, for ``LOADING``); a lost connection
fails every command in flight with ``redis.exceptions.ConnectionError`` and the next call
connects again. A command whose caller was cancelled still has its reply read (and
dropped), so the connection stays in step. The compare-and-set in each script makes a
client's retry after a connection error safe.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ssl
from collections.abc import Sequence
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis._parsers.base import BaseParser
from redis.connection import SSLConnection, UnixDomainSocketConnection
from redis.exceptions import ConnectionError, NoScriptError, RedisError

Arg = bytes | str | int | float


class WriteStats:
    """Commands sent and the socket writes that carried them, over every connection of one
    :class:`PipelinedConnection` (commands / writes = the mean group-commit size)."""

    __slots__ = ("commands", "writes")

    def __init__(self) -> None:
        self.commands = 0
        self.writes = 0


class _Protocol(asyncio.Protocol):
    """Feeds the bytes Redis sends to ``hiredis`` and resolves the waiting futures in order."""

    def __init__(self, stats: WriteStats) -> None:
        self.stats = stats
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.lost: Exception | None = None
        #: packed commands held back for a group write (see ``PipelinedConnection.coalesce_s``)
        self.held: list[bytes] = []
        self.flush_timer: asyncio.TimerHandle | None = None
        #: when the last command was sent, and the mean gap between commands (seconds)
        self.last_send = 0.0
        self.gap: float | None = None

    def request(self, command: tuple[Arg, ...], delay: float, max_held: int) -> asyncio.Future[Any]:
        """Send ``command`` (see :meth:`send`); the future of its reply."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.append(fut)
        self.send(hiredis.pack_command(command), delay, max_held)  # type: ignore[arg-type]  # (stub: a 1-tuple)
        return fut

    def send(self, data: bytes, delay: float, max_held: int) -> None:
        """Write ``data`` now, or (``delay`` > 0 and commands arriving closer together than
        that) hold it up to ``delay`` seconds so that it goes out with the ones that follow."""
        self.stats.commands += 1
        if delay > 0:
            now = asyncio.get_running_loop().time()
            # one gap counts at most 4 delays: after any pause that long the average is back
            # above the delay, so the next command goes out at once
            sample = min(now - self.last_send, 4 * delay) if self.last_send else 4 * delay
            self.last_send = now
            self.gap = sample if self.gap is None else 0.75 * self.gap + 0.25 * sample
            if self.held or self.gap < delay:
                self.held.append(data)
                if len(self.held) >= max_held:
                    self.flush()
                elif self.flush_timer is None:
                    self.flush_timer = asyncio.get_running_loop().call_later(delay, self.flush)
                return
        assert self.transport is not None
        self.stats.writes += 1
        self.transport.write(data)

    def _stop_timer(self) -> None:
        if self.flush_timer is not None:
            self.flush_timer.cancel()
            self.flush_timer = None

    def flush(self) -> None:
        """Write the held commands as one write."""
        self._stop_timer()
        if self.held and self.lost is None and self.transport is not None:
            data = b"".join(self.held)
            self.held.clear()
            self.stats.writes += 1
            self.transport.write(data)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # (uvloop's are not asyncio.Transport)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while True:
            try:
                reply = self.reader.gets()
            except hiredis.ProtocolError as exc:  # the stream is corrupt: nothing after is trusted
                assert self.transport is not None
                self.transport.close()
                self._fail(ConnectionError(f"Redis protocol error: {exc}"))
                return
            if reply is False:
                return
            fut = self.waiting.popleft()
            if fut.done():  # its caller was cancelled
                continue
            if isinstance(reply, hiredis.ReplyError):
                fut.set_exception(_error(str(reply)))
            else:
                fut.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(ConnectionError(f"connection to Redis lost: {exc or 'closed'}"))

    def _fail(self, exc: Exception) -> None:
        self.lost = exc
        self.held.clear()
        self._stop_timer()
        while self.waiting:
            fut = self.waiting.popleft()
            if not fut.done():
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits any more
                    fut.set_exception(exc)


def _error(message: str) -> RedisError:
    """The redis-py exception of an error reply, by redis-py's own table: ``NOSCRIPT`` ->
    ``NoScriptError``, ``LOADING`` (a restarted Redis still reading its AOF) ->
    ``BusyLoadingError`` (a ``ConnectionError``: the store is not ready, retry), ``READONLY``,
    ``MASTERDOWN``... and ``ResponseError`` for the rest."""
    error: RedisError = BaseParser.parse_error(message)  # type: ignore[no-untyped-call]
    return error


class PipelinedConnection:
    """A lazily opened, pipelined connection with the settings of a redis-py client."""

    def __init__(self, settings: dict[str, Any], *, coalesce_s: float = 0.0, max_held: int = 64) -> None:
        self.settings = settings
        #: group commit: hold a command up to this long so that the commands of concurrent
        #: matches share one write and one reply (0 = write each at once)
        self.coalesce_s = coalesce_s
        self.max_held = max_held
        self.stats = WriteStats()
        self._protocol: _Protocol | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connecting: asyncio.Future[_Protocol] | None = None

    @classmethod
    def like(cls, client: aioredis.Redis, *, coalesce_s: float = 0.0) -> PipelinedConnection:
        """Connect where ``client`` connects (host/port or unix socket, TLS, user,
        password, database)."""
        pool = client.connection_pool
        kwargs = dict(pool.connection_kwargs)
        kind = pool.connection_class
        kwargs["unix"] = issubclass(kind, UnixDomainSocketConnection) or "path" in kwargs
        kwargs["tls"] = issubclass(kind, SSLConnection) or kind.__name__ == "SSLConnection"
        return cls(kwargs, coalesce_s=coalesce_s)

    async def execute(self, *command: Arg) -> Any:
        """Send one command; its reply. Several calls may be in flight at once."""
        protocol = self._protocol
        if protocol is None or protocol.lost is not None or self._loop is not asyncio.get_running_loop():
            protocol = await self._connect()
        return await protocol.request(command, self.coalesce_s, self.max_held)

    async def execute_many(self, *commands: tuple[Arg, ...]) -> list[Any]:
        """Send ``commands`` back to back on this connection (nothing of another caller in
        between: ``ASKING`` then its command, or a write then ``WAIT``); their replies, or
        the first error once every reply is in."""
        protocol = self._protocol
        if protocol is None or protocol.lost is not None or self._loop is not asyncio.get_running_loop():
            protocol = await self._connect()
        futures = [protocol.request(c, self.coalesce_s, self.max_held) for c in commands]
        results = await asyncio.gather(*futures, return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                raise r
        return results

    async def evalsha(self, script: Any, keys: list[str], args: Sequence[Arg]) -> Any:
        """Run a registered redis-py ``Script``; loads it when Redis has lost it (a restart
        or ``SCRIPT FLUSH``)."""
        try:
            return await self.execute("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:
            await self.execute("SCRIPT", "LOAD", script.script)
            return await self.execute("EVALSHA", script.sha, len(keys), *keys, *args)

    async def _connect(self) -> _Protocol:
        loop = asyncio.get_running_loop()
        if self._connecting is not None and self._loop is loop and not self._connecting.done():
            return await asyncio.shield(self._connecting)
        self.close()
        self._loop = loop
        connecting = self._connecting = loop.create_future()
        try:
            protocol = await self._open(loop)
        except BaseException as exc:
            self.close()
            if isinstance(exc, OSError):
                failure: BaseException = ConnectionError(f"cannot connect to Redis: {exc!r}")
            elif isinstance(exc, Exception):
                failure = exc
            else:  # cancelled: whoever else waits tries again
                failure = ConnectionError("connecting to Redis was cancelled")
            connecting.set_exception(failure)
            connecting.exception()  # marked as retrieved: no warning when nobody else waited
            if isinstance(exc, OSError):
                raise failure from exc
            raise
        self._protocol = protocol  # only now: commands must follow AUTH and SELECT
        connecting.set_result(protocol)
        return protocol

    async def _open(self, loop: asyncio.AbstractEventLoop) -> _Protocol:
        s = self.settings
        timeout = s.get("socket_connect_timeout") or 10.0
        if s["unix"]:
            coro = loop.create_unix_connection(lambda: _Protocol(self.stats), s["path"])
        else:
            context = None
            if s["tls"]:
                context = ssl.create_default_context(cafile=s.get("ssl_ca_certs"))
                if str(s.get("ssl_cert_reqs", "required")).lower() in ("none", str(int(ssl.CERT_NONE))):
                    context.check_hostname = False
                    context.verify_mode = ssl.CERT_NONE
            coro = loop.create_connection(
                lambda: _Protocol(self.stats), s.get("host", "localhost"), s.get("port", 6379), ssl=context
            )
        transport, protocol = await asyncio.wait_for(coro, timeout)
        hello: list[tuple[Arg, ...]] = []
        if s.get("password"):
            user = s.get("username")
            hello.append(("AUTH", user, s["password"]) if user else ("AUTH", s["password"]))
        if s.get("db"):
            hello.append(("SELECT", int(s["db"])))
        if s.get("client_name"):
            hello.append(("CLIENT", "SETNAME", s["client_name"]))
        try:
            for command in hello:
                await asyncio.wait_for(protocol.request(command, 0.0, 1), timeout)
        except BaseException:
            transport.close()
            raise
        return protocol

    def close(self) -> None:
        """Close the connection (commands in flight fail); the next call connects again."""
        protocol, self._protocol = self._protocol, None
        if protocol is not None and protocol.transport is not None:
            with contextlib.suppress(RuntimeError):  # its event loop is closed already
                protocol.transport.close()
            protocol._fail(ConnectionError("connection to Redis closed"))
