"""The hard bot level end to end (issue 14 point 4): a match of search bots (``BOT_SEARCH``)
plays to the end through the real service path — gRPC engine service, Celery worker, Redis —
and the worker really searches (the engine service's ``Determinize``) within the budget it
is given (``FENGSHENG_SEARCH_BUDGET_MS``), and, as the event ids show it to any client, a
search seat is no quicker to answer when it had no choice (issue 26 point 2)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import grpc
import pytest
import redis
from helpers.processes import ServiceProcess, start_worker
from service_util import check_stream_and_history, replay_matches, wait_over

from engine import Game
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from fengsheng.v1 import game_pb2
from services.engine.store import events_key

pytestmark = [pytest.mark.integration, pytest.mark.timing, pytest.mark.timeout(240)]

BUDGET_MS = 40
MARGIN_MS = 60


def test_a_hard_bot_match_plays_to_the_end_with_search(
    redis_url: str, engine: ServiceProcess, stub: es_grpc.EngineServiceStub, proc_logs: Path, rdb: object
) -> None:
    worker = start_worker(redis_url, engine.address, proc_logs, concurrency=2,
                          env={"FENGSHENG_SEARCH_BUDGET_MS": str(BUDGET_MS),
                               # the margin past the budget that covers the search's last playout and
                               # its engine reads (tests/conftest.py sets 0 for speed): without it, a
                               # loaded worker's searched answers overran the target that forced ones
                               # were held to (CI: KS p 0.0007, forced 22 ms vs searched 29 ms)
                               "FENGSHENG_BOT_SEARCH_MARGIN_MS": str(MARGIN_MS)})
    try:
        seats = [es.BOT_SEARCH, es.BOT_V2, es.BOT_SEARCH, es.BOT_RANDOM]
        forced: list[int] = []  # passes without a choice
        chosen: list[int] = []  # passes with a choice
        for seed in (404, 405, 406):  # until both groups have enough (the searches vary a match)
            res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=4, seed=seed, seats=seats)))
            wait_over(stub, res.match_id, timeout=200)
            obs = stub.GetObservation(es.GetObservationRequest(match_id=res.match_id, seat=-1))
            assert obs.outcome.over and obs.outcome.winners
            assert check_stream_and_history(rdb, res.match_id) > 20  # type: ignore[arg-type]
            replay = replay_matches(stub, res.match_id)
            times = visible_answer_times(rdb, res.match_id, replay, es.BOT_SEARCH)  # type: ignore[arg-type]
            forced += times[False]
            chosen += times[True]
            if len(forced) > 20 and len(chosen) >= 10:
                break
        assert len(forced) > 20 and len(chosen) >= 10, (len(forced), len(chosen))
        # before: a forced pass was written ~2 ms after its decision opened (searched answers
        # ~48 ms); now it is held like a searched answer and the two groups' visible times are
        # one distribution (test_bot_timing.py holds the exact rule). The floor is half the
        # budget, not the budget: as the event ids show them, searched answers themselves come
        # in under the budget on a loaded machine (CI: both groups' medians 32-37 ms of 40)
        from scipy.stats import ks_2samp  # a 6 s import under load: here, not at collection

        median = sorted(forced)[len(forced) // 2]
        assert median >= BUDGET_MS // 2, (median, sorted(forced)[:20], sorted(chosen)[:20])
        assert ks_2samp(forced, chosen).pvalue > 0.001, (sorted(forced)[:20], sorted(chosen)[:20])
        took = [float(ms) for ms in re.findall(r"bots\.move search match=\S+ decision=\d+ took (\d+) ms", worker.log())]
        assert took, worker.log()[-3000:]
        # the budget plus one playout; generous for a loaded machine
        assert sorted(took)[len(took) // 2] < BUDGET_MS + 400
    finally:
        worker.stop()


def visible_answer_times(rdb: redis.Redis, match_id: str, replay: es.Replay, kind: int) -> dict[bool, list[int]]:
    """How long each decision of a ``kind`` seat that it answered with ``pass`` took to answer
    as any client sees it, in ms: from the event id (server ms) of the write that opened it
    to that of the write that answered it, by whether the seat had a choice (more than one
    legal action). Passes only: the answer's own write comes after the engine has applied
    it, and a card played or an intel sent takes the engine a millisecond or two more than
    a pass (a chain, triggers, events) — public, since the answer itself is; what must not
    show is whether a seat that passed could have done anything else."""
    opened: dict[int, int] = {}
    for eid, fields in rdb.xrange(events_key(match_id)):
        if b"p" in fields:
            number = game_pb2.Decision.FromString(fields[b"p"]).number
            opened.setdefault(number, int(eid.split(b"-")[0]))
    s = replay.settings
    game = Game.new(ruleset=s.ruleset, players=s.players, seed=s.seed, tutorial=s.tutorial, characters=s.characters)
    out: dict[bool, list[int]] = {True: [], False: []}
    for a in replay.actions:
        choice = len(game.legal_actions(a.seat)) > 1
        game.apply(a.seat, a.action)
        after = min((n for n in opened if n > a.decision), default=None)
        if s.seats[a.seat] == kind and a.decision in opened and after is not None and a.action == "pass":
            out[choice].append(opened[after] - opened[a.decision])
    return out


def test_determinize_gives_the_seat_its_own_view(engine: ServiceProcess, stub: es_grpc.EngineServiceStub) -> None:
    res = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=9)))
    for _ in range(30):  # a few moves by hand
        legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=res.match_id, seat=-1))
        mine = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=res.match_id, seat=legal.seat_to_act))
        stub.Act(es.ActRequest(match_id=res.match_id, seat=legal.seat_to_act, decision=legal.decision,
                               action=random.Random(_).choice(list(mine.actions))))
    for seat in range(5):
        real = stub.GetObservation(es.GetObservationRequest(match_id=res.match_id, seat=seat))
        reply = stub.Determinize(es.DeterminizeRequest(match_id=res.match_id, seat=seat, seed=seat))
        world = Game.restore(reply.snapshot)
        assert reply.decision == real.pending.number
        assert world.observation(seat) == real
    with pytest.raises(grpc.RpcError) as err:
        stub.Determinize(es.DeterminizeRequest(match_id=res.match_id, seat=9, seed=1))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
