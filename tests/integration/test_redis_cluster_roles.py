"""The ranked store and the gateway's store on a real Redis Cluster (3 primaries on loopback,
from the same ``redis-server`` binary as the other tests; issue 15, point 1). A script or
``MULTI`` over keys of two slots is refused by a cluster (``CROSSSLOT``), so each operation
below fails unless its keys share a slot: bot accounts (register, authenticate, list,
rotate, revoke), the queue and a rated match on the ladder; a seat claim, chat, the lobby's
list, rate-limit buckets, and a burst beyond the connection limit that waits instead of
failing (as the gateway's one-node pool does)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
import redis
import redis.asyncio as aioredis

from fengsheng.ratelimit import RedisTokenBucket
from gateway.auth import Player
from gateway.chat import RedisChatStore
from gateway.store import MatchRecord, RedisStore
from services.ranked.ladder import BOT, MatchResult, Participant, RedisLadder, current_season
from services.ranked.store import RankedStore, SeatPlan, bot_holder
from services.redis_client import BlockingRedisCluster, shared_client, subscriber_url
from services.redis_cluster import RedisCluster

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def cluster() -> Iterator[RedisCluster]:
    with RedisCluster(primaries=3, replicas=0) as c:
        yield c


def test_bot_accounts_queue_and_ladder_on_the_cluster(cluster: RedisCluster) -> None:
    store = RankedStore.from_url(cluster.url)
    assert isinstance(store.redis, redis.RedisCluster)
    made = [store.register_bot(f"cluster bot {k}", owner="owner-1") for k in range(6)]
    assert all(m is not None for m in made)
    bots = [m for m in made if m is not None]
    assert store.register_bot("CLUSTER BOT 0", "owner-2") is None  # names stay unique (case-insensitive)
    for bot_id, token in bots:
        account = store.bot_account(bot_id)
        assert account is not None and store.bot_of_token(token) == (bot_id, account["name"], "owner-1")
    assert store.owned_bots("owner-1") == sorted(b for b, _ in bots)
    bot_id, token = bots[0]
    new, new_id = store.rotate_token(bot_id)
    assert store.bot_of_token(token) is None and store.bot_of_token(new) == (bot_id, "cluster bot 0", "owner-1")
    account = store.bot_account(bot_id)
    assert account is not None and [t["token_id"] for t in account["tokens"]] == [new_id]
    assert store.revoke_token(bot_id, new_id) and store.bot_of_token(new) is None

    # the queue: two bots' tickets claimed for one match (one script over the {mm} keys)
    tickets = []
    for bot_id, _ in bots[1:3]:
        created, ticket = store.join(bot_holder(bot_id), bot_id, bot=True, rating=1500, min_players=2, max_players=2)
        assert created
        tickets.append(ticket)
    seats = [SeatPlan(i, "external", b, b, True, bot_holder(b), t["ticket_id"]) for i, ((b, _), t) in
             enumerate(zip(bots[1:3], tickets, strict=True))]  # fmt: skip
    assert store.claim("rk-cluster-1", current_season(), seats, 30.0)
    store.confirm("rk-cluster-1", [t["ticket_id"] for t in tickets])
    assert {store.ticket(t["ticket_id"])["state"] for t in tickets} == {"matched"}  # type: ignore[index]
    assert store.bot_matches(bots[1][0]) == ["rk-cluster-1"]

    # ... rated on the ladder (WATCH + MULTI over the {rk} keys)
    ladder = RedisLadder(store.redis)
    result = MatchResult("rk-cluster-1", current_season(), (
        Participant(bots[1][0], "a", True, 0, True, 1), Participant(bots[2][0], "b", True, 1, False, 2)))  # fmt: skip
    assert ladder.record(result) and not ladder.record(result)  # once
    assert ladder.rated("rk-cluster-1")
    winner, loser = ladder.rating(BOT, bots[1][0]), ladder.rating(BOT, bots[2][0])
    assert winner.mu > loser.mu and winner.wins == 1
    store.finish("rk-cluster-1", seats)
    assert store.bot_matches(bots[1][0]) == []
    # client addresses kept for the rated-table rule (a transaction on one key, reads across {mm})
    holders = [bot_holder(b) for b, _ in bots[1:3]]
    store.record_address(holders[0], "198.51.100.7", 60)
    assert store.recent_addresses(holders, 60) == {holders[0]: frozenset({"198.51.100.7"}), holders[1]: frozenset()}
    store.redis.close()


def test_ticket_notifications_are_heard_from_any_primary(cluster: RedisCluster) -> None:
    """A bot's stream subscribes to one primary (services/redis_client.py); the store
    publishes through the cluster client: the message arrives whichever node it went to."""
    store = RankedStore.from_url(cluster.url)
    listener = redis.Redis.from_url(subscriber_url(cluster.url, store.redis))
    pubsub = listener.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe("mm:notify:b:b_x")
    deadline = time.monotonic() + 10
    store.publish({"holder": "b:b_x", "ticket_id": "t_1"})
    msg = None
    while msg is None and time.monotonic() < deadline:
        msg = pubsub.get_message(timeout=1.0)
    assert msg is not None and b"t_1" in msg["data"]
    pubsub.close()
    listener.close()
    store.redis.close()


def test_the_gateway_store_chat_and_buckets_on_the_cluster(cluster: RedisCluster) -> None:
    async def main() -> None:
        store = RedisStore(cluster.url)
        chat = RedisChatStore(cluster.url)
        bucket = RedisTokenBucket(cluster.url, rate=1, burst=3)
        try:
            assert isinstance(store._redis, aioredis.RedisCluster)
            assert await store.ping()
            ids = [f"m-cluster-{k}" for k in range(12)]  # spread over the three primaries
            for k, match_id in enumerate(ids):
                record = MatchRecord(match_id, ["human", "human", "random"], {"players": 3}, created_at=1000.0 + k)
                assert await store.add_match(record)
            assert not await store.add_match(MatchRecord(ids[0], ["human"], {}))
            ann, bob = Player("p-ann", "ann"), Player("p-bob", "bob")
            for match_id in ids:
                assert await store.claim(match_id, 0, ann)
                assert await store.claim(match_id, 0, ann)  # again: still hers
                assert not await store.claim(match_id, 1, ann)  # one seat a match
                assert not await store.claim(match_id, 0, bob)
                assert await store.claim(match_id, 1, bob)
                assert await store.claims(match_id) == {0: {"pid": "p-ann", "name": "ann"},
                                                        1: {"pid": "p-bob", "name": "bob"}}  # fmt: skip
                assert await chat.append(match_id, "table", {"text": "hi"}, 60) == 1
                assert await chat.append(match_id, "spectators", {"text": "yo"}, 60) == 2
                assert [m["id"] for m in await chat.read(match_id, "table", 0)] == [1]
                await store.touch(match_id, over=False)
            lobby = await store.recent(20)  # one read per record's slot
            assert [r.match_id for r in lobby] == ids[::-1]
            await store.forget(ids[0])
            assert await store.get_match(ids[0]) is None and await store.claims(ids[0]) == {}
            assert await chat.read(ids[0], "table", 0) == []
            assert [r.match_id for r in await store.recent(20)] == ids[:0:-1]
            waits = [await bucket.take("tok-1") for _ in range(4)]
            assert waits[:3] == [0.0, 0.0, 0.0] and waits[3] > 0
        finally:
            await store.close()
            await chat.close()
            await bucket.close()

    asyncio.run(main())


async def _burst(client: aioredis.RedisCluster, n: int) -> list[object]:
    async def one(i: int) -> object:
        if i % 3 == 0:
            pipe = client.pipeline(transaction=False)
            pipe.incr(f"burst:{{{i % 5}}}")
            pipe.get(f"burst:{{{i % 5}}}")
            return await pipe.execute()
        return await client.incr(f"burst:{{{i % 5}}}")

    try:
        return await asyncio.gather(*(one(i) for i in range(n)), return_exceptions=True)
    finally:
        await client.aclose()


def test_a_burst_beyond_the_connection_limit_waits_on_a_cluster(cluster: RedisCluster) -> None:
    """The gateway's cluster client (services/redis_client.py, ``shared_client``): 200
    concurrent commands and pipelines over 4 connections per node all succeed; redis-py's
    own cluster client with the same limit refuses some (``MaxConnectionsError``)."""
    client = shared_client(cluster.url, max_connections=4)
    assert isinstance(client, BlockingRedisCluster)
    results = asyncio.run(_burst(client, 200))
    assert [r for r in results if isinstance(r, Exception)] == []
    from services.redis_client import node_url

    plain = aioredis.RedisCluster.from_url(node_url(cluster.url), max_connections=4)
    results = asyncio.run(_burst(plain, 200))
    assert any(isinstance(r, redis.exceptions.MaxConnectionsError) for r in results), "the guard proves nothing"
