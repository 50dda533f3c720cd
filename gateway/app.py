"""The gateway's ASGI app: REST + WebSocket for people and bots, over the engine's gRPC API.

Routes are thin: check the token, make one engine call, translate the answer. The engine is
reached only through :class:`gateway.engine_client.EngineClient` (gRPC); errors leave in
the one shape of :mod:`gateway.errors`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Any

import grpc
from fastapi import Depends, FastAPI, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from fengsheng.v1 import engine_service_pb2 as pb
from fengsheng.v1 import game_pb2
from gateway import errors
from gateway.auth import Player, SeatGrant, TokenError, TokenSigner
from gateway.chat import ChatService
from gateway.chat_routes import install_chat
from gateway.convert import to_dict
from gateway.engine_client import EngineClient
from gateway.metrics import Metrics
from gateway.policy import JOINABLE, check_seed, public_settings
from gateway.ratelimit import ClientAddress, CreationLimits
from gateway.rematch import RematchError, RematchService
from gateway.replay_steps import ReplaySteps, holds_seat, parse_view
from gateway.rulesets import RulesetCatalog
from gateway.schemas import (
    GUEST_NAME_MAX,
    ActIn,
    CreateMatchIn,
    CreateMatchOut,
    ErrorOut,
    GuestIn,
    GuestOut,
    JoinIn,
    JoinOut,
    LegalActionsOut,
    MatchInfo,
    RematchIn,
    RematchOut,
    SeatInfo,
)
from gateway.seat_socket import act as act_for_seat
from gateway.seat_socket import refuse as refuse_socket
from gateway.seat_socket import stream as stream_match
from gateway.store import MatchRecord, MatchStore, open_store

SEAT_KINDS: dict[str, pb.SeatKind] = {
    "human": pb.HUMAN,
    "random": pb.BOT_RANDOM,
    "heuristic": pb.BOT_HEURISTIC,
    "external": pb.BOT_EXTERNAL,
    "v2": pb.BOT_V2,
    "search": pb.BOT_SEARCH,
    # bot levels (issue 14; services/bot_levels.py): easy = random, normal = heuristic v2,
    # hard = search (engine/search.py, run by the Celery bot workers within their budget)
    "easy": pb.BOT_RANDOM,
    "normal": pb.BOT_V2,
    "hard": pb.BOT_SEARCH,
}

#: the web client: plain HTML, CSS and ES modules, served as they are (docs/web-client.md)
STATIC_DIR = Path(__file__).resolve().parent / "static"

log = logging.getLogger("fengsheng.gateway")

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "illegal action; `legal_actions` lists the alternatives"},
    401: {"model": ErrorOut, "description": "missing, malformed or forged token"},
    403: {"model": ErrorOut, "description": "the token is for another match or seat"},
    404: {"model": ErrorOut, "description": "unknown match"},
    409: {"model": ErrorOut, "description": "stale or duplicate decision, not your turn, seat taken"},
    422: {"model": ErrorOut, "description": "malformed body or query"},
}


@dataclass
class Services:
    """What the routes need, built once per app in its lifespan (the composition root)."""

    engine: EngineClient
    store: MatchStore
    signer: TokenSigner
    metrics: Metrics
    replays: ReplaySteps
    rulesets: RulesetCatalog
    chat: ChatService
    rematch: RematchService


def _token_from(request_headers: Any, query_token: str | None) -> str:
    auth = request_headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return str(auth[7:].strip())
    if query_token:
        return query_token
    raise errors.unauthenticated("missing token: send `Authorization: Bearer <token>` or `?token=`")


def _seat_infos(record: MatchRecord | None, claims: dict[int, dict[str, str]]) -> list[SeatInfo]:
    if record is None:
        return []
    return [SeatInfo(seat=i, kind=kind, player=claims.get(i, {}).get("name")) for i, kind in enumerate(record.seats)]


def svc_of(app: FastAPI) -> Services:
    """The app's services (built in its lifespan)."""
    svc: Services = app.state.services
    return svc


def _services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


Svc = Annotated[Services, Depends(_services)]


def _player_of(svc: Svc, request: Request, token: Annotated[str | None, Query()] = None) -> Player:
    """The guest named by the request's player token."""
    try:
        return svc.signer.player(_token_from(request.headers, token))
    except TokenError as exc:
        raise errors.unauthenticated(str(exc)) from exc


def _optional_player(svc: Svc, request: Request, token: Annotated[str | None, Query()] = None) -> Player | None:
    if "authorization" not in request.headers and not token:
        return None
    return _player_of(svc, request, token)


def _seat_of(match_id: str, svc: Svc, request: Request, token: Annotated[str | None, Query()] = None) -> SeatGrant:
    """The seat named by the request's seat token, which must be for this match."""
    try:
        grant = svc.signer.seat(_token_from(request.headers, token))
    except TokenError as exc:
        raise errors.unauthenticated(str(exc)) from exc
    if grant.match_id != match_id:
        raise errors.forbidden("this seat token is for another match")
    return grant


Grant = Annotated[SeatGrant, Depends(_seat_of)]
PlayerDep = Annotated[Player, Depends(_player_of)]
OptionalPlayer = Annotated[Player | None, Depends(_optional_player)]


def create_app(engine_address: str, secret: str, redis_url: str | None = None,
               operator_token: str | None = None) -> FastAPI:  # fmt: skip
    """The gateway app for the engine service at ``engine_address`` (``host:port``).

    ``secret`` signs the tokens (every replica must share it); ``redis_url`` keeps the
    seat table in Redis (else in memory, one process only); ``operator_token`` opens the
    operator pages (``None``: ``FENGSHENG_OPERATOR_TOKEN``, services/config.py; ``""``: closed).
    """
    signer = TokenSigner(secret)
    metrics = Metrics()

    limits = CreationLimits.from_env()
    client_address = ClientAddress(limits.trusted_proxies, limits.proxy_header)  # as the rate limiter sees it

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = EngineClient(engine_address, metrics)
        store = open_store(redis_url)
        replays = ReplaySteps.from_env(engine, redis_url)
        chat = ChatService.open(redis_url)
        rematches = RematchService.open(store, signer, redis_url)
        app.state.services = Services(
            engine=engine,
            store=store,
            signer=signer,
            metrics=metrics,
            replays=replays,
            rulesets=RulesetCatalog(engine),
            chat=chat,
            rematch=rematches,
        )
        try:
            yield
        finally:
            await engine.close()
            await store.close()
            await replays.close()
            await chat.close()
            await rematches.book.close()

    app = FastAPI(
        title="fengsheng gateway",
        version="0.1.0",
        description=(
            "REST + WebSocket access to 风声 (The Message) matches. Create a guest, create a match "
            "against bots, act with your seat token; `/ws/matches/{id}?token=` streams your seat's "
            "events and prompts. Actions use the notation of docs/notation.md."
        ),
        lifespan=lifespan,
    )
    errors.install_handlers(app)

    @app.middleware("http")
    async def count_requests(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        start = time.perf_counter()
        status = 500
        try:
            response = await call_next(request)
            status = response.status_code
            return response
        finally:
            route = request.scope.get("route")
            path = getattr(route, "path", "unmatched")
            metrics.requests.labels(method=request.method, route=path, status=str(status)).inc()
            metrics.request_seconds.labels(route=path).observe(time.perf_counter() - start)

    # ---- health and metrics -------------------------------------------------------------

    @app.get("/healthz", tags=["ops"])
    async def healthz(svc: Svc, response: Response) -> dict[str, str]:
        """200 when the engine service answers SERVING (and Redis, when used, answers PING)."""
        engine_status, store_ok = await asyncio.gather(svc.engine.healthy(), svc.store.ping())
        ok = engine_status == "SERVING" and store_ok
        response.status_code = 200 if ok else 503
        return {
            "status": "ok" if ok else "unavailable",
            "engine": engine_status,
            "store": "ok" if store_ok else "unavailable",
        }

    @app.get("/metrics", tags=["ops"], response_class=Response)
    async def prometheus_metrics() -> Response:
        """Prometheus text exposition of the gateway's metrics."""
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/rulesets", tags=["matches"], responses=ERROR_RESPONSES)
    async def get_rulesets(svc: Svc) -> dict[str, Any]:
        """The rulesets the engine plays, in its registry's order: `id`, Chinese name `zh`,
        the player counts `players` (`min_players`..`max_players`), the `identities` and
        the `identity_table` (players -> count of each identity), whether `characters` can
        be dealt and the `character_table`, and how many `cards` its deck has (the deck
        itself: `GET /api/cards?ruleset=`). `default` is the ruleset of a match created
        without one."""
        return await svc.rulesets.listing()

    @app.get("/api/cards", tags=["matches"], responses=ERROR_RESPONSES)
    async def get_cards(
        svc: Svc,
        ruleset: Annotated[str | None, Query(min_length=1, max_length=32)] = None,
    ) -> dict[str, Any]:
        """The printed data of every card of a ruleset's deck, by card number (function id and
        printed name, colour, transmission, markers, what its function does in `text_zh` and
        `text_en`), and `texts`: the ruleset's text table, template key -> `zh`/`en` templates
        of the events and prompts whose `template` is that key (engine/text.py). Default: the
        default ruleset; an unknown one is a 404 naming the known ones."""
        return await svc.rulesets.deck(ruleset)

    # ---- guests and matches -------------------------------------------------------------

    @app.post("/api/guests", tags=["accounts"], response_model=GuestOut, status_code=201, responses=ERROR_RESPONSES)
    async def create_guest(body: GuestIn) -> GuestOut:
        """Create a guest account; the token identifies it from now on. The name is kept
        NFC with whitespace collapsed; bidi controls, zero-width and control characters and
        stacked combining marks are refused (422, docs/security.md "Names and chat")."""
        player, token = signer.new_player(errors.checked_name(body.name, GUEST_NAME_MAX))
        return GuestOut(player_id=player.pid, name=player.name, token=token)

    @app.post(
        "/api/matches",
        tags=["matches"],
        response_model=CreateMatchOut,
        status_code=201,
        responses=ERROR_RESPONSES,
    )
    async def create_match(body: CreateMatchIn, svc: Svc, player: OptionalPlayer) -> CreateMatchOut:
        """Create a match against bots. With a player token the creator takes the first human seat."""
        if body.seats is not None:
            kinds: list[str] = list(body.seats)
        else:
            if body.humans > body.players:
                raise errors.ApiError(422, "malformed_request", "`humans` exceeds `players`")
            kinds = ["human"] * body.humans + [body.bot] * (body.players - body.humans)
        # the ruleset and its player counts come from the engine's registry (GET /api/rulesets)
        ruleset = await svc.rulesets.for_match(body.ruleset, len(kinds), characters=body.characters)
        check_seed(body.seed, kinds, creator_seated=player is not None)
        settings = pb.MatchSettings(
            ruleset=ruleset.id,
            players=len(kinds),
            seed=body.seed,
            tutorial=body.tutorial,
            characters=body.characters,
            seats=[SEAT_KINDS[k] for k in kinds],
            turn_timeout_ms=body.turn_timeout_ms,
            bot_delay_ms=body.bot_delay_ms,
        )
        record = MatchRecord(
            match_id=secrets.token_hex(8),  # the platform names matches, never a client
            seats=kinds,
            settings=public_settings(settings),
            created_by=player.pid if player else "",
        )
        created = await _create_recorded(svc, settings, record)
        seat: int | None = None
        seat_token: str | None = None
        if player is not None and "human" in kinds:
            seat = kinds.index("human")
            await svc.store.claim(record.match_id, seat, player)
            seat_token = signer.new_seat(record.match_id, seat, player)
        claims = await svc.store.claims(record.match_id)
        return CreateMatchOut(
            match_id=created.match_id,
            ruleset=ruleset.id,
            seats=_seat_infos(record, claims),
            pending=to_dict(created.pending),
            seat=seat,
            seat_token=seat_token,
        )

    @app.get("/api/matches/{match_id}", tags=["matches"], response_model=MatchInfo, responses=ERROR_RESPONSES)
    async def get_match(match_id: str, svc: Svc) -> MatchInfo:
        """The seats of a match and the spectator's view of it (public information only)."""
        observation = await _alive(svc, match_id)
        record = await svc.store.get_match(match_id)
        claims = await svc.store.claims(match_id) if record else {}
        if record is not None:
            await svc.store.touch(match_id, over=observation.outcome.over)
        return MatchInfo(
            match_id=match_id,
            ruleset=observation.ruleset,
            seats=_seat_infos(record, claims),
            settings=record.settings if record else {},
            observation=to_dict(observation),
        )

    @app.post("/api/matches/{match_id}/join", tags=["matches"], response_model=JoinOut, responses=ERROR_RESPONSES)
    async def join_match(match_id: str, svc: Svc, player: PlayerDep, body: JoinIn | None = None) -> JoinOut:
        """Claim a free `human` or `external` seat (a given one, or the first free one) and get
        its seat token. Joining again returns the same seat; a guest holds at most one seat of
        a match (409 for a second one: it would show them a second hand). An external bot joins
        like a person and plays through the same REST or WebSocket routes.
        """
        record = await svc.store.get_match(match_id)
        if record is None:
            raise errors.not_found(f"no match {match_id!r} was created through this gateway")
        observation = await _alive(svc, match_id)
        await svc.store.touch(match_id, over=observation.outcome.over)
        claims = await svc.store.claims(match_id)
        mine = [s for s, c in claims.items() if c["pid"] == player.pid]
        wanted = body.seat if body is not None else None
        if wanted is None:
            free = [s for s, k in enumerate(record.seats) if k in JOINABLE and s not in claims]
            if not mine and not free:
                raise errors.conflict("no free human seat in this match")
            candidates = mine or free
        else:
            if wanted >= len(record.seats) or record.seats[wanted] not in JOINABLE:
                raise errors.conflict(f"seat {wanted} is played by the platform's bots")
            candidates = [wanted]
        if mine and mine[0] not in candidates:
            raise errors.conflict(f"you already hold seat {mine[0]} of this match: one seat per guest")
        for seat in candidates:
            if await svc.store.claim(match_id, seat, player):
                return JoinOut(match_id=match_id, seat=seat, seat_token=signer.new_seat(match_id, seat, player))
        raise errors.conflict("that seat is taken (or you hold another seat of this match)")

    async def start_rematch(match_id: str, kinds: list[str], shown: dict[str, Any]) -> None:
        """Create a finished match's rematch under ``match_id``: its settings, a new deal."""
        ruleset = await svc_of(app).rulesets.for_match(
            shown.get("ruleset") or None, len(kinds), characters=bool(shown.get("characters"))
        )
        settings = pb.MatchSettings(
            ruleset=ruleset.id,
            players=len(kinds),
            tutorial=bool(shown.get("tutorial")),
            characters=bool(shown.get("characters")),
            seats=[SEAT_KINDS[k] for k in kinds],
            turn_timeout_ms=int(shown.get("turn_timeout_ms") or 0),
            bot_delay_ms=int(shown.get("bot_delay_ms") or 0),
        )
        record = MatchRecord(match_id=match_id, seats=kinds, settings=public_settings(settings))
        await _create_recorded(svc_of(app), settings, record)

    @app.post("/api/matches/{match_id}/rematch", tags=["matches"], response_model=RematchOut,
              responses=ERROR_RESPONSES)  # fmt: skip
    async def rematch(match_id: str, svc: Svc, player: PlayerDep, body: RematchIn | None = None) -> RematchOut:
        """Ask for a rematch of a finished match you played (gateway/rematch.py): you keep your
        seat; it starts when every seated person has asked, or now with `start_now` (bots take
        the others' seats). Answers your seat token in it once it is created."""
        observation = await _alive(svc, match_id)
        if not observation.outcome.over:
            raise errors.conflict("the match is not over")
        try:
            state = await svc.rematch.confirm(
                match_id, player, start_now=bool(body and body.start_now), create=start_rematch
            )
        except RematchError as exc:
            raise errors.ApiError(exc.status, exc.code, str(exc)) from exc
        return RematchOut(**asdict(state))

    @app.get("/api/matches/{match_id}/rematch", tags=["matches"], response_model=RematchOut,
             responses=ERROR_RESPONSES)  # fmt: skip
    async def rematch_state(match_id: str, svc: Svc, player: PlayerDep) -> RematchOut:
        """Who confirmed the rematch, and your seat token in it once it is created."""
        try:
            state = await svc.rematch.state(match_id, player)
        except RematchError as exc:
            raise errors.ApiError(exc.status, exc.code, str(exc)) from exc
        return RematchOut(**asdict(state))

    @app.get("/api/matches", tags=["matches"])
    async def list_matches(svc: Svc, limit: int = Query(20, ge=1, le=100), live: bool = False) -> dict[str, Any]:
        """The matches created most recently through this gateway, newest first, with their
        public state (`over`, `turn_number`, `winners`); `live=true` keeps only unfinished ones."""
        records = await svc.store.recent(limit)

        async def summary(record: MatchRecord) -> dict[str, Any] | None:
            try:
                observation = await svc.engine.observation(record.match_id, -1)
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.NOT_FOUND:  # expired at the engine: forget it here too
                    await svc.store.forget(record.match_id)
                return None
            await svc.store.touch(record.match_id, over=observation.outcome.over)
            claims = await svc.store.claims(record.match_id)
            return {
                "match_id": record.match_id,
                "ruleset": observation.ruleset,
                "created_at": record.created_at,
                "seats": [info.model_dump() for info in _seat_infos(record, claims)],
                "settings": record.settings,
                "over": observation.outcome.over,
                "winners": list(observation.outcome.winners),
                "turn_number": observation.turn_number,
                "alive": sum(1 for seat in observation.seats if seat.alive),
            }

        found = [m for m in await asyncio.gather(*(summary(r) for r in records)) if m is not None]
        if live:
            found = [m for m in found if not m["over"]]
        return {"matches": found}

    @app.get(
        "/api/matches/{match_id}/replay/steps",
        tags=["matches"],
        responses={**ERROR_RESPONSES, 429: {"model": ErrorOut, "description": "too many replays; see Retry-After"}},
    )
    async def get_replay_steps(
        match_id: str,
        request: Request,
        svc: Svc,
        view: str = "all",
        last: bool = False,
        from_step: Annotated[int, Query(alias="from", ge=0, le=1_000_000)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] | None = None,
        token: Annotated[str | None, Query()] = None,
    ) -> dict[str, Any]:
        """A page of a match's steps, for the replay viewer: after each recorded action, the
        observation of `view` (`-1` spectator, a seat number, or `all`: every seat's own view
        merged, everything revealed) and the events that view saw, each with its `step`.

        Pages: `from` (first step), `limit` (steps; the engine caps it); `next_step` is the
        next page's `from`, null at the end. `last=true`: only the current step. `all`, and a
        seat without that seat's token, only once the match is over (else 409). Computed by
        the engine from the stored history (`GetReplaySteps`); rate-limited per client (429).
        """
        await svc.replays.take(client_address(request.scope))  # behind a trusted proxy: the real client
        number = parse_view(view)
        finished_only = number >= 0 and not holds_seat(svc.signer, request.headers, token, match_id, number)
        return await svc.replays.page(
            match_id, number, from_step=from_step, limit=limit or 0, last=last, finished_only=finished_only
        )

    # ---- one seat -----------------------------------------------------------------------

    @app.get("/api/matches/{match_id}/observation", tags=["seat"], responses=ERROR_RESPONSES)
    async def get_observation(
        match_id: str, grant: Grant, svc: Svc, events: bool = False, seat: int | None = None
    ) -> dict[str, Any]:
        """What the token's seat may know now (`events=true` adds the seat's event log)."""
        if seat is not None and seat != grant.seat:
            raise errors.forbidden("a seat token shows only its own seat")
        return to_dict(await svc.engine.observation(match_id, grant.seat, events=events))

    @app.get(
        "/api/matches/{match_id}/legal-actions",
        tags=["seat"],
        response_model=LegalActionsOut,
        responses=ERROR_RESPONSES,
    )
    async def get_legal_actions(match_id: str, grant: Grant, svc: Svc) -> LegalActionsOut:
        """The pending decision number and, when the token's seat must act, its legal actions."""
        legal = await svc.engine.legal_actions(match_id, grant.seat)
        return LegalActionsOut(
            decision=legal.decision,
            seat_to_act=legal.seat_to_act,
            seat=grant.seat,
            actions=list(legal.actions),
            legal=[to_dict(a) for a in legal.legal],
        )

    @app.post("/api/matches/{match_id}/act", tags=["seat"], responses=ERROR_RESPONSES)
    async def act(match_id: str, body: ActIn, grant: Grant, svc: Svc) -> dict[str, Any]:
        """Answer decision `decision` with `action`. Stale or duplicate decisions get 409."""
        result = await act_for_seat(svc, grant, body.decision, body.action, body.seat, transport="rest")
        return result

    @app.get("/api/matches/{match_id}/replay", tags=["matches"], responses=ERROR_RESPONSES)
    async def get_replay(match_id: str, svc: Svc) -> dict[str, Any]:
        """A finished match's replay (settings with the seed, every action, the final snapshot).

        It reveals everything, so it is served only once the match is over (else 409).
        """
        observation = await svc.engine.observation(match_id, -1)
        if not observation.outcome.over:
            raise errors.conflict("the match is not over: its replay would reveal hidden cards")
        replay = await svc.engine.replay(match_id)
        return {"ruleset": replay.settings.ruleset, **to_dict(replay)}

    # ---- WebSockets ---------------------------------------------------------------------

    @app.websocket("/ws/matches/{match_id}")
    async def seat_socket(websocket: WebSocket, match_id: str) -> None:
        """A seat's events and prompts as they happen; send `{"decision": N, "action": "..."}` to act.

        Messages sent: `hello`, `observation` (at connection and after each write, pushed),
        `event` (a Watch event), `prompt` (your
        decision is open: `decision`, `legal_actions`), `result` (your action applied),
        `error` (same body as REST errors). Query: `token` (seat token), `from` (resume
        after this event id).
        """
        svc: Services = websocket.app.state.services
        await websocket.accept()
        try:
            grant = signer.seat(_token_from(websocket.headers, websocket.query_params.get("token")))
        except (TokenError, errors.ApiError) as exc:
            await refuse_socket(websocket, errors.unauthenticated(str(exc)), errors.WS_UNAUTHORIZED)
            return
        if grant.match_id != match_id:
            wrong_match = errors.forbidden("this seat token is for another match")
            await refuse_socket(websocket, wrong_match, errors.WS_FORBIDDEN)
            return
        await stream_match(websocket, svc, match_id, grant, kind="seat")

    @app.websocket("/ws/matches/{match_id}/spectate")
    async def spectator_socket(websocket: WebSocket, match_id: str) -> None:
        """Public events of a match (what a spectator may see); no token, no actions."""
        svc: Services = websocket.app.state.services
        await websocket.accept()
        await stream_match(websocket, svc, match_id, None, kind="spectator")

    # ---- the web client -----------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def web_client() -> FileResponse:
        """The web client's single page (its pages are hash routes: #/lobby, #/table/...)."""
        return FileResponse(STATIC_DIR / "index.html", headers={"cache-control": "no-cache"})

    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    from gateway.ranked_routes import install_ranked  # ranked queue, ladders, bot API (docs/bots.md)

    install_chat(app, install_ranked(app, engine_address, signer, client_address))
    from gateway.lobby_routes import install_lobby  # who is online, the lobby's chat

    install_lobby(app, redis_url)
    from gateway.operator_routes import install_operator  # the ranked audit (operators only)
    from services.config import operator_token as configured_operator_token

    install_operator(app, engine_address, configured_operator_token() if operator_token is None else operator_token)
    return app


async def _alive(svc: Services, match_id: str) -> game_pb2.Observation:
    """The spectator's observation of a match; when the engine no longer has it (expired),
    the gateway forgets its record too and answers 404."""
    try:
        observation: game_pb2.Observation = await svc.engine.observation(match_id, -1)
        return observation
    except grpc.aio.AioRpcError as exc:
        if exc.code() == grpc.StatusCode.NOT_FOUND:
            await svc.store.forget(match_id)
        raise


async def _create_recorded(svc: Services, settings: pb.MatchSettings, record: MatchRecord) -> pb.CreateMatchResponse:
    """Record the match, then create it in the engine under the same id, so that a failure in
    between leaves nothing half-made: the record is written first (its Redis down: 503,
    nothing made), and forgotten again when the engine cannot create the match, unless the
    engine turns out to have it (an attempt whose answer was lost), which makes it whole."""
    if not await svc.store.add_match(record):
        raise errors.ApiError(409, "already_exists", f"match {record.match_id!r} already exists")
    try:
        return await svc.engine.create_match(settings, record.match_id)
    except grpc.aio.AioRpcError as exc:
        if exc.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            with contextlib.suppress(grpc.aio.AioRpcError):
                observation = await svc.engine.observation(record.match_id, -1)
                return pb.CreateMatchResponse(match_id=record.match_id, pending=observation.pending)
        try:
            await svc.store.forget(record.match_id)
        except Exception:  # its Redis went too: the record names no engine match (404s)
            log.warning("could not forget the record of %s", record.match_id, exc_info=True)
        raise
