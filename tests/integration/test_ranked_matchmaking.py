"""Matchmaking on a real Redis, without processes: the pairing rule and its schedule,
concurrent ticks that never put a ticket in two matches, one queue and one ladder per
ruleset of the engine's registry, and re-queueing that replaces a ticket."""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator

import pytest
import redis

from engine.rulesets import RULESET_IDS, get_ruleset
from services.ranked.matchmaking import Schedule, form_groups, player_counts, queue_settings, tick
from services.ranked.store import RankedStore, SeatPlan, notify_channel

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
    s = Schedule(window_base=2, window_growth=1, window_max=10, fill_after_ms=30000)
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

    def create(match_id: str, kinds: list[str], timeout: float, ruleset: str) -> None:
        with lock:
            created.append(match_id)

    schedule = Schedule(window_base=50, fill_after_ms=0)
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
    from services.ranked.ladder import ALL_TIME, BOT, MatchResult, MemoryLadder, Participant, RedisLadder

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


def test_tickets_of_different_rulesets_never_share_a_match() -> None:
    s = Schedule(window_base=50, fill_after_ms=0)
    # same ratings, same ranges, same enqueue time: only the ruleset differs
    tickets = [{**_t(i, 25, 0, 3, 5), "ruleset": "return" if i % 2 else "elsewhere"} for i in range(8)]
    groups = form_groups(tickets, 0, s)
    assert sorted(g.ruleset for g in groups) == ["elsewhere", "return"]
    for g in groups:
        assert {t["ruleset"] for t in g.tickets} == {g.ruleset} and len(g.tickets) == 4
    # a ticket stored before rulesets existed has none: it is return's
    old = _t(9, 25, 0, 3, 3)
    (group,) = form_groups([old], 0, s)
    assert group.ruleset == "return" and group.players == 3 and group.house_seats == 2


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_queue_settings_come_from_the_ruleset_registry(ruleset: str) -> None:
    counts = tuple(sorted(get_ruleset(ruleset).identity_table))
    assert player_counts(ruleset) == counts
    lo, hi = counts[0], counts[-1]
    assert queue_settings(ruleset, lo, hi) == (ruleset, lo, hi)
    assert queue_settings(ruleset, hi, 0) == (ruleset, hi, hi)  # no max: the min
    assert queue_settings(ruleset, 0, 0)[1] == (5 if 5 in counts else lo)
    for bad in ((lo - 1, lo), (hi, hi + 1), (hi, lo) if hi > lo else (hi + 1, hi)):
        with pytest.raises(ValueError, match=rf"{ruleset} is played by {lo} to {hi} players"):
            queue_settings(ruleset, *bad)
    assert queue_settings("", 0, 0)[0] == "return"  # no ruleset named: return
    with pytest.raises(ValueError, match=r"unknown ruleset 'nope'; known: "):
        queue_settings("nope", 0, 0)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_queueing_again_with_other_settings_replaces_the_ticket(store: RankedStore, ruleset: str) -> None:
    lo = player_counts(ruleset)[0]
    pubsub = store.redis.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(notify_channel("h:ann"))
    created, first = store.join("h:ann", "ann", bot=False, rating=25, min_players=lo, max_players=lo, ruleset=ruleset)
    assert created and first["ruleset"] == ruleset and first["state"] == "queued"
    created, same = store.join("h:ann", "ann", bot=False, rating=25, min_players=lo, max_players=lo, ruleset=ruleset)
    assert not created and same["ticket_id"] == first["ticket_id"]  # the same settings: the same ticket
    created, wider = store.join("h:ann", "ann", bot=False, rating=25, min_players=lo, max_players=lo + 1,
                                ruleset=ruleset)  # fmt: skip
    assert created and wider["ticket_id"] != first["ticket_id"] and wider["max_players"] == lo + 1
    old = store.ticket(first["ticket_id"])
    assert old is not None and old["state"] == "replaced"
    assert [t["ticket_id"] for t in store.queued()] == [wider["ticket_id"]]
    holder = store.holder_ticket("h:ann")
    assert holder is not None and holder["ticket_id"] == wider["ticket_id"]
    created, other = store.join("h:ann", "ann", bot=False, rating=25, min_players=lo, max_players=lo + 1,
                                ruleset="elsewhere")  # fmt: skip
    assert created and other["ruleset"] == "elsewhere"
    assert [t["ticket_id"] for t in store.queued()] == [other["ticket_id"]]
    # the holder was told of each change: replaced, then the new ticket
    told = []
    deadline = time.monotonic() + 5
    while len(told) < 4 and time.monotonic() < deadline:
        msg = pubsub.get_message(timeout=0.5)
        if msg is not None:
            t = json.loads(msg["data"])
            told.append((t["ticket_id"], t["state"]))
    pubsub.close()
    assert told == [(first["ticket_id"], "replaced"), (wider["ticket_id"], "queued"),
                    (wider["ticket_id"], "replaced"), (other["ticket_id"], "queued")]  # fmt: skip
    # a replaced ticket cannot be claimed: a tick that read it before the change loses
    seat = SeatPlan(0, "human", "ann", "ann", False, "h:ann", first["ticket_id"])
    assert not store.claim("rk-stale", "S", [seat], 0.0, ruleset)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_each_ruleset_rates_apart(store: RankedStore, ruleset: str) -> None:
    from services.ranked.ladder import (
        ALL_TIME,
        HUMAN,
        MatchResult,
        Participant,
        RatingKey,
        RedisLadder,
        correction_key,
        history_key,
        rating_key,
        seasons_key,
    )

    ladder = RedisLadder(store.redis, correction=False)
    # every ruleset's keys carry its id, return's too
    assert rating_key(RatingKey(HUMAN, ALL_TIME, "old", "return")) == "rk:{rk}:r:return:human:all:old"
    assert history_key(HUMAN, "old", "classic") == "rk:{rk}:h:classic:human:old"
    assert (correction_key("return"), seasons_key("return")) == ("rk:{rk}:return:corr", "rk:{rk}:return:seasons")

    def match(match_id: str, rs: str, at: float, pids: tuple[str, ...] = ("old", "x", "y")) -> MatchResult:
        return MatchResult(match_id, "S", tuple(Participant(pid, pid, False, k, k == 0, 1 + k % 3)
                                                for k, pid in enumerate(pids)), at, rs)  # fmt: skip

    assert ladder.record(match("m-old", "return", 1.0, ("old", "u", "v")))  # "old" played return before
    others = [r for r in RULESET_IDS if r != ruleset] or ["elsewhere"]
    assert ladder.record(match(f"m-{ruleset}", ruleset, 2.0))
    assert ladder.record(match(f"m-{others[0]}", others[0], 3.0))
    for rs, mid in ((ruleset, f"m-{ruleset}"), (others[0], f"m-{others[0]}")):
        games = 1 + 1 if rs == "return" else 1
        assert ladder.rating(HUMAN, "old", ALL_TIME, rs).games == games
        assert ladder.rating(HUMAN, "x", ALL_TIME, rs).games == 1
        rows = {r.player_id: r.rating.games for r in ladder.leaderboard(HUMAN, ALL_TIME, ruleset=rs)}
        assert rows["x"] == 1 and rows["y"] == 1
        mine = ladder.history(HUMAN, "x", ruleset=rs)
        assert [(e["match_id"], e["ruleset"]) for e in mine] == [(mid, rs)]
    assert ladder.seasons(ruleset) == ["S"]
    # no ruleset named: every ruleset of the registry, newest first
    merged = ladder.history(HUMAN, "old")
    entries = [(f"m-{ruleset}", ruleset, 2.0), (f"m-{others[0]}", others[0], 3.0), ("m-old", "return", 1.0)]
    expected = [(m, r) for m, r, _ in sorted(entries, key=lambda e: -e[2]) if r in RULESET_IDS]
    assert [(e["match_id"], e["ruleset"]) for e in merged] == expected


def test_ticks_keep_one_owners_and_one_addresss_tickets_at_separate_tables(store: RankedStore) -> None:
    """Issue 26 §1 through the Redis queue and the tick: a guest and the two bots it owns
    never share a table (the bots wait, then get house bots); two accounts seen from one
    client address within the window are apart, outside it they may meet."""
    schedule = Schedule(window_base=50, fill_after_ms=30000, address_window_ms=60000)
    now = int(time.time() * 1000)
    made: dict[str, list[str]] = {}

    def create(match_id: str, kinds: list[str], timeout: float, ruleset: str) -> None:
        made[match_id] = kinds

    def queue(holder: str, owner: str, address: str) -> str:
        """Queue a 3-player ticket (each a millisecond after the last: oldest first is this order)."""
        _, ticket = store.join(holder, holder, bot=holder.startswith("b:"), rating=25, min_players=3, max_players=3,
                               owner=owner, address=address, now_ms=now + len(store.queued()))  # fmt: skip
        return str(ticket["ticket_id"])

    def tables(formed: dict[str, list[str]]) -> list[set[str]]:
        names = {}
        for match_id in formed:
            record = store.match(match_id)
            assert record is not None
            names[match_id] = {s.holder for s in record["seats"] if s.holder}
        return sorted(names.values(), key=sorted)

    queue("h:g_me", "g_me", "192.0.2.1")
    queue("b:b_1", "g_me", "192.0.2.2")
    queue("b:b_2", "g_me", "192.0.2.3")
    queue("h:g_ann", "g_ann", "192.0.2.4")
    queue("h:g_bob", "g_bob", "192.0.2.5")
    first = tick(store, create, schedule, now_ms=now + 1000)["formed"]
    assert tables(first) == [{"h:g_me", "h:g_ann", "h:g_bob"}]  # type: ignore[arg-type]
    later = tick(store, create, schedule, now_ms=now + 31_000)["formed"]  # each bot alone, with house bots
    assert tables(later) == [{"b:b_1"}, {"b:b_2"}]  # type: ignore[arg-type]
    assert store.queued() == []

    # c1 was seen from 198.51.100.7 ten seconds ago (within the 60 s window) and queues from
    # elsewhere; c2 queues from 198.51.100.7 now: apart
    store.record_address("h:c1", "198.51.100.7", 60, now_ms=now - 10_000)
    for k, address in enumerate(("192.0.2.10", "198.51.100.7", "192.0.2.11", "192.0.2.12"), start=1):
        queue(f"h:c{k}", f"c{k}", address)
    within = tick(store, create, schedule, now_ms=now + 1000)["formed"]
    assert tables(within) == [{"h:c1", "h:c3", "h:c4"}]  # type: ignore[arg-type]
    assert [t["holder"] for t in store.queued()] == ["h:c2"]
    store.leave(store.queued()[0]["ticket_id"], "h:c2")

    # the same, seen 100 s ago: outside the window, so they may share a table
    store.redis.delete("mm:{mm}:seen:h:d1")
    store.record_address("h:d1", "198.51.100.8", 60, now_ms=now - 100_000)
    assert store.recent_addresses(["h:d1"], 60, now_ms=now) == {"h:d1": frozenset()}
    for k, address in enumerate(("192.0.2.20", "198.51.100.8", "192.0.2.21"), start=1):
        queue(f"h:d{k}", f"d{k}", address)
    outside = tick(store, create, schedule, now_ms=now + 1000)["formed"]
    assert tables(outside) == [{"h:d1", "h:d2", "h:d3"}]  # type: ignore[arg-type]
