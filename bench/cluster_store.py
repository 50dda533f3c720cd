"""Actions/s of the match service (in process, no gRPC) on one Redis and on a loopback
3-primary Redis Cluster with replicas, with and without ``WAIT`` for a replica (issue 15).
Prints one JSON object. Not a test: run by hand, ``python bench/cluster_store.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time

from fengsheng.v1 import engine_service_pb2 as es
from services.engine.matches import MatchService
from services.engine.scheduler import RecordingScheduler
from services.engine.store import MatchStore
from services.redis_cluster import RedisCluster
from services.redis_server import RedisServer

MATCHES = 20


async def _play(svc: MatchService, match_id: str, rng: random.Random) -> int:
    n = 0
    while True:
        legal = await svc.legal_actions(match_id, -1)
        if legal.seat_to_act == -1:
            return n
        mine = await svc.legal_actions(match_id, legal.seat_to_act)
        await svc.act(match_id, mine.seat_to_act, mine.decision, rng.choice(list(mine.actions)), origin="bot")
        n += 1


async def _run(url: str, wait: int) -> dict[str, float]:
    os.environ["FENGSHENG_REDIS_WAIT_REPLICAS"] = str(wait)
    svc = MatchService(MatchStore.from_url(url, group_commit_s=0.002), RecordingScheduler())
    try:
        ids = [(await svc.create_match(es.MatchSettings(seed=k, seats=[es.HUMAN] * 5)))[0] for k in range(MATCHES)]
        t0 = time.perf_counter()
        counts = await asyncio.gather(*(_play(svc, m, random.Random(i)) for i, m in enumerate(ids)))
        elapsed = time.perf_counter() - t0
        return {"actions": sum(counts), "actions_per_s": round(sum(counts) / elapsed, 1)}
    finally:
        os.environ.pop("FENGSHENG_REDIS_WAIT_REPLICAS", None)
        await svc.close()
        await svc.store.close()


def main() -> None:
    out: dict[str, object] = {"matches": MATCHES}
    with RedisServer() as single:
        out["single"] = asyncio.run(_run(single.url, 0))
    with RedisCluster() as cluster:
        out["cluster"] = asyncio.run(_run(cluster.url, 0))
        out["cluster_wait_1"] = asyncio.run(_run(cluster.url, 1))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
