"""The match store on a real Redis Cluster (3 primaries, one replica each, on loopback, from
the same ``redis-server`` binary as the other tests): matches play to the end while the
primary of some of them is killed and its replica takes over; every acknowledged action is
kept and none is applied twice (issue 15, point 1). The sweepers read every node's outboxes
and leases, and the notifier hears writes from every node. And the platform split over its
Redis roles (services/config.py): the match store on the cluster, the Celery broker and the
ranked store on one node, bot matches played by a Celery worker to the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from helpers.processes import start_engine_server, start_worker
from service_util import check_acknowledged, check_stream_and_history, play_acknowledged, wait_over

from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.config import ROLE_VARS
from services.engine.matches import MatchService
from services.engine.scheduler import RecordingScheduler
from services.engine.store import ANCHOR, MatchStore, leases_key, outbox_key, outbox_member, state_key
from services.ranked.store import bot_key
from services.redis_client import sync_client
from services.redis_cluster import RedisCluster
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

N_MATCHES = 20


@pytest.fixture(scope="module")
def cluster() -> Iterator[RedisCluster]:
    with RedisCluster(primaries=3, replicas=1) as c:
        yield c


async def _play(svc: MatchService, match_id: str, rng: random.Random, acked: list[tuple[int, int, str]]) -> None:
    await play_acknowledged(svc, match_id, rng, acked, retry_s=0.1)


def test_bot_matches_finish_while_a_primary_fails_over(cluster: RedisCluster) -> None:
    os.environ["FENGSHENG_REDIS_WAIT_REPLICAS"] = "1"

    async def main() -> None:
        svc = MatchService(MatchStore.from_url(cluster.url), RecordingScheduler())
        try:
            ids = []
            for k in range(N_MATCHES):
                match_id, _ = await svc.create_match(es.MatchSettings(seed=9000 + k, seats=[es.HUMAN] * 5))
                ids.append(match_id)
            acked: dict[str, list[tuple[int, int, str]]] = {m: [] for m in ids}
            rng = random.Random(15)
            games = [asyncio.create_task(_play(svc, m, random.Random(rng.random()), acked[m])) for m in ids]
            while sum(len(a) for a in acked.values()) < 20 * N_MATCHES:
                await asyncio.sleep(0.05)
            victim = cluster.primary_of(state_key(ids[0]))
            victim.kill()
            # its replica takes over; the killed node comes back (as a supervisor restarts
            # it) and rejoins as the new primary's replica, so writes are replicated again
            while cluster.primary_of(state_key(ids[0])).port == victim.port:
                await asyncio.sleep(0.1)
            await asyncio.to_thread(victim.start)
            await asyncio.wait_for(asyncio.gather(*games), 120)
            client = svc.store.redis
            await check_acknowledged(client, ids, acked)
        finally:
            os.environ.pop("FENGSHENG_REDIS_WAIT_REPLICAS", None)
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


def test_sweepers_and_leases_across_the_nodes(cluster: RedisCluster) -> None:
    async def main() -> None:
        sched = RecordingScheduler()
        svc = MatchService(MatchStore.from_url(cluster.url), sched, task_lease_s=0.2)
        try:
            made = []
            for k in range(12):  # spread over the three primaries' slots
                made.append(await svc.create_match(es.MatchSettings(seed=500 + k, seats=[es.BOT_RANDOM] * 5)))
            for match_id, pending in made:
                assert await svc.store.lease_of(outbox_member(match_id, pending.number)) is not None
            assert len({cluster.primary_of(leases_key(m)).port for m, _ in made}) > 1
            # the slots' outboxes and leases are anchored (they exist even when empty, so an
            # action's script runs through ASK during a migration), and no sweep takes the anchor
            for m, _ in made:
                assert await svc.store.redis.zscore(leases_key(m), ANCHOR) == float("inf")
                assert await svc.store.redis.zscore(outbox_key(m), ANCHOR) == float("inf")
            await asyncio.sleep(0.3)
            assert await svc.sweep_leases() == len(made)  # every node's leases were read
            assert await svc.sweep_outbox(grace_s=0) == 0
        finally:
            await svc.close()
            await svc.store.close()

    asyncio.run(main())


@contextlib.contextmanager
def _played(
    cluster: RedisCluster,
    single: RedisServer,
    tmp_path: Path,
    *,
    engine: tuple[str, dict[str, str]],
    worker: tuple[str, dict[str, str]],
    seeds: range,
) -> Iterator[tuple[list[str], str, Any, redis.Redis]]:
    """An engine and a worker, each given its ``(FENGSHENG_REDIS_URL, other variables)``, and
    one all-random-bot match per seed through them, each waited for until it is over; a bot
    account registered through the engine (its ranked store); yields the matches' ids, the
    bot's id and clients of the cluster and of the single node."""
    server = start_engine_server(engine[0], tmp_path, env=engine[1])
    proc = None
    try:
        proc = start_worker(worker[0], server.address, tmp_path, concurrency=2, env=worker[1])
        with engine_channel(server.address) as channel:
            stub = es_grpc.EngineServiceStub(channel)
            ids = []
            for seed in seeds:
                settings = es.MatchSettings(seed=seed, seats=[es.BOT_RANDOM] * 5)
                ids.append(stub.CreateMatch(es.CreateMatchRequest(settings=settings), timeout=10).match_id)
            for match_id in ids:
                wait_over(stub, match_id, timeout=120)
            bot_id = bs_grpc.RankedServiceStub(channel).RegisterBot(
                bs.RegisterBotRequest(name="split roles bot", owner="g_split"), timeout=20).bot_id
        on_cluster = sync_client(cluster.url)
        one_node = redis.Redis.from_url(single.url)
        try:
            yield ids, bot_id, on_cluster, one_node
        finally:
            on_cluster.close()
            one_node.close()
    finally:
        if proc is not None:
            proc.stop()
        server.stop()


def test_the_platform_split_match_store_on_the_cluster_the_rest_on_one_node(
    cluster: RedisCluster, tmp_path: Path
) -> None:
    """An engine whose FENGSHENG_REDIS_URL is one node and FENGSHENG_MATCH_REDIS_URL the
    cluster; a worker the other way round (FENGSHENG_REDIS_URL the cluster, its broker and
    ranked store named on their own): each role's keys land where its variable says."""
    with RedisServer() as single, _played(
        cluster,
        single,
        tmp_path,
        engine=(single.url, {"FENGSHENG_MATCH_REDIS_URL": cluster.url}),
        worker=(cluster.url, {"FENGSHENG_BROKER_URL": single.url, "FENGSHENG_RANKED_REDIS_URL": single.url}),
        seeds=range(3100, 3108),
    ) as (ids, bot_id, on_cluster, one_node):
        for match_id in ids:
            assert int(on_cluster.hget(state_key(match_id), "over")) == 1
            assert check_stream_and_history(on_cluster, match_id) > 10
            assert not one_node.exists(state_key(match_id)), "a match's keys on the single node"
        # the broker: the worker consumed the engine's bot tasks from the single node
        assert one_node.exists("_kombu.binding.fengsheng") and not on_cluster.exists("_kombu.binding.fengsheng")
        # the ranked store: the engine's bot accounts
        assert one_node.exists(bot_key(bot_id)) and not on_cluster.exists(bot_key(bot_id))


def test_the_platform_with_every_role_but_the_broker_on_the_cluster(cluster: RedisCluster, tmp_path: Path) -> None:
    """FENGSHENG_REDIS_URL the cluster for the engine and the worker (match, ranked store),
    only FENGSHENG_BROKER_URL one node (kombu has no cluster mode): bot accounts are written
    to the cluster and bot matches play to the end."""
    with RedisServer() as single, _played(
        cluster,
        single,
        tmp_path,
        engine=(cluster.url, {"FENGSHENG_BROKER_URL": single.url}),
        worker=(cluster.url, {"FENGSHENG_BROKER_URL": single.url}),
        seeds=range(3200, 3204),
    ) as (ids, bot_id, on_cluster, one_node):
        for match_id in ids:
            assert int(on_cluster.hget(state_key(match_id), "over")) == 1
        assert one_node.exists("_kombu.binding.fengsheng") and not on_cluster.exists("_kombu.binding.fengsheng")
        # the ranked store is the cluster: the engine's bot accounts are there
        assert on_cluster.exists(bot_key(bot_id)) and not one_node.exists(bot_key(bot_id))


def test_the_redis_healthcheck_probes_each_roles_url_cluster_included(
    cluster: RedisCluster, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m services.healthcheck redis`` on a platform split over its roles: the match
    store's cluster (every primary answers, state ``ok``) and the shared node; a role of its
    own that is down makes it fail (services/healthcheck.py)."""
    from services import healthcheck

    for var in ("FENGSHENG_REDIS_PASSWORD", "REDIS_URL", *ROLE_VARS.values()):
        monkeypatch.delenv(var, raising=False)
    with RedisServer() as single:
        monkeypatch.setenv("FENGSHENG_REDIS_URL", single.url)
        monkeypatch.setenv("FENGSHENG_MATCH_REDIS_URL", cluster.url)
        assert healthcheck.main(["redis"]) == 0
        out = capsys.readouterr().out
        assert "match redis+cluster://:***@" in out and "primaries, cluster_state:ok" in out, out
        assert "broker+ranked+gateway redis://" in out, out
        assert healthcheck.main(["redis", "--role", "match"]) == 0
        monkeypatch.setenv("FENGSHENG_BROKER_URL", "redis://127.0.0.1:1/0")  # nothing listens there
        assert healthcheck.main(["redis", "--timeout", "1"]) == 1
        assert "unhealthy" in capsys.readouterr().out
        assert healthcheck.main(["redis", "--role", "match", "--role", "ranked"]) == 0
