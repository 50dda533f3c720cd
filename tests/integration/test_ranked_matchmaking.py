"""Matchmaking on a real Redis, without processes: the pairing rule and its schedule, and
concurrent ticks that never put a ticket in two matches."""

from __future__ import annotations

import contextlib
import re
import threading
from collections import Counter
from collections.abc import Iterator

import pytest
import redis

from services.matchmaking import Schedule, form_groups, tick
from services.ranked import RankedStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


@pytest.fixture()
def store(redis_url: str) -> Iterator[RankedStore]:
    client = redis.Redis.from_url(re.sub(r"/\d*$", "", redis_url) + "/8")
    client.flushdb()
    yield RankedStore(client)
    client.flushdb()
    client.close()


def _t(i: int, rating: float, enq: int, lo: int = 5, hi: int = 5) -> dict[str, object]:
    return {"ticket_id": f"t{i}", "holder": f"h:{i}", "rating": rating, "enqueued_ms": enq,
            "min_players": lo, "max_players": hi, "bot": False, "name": f"p{i}"}  # fmt: skip


def test_the_window_widens_with_waiting_and_house_bots_fill_late() -> None:
    s = Schedule(window_base=2, window_growth=1, window_max=10, fill_after_s=30)
    tickets = [_t(i, 25, 0) for i in range(4)] + [_t(9, 31, 0)]
    assert form_groups(tickets, 3_000, s) == []  # windows 5 < 6
    (group,) = form_groups(tickets, 4_000, s)  # windows 6 >= 6
    assert {t["ticket_id"] for t in group.tickets} == {"t0", "t1", "t2", "t3", "t9"} and group.house_seats == 0
    far = [_t(1, 25, 0), _t(2, 60, 0)]
    assert form_groups(far, 29_000, s) == []
    groups = form_groups(far, 30_000, s)  # each alone (window max 10), with 4 house bots each
    assert [len(g.tickets) for g in groups] == [1, 1] and all(g.players == 5 and g.house_seats == 4 for g in groups)
    ranged = [_t(i, 25, 0, 3, 4) for i in range(6)]
    assert [g.players for g in form_groups(ranged, 0, s)] == [4]  # the largest count all accept; 2 wait


def test_concurrent_ticks_never_put_a_ticket_in_two_matches(store: RankedStore) -> None:
    for i in range(60):
        store.join(f"h:{i}", f"p{i}", bot=i % 3 == 0, rating=25 + (i % 7), min_players=3, max_players=7, now_ms=0)
    created: list[str] = []
    lock = threading.Lock()

    def create(match_id: str, kinds: list[str], timeout: float) -> None:
        with lock:
            created.append(match_id)

    schedule = Schedule(window_base=50, fill_after_s=0)
    results: list[dict[str, object]] = []
    barrier = threading.Barrier(6)

    class Racing(RankedStore):
        """Every tick reads the same queue before any of them claims."""

        def queued(self) -> list[dict[str, object]]:
            found = super().queued()
            if not barrier.broken:
                with contextlib.suppress(threading.BrokenBarrierError):
                    barrier.wait(timeout=5)
            return found

    racing = Racing(store.redis)
    threads = [threading.Thread(target=lambda: results.append(tick(racing, create, schedule))) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    seen: Counter[str] = Counter()
    for match_id in created:
        record = store.match(match_id)
        assert record is not None
        for seat in record["seats"]:
            if seat.ticket_id:
                seen[seat.ticket_id] += 1
                ticket = store.ticket(seat.ticket_id)
                assert ticket is not None and ticket["state"] == "matched" and ticket["match_id"] == match_id
    assert len(seen) == 60 and set(seen.values()) == {1}
    assert store.queued() == []
    # the ticks raced for the same tickets: the losers' claims failed instead of double-booking
    assert sum(int(r["lost_claims"]) for r in results) > 0


def test_redis_ladder_rates_each_match_once_under_concurrency(store: RankedStore) -> None:
    from services.ladder import ALL_TIME, BOT, MatchResult, MemoryLadder, Participant, RedisLadder

    results = [
        MatchResult(f"m{i}", "S", tuple(Participant(f"p{(i + j) % 7}", "p", True, j, j < 2, 1 + j % 3)
                                        for j in range(5)))
        for i in range(40)
    ]
    ladder = RedisLadder(store.redis, correction=False)
    applied: list[bool] = []

    def worker(batch: list[MatchResult]) -> None:
        for r in batch:
            applied.append(ladder.record(r))

    # every match is submitted twice, from different threads, all at once
    threads = [threading.Thread(target=worker, args=(results[k::2] + results[: 40 // (k + 1)],)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert applied.count(True) == 40
    memory = MemoryLadder()
    for r in results:
        memory.record(r)
    # same games counts as rating each match once (order may differ between threads)
    for pid in {p.player_id for r in results for p in r.participants}:
        assert ladder.rating(BOT, pid).games == memory.rating(BOT, pid).games
        assert len(ladder.history(BOT, pid, limit=200)) == memory.rating(BOT, pid).games
    board = ladder.leaderboard(BOT, ALL_TIME)
    assert len(board) == 7 and all(row.bot for row in board)
