"""A tiny fake ``EngineService`` (a real gRPC server with a toy game) to test the gateway alone.

The toy game: seats act in turn; the seat to act may ``pass`` or ``declare``; after
``length`` actions the match is over and seat 0 wins. Bot seats act at once inside the
servicer (the real service hands them to Celery). It honours the contract of
``proto/fengsheng/v1/engine_service.proto``: stale decision -> FAILED_PRECONDITION,
illegal action -> INVALID_ARGUMENT listing the legal ones, unknown match -> NOT_FOUND.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from fengsheng.v1 import engine_service_pb2 as pb
from fengsheng.v1 import engine_service_pb2_grpc as pb_grpc
from fengsheng.v1 import game_pb2

LEGAL = ("pass", "declare")


class _Refused(Exception):
    """One ``ActStream`` message refused: the status the unary ``Act`` would end with."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class _OneMessage:
    """The context ``Act`` sees for one ``ActStream`` message: aborting refuses the message
    (:class:`_Refused`), not the stream."""

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise _Refused(code, details)


@dataclass
class ToyMatch:
    settings: pb.MatchSettings
    length: int = 12
    decision: int = 1
    turn: int = 0
    actions: list[pb.ReplayAction] = field(default_factory=list)
    events: list[tuple[str, game_pb2.Event]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return len(self.actions) >= self.length

    def pending(self) -> game_pb2.Decision:
        if self.over:
            return game_pb2.Decision(seat=-1, kind="", number=self.decision, prompt="game over")
        return game_pb2.Decision(seat=self.turn, kind="main", number=self.decision, prompt="pass or declare")

    def outcome(self) -> game_pb2.Outcome:
        return game_pb2.Outcome(over=True, winners=[0], reason="toy") if self.over else game_pb2.Outcome()


class FakeEngine(pb_grpc.EngineServiceServicer):
    def __init__(self, length: int = 12) -> None:
        self.length = length
        self.matches: dict[str, ToyMatch] = {}
        self.cond = threading.Condition()

    def _match(self, match_id: str, context: grpc.ServicerContext) -> ToyMatch:
        match = self.matches.get(match_id)
        if match is None:
            context.abort(grpc.StatusCode.NOT_FOUND, f"no match {match_id}")
        assert match is not None
        return match

    def _apply(self, match: ToyMatch, seat: int, action: str) -> None:
        match.actions.append(pb.ReplayAction(seat=seat, action=action, decision=match.decision))
        event = game_pb2.Event(index=len(match.events), kind="action", seat=seat, text=f"{seat}: {action}")
        match.decision += 1
        match.turn = (match.turn + 1) % match.settings.players
        match.events.append((f"{len(match.events) + 1}-0", event))

    def _run_bots(self, match: ToyMatch) -> None:
        while not match.over and match.settings.seats[match.turn] != pb.HUMAN:
            self._apply(match, match.turn, "pass")

    def CreateMatch(self, request: pb.CreateMatchRequest, context: grpc.ServicerContext) -> pb.CreateMatchResponse:
        settings = pb.MatchSettings()
        settings.CopyFrom(request.settings)
        if not settings.seats:
            settings.seats.extend([pb.HUMAN] * settings.players)
        match_id = request.match_id or uuid.uuid4().hex[:12]
        with self.cond:
            match = ToyMatch(settings=settings, length=self.length)
            self.matches[match_id] = match
            self._run_bots(match)
            self.cond.notify_all()
            return pb.CreateMatchResponse(match_id=match_id, pending=match.pending())

    def ListRulesets(self, request: pb.ListRulesetsRequest, context: grpc.ServicerContext) -> pb.Rulesets:
        """One toy ruleset for 3 to 7 players, with a two-card deck."""
        toy = pb.RulesetInfo(id="toy", zh="玩具", players=[3, 4, 5, 6, 7], identities=["military", "latent"])
        toy.cards.append(pb.DeckCard(number=1, function="probe", function_zh="试探", color="red"))
        toy.cards.append(pb.DeckCard(number=2, function="burn", function_zh="烧毁", color="black"))
        return pb.Rulesets(rulesets=[toy], default_ruleset="toy")

    def GetObservation(self, request: pb.GetObservationRequest, context: grpc.ServicerContext) -> game_pb2.Observation:
        with self.cond:
            match = self._match(request.match_id, context)
            obs = game_pb2.Observation(
                ruleset="toy", viewer=request.seat, players=match.settings.players, pending=match.pending()
            )
            for s in range(match.settings.players):
                obs.seats.append(
                    game_pb2.SeatView(
                        seat=s, alive=True, hand_count=2, hand=[s + 1, s + 2] if s == request.seat else []
                    )
                )
            if request.seat == match.turn and not match.over:
                obs.legal_actions.extend(LEGAL)
            obs.outcome.CopyFrom(match.outcome())
            if request.include_events:
                obs.events.extend(e for _, e in match.events)
            return obs

    def ListLegalActions(self, request: pb.ListLegalActionsRequest, context: grpc.ServicerContext) -> pb.LegalActions:
        with self.cond:
            match = self._match(request.match_id, context)
            actions = list(LEGAL) if request.seat == match.turn and not match.over else []
            return pb.LegalActions(decision=match.decision, seat_to_act=match.pending().seat, actions=actions)

    def Act(self, request: pb.ActRequest, context: grpc.ServicerContext) -> pb.ActResponse:
        with self.cond:
            match = self._match(request.match_id, context)
            if match.over or request.decision != match.decision:
                context.abort(grpc.StatusCode.FAILED_PRECONDITION, f"stale decision {request.decision}")
            if request.seat != match.turn:
                context.abort(grpc.StatusCode.FAILED_PRECONDITION, f"seat {request.seat} is not to act")
            if request.action not in LEGAL:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"illegal action; legal: {', '.join(LEGAL)}")
            self._apply(match, request.seat, request.action)
            self._run_bots(match)
            self.cond.notify_all()
            return pb.ActResponse(version=match.decision, pending=match.pending(), outcome=match.outcome())

    def ActStream(self, request_iterator: Iterator[pb.ActRequest],
                  context: grpc.ServicerContext) -> Iterator[pb.ActResponse]:
        """``Act`` over one stream: one response per request; a refusal is a response with
        ``error`` (the unary call's status and details) and the stream goes on."""
        for request in request_iterator:
            try:
                yield self.Act(request, _OneMessage())  # type: ignore[arg-type]
            except _Refused as refused:
                yield pb.ActResponse(error=pb.ActError(code=refused.code.value[0], message=refused.details))

    def Watch(self, request: pb.WatchRequest, context: grpc.ServicerContext) -> Iterator[pb.WatchEvent]:
        sent = 0
        with self.cond:
            match = self._match(request.match_id, context)
            if request.from_event_id:
                sent = next((i + 1 for i, (eid, _) in enumerate(match.events) if eid == request.from_event_id), 0)
        while context.is_active():
            with self.cond:
                while sent >= len(match.events) and not match.over and context.is_active():
                    self.cond.wait(0.2)
                batch = match.events[sent:]
                pending, outcome, over = match.pending(), match.outcome(), match.over
            for eid, event in batch:
                sent += 1
                yield pb.WatchEvent(event_id=eid, event=event, pending=pending, outcome=outcome)
            if over and sent >= len(match.events):
                return

    def GetReplay(self, request: pb.GetReplayRequest, context: grpc.ServicerContext) -> pb.Replay:
        with self.cond:
            match = self._match(request.match_id, context)
            return pb.Replay(settings=match.settings, actions=match.actions, outcome=match.outcome())


def start_fake_engine(length: int = 12) -> tuple[grpc.Server, str, FakeEngine]:
    """Serve a :class:`FakeEngine` on a free loopback port: (server, "host:port", servicer)."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    servicer = FakeEngine(length)
    pb_grpc.add_EngineServiceServicer_to_server(servicer, server)
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, f"127.0.0.1:{port}", servicer
