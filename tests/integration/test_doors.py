"""Three kinds of callers, three doors (docs/security/doors.md).

Every method of every gRPC service the engine server could answer is enumerated from the
proto descriptors (so a method or a service added later is covered without touching this
file) and called on both listeners of a real ``fengsheng engine-server`` process:

* the internal listener answers nothing but health without the service credential, not to
  a bot token either, not to a wrong credential (``UNAUTHENTICATED``);
* the bot listener serves ``BotService`` (with a bot token) and health only: every other
  service does not exist there (``UNIMPLEMENTED``), whoever asks;
* the legitimate callers still work: the platform with its credential, a bot on its listener.
"""

from __future__ import annotations

import importlib
import pkgutil
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf import message_factory
from google.protobuf.descriptor import FileDescriptor, MethodDescriptor
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from helpers.gateway_procs import start_gateway
from helpers.processes import ROOT, ServiceProcess, redis_env, spawn, start_engine_server

import fengsheng.v1
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel
from services.credentials import ENV as SERVICE_TOKEN_ENV
from services.credentials import ENV_FILE as SERVICE_TOKEN_FILE_ENV

HEALTH = "grpc.health.v1.Health"
#: answered on either listener without any credential (probes)
OPEN = {f"/{HEALTH}/Check", f"/{HEALTH}/Watch"}
#: the only methods of the bot listener besides OPEN
BOT_METHODS = {f"/fengsheng.v1.BotService/{name}" for name in ("Connect", "ListTokens", "RevokeToken", "RotateToken")}
CALL_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Method:
    path: str
    method: MethodDescriptor

    @property
    def service(self) -> str:
        return self.method.containing_service.full_name


def _proto_files() -> list[FileDescriptor]:
    """Every generated module of fengsheng/v1 (a new .proto file is picked up), plus the
    standard services the engine server registers (health, reflection)."""
    files = []
    for info in pkgutil.iter_modules(fengsheng.v1.__path__):
        if info.name.endswith("_pb2"):
            files.append(importlib.import_module(f"fengsheng.v1.{info.name}").DESCRIPTOR)
    return [*files, health_pb2.DESCRIPTOR, reflection_pb2.DESCRIPTOR]


def all_methods() -> list[Method]:
    found = [
        Method(f"/{service.full_name}/{m.name}", m)
        for file in _proto_files()
        for service in file.services_by_name.values()
        for m in service.methods
    ]
    assert {"/fengsheng.v1.EngineService/GetReplay", "/fengsheng.v1.RankedService/JoinQueue",
            "/fengsheng.v1.BotService/Connect"} <= {m.path for m in found}  # fmt: skip
    return found


METHODS = all_methods()


def call(channel: grpc.Channel, m: Method, metadata: list[tuple[str, str]]) -> tuple[grpc.StatusCode, Any]:
    """Call ``m`` with an empty request; the status code and the first response (or None)."""
    request = message_factory.GetMessageClass(m.method.input_type)()
    out = message_factory.GetMessageClass(m.method.output_type)
    kw: dict[str, Any] = {"request_serializer": lambda r: r.SerializeToString(),
                          "response_deserializer": out.FromString}  # fmt: skip
    cs, ss = m.method.client_streaming, m.method.server_streaming
    try:
        if not cs and not ss:
            return grpc.StatusCode.OK, channel.unary_unary(m.path, **kw)(request, metadata=metadata,
                                                                          timeout=CALL_TIMEOUT_S)  # fmt: skip
        if cs and not ss:
            return grpc.StatusCode.OK, channel.stream_unary(m.path, **kw)(iter([request]), metadata=metadata,
                                                                           timeout=CALL_TIMEOUT_S)  # fmt: skip
        if cs:
            stream = channel.stream_stream(m.path, **kw)(iter([request]), metadata=metadata, timeout=CALL_TIMEOUT_S)
        else:
            stream = channel.unary_stream(m.path, **kw)(request, metadata=metadata, timeout=CALL_TIMEOUT_S)
        try:
            return grpc.StatusCode.OK, next(stream)
        finally:
            stream.cancel()
    except grpc.RpcError as exc:
        return exc.code(), None  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def internal(engine: ServiceProcess) -> Iterator[grpc.Channel]:
    """A plain channel (no credential attached) to the internal listener."""
    with grpc.insecure_channel(engine.address) as channel:
        yield channel


@pytest.fixture(scope="module")
def bot_door(engine: ServiceProcess) -> Iterator[grpc.Channel]:
    """A plain channel to the bot listener."""
    with grpc.insecure_channel(engine.extra["bot_address"]) as channel:
        yield channel


@pytest.fixture(scope="module")
def platform(engine: ServiceProcess) -> Iterator[grpc.Channel]:
    """The platform's own channel: the service credential on every call."""
    with engine_channel(engine.address) as channel:
        yield channel


@pytest.fixture(scope="module")
def bot_token(platform: grpc.Channel) -> str:
    request = bs.RegisterBotRequest(name="door-knocker", owner="g_doors")  # every bot has an owner
    account = bs_grpc.RankedServiceStub(platform).RegisterBot(request, timeout=20)
    assert account.token
    return str(account.token)


@pytest.fixture(scope="module")
def live_match(platform: grpc.Channel) -> str:
    stub = es_grpc.EngineServiceStub(platform)
    reply = stub.CreateMatch(es.CreateMatchRequest(settings=es.MatchSettings(players=5, seed=7)), timeout=20)
    return str(reply.match_id)


def test_every_method_is_enumerated_from_what_the_server_serves(platform: grpc.Channel) -> None:
    """Reflection (with the credential) lists what the internal listener serves: every one
    of those services is among the enumerated ones, so none escapes the tests below."""
    stub = reflection_pb2_grpc.ServerReflectionStub(platform)
    replies = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]),
                                        timeout=CALL_TIMEOUT_S)  # fmt: skip
    served = {s.name for s in next(replies).list_services_response.service}
    assert {"fengsheng.v1.EngineService", "fengsheng.v1.RankedService", "fengsheng.v1.BotService"} <= served
    assert served <= {m.service for m in METHODS}


@pytest.mark.parametrize("who", ["nobody", "bot token", "bot token as service credential", "wrong credential"])
def test_internal_listener_refuses_everyone_but_the_platform(
    internal: grpc.Channel, bot_token: str, live_match: str, who: str
) -> None:
    metadata = {
        "nobody": [],
        "bot token": [("authorization", f"Bearer {bot_token}")],
        "bot token as service credential": [("fs-service-token", bot_token)],
        "wrong credential": [("fs-service-token", secrets.token_urlsafe(32))],
    }[who]
    wrong = {}
    for m in METHODS:
        code, _ = call(internal, m, metadata)
        expected = grpc.StatusCode.OK if m.path in OPEN else grpc.StatusCode.UNAUTHENTICATED
        if code != expected:
            wrong[m.path] = code
    assert not wrong, f"{who}: {wrong}"


def test_the_reproductions_of_issue_11_are_refused(internal: grpc.Channel, live_match: str) -> None:
    """The exact calls of the finding, with no metadata: replay, another seat's hand, an
    action for seat 0, queueing in someone else's name, reflection."""
    engine = es_grpc.EngineServiceStub(internal)
    ranked = bs_grpc.RankedServiceStub(internal)
    attempts = [
        lambda: engine.GetReplay(es.GetReplayRequest(match_id=live_match), timeout=20),
        lambda: engine.GetObservation(es.GetObservationRequest(match_id=live_match, seat=3), timeout=20),
        lambda: engine.Act(es.ActRequest(match_id=live_match, seat=0, decision=1, action="pass"), timeout=20),
        lambda: ranked.JoinQueue(bs.JoinQueueRequest(holder="h:victim", name="victim", min_players=5), timeout=20),
        lambda: next(reflection_pb2_grpc.ServerReflectionStub(internal).ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=20)),
    ]  # fmt: skip
    for attempt in attempts:
        with pytest.raises(grpc.RpcError) as info:
            attempt()
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED  # type: ignore[attr-defined]
        assert "fs-service-token" in (info.value.details() or "")  # type: ignore[attr-defined]


@pytest.mark.parametrize("who", ["nobody", "bot token", "service credential"])
def test_bot_listener_serves_bot_service_and_health_only(
    bot_door: grpc.Channel, bot_token: str, who: str
) -> None:
    metadata = {
        "nobody": [],
        "bot token": [("authorization", f"Bearer {bot_token}")],
        "service credential": [("fs-service-token", engine_token())],
    }[who]
    wrong = {}
    for m in METHODS:
        code, reply = call(bot_door, m, metadata)
        if m.path in OPEN:
            expected = grpc.StatusCode.OK
        elif m.path in BOT_METHODS and who == "bot token":
            # served: Connect welcomes; the token calls answer (an empty RevokeToken names no
            # token, so it may be refused, but never as unauthenticated or absent)
            if code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.UNIMPLEMENTED) or (
                m.path.endswith("/Connect") and code != grpc.StatusCode.OK
            ):
                wrong[m.path] = code
            expected = code
        elif m.path in BOT_METHODS:
            expected = grpc.StatusCode.UNAUTHENTICATED
        else:  # EngineService, RankedService, reflection, Health/List: not there at all
            expected = grpc.StatusCode.UNIMPLEMENTED
        if code != expected:
            wrong[m.path] = code
        if m.path.endswith("BotService/Connect") and code == grpc.StatusCode.OK:
            assert reply.WhichOneof("kind") == "welcome"
    assert not wrong, f"{who}: {wrong}"


def engine_token() -> str:
    from services.credentials import service_token

    return service_token()


def test_platform_callers_still_work(platform: grpc.Channel, live_match: str) -> None:
    """With the credential: the hidden parts are there for the trusted services."""
    engine = es_grpc.EngineServiceStub(platform)
    replay = engine.GetReplay(es.GetReplayRequest(match_id=live_match), timeout=20)
    assert replay.final_snapshot
    legal = engine.ListLegalActions(es.ListLegalActionsRequest(match_id=live_match, seat=-1), timeout=20)
    assert legal.seat_to_act >= 0
    board = bs_grpc.RankedServiceStub(platform).Leaderboard(bs.LeaderboardRequest(ladder="bot"), timeout=20)
    assert board.ladder == "bot"


def test_connect_info_names_the_bot_listener_only(
    engine: ServiceProcess, redis_url: str, proc_logs: Path
) -> None:
    gateway = start_gateway(engine.address, proc_logs, redis_url=redis_url, bot_address=engine.extra["bot_address"])
    try:
        info = httpx.get(gateway.extra["url"] + "/api/bots/connect-info", timeout=10).json()
    finally:
        gateway.stop()
    assert info["grpc"] == engine.extra["bot_address"]
    assert info["grpc"] != engine.address


def test_file_descriptor_pool_has_no_unexpected_services() -> None:
    """A guard on the enumeration itself: it sees every service of fengsheng/v1."""
    names = {m.service for m in METHODS}
    proto_dir = Path(__file__).resolve().parents[2] / "proto" / "fengsheng" / "v1"
    declared = set()
    for proto in proto_dir.glob("*.proto"):
        for line in proto.read_text().splitlines():
            if line.startswith("service "):
                declared.add("fengsheng.v1." + line.split()[1])
    assert declared and declared <= names


def test_an_engine_without_a_credential_refuses_to_start(redis_url: str, tmp_path: Path) -> None:
    """Fail closed: no credential configured, no engine (and no port open)."""
    args = ["engine-server", "--port", "0", "--bot-port", "0", "--no-celery"]
    no_credential = {SERVICE_TOKEN_ENV: "", SERVICE_TOKEN_FILE_ENV: ""}
    proc = spawn("engine-nocred", args, tmp_path, {**redis_env(redis_url), **no_credential})
    try:
        assert proc.process.wait(60) == 2
    finally:
        proc.stop()
    log = proc.log()
    assert "refusing to start" in log and "FENGSHENG_SERVICE_TOKEN" in log
    assert "listening on" not in log


def test_an_engine_reads_its_credential_from_a_0600_file(redis_url: str, tmp_path: Path) -> None:
    token = secrets.token_urlsafe(32)
    path = tmp_path / "service-token"
    path.write_text(token + "\n")
    path.chmod(0o600)
    proc = start_engine_server(redis_url, tmp_path, celery=False,
                               env={SERVICE_TOKEN_ENV: "", SERVICE_TOKEN_FILE_ENV: str(path)})  # fmt: skip
    try:
        request = bs.LeaderboardRequest(ladder="bot")
        with engine_channel(proc.address, token=token) as channel:
            assert bs_grpc.RankedServiceStub(channel).Leaderboard(request, timeout=20).ladder == "bot"
        with engine_channel(proc.address) as channel:  # the session's credential: not this engine's
            with pytest.raises(grpc.RpcError) as info:
                bs_grpc.RankedServiceStub(channel).Leaderboard(request, timeout=20)
            assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED  # type: ignore[attr-defined]
    finally:
        proc.stop()


def test_health_probes_need_no_credential(engine: ServiceProcess) -> None:
    """The container probe (``python -m services.healthcheck grpc``) with no credential in its
    environment: both listeners answer SERVING."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("FENGSHENG_SERVICE_TOKEN")}
    for address in (engine.address, engine.extra["bot_address"]):
        probe = subprocess.run([sys.executable, "-m", "services.healthcheck", "grpc", address, "--timeout", "20"],
                               env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
        assert probe.returncode == 0, probe.stdout + probe.stderr
        assert "SERVING" in probe.stdout
