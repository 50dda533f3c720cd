"""Anonymous growth (issue 11, finding 13): guests, matches and bot accounts are created at a
limited pace per client address and overall, with forwarded addresses believed only from
trusted proxies (gateway/ratelimit.py, docs/security/gatehard.md).

The gateway runs in-process (its lifespan entered by hand) in front of the real engine
server, its buckets in a real Redis; each request comes from a chosen peer address through
httpx's ASGI transport.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import redis
from helpers.processes import ServiceProcess

from gateway import ratelimit
from gateway.app import create_app
from gateway.ratelimit import ClientAddress, CreationLimits

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

Post = Callable[..., Awaitable[httpx.Response]]


@pytest.fixture()
def url(redis_url: str) -> Iterator[str]:
    url = re.sub(r"/\d*$", "", redis_url) + "/12"
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@asynccontextmanager
async def gateway(engine: ServiceProcess, url: str, limits: CreationLimits) -> AsyncIterator[Post]:
    """``post(path, peer, json=..., headers=...)`` against a rate-limited gateway."""
    app = create_app(engine.address, "limits-secret", redis_url=url)
    served: Any = ratelimit.install(app, redis_url=url, creation=limits)
    clients: dict[str, httpx.AsyncClient] = {}

    async def post(path: str, peer: str, **kwargs: Any) -> httpx.Response:
        if peer not in clients:
            transport = httpx.ASGITransport(app=served, client=(peer, 40000))
            clients[peer] = httpx.AsyncClient(transport=transport, base_url="http://gw")
        return await clients[peer].post(path, **kwargs)

    async with app.router.lifespan_context(app):
        try:
            yield post
        finally:
            for client in clients.values():
                await client.aclose()


def limited(reply: httpx.Response, scope: str) -> None:
    """A 429 of the creation limit, with a Retry-After of whole seconds matching the body."""
    assert reply.status_code == 429, reply.text
    error = reply.json()["error"]
    assert error["code"] == "rate_limited" and error["scope"] == scope, error
    retry_after = int(reply.headers["retry-after"])
    assert retry_after >= 1 and retry_after == max(1, math.ceil(error["retry_after_ms"] / 1000)), (retry_after, error)


CREATIONS: list[tuple[str, dict[str, Any]]] = [
    ("/api/guests", {"name": "g"}),
    ("/api/matches", {"players": 3, "humans": 1}),
    ("/api/bots", {"name": "b"}),
]


def test_one_address_is_limited_and_another_is_not(engine: ServiceProcess, url: str) -> None:
    async def main() -> None:
        limits = CreationLimits(rate=0.01, burst=3, global_rate=100, global_burst=1000)
        async with gateway(engine, url, limits) as post:
            a, b = "198.51.100.7", "198.51.100.8"
            token = (await post("/api/guests", b, json={"name": "b"})).json()["token"]  # a bot's owner
            for path, body in CREATIONS:  # one of each kind: they share the address's bucket
                reply = await post(path, a, json=body, headers={"Authorization": f"Bearer {token}"})
                assert reply.status_code == 201, (path, reply.text)
            for path, body in CREATIONS:
                limited(await post(path, a, json=body), "address")
                # a token (free to mint) does not lift the limit of its address
                limited(await post(path, a, json=body, headers={"Authorization": f"Bearer {token}"}), "address")
            # a casual table (POST /api/casual) is a creation route too
            limited(await post("/api/casual", a, json={}, headers={"Authorization": f"Bearer {token}"}), "address")
            for path, body in CREATIONS[1:]:
                if "name" in body:  # bot names are unique: another bot, another name
                    body = {**body, "name": body["name"] + "-2"}
                reply = await post(path, b, json=body, headers={"Authorization": f"Bearer {token}"})
                assert reply.status_code == 201, (path, reply.text)
            # other routes are not creation routes
            assert (await post("/api/matches/nosuch/join", a, headers={"Authorization": f"Bearer {token}"})
                    ).status_code == 404  # fmt: skip

    asyncio.run(main())


def test_forwarded_addresses_count_only_through_trusted_proxies(engine: ServiceProcess, url: str) -> None:
    async def main() -> None:
        limits = CreationLimits(rate=0.01, burst=2, global_rate=100, global_burst=1000, trusted_proxies=("10.0.0.0/8",))
        async with gateway(engine, url, limits) as post:
            proxy = "10.1.2.3"

            def via(client: str) -> dict[str, str]:
                return {"X-Forwarded-For": client}

            for _ in range(2):
                reply = await post("/api/guests", proxy, json={"name": "x"}, headers=via("203.0.113.5"))
                assert reply.status_code == 201, reply.text
            limited(await post("/api/guests", proxy, json={"name": "x"}, headers=via("203.0.113.5")), "address")
            # a client behind the proxy who writes its own header is still the proxy's last hop
            forged = via("192.0.2.1, 203.0.113.5")
            limited(await post("/api/guests", proxy, json={"name": "x"}, headers=forged), "address")
            # a second address through the same proxy has its own bucket
            assert (await post("/api/guests", proxy, json={"name": "x"}, headers=via("203.0.113.6"))).status_code == 201

            # from an untrusted peer, X-Forwarded-For is ignored however it changes
            stranger = "198.51.100.9"
            codes = [
                (await post("/api/guests", stranger, json={"name": "x"}, headers=via(f"192.0.2.{i}"))).status_code
                for i in range(5)
            ]
            assert codes == [201, 201, 429, 429, 429], codes

    asyncio.run(main())


def test_the_global_cap_holds_across_addresses(engine: ServiceProcess, url: str) -> None:
    async def main() -> None:
        limits = CreationLimits(rate=100, burst=100, global_rate=0.01, global_burst=4)
        async with gateway(engine, url, limits) as post:
            for i in range(4):
                assert (await post("/api/guests", f"198.51.100.{i}", json={"name": "x"})).status_code == 201
            for i in range(4, 8):
                limited(await post("/api/guests", f"198.51.100.{i}", json={"name": "x"}), "global")

    asyncio.run(main())


def scope_with(peer: str, *headers: tuple[str, str]) -> dict[str, Any]:
    return {"client": (peer, 1234), "headers": [(k.encode(), v.encode()) for k, v in headers]}


def test_client_address_reads_forwarded_headers_from_the_right() -> None:
    xff = ClientAddress(("10.0.0.0/8", "2001:db8:ff::/48"))
    assert xff(scope_with("10.0.0.1", ("x-forwarded-for", "192.0.2.1, 198.51.100.2"))) == "198.51.100.2"
    assert xff(scope_with("10.0.0.1", ("x-forwarded-for", "192.0.2.1"), ("x-forwarded-for", "10.0.0.9"))) == "192.0.2.1"
    assert xff(scope_with("10.0.0.1")) == "10.0.0.1"  # a trusted peer that forwarded nothing
    assert xff(scope_with("192.0.2.7", ("x-forwarded-for", "198.51.100.2"))) == "192.0.2.7"
    assert xff(scope_with("2001:db8:ff::1", ("x-forwarded-for", "[2001:db8::5]:443"))) == "2001:db8::5"
    rfc = ClientAddress(("10.0.0.0/8",), "forwarded")
    header = ("forwarded", 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"')
    assert rfc(scope_with("10.0.0.1", header)) == "2001:db8:cafe::17"
    # in forwarded mode an X-Forwarded-For is just another header anyone can write
    assert rfc(scope_with("10.0.0.1", ("x-forwarded-for", "192.0.2.1"))) == "10.0.0.1"
    with pytest.raises(ValueError, match="FENGSHENG_TRUSTED_PROXIES"):
        ClientAddress(("not-an-address",))


def test_creation_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_CREATE_RATE", "0.5")
    monkeypatch.setenv("FENGSHENG_CREATE_BURST", "7")
    monkeypatch.setenv("FENGSHENG_CREATE_GLOBAL_RATE", "0")
    monkeypatch.setenv("FENGSHENG_TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.1")
    monkeypatch.setenv("FENGSHENG_PROXY_HEADER", "Forwarded")
    assert CreationLimits.from_env() == CreationLimits(
        rate=0.5, burst=7, global_rate=0.0, global_burst=500, trusted_proxies=("10.0.0.0/8", "192.0.2.1"),
        proxy_header="forwarded",
    )  # fmt: skip
