"""Property-based fuzzing (hypothesis) of the engine gRPC service with malformed and random
requests: no ``INTERNAL`` / ``UNKNOWN`` status ever, and no state change for any rejected
request (the stored version, snapshot, history and event stream are compared before and
after each call).

Profiles (``FENGSHENG_FUZZ_PROFILE``): ``ci`` (default: derandomized, 100 examples per property
(250 under ``FENGSHENG_SOAK=full``),
well under a minute with the gateway fuzz) and ``bench`` (many more, random seeds: run by
``python bench/fuzz.py``).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from helpers.processes import ServiceProcess, start_engine_server
from helpers.soak import soak_count
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_util import stored

from fengsheng.invariants import MatchMirror
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from fengsheng.v1 import game_pb2
from services.channels import engine_channel
from services.engine.store import history_key, state_key
from services.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

_COMMON = {
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
#: ./dev test: 100 examples per property (soak tier, tests/helpers/soak.py); FENGSHENG_SOAK=full: 250
settings.register_profile("ci", max_examples=soak_count(full=250, ci=100), derandomize=True, **_COMMON)
settings.register_profile("bench", max_examples=int(os.environ.get("FENGSHENG_FUZZ_EXAMPLES") or 3000), **_COMMON)
PROFILE = os.environ.get("FENGSHENG_FUZZ_PROFILE", "ci")
#: cases per test, relative to the profile's max_examples
SCALE = {"act": 4.0, "reads": 1.5, "create": 1.0, "raw": 1.0, "watch": 0.15, "leaks": 0.6}


def examples(kind: str) -> settings:
    base = settings.get_profile(PROFILE)
    return settings(base, max_examples=max(10, int(base.max_examples * SCALE[kind])))


DB = 9
BAD = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}


def _db(redis_url: str, db: int) -> str:
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    return f"{base}/{db}"


class World:
    """An engine (no Celery: nothing moves unless a request moves it) and its matches."""

    def __init__(self, engine: ServiceProcess, rdb: redis.Redis) -> None:
        self.engine = engine
        self.rdb = rdb
        self.channel = engine_channel(engine.address)
        self.stub = es_grpc.EngineServiceStub(self.channel)
        self.live = self.new_match(seed=101)
        self.finished = self.new_match(seed=202)
        self.play_out(self.finished)

    def new_match(self, seed: int = 0) -> str:
        res = self.stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=seed)))
        return str(res.match_id)

    def play_out(self, match_id: str) -> None:
        while True:
            legal = self.stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
            if legal.seat_to_act < 0:
                return
            self.stub.Act(
                es.ActRequest(match_id=match_id, seat=legal.seat_to_act, decision=legal.decision, use_default=True)
            )

    def live_match(self) -> str:
        legal = self.stub.ListLegalActions(es.ListLegalActionsRequest(match_id=self.live, seat=-1))
        if legal.seat_to_act < 0:
            self.live = self.new_match()
        return self.live


@pytest.fixture(scope="module")
def world(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    url = _db(redis_url, DB)
    engine = start_engine_server(url, tmp_path_factory.mktemp("fuzz-grpc"), celery=False)
    rdb = redis.Redis.from_url(url)
    w = World(engine, rdb)
    yield w
    w.channel.close()
    engine.stop()
    assert "Traceback" not in engine.log(), engine.log()[-4000:]
    rdb.flushdb()
    rdb.close()


# ---------------------------------------------------------------------------- strategies
LONG = 5000
texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=190, max_size=260),
    st.text(min_size=LONG - 50, max_size=LONG),
    st.sampled_from(["a" * LONG, "9" * LONG, "é" * LONG]),
    st.sampled_from(["", " ", "\x00", "pass", "declare", "play", "send 1 to 2", "choose", "../../etc", "\n\t"]),
)
ints32 = st.one_of(st.integers(-(2**31), 2**31 - 1), st.sampled_from([-1, 0, 1, 2, 4, 5, 6, 7, 100]))
uint64 = st.one_of(st.integers(0, 2**64 - 1), st.integers(0, 50))
int64 = st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-2, 50))
match_kind = st.sampled_from(["live", "live", "live", "finished", "unknown", "malformed"])


def _match(world: World, kind: str, junk: str) -> str:
    if kind == "live":
        return world.live_match()
    if kind == "finished":
        return world.finished
    if kind == "unknown":
        return "nosuchmatch0"
    return junk


def _snapshot_of(world: World, match_id: str) -> object:
    try:
        return stored(world.rdb, match_id) if world.rdb.exists(state_key(match_id)) else None
    except Exception:
        return None


def _check(exc: grpc.RpcError) -> None:
    assert exc.code() not in BAD, f"{exc.code()}: {exc.details()}"


#: an Act request in the abstract (independent of the match's state, so hypothesis can
#: replay and shrink it); resolved against the live state by :func:`_resolve`
act_plans = st.fixed_dictionaries(
    {
        "match": match_kind,
        "junk": texts,
        "seat": st.one_of(ints32, st.just("to-act")),
        "decision": st.one_of(int64, st.just("open"), st.integers(-1, 2)),
        "action": st.one_of(
            texts, st.tuples(st.sampled_from(["same", "suffix", "upper", "cut"]), st.integers(0, 1000))
        ),
        "use_default": st.booleans(),
        "blank": st.booleans(),
        "origin": st.sampled_from(["", "human", "bot", "timer", "fuzz\x00"]),
        "want_next_legal": st.booleans(),
    }
)


def _resolve(world: World, plan: dict[str, object]) -> tuple[str, es.ActRequest]:
    kind = str(plan["match"])
    match_id = _match(world, kind, str(plan["junk"]))
    legal = None
    options: list[str] = []
    if kind == "live":
        legal = world.stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
        if legal.seat_to_act >= 0:
            options = list(
                world.stub.ListLegalActions(
                    es.ListLegalActionsRequest(match_id=match_id, seat=legal.seat_to_act)
                ).actions
            )
    seat = plan["seat"]
    if seat == "to-act":
        seat = legal.seat_to_act if legal else 0
    decision = plan["decision"]
    if decision == "open":
        decision = legal.decision if legal else 1
    elif isinstance(decision, int) and -1 <= decision <= 2 and legal is not None:
        decision = legal.decision + decision
    action = plan["action"]
    if isinstance(action, tuple):
        how, index = action
        base = options[index % len(options)] if options else "pass"
        action = {"same": base, "suffix": base + " 1", "upper": base.upper(), "cut": base[:-1]}[how]
    use_default = bool(plan["use_default"])
    return match_id, es.ActRequest(
        match_id=match_id,
        seat=int(seat),  # type: ignore[call-overload]
        decision=int(decision),  # type: ignore[call-overload]
        action="" if use_default and plan["blank"] else str(action),
        origin=str(plan["origin"]),
        use_default=use_default,
        want_next_legal=bool(plan["want_next_legal"]),
    )


@pytest.mark.soak
def test_act_fuzz_no_internal_and_rejections_change_nothing(world: World) -> None:
    @examples("act")
    @given(plan=act_plans)
    def run(plan: dict[str, object]) -> None:
        match_id, request = _resolve(world, plan)
        before = _snapshot_of(world, match_id)
        try:
            world.stub.Act(request, timeout=10)
        except grpc.RpcError as exc:
            _check(exc)
            assert _snapshot_of(world, match_id) == before, f"rejected {request} changed the match"

    run()


@pytest.mark.soak
def test_reads_fuzz(world: World) -> None:
    @examples("reads")
    @given(
        kind=match_kind, junk=texts, seat=ints32, method=st.sampled_from(["obs", "legal", "replay"]), ev=st.booleans()
    )
    def run(kind: str, junk: str, seat: int, method: str, ev: bool) -> None:
        match_id = _match(world, kind, junk)
        before = _snapshot_of(world, match_id)
        try:
            if method == "obs":
                world.stub.GetObservation(
                    es.GetObservationRequest(match_id=match_id, seat=seat, include_events=ev), timeout=10
                )
            elif method == "legal":
                world.stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=seat), timeout=10)
            else:
                world.stub.GetReplay(es.GetReplayRequest(match_id=match_id), timeout=10)
        except grpc.RpcError as exc:
            _check(exc)
        assert _snapshot_of(world, match_id) == before

    run()


settings_strategy = st.builds(
    es.MatchSettings,
    ruleset=st.one_of(st.just(""), st.just("return"), texts),
    players=st.one_of(st.integers(-5, 12), ints32),
    seed=uint64,
    tutorial=st.booleans(),
    characters=st.booleans(),
    seats=st.lists(st.integers(0, 6), max_size=9),
    turn_timeout_ms=st.one_of(st.just(0), st.integers(-(2**63), 2**63 - 1)),
    bot_delay_ms=st.one_of(st.just(0), st.integers(-(2**63), 2**63 - 1)),
    time_bank_ms=st.one_of(st.just(0), st.integers(-(2**63), 2**63 - 1)),
)


@pytest.mark.soak
def test_create_fuzz(world: World) -> None:
    @examples("create")
    @given(s=settings_strategy, match_id=st.one_of(st.just(""), texts, st.just("taken")))
    def run(s: es.MatchSettings, match_id: str) -> None:
        if match_id == "taken":
            match_id = world.finished
        existed = bool(match_id) and world.rdb.exists(state_key(match_id))
        before = _snapshot_of(world, match_id) if match_id else None
        # seats that name bots would queue Celery tasks nobody runs here: keep them human
        s.seats[:] = [x if x in (0, 3) else 0 for x in s.seats]
        try:
            world.stub.CreateMatch(es.CreateMatchRequest(settings=s, match_id=match_id), timeout=10)
        except grpc.RpcError as exc:
            _check(exc)
            if match_id:
                assert bool(world.rdb.exists(state_key(match_id))) == bool(existed)
                assert _snapshot_of(world, match_id) == before

    run()


@pytest.mark.soak
def test_raw_bytes_fuzz(world: World) -> None:
    """Bytes that may not even parse as the request message."""
    methods = ["CreateMatch", "GetObservation", "ListLegalActions", "Act", "GetReplay"]

    @examples("raw")
    @given(method=st.sampled_from(methods), payload=st.binary(max_size=300))
    def run(method: str, payload: bytes) -> None:
        call = world.channel.unary_unary(
            f"/fengsheng.v1.EngineService/{method}", request_serializer=None, response_deserializer=None
        )
        before = _snapshot_of(world, world.live)
        try:
            call(payload, timeout=10)
        except grpc.RpcError as exc:
            _check(exc)
            if method == "Act":
                assert _snapshot_of(world, world.live) == before

    run()


@pytest.mark.soak
def test_watch_fuzz(world: World) -> None:
    @examples("watch")
    @given(
        kind=match_kind, junk=texts, seat=ints32, start=st.one_of(st.just(""), texts, st.just("0-0"), st.just("9-9"))
    )
    def run(kind: str, junk: str, seat: int, start: str) -> None:
        match_id = _match(world, kind, junk)
        call = world.stub.Watch(es.WatchRequest(match_id=match_id, seat=seat, from_event_id=start), timeout=0.05)
        try:
            for _ in call:
                pass
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                _check(exc)

    run()


def _mirror_of(rdb: redis.Redis, match_id: str, mirror: MatchMirror | None) -> MatchMirror:
    """The match replayed from its stored settings and history, with every invariant."""
    if mirror is None:
        s = es.MatchSettings.FromString(bytes(rdb.hget(state_key(match_id), "settings") or b""))
        mirror = MatchMirror(ruleset=s.ruleset, players=s.players, seed=s.seed, tutorial=s.tutorial,
                             characters=s.characters)
    history = []
    for entry in rdb.lrange(history_key(match_id), 0, -1):
        decision, seat, _origin, action = entry.decode().split("\t", 3)
        history.append((int(decision), int(seat), action))
    mirror.advance(history)
    return mirror


@pytest.mark.soak
def test_served_views_hold_nothing_hidden(world: World) -> None:
    """A match with characters played through Act with random legal actions; after each,
    a random seat's and the spectator's GetObservation (with events) and the spectator's
    Watch stream are checked against a mirror of the match (all invariants, the free-text
    leak check included): no card, identity, character or text a viewer may not know."""
    state: dict[str, Any] = {"match": "", "mirror": None}

    def fresh() -> None:
        settings = es.MatchSettings(players=5, seed=int(time.time() * 1000) % 10**9 + 1, characters=True)
        state["match"] = world.stub.CreateMatch(es.CreateMatchRequest(settings=settings)).match_id
        state["mirror"] = None

    fresh()

    @examples("leaks")
    @given(index=st.integers(0, 10**6), viewer=st.integers(-1, 4), events=st.booleans())
    def run(index: int, viewer: int, events: bool) -> None:
        match_id = state["match"]
        legal = world.stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1))
        if legal.seat_to_act < 0:
            fresh()
            return
        actions = world.stub.ListLegalActions(
            es.ListLegalActionsRequest(match_id=match_id, seat=legal.seat_to_act)).actions
        world.stub.Act(es.ActRequest(match_id=match_id, seat=legal.seat_to_act, decision=legal.decision,
                                     action=actions[index % len(actions)]), timeout=10)
        mirror = state["mirror"] = _mirror_of(world.rdb, match_id, state["mirror"])
        for who in {viewer, -1}:
            obs = world.stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=who,
                                                                     include_events=events), timeout=10)
            mirror.check_view(who, obs)
        watched = game_pb2.Observation(seats=[game_pb2.SeatView()] * 5)
        call = world.stub.Watch(es.WatchRequest(match_id=match_id, seat=viewer), timeout=0.3)
        try:
            for item in call:
                if item.HasField("event"):
                    watched.events.append(item.event)
                if item.HasField("pending"):
                    watched.pending.CopyFrom(item.pending)
                if item.HasField("outcome"):
                    watched.outcome.CopyFrom(item.outcome)
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                _check(exc)
        mirror.check_view(viewer, watched)

    run()


def test_redis_restart_answers_unavailable_never_internal(tmp_path: Path) -> None:
    """The engine's own Redis stopped mid-fuzz and restarted on the same port with its data
    (AOF): meanwhile every call fails cleanly (``UNAVAILABLE`` or a 4xx-like status, never
    ``INTERNAL``/``UNKNOWN``); afterwards the match answers again, as it was."""
    data = tmp_path / "redis-data"
    data.mkdir()
    server = RedisServer(appendonly=True, data_dir=data).start()
    engine = start_engine_server(server.url, tmp_path, celery=False)
    rdb = redis.Redis.from_url(server.url)
    try:
        w = World(engine, rdb)
        before = _snapshot_of(w, w.live)
        with contextlib.suppress(redis.ConnectionError):
            rdb.shutdown(save=True)
        server.kill()
        seen: set[grpc.StatusCode] = set()
        for i in range(30):
            requests = [
                lambda: w.stub.Act(es.ActRequest(match_id=w.live, seat=0, decision=10**6, action="pass"), timeout=5),
                lambda: w.stub.GetObservation(es.GetObservationRequest(match_id=w.live, seat=-1), timeout=5),
                lambda: w.stub.ListLegalActions(es.ListLegalActionsRequest(match_id="nosuch", seat=-1), timeout=5),
                lambda: w.stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5)), timeout=5),
                lambda: w.stub.GetReplay(es.GetReplayRequest(match_id=w.finished), timeout=5),
            ]
            try:
                requests[i % len(requests)]()
            except grpc.RpcError as exc:
                seen.add(exc.code())
                assert exc.code() not in BAD, f"Redis down: {exc.code()}: {exc.details()}"
        assert grpc.StatusCode.UNAVAILABLE in seen, seen
        server = RedisServer(port=server.port, appendonly=True, data_dir=data, password=server.password).start()
        rdb.close()
        rdb = w.rdb = redis.Redis.from_url(server.url)
        deadline = time.monotonic() + 60
        while True:
            try:
                w.stub.ListLegalActions(es.ListLegalActionsRequest(match_id=w.live, seat=-1), timeout=5)
                break
            except grpc.RpcError as exc:
                assert exc.code() not in BAD and time.monotonic() < deadline, exc
                time.sleep(0.2)
        assert _snapshot_of(w, w.live) == before
        w.play_out(w.live)
        w.channel.close()
    finally:
        engine.stop()
        rdb.close()
        server.stop()
    assert "Traceback" not in engine.log(), engine.log()[-4000:]


def test_engine_logged_no_traceback(world: World) -> None:
    log = world.engine.log()
    assert "Traceback" not in log and " failed" not in log, log[-4000:]


def test_profile_is_known() -> None:
    assert PROFILE in ("ci", "bench")
    assert Path(__file__).name.startswith("test_fuzz_")
