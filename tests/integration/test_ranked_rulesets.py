"""Ranked play per ruleset, end to end on a real Redis, a real engine server and a real
Celery worker (its embedded beat runs the matchmaking tick; the engine's game-over hook
queues ``ladder.update``), for every ruleset of the engine's registry (``RULESET_IDS``):

- a ruleset's tickets form matches of that ruleset (house bots fill the empty seats), and
  its players are rated on that ruleset's ladder only (issue 12);
- every seat's identity in the ladder's history and correction counts is the engine's truth
  at game end, a living loser's too, whose identity was never revealed in play (issue 17
  item 6, issue 14 item 7).

The test itself plays the people's seats (random legal actions from each seat's own view).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest
import redis
from helpers.gateway_procs import wait_until
from helpers.processes import ServiceProcess, start_engine_server, start_worker

from engine.bots import random_bot
from engine.observation import IDENTITY
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from fengsheng.v1 import game_pb2
from services.bot_levels import level_for_rating
from services.channels import engine_channel
from services.ranked import audit_store
from services.ranked.audit import team_of
from services.ranked.ladder import ALL_TIME, BOT, HUMAN, RatingKey, correction_key, done_key, rating_key
from services.ranked.matchmaking import player_counts
from services.ranked.store import RankedStore, SeatPlan

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

ENV = {
    "FENGSHENG_MM_TICK_MS": "300",
    "FENGSHENG_MM_WINDOW_BASE": "50",  # everyone pairs at once
    "FENGSHENG_MM_FILL_AFTER_MS": "2000",
    "FENGSHENG_RANKED_TURN_TIMEOUT_MS": "0",  # no timer: the test plays the people's seats
    "FENGSHENG_SEASON": "T1",
}


@dataclass
class Services:
    url: str
    engine: ServiceProcess
    worker: ServiceProcess
    rdb: redis.Redis
    stub: es_grpc.EngineServiceStub
    ranked: bs_grpc.RankedServiceStub


@pytest.fixture(scope="module")
def services(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    url = re.sub(r"/\d*$", "", redis_url) + "/13"  # a database of its own: queue, ladder and broker
    rdb = redis.Redis.from_url(url)
    rdb.flushdb()
    logs = tmp_path_factory.mktemp("ranked-rulesets-logs")
    engine = start_engine_server(url, logs, env=ENV)
    worker = start_worker(url, engine.address, logs, concurrency=3, env=ENV)
    channel = engine_channel(engine.address)
    try:
        yield Services(url, engine, worker, rdb, es_grpc.EngineServiceStub(channel),
                       bs_grpc.RankedServiceStub(channel))  # fmt: skip
    finally:
        worker.stop()
        engine.stop()
        channel.close()
        rdb.flushdb()
        rdb.close()


def play_seats(s: Services, match_id: str, seats: set[int], rng: random.Random, timeout: float = 120) -> None:
    """Answer every decision of ``seats`` from the seat's own view until the game is over
    (the other seats are house bots, played by the worker)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        legal = s.stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1), timeout=10)
        if legal.seat_to_act < 0:
            return
        if legal.seat_to_act not in seats:
            time.sleep(0.01)
            continue
        obs = s.stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=legal.seat_to_act), timeout=10)
        action = random_bot(obs, list(obs.legal_actions), rng)
        try:
            s.stub.Act(es.ActRequest(match_id=match_id, seat=legal.seat_to_act, decision=legal.decision,
                                     action=action), timeout=10)  # fmt: skip
        except grpc.RpcError as exc:  # a bot moved first: read again
            if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:  # type: ignore[attr-defined]
                raise
    raise TimeoutError(f"match {match_id} not over within {timeout}s")


def own_identities(s: Services, match_id: str, players: int) -> list[int]:
    """Each seat's identity as that seat sees it: the truth, independent of the outcome."""
    return [
        int(s.stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=k), timeout=10).seats[k].identity)
        for k in range(players)
    ]


def history(s: Services, ladder: str, player_id: str, ruleset: str) -> list[dict[str, object]]:
    import json

    reply = s.ranked.History(bs.HistoryRequest(ladder=ladder, player_id=player_id, limit=200, ruleset=ruleset))
    return [json.loads(e) for e in reply.entries]


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_rulesets_queue_forms_its_matches_and_rates_on_its_own_ladder(services: Services, ruleset: str) -> None:
    s = services
    n = player_counts(ruleset)[0]
    people = [f"{ruleset}-q-{k}" for k in range(2)]
    tickets = [
        s.ranked.JoinQueue(bs.JoinQueueRequest(holder=f"h:{pid}", name=pid, ruleset=ruleset, min_players=n,
                                               max_players=n, client_address=f"198.51.100.{k + 1}"))
        for k, pid in enumerate(people)
    ]
    assert all(t.state == "queued" and t.ruleset == ruleset for t in tickets)

    def matched() -> list[bs.Ticket]:
        return [s.ranked.GetTicket(bs.TicketRequest(ticket_id=t.ticket_id, holder=t.holder)) for t in tickets]

    wait_until(lambda: all(t.state == "matched" for t in matched()), 30, "the two tickets to match")
    now = matched()
    match_id = now[0].match_id
    assert {t.match_id for t in now} == {match_id}  # one match for both
    view = s.ranked.GetRankedMatch(bs.RankedMatchRequest(match_id=match_id))
    assert view.ruleset == ruleset and len(view.seats) == n
    # house bots at the level of two new players' rating band (services/bot_levels.py)
    house = level_for_rating(25.0)
    assert sorted(seat.kind for seat in view.seats) == sorted(["human", "human"] + [house] * (n - 2))
    assert s.stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=-1)).ruleset == ruleset

    play_seats(s, match_id, {t.seat for t in now}, random.Random(7))
    wait_until(lambda: bool(s.rdb.exists(done_key(match_id))), 60, "the ladder update")
    truth = own_identities(s, match_id, n)

    # the collusion audit's facts, written with the ratings (docs/ranked.md, "The collusion audit")
    (facts,) = [m for m in audit_store.load(s.rdb)[0] if m.match_id == match_id]
    assert facts.ruleset == ruleset and [f.seat for f in facts.seats] == list(range(n))
    names = {IDENTITY[i]: i for i in get_ruleset(ruleset).identities}
    for seat, fact in zip(view.seats, facts.seats, strict=True):
        assert fact.account == f"{'bot' if seat.bot else 'human'}:{seat.player_id}"
        assert fact.house == seat.bot and fact.team == team_of(ruleset, names[truth[seat.seat]])
    joined = {t.seat: t.enqueued_ms for t in now}
    assert {f.seat: f.enq_ms for f in facts.seats if f.enq_ms} == joined and all(joined.values())
    assert facts.intel is not None and all(0 <= d.user < n and 0 <= d.receiver < n for d in facts.intel)

    board = s.ranked.Leaderboard(bs.LeaderboardRequest(ladder=HUMAN, ruleset=ruleset, limit=500))
    assert board.ruleset == ruleset and list(board.rulesets) == list(RULESET_IDS)
    rows = {r.player_id: r for r in board.standings}
    for pid in people:
        assert rows[pid].games == 1
        assert int(s.rdb.hget(rating_key(RatingKey(HUMAN, ALL_TIME, pid, ruleset)), "games")) == 1
        (entry,) = history(s, HUMAN, pid, ruleset)
        assert entry["match_id"] == match_id and entry["ruleset"] == ruleset and entry["season"] == "T1"
        assert entry["identity"] == truth[int(str(entry["seat"]))] != 0
    for other in RULESET_IDS:  # no other ruleset's ladder moved
        if other != ruleset:
            theirs = s.ranked.Leaderboard(bs.LeaderboardRequest(ladder=HUMAN, ruleset=other, limit=500))
            assert not set(people) & {r.player_id for r in theirs.standings}
            assert history(s, HUMAN, people[0], other) == []
    for seat in view.seats:  # house bots: on this ruleset's bot ladder
        if seat.bot:
            entries = [e for e in history(s, BOT, seat.player_id, ruleset) if e["match_id"] == match_id]
            assert [e["identity"] for e in entries] == [truth[seat.seat]]

    # queueing again: the ticket's rating is the player's mu on this ruleset's ladder
    again = s.ranked.JoinQueue(bs.JoinQueueRequest(holder=f"h:{people[0]}", name=people[0], ruleset=ruleset,
                                                   min_players=n, max_players=n,
                                                   client_address="198.51.100.1"))  # fmt: skip
    assert again.rating == pytest.approx(rows[people[0]].mu)
    s.ranked.LeaveQueue(bs.TicketRequest(ticket_id=again.ticket_id, holder=again.holder))


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_the_ladder_records_every_identity_at_game_end_a_living_losers_too(services: Services, ruleset: str) -> None:
    """Before: identities came from the spectator's view, where a loser still alive at the
    end was never revealed: recorded as 0 (unknown) and left out of the correction counts."""
    s = services
    store = RankedStore(s.rdb)
    n = player_counts(ruleset)[0]
    corr_before = sum(int(v) for k, v in s.rdb.hgetall(correction_key(ruleset)).items() if k.endswith(b":g"))
    rated = 0
    for seed in range(1, 16):
        match_id = f"rk-test-{ruleset}-{seed}"
        seats = [SeatPlan(k, "human", f"{ruleset}-id-{seed}-{k}", f"p{k}", False) for k in range(n)]
        assert store.claim(match_id, "T1", seats, 0.0, ruleset)  # a ranked match record, no tickets
        s.stub.CreateMatch(es.CreateMatchRequest(match_id=match_id, settings=es.MatchSettings(
            ruleset=ruleset, players=n, seed=seed)), timeout=10)  # fmt: skip
        play_seats(s, match_id, set(range(n)), random.Random(seed))
        end = s.stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=-1), timeout=10)
        hidden_losers = [v.seat for v in end.seats if v.alive and not v.identity_revealed
                         and v.seat not in end.outcome.winners]  # fmt: skip
        wait_until(lambda match_id=match_id: bool(s.rdb.exists(done_key(match_id))), 60, "the ladder update")
        rated += 1
        truth = own_identities(s, match_id, n)
        assert list(end.outcome.identities) == truth  # the engine's outcome names every seat's
        for seat in seats:
            (entry,) = history(s, HUMAN, seat.player_id, ruleset)
            assert entry["identity"] == truth[seat.seat] != game_pb2.IDENTITY_UNSPECIFIED, (seat, entry)
        if hidden_losers:
            assert all(end.seats[k].identity == game_pb2.IDENTITY_UNSPECIFIED for k in hidden_losers)
            break
    else:
        pytest.fail("no match ended with a living loser whose identity was never revealed")
    # every seat of every rated match counted in the identity correction's cells
    corr_after = sum(int(v) for k, v in s.rdb.hgetall(correction_key(ruleset)).items() if k.endswith(b":g"))
    assert corr_after - corr_before == rated * n


def test_the_seat_views_of_a_finished_match_keep_unrevealed_identities_hidden(services: Services) -> None:
    """Only the outcome names every identity at the end; the seat views still show what was
    revealed in play, and no observation names identities before the end."""
    s = services
    match_id = "rk-test-views"
    s.stub.CreateMatch(es.CreateMatchRequest(match_id=match_id, settings=es.MatchSettings(players=5, seed=3)),
                       timeout=10)  # fmt: skip
    start = s.stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=0), timeout=10)
    assert not start.outcome.over and list(start.outcome.identities) == []
    play_seats(s, match_id, set(range(5)), random.Random(3))
    end = s.stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=-1), timeout=10)
    assert len(end.outcome.identities) == 5
    assert all(v.identity == 0 for v in end.seats if not v.identity_revealed)

