from fengsheng.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BotMessage(_message.Message):
    __slots__ = ("action", "join_queue", "leave_queue", "events", "table", "answer")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    JOIN_QUEUE_FIELD_NUMBER: _ClassVar[int]
    LEAVE_QUEUE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    action: BotAction
    join_queue: QueueRequest
    leave_queue: TicketRequest
    events: EventsRequest
    table: TableRequest
    answer: ChallengeAnswer
    def __init__(self, action: _Optional[_Union[BotAction, _Mapping]] = ..., join_queue: _Optional[_Union[QueueRequest, _Mapping]] = ..., leave_queue: _Optional[_Union[TicketRequest, _Mapping]] = ..., events: _Optional[_Union[EventsRequest, _Mapping]] = ..., table: _Optional[_Union[TableRequest, _Mapping]] = ..., answer: _Optional[_Union[ChallengeAnswer, _Mapping]] = ...) -> None: ...

class ChallengeAnswer(_message.Message):
    __slots__ = ("ticket_id", "accept", "holder", "name", "bot_token")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    accept: bool
    holder: str
    name: str
    bot_token: str
    def __init__(self, ticket_id: _Optional[str] = ..., accept: _Optional[bool] = ..., holder: _Optional[str] = ..., name: _Optional[str] = ..., bot_token: _Optional[str] = ...) -> None: ...

class TableRequest(_message.Message):
    __slots__ = ("ruleset", "players", "seats", "holder", "name", "bot_token", "queue", "fill_after_ms", "clock_ms", "bank_ms")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FIELD_NUMBER: _ClassVar[int]
    FILL_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    players: int
    seats: _containers.RepeatedScalarFieldContainer[str]
    holder: str
    name: str
    bot_token: str
    queue: bool
    fill_after_ms: int
    clock_ms: int
    bank_ms: int
    def __init__(self, ruleset: _Optional[str] = ..., players: _Optional[int] = ..., seats: _Optional[_Iterable[str]] = ..., holder: _Optional[str] = ..., name: _Optional[str] = ..., bot_token: _Optional[str] = ..., queue: _Optional[bool] = ..., fill_after_ms: _Optional[int] = ..., clock_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class EventsRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class BotAction(_message.Message):
    __slots__ = ("match_id", "seat", "decision", "action", "use_default")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    USE_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    decision: int
    action: str
    use_default: bool
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., decision: _Optional[int] = ..., action: _Optional[str] = ..., use_default: _Optional[bool] = ...) -> None: ...

class QueueRequest(_message.Message):
    __slots__ = ("min_players", "max_players", "ruleset")
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    min_players: int
    max_players: int
    ruleset: str
    def __init__(self, min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., ruleset: _Optional[str] = ...) -> None: ...

class ServerMessage(_message.Message):
    __slots__ = ("welcome", "ticket", "match_start", "decision", "result", "error", "match_end", "defaulted", "history", "event", "server_ms")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    TICKET_FIELD_NUMBER: _ClassVar[int]
    MATCH_START_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    DEFAULTED_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    SERVER_MS_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    ticket: Ticket
    match_start: MatchStart
    decision: DecisionRequest
    result: ActionResult
    error: BotError
    match_end: MatchEnd
    defaulted: Defaulted
    history: EventHistory
    event: SeatEvent
    server_ms: int
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., ticket: _Optional[_Union[Ticket, _Mapping]] = ..., match_start: _Optional[_Union[MatchStart, _Mapping]] = ..., decision: _Optional[_Union[DecisionRequest, _Mapping]] = ..., result: _Optional[_Union[ActionResult, _Mapping]] = ..., error: _Optional[_Union[BotError, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ..., defaulted: _Optional[_Union[Defaulted, _Mapping]] = ..., history: _Optional[_Union[EventHistory, _Mapping]] = ..., event: _Optional[_Union[SeatEvent, _Mapping]] = ..., server_ms: _Optional[int] = ...) -> None: ...

class Defaulted(_message.Message):
    __slots__ = ("match_id", "seat", "decision", "applied", "reason", "away")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    AWAY_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    decision: int
    applied: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    away: bool
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., decision: _Optional[int] = ..., applied: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ..., away: _Optional[bool] = ...) -> None: ...

class SeatEvent(_message.Message):
    __slots__ = ("match_id", "seat", "event")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    event: _game_pb2.Event
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., event: _Optional[_Union[_game_pb2.Event, _Mapping]] = ...) -> None: ...

class EventHistory(_message.Message):
    __slots__ = ("match_id", "seat", "events")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("bot_id", "name", "max_concurrent_matches", "actions_per_s", "burst", "active_matches")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENT_MATCHES_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_PER_S_FIELD_NUMBER: _ClassVar[int]
    BURST_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_MATCHES_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    max_concurrent_matches: int
    actions_per_s: float
    burst: int
    active_matches: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., max_concurrent_matches: _Optional[int] = ..., actions_per_s: _Optional[float] = ..., burst: _Optional[int] = ..., active_matches: _Optional[_Iterable[str]] = ...) -> None: ...

class Ticket(_message.Message):
    __slots__ = ("ticket_id", "holder", "name", "bot", "state", "min_players", "max_players", "rating", "enqueued_ms", "match_id", "seat", "seats", "turn_timeout_ms", "ruleset", "expires_ms", "challenger")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    ENQUEUED_MS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TURN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_MS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGER_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    holder: str
    name: str
    bot: bool
    state: str
    min_players: int
    max_players: int
    rating: float
    enqueued_ms: int
    match_id: str
    seat: int
    seats: _containers.RepeatedScalarFieldContainer[str]
    turn_timeout_ms: int
    ruleset: str
    expires_ms: int
    challenger: str
    def __init__(self, ticket_id: _Optional[str] = ..., holder: _Optional[str] = ..., name: _Optional[str] = ..., bot: _Optional[bool] = ..., state: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., rating: _Optional[float] = ..., enqueued_ms: _Optional[int] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., seats: _Optional[_Iterable[str]] = ..., turn_timeout_ms: _Optional[int] = ..., ruleset: _Optional[str] = ..., expires_ms: _Optional[int] = ..., challenger: _Optional[str] = ...) -> None: ...

class MatchStart(_message.Message):
    __slots__ = ("match_id", "seats", "players", "events", "clock_ms", "bank_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    players: int
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    clock_ms: int
    bank_ms: int
    def __init__(self, match_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., players: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., clock_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("match_id", "seat", "decision", "observation", "legal_actions", "default_action", "deadline_ms", "bank_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ACTION_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    decision: int
    observation: _game_pb2.Observation
    legal_actions: _containers.RepeatedScalarFieldContainer[str]
    default_action: str
    deadline_ms: int
    bank_ms: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., decision: _Optional[int] = ..., observation: _Optional[_Union[_game_pb2.Observation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[str]] = ..., default_action: _Optional[str] = ..., deadline_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class ActionResult(_message.Message):
    __slots__ = ("match_id", "seat", "decision", "applied")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    decision: int
    applied: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., decision: _Optional[int] = ..., applied: _Optional[_Iterable[str]] = ...) -> None: ...

class BotError(_message.Message):
    __slots__ = ("code", "kind", "message", "match_id", "seat", "decision", "legal_actions", "retry_after_ms")
    CODE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    RETRY_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    code: str
    kind: str
    message: str
    match_id: str
    seat: int
    decision: int
    legal_actions: _containers.RepeatedScalarFieldContainer[str]
    retry_after_ms: int
    def __init__(self, code: _Optional[str] = ..., kind: _Optional[str] = ..., message: _Optional[str] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., decision: _Optional[int] = ..., legal_actions: _Optional[_Iterable[str]] = ..., retry_after_ms: _Optional[int] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("match_id", "outcome", "seats", "events")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    outcome: _game_pb2.Outcome
    seats: _containers.RepeatedScalarFieldContainer[int]
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    def __init__(self, match_id: _Optional[str] = ..., outcome: _Optional[_Union[_game_pb2.Outcome, _Mapping]] = ..., seats: _Optional[_Iterable[int]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ...) -> None: ...

class RegisterBotRequest(_message.Message):
    __slots__ = ("name", "owner")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    name: str
    owner: str
    def __init__(self, name: _Optional[str] = ..., owner: _Optional[str] = ...) -> None: ...

class BotAccount(_message.Message):
    __slots__ = ("bot_id", "name", "token", "token_id")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    token: str
    token_id: str
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., token: _Optional[str] = ..., token_id: _Optional[str] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ("owner", "bot_token")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    owner: str
    bot_token: str
    def __init__(self, owner: _Optional[str] = ..., bot_token: _Optional[str] = ...) -> None: ...

class BotTokenInfo(_message.Message):
    __slots__ = ("token_id", "created_ms")
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    token_id: str
    created_ms: int
    def __init__(self, token_id: _Optional[str] = ..., created_ms: _Optional[int] = ...) -> None: ...

class BotTokens(_message.Message):
    __slots__ = ("bot_id", "name", "created_ms", "tokens")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    created_ms: int
    tokens: _containers.RepeatedCompositeFieldContainer[BotTokenInfo]
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., created_ms: _Optional[int] = ..., tokens: _Optional[_Iterable[_Union[BotTokenInfo, _Mapping]]] = ...) -> None: ...

class BotList(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotTokens]
    def __init__(self, bots: _Optional[_Iterable[_Union[BotTokens, _Mapping]]] = ...) -> None: ...

class RevokeTokenRequest(_message.Message):
    __slots__ = ("bot_id", "token_id", "owner", "bot_token")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    token_id: str
    owner: str
    bot_token: str
    def __init__(self, bot_id: _Optional[str] = ..., token_id: _Optional[str] = ..., owner: _Optional[str] = ..., bot_token: _Optional[str] = ...) -> None: ...

class RotateTokenRequest(_message.Message):
    __slots__ = ("bot_id", "owner", "bot_token")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    owner: str
    bot_token: str
    def __init__(self, bot_id: _Optional[str] = ..., owner: _Optional[str] = ..., bot_token: _Optional[str] = ...) -> None: ...

class JoinQueueRequest(_message.Message):
    __slots__ = ("holder", "name", "bot_token", "min_players", "max_players", "ruleset", "client_address")
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    holder: str
    name: str
    bot_token: str
    min_players: int
    max_players: int
    ruleset: str
    client_address: str
    def __init__(self, holder: _Optional[str] = ..., name: _Optional[str] = ..., bot_token: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., ruleset: _Optional[str] = ..., client_address: _Optional[str] = ...) -> None: ...

class TicketRequest(_message.Message):
    __slots__ = ("ticket_id", "holder", "bot_token")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    BOT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    holder: str
    bot_token: str
    def __init__(self, ticket_id: _Optional[str] = ..., holder: _Optional[str] = ..., bot_token: _Optional[str] = ...) -> None: ...

class FollowRequest(_message.Message):
    __slots__ = ("holder",)
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    holder: str
    def __init__(self, holder: _Optional[str] = ...) -> None: ...

class LeaderboardRequest(_message.Message):
    __slots__ = ("ladder", "season", "limit", "ruleset")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    season: str
    limit: int
    ruleset: str
    def __init__(self, ladder: _Optional[str] = ..., season: _Optional[str] = ..., limit: _Optional[int] = ..., ruleset: _Optional[str] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("rank", "player_id", "name", "bot", "score", "mu", "sigma", "games", "wins", "provisional")
    RANK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    rank: int
    player_id: str
    name: str
    bot: bool
    score: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool
    def __init__(self, rank: _Optional[int] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., bot: _Optional[bool] = ..., score: _Optional[float] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., provisional: _Optional[bool] = ...) -> None: ...

class LeaderboardResponse(_message.Message):
    __slots__ = ("ladder", "season", "standings", "ruleset", "rulesets")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    season: str
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    ruleset: str
    rulesets: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ladder: _Optional[str] = ..., season: _Optional[str] = ..., standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., ruleset: _Optional[str] = ..., rulesets: _Optional[_Iterable[str]] = ...) -> None: ...

class HistoryRequest(_message.Message):
    __slots__ = ("ladder", "player_id", "limit", "ruleset")
    LADDER_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ladder: str
    player_id: str
    limit: int
    ruleset: str
    def __init__(self, ladder: _Optional[str] = ..., player_id: _Optional[str] = ..., limit: _Optional[int] = ..., ruleset: _Optional[str] = ...) -> None: ...

class HistoryResponse(_message.Message):
    __slots__ = ("entries",)
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, entries: _Optional[_Iterable[str]] = ...) -> None: ...

class AuditRequest(_message.Message):
    __slots__ = ("ruleset", "matches", "all", "limit", "z")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    ALL_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    Z_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    matches: int
    all: bool
    limit: int
    z: float
    def __init__(self, ruleset: _Optional[str] = ..., matches: _Optional[int] = ..., all: _Optional[bool] = ..., limit: _Optional[int] = ..., z: _Optional[float] = ...) -> None: ...

class AuditReport(_message.Message):
    __slots__ = ("json",)
    JSON_FIELD_NUMBER: _ClassVar[int]
    json: str
    def __init__(self, json: _Optional[str] = ...) -> None: ...

class RankedMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class RankedSeat(_message.Message):
    __slots__ = ("seat", "kind", "player_id", "name", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: str
    player_id: str
    name: str
    bot: bool
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[str] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., bot: _Optional[bool] = ...) -> None: ...

class RankedMatch(_message.Message):
    __slots__ = ("match_id", "season", "seats", "created_ms", "rated", "ruleset", "turn_timeout_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    TURN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    season: str
    seats: _containers.RepeatedCompositeFieldContainer[RankedSeat]
    created_ms: int
    rated: bool
    ruleset: str
    turn_timeout_ms: int
    def __init__(self, match_id: _Optional[str] = ..., season: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[RankedSeat, _Mapping]]] = ..., created_ms: _Optional[int] = ..., rated: _Optional[bool] = ..., ruleset: _Optional[str] = ..., turn_timeout_ms: _Optional[int] = ...) -> None: ...

class BotProfileRequest(_message.Message):
    __slots__ = ("bot_id", "limit", "ruleset")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    limit: int
    ruleset: str
    def __init__(self, bot_id: _Optional[str] = ..., limit: _Optional[int] = ..., ruleset: _Optional[str] = ...) -> None: ...

class RatingView(_message.Message):
    __slots__ = ("score", "mu", "sigma", "games", "wins", "provisional")
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    score: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool
    def __init__(self, score: _Optional[float] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., provisional: _Optional[bool] = ...) -> None: ...

class BotProfile(_message.Message):
    __slots__ = ("bot_id", "name", "created_ms", "all_time", "season", "season_name", "active_matches", "recent", "ruleset", "rulesets")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_MS_FIELD_NUMBER: _ClassVar[int]
    ALL_TIME_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    SEASON_NAME_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_MATCHES_FIELD_NUMBER: _ClassVar[int]
    RECENT_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    created_ms: int
    all_time: RatingView
    season: RatingView
    season_name: str
    active_matches: int
    recent: _containers.RepeatedScalarFieldContainer[str]
    ruleset: str
    rulesets: _containers.RepeatedCompositeFieldContainer[RulesetRatings]
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., created_ms: _Optional[int] = ..., all_time: _Optional[_Union[RatingView, _Mapping]] = ..., season: _Optional[_Union[RatingView, _Mapping]] = ..., season_name: _Optional[str] = ..., active_matches: _Optional[int] = ..., recent: _Optional[_Iterable[str]] = ..., ruleset: _Optional[str] = ..., rulesets: _Optional[_Iterable[_Union[RulesetRatings, _Mapping]]] = ...) -> None: ...

class RulesetRatings(_message.Message):
    __slots__ = ("ruleset", "all_time", "season")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    ALL_TIME_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    all_time: RatingView
    season: RatingView
    def __init__(self, ruleset: _Optional[str] = ..., all_time: _Optional[_Union[RatingView, _Mapping]] = ..., season: _Optional[_Union[RatingView, _Mapping]] = ...) -> None: ...

class OwnTokenRequest(_message.Message):
    __slots__ = ("token_id",)
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    token_id: str
    def __init__(self, token_id: _Optional[str] = ...) -> None: ...
