from fengsheng.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    HUMAN: _ClassVar[SeatKind]
    BOT_RANDOM: _ClassVar[SeatKind]
    BOT_HEURISTIC: _ClassVar[SeatKind]
    BOT_EXTERNAL: _ClassVar[SeatKind]
    BOT_V2: _ClassVar[SeatKind]
    BOT_SEARCH: _ClassVar[SeatKind]
SEAT_KIND_UNSPECIFIED: SeatKind
HUMAN: SeatKind
BOT_RANDOM: SeatKind
BOT_HEURISTIC: SeatKind
BOT_EXTERNAL: SeatKind
BOT_V2: SeatKind
BOT_SEARCH: SeatKind

class MatchSettings(_message.Message):
    __slots__ = ("ruleset", "players", "seed", "tutorial", "characters", "seats", "turn_timeout_ms", "bot_delay_ms", "time_bank_ms")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TUTORIAL_FIELD_NUMBER: _ClassVar[int]
    CHARACTERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TURN_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    BOT_DELAY_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    players: int
    seed: int
    tutorial: bool
    characters: bool
    seats: _containers.RepeatedScalarFieldContainer[SeatKind]
    turn_timeout_ms: int
    bot_delay_ms: int
    time_bank_ms: int
    def __init__(self, ruleset: _Optional[str] = ..., players: _Optional[int] = ..., seed: _Optional[int] = ..., tutorial: _Optional[bool] = ..., characters: _Optional[bool] = ..., seats: _Optional[_Iterable[_Union[SeatKind, str]]] = ..., turn_timeout_ms: _Optional[int] = ..., bot_delay_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("settings", "match_id")
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    settings: MatchSettings
    match_id: str
    def __init__(self, settings: _Optional[_Union[MatchSettings, _Mapping]] = ..., match_id: _Optional[str] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match_id", "pending")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    pending: _game_pb2.Decision
    def __init__(self, match_id: _Optional[str] = ..., pending: _Optional[_Union[_game_pb2.Decision, _Mapping]] = ...) -> None: ...

class GetObservationRequest(_message.Message):
    __slots__ = ("match_id", "seat", "include_events")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_EVENTS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    include_events: bool
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., include_events: _Optional[bool] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class LegalActions(_message.Message):
    __slots__ = ("decision", "seat_to_act", "actions", "default_action", "legal")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SEAT_TO_ACT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ACTION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    decision: int
    seat_to_act: int
    actions: _containers.RepeatedScalarFieldContainer[str]
    default_action: str
    legal: _containers.RepeatedCompositeFieldContainer[_game_pb2.Action]
    def __init__(self, decision: _Optional[int] = ..., seat_to_act: _Optional[int] = ..., actions: _Optional[_Iterable[str]] = ..., default_action: _Optional[str] = ..., legal: _Optional[_Iterable[_Union[_game_pb2.Action, _Mapping]]] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("match_id", "seat", "decision", "action", "origin", "use_default", "want_next_legal", "play_next_bot", "want_observation")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    USE_DEFAULT_FIELD_NUMBER: _ClassVar[int]
    WANT_NEXT_LEGAL_FIELD_NUMBER: _ClassVar[int]
    PLAY_NEXT_BOT_FIELD_NUMBER: _ClassVar[int]
    WANT_OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    decision: int
    action: str
    origin: str
    use_default: bool
    want_next_legal: bool
    play_next_bot: bool
    want_observation: bool
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., decision: _Optional[int] = ..., action: _Optional[str] = ..., origin: _Optional[str] = ..., use_default: _Optional[bool] = ..., want_next_legal: _Optional[bool] = ..., play_next_bot: _Optional[bool] = ..., want_observation: _Optional[bool] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("version", "pending", "outcome", "applied", "next", "next_bot", "observation", "error")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    APPLIED_FIELD_NUMBER: _ClassVar[int]
    NEXT_FIELD_NUMBER: _ClassVar[int]
    NEXT_BOT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    version: int
    pending: _game_pb2.Decision
    outcome: _game_pb2.Outcome
    applied: _containers.RepeatedScalarFieldContainer[str]
    next: LegalActions
    next_bot: BotTurn
    observation: _game_pb2.Observation
    error: ActError
    def __init__(self, version: _Optional[int] = ..., pending: _Optional[_Union[_game_pb2.Decision, _Mapping]] = ..., outcome: _Optional[_Union[_game_pb2.Outcome, _Mapping]] = ..., applied: _Optional[_Iterable[str]] = ..., next: _Optional[_Union[LegalActions, _Mapping]] = ..., next_bot: _Optional[_Union[BotTurn, _Mapping]] = ..., observation: _Optional[_Union[_game_pb2.Observation, _Mapping]] = ..., error: _Optional[_Union[ActError, _Mapping]] = ...) -> None: ...

class ActError(_message.Message):
    __slots__ = ("code", "kind", "message", "decision", "seat_to_act", "legal")
    CODE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SEAT_TO_ACT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    code: int
    kind: str
    message: str
    decision: int
    seat_to_act: int
    legal: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, code: _Optional[int] = ..., kind: _Optional[str] = ..., message: _Optional[str] = ..., decision: _Optional[int] = ..., seat_to_act: _Optional[int] = ..., legal: _Optional[_Iterable[str]] = ...) -> None: ...

class BotTurn(_message.Message):
    __slots__ = ("seat", "decision", "policy", "observation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decision: int
    policy: str
    observation: _game_pb2.Observation
    def __init__(self, seat: _Optional[int] = ..., decision: _Optional[int] = ..., policy: _Optional[str] = ..., observation: _Optional[_Union[_game_pb2.Observation, _Mapping]] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("match_id", "seat", "from_event_id", "with_observation")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FROM_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    WITH_OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    from_event_id: str
    with_observation: bool
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., from_event_id: _Optional[str] = ..., with_observation: _Optional[bool] = ...) -> None: ...

class WatchEvent(_message.Message):
    __slots__ = ("event_id", "event", "pending", "outcome", "observation")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    event_id: str
    event: _game_pb2.Event
    pending: _game_pb2.Decision
    outcome: _game_pb2.Outcome
    observation: _game_pb2.Observation
    def __init__(self, event_id: _Optional[str] = ..., event: _Optional[_Union[_game_pb2.Event, _Mapping]] = ..., pending: _Optional[_Union[_game_pb2.Decision, _Mapping]] = ..., outcome: _Optional[_Union[_game_pb2.Outcome, _Mapping]] = ..., observation: _Optional[_Union[_game_pb2.Observation, _Mapping]] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class ReplayAction(_message.Message):
    __slots__ = ("seat", "action", "decision")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: str
    decision: int
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[str] = ..., decision: _Optional[int] = ...) -> None: ...

class Replay(_message.Message):
    __slots__ = ("settings", "actions", "final_snapshot", "outcome")
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    FINAL_SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    settings: MatchSettings
    actions: _containers.RepeatedCompositeFieldContainer[ReplayAction]
    final_snapshot: bytes
    outcome: _game_pb2.Outcome
    def __init__(self, settings: _Optional[_Union[MatchSettings, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[ReplayAction, _Mapping]]] = ..., final_snapshot: _Optional[bytes] = ..., outcome: _Optional[_Union[_game_pb2.Outcome, _Mapping]] = ...) -> None: ...

class GetReplayStepsRequest(_message.Message):
    __slots__ = ("match_id", "view", "from_step", "max_steps", "last", "finished_only")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    FROM_STEP_FIELD_NUMBER: _ClassVar[int]
    MAX_STEPS_FIELD_NUMBER: _ClassVar[int]
    LAST_FIELD_NUMBER: _ClassVar[int]
    FINISHED_ONLY_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    view: int
    from_step: int
    max_steps: int
    last: bool
    finished_only: bool
    def __init__(self, match_id: _Optional[str] = ..., view: _Optional[int] = ..., from_step: _Optional[int] = ..., max_steps: _Optional[int] = ..., last: _Optional[bool] = ..., finished_only: _Optional[bool] = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ("step", "seat", "action", "decision", "pending", "observation", "events", "acted")
    STEP_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ACTED_FIELD_NUMBER: _ClassVar[int]
    step: int
    seat: int
    action: str
    decision: int
    pending: int
    observation: _game_pb2.Observation
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    acted: _game_pb2.Event
    def __init__(self, step: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[str] = ..., decision: _Optional[int] = ..., pending: _Optional[int] = ..., observation: _Optional[_Union[_game_pb2.Observation, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., acted: _Optional[_Union[_game_pb2.Event, _Mapping]] = ...) -> None: ...

class ReplaySteps(_message.Message):
    __slots__ = ("match_id", "view", "settings", "outcome", "total_steps", "from_step", "next_step", "steps", "players")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TOTAL_STEPS_FIELD_NUMBER: _ClassVar[int]
    FROM_STEP_FIELD_NUMBER: _ClassVar[int]
    NEXT_STEP_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    view: int
    settings: MatchSettings
    outcome: _game_pb2.Outcome
    total_steps: int
    from_step: int
    next_step: int
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    players: int
    def __init__(self, match_id: _Optional[str] = ..., view: _Optional[int] = ..., settings: _Optional[_Union[MatchSettings, _Mapping]] = ..., outcome: _Optional[_Union[_game_pb2.Outcome, _Mapping]] = ..., total_steps: _Optional[int] = ..., from_step: _Optional[int] = ..., next_step: _Optional[int] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., players: _Optional[int] = ...) -> None: ...

class ListRulesetsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DeckCard(_message.Message):
    __slots__ = ("number", "function", "function_zh", "color", "transmission", "direction_any", "encrypted", "lock_icon", "text_zh", "text_en")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_ZH_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    TRANSMISSION_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_ANY_FIELD_NUMBER: _ClassVar[int]
    ENCRYPTED_FIELD_NUMBER: _ClassVar[int]
    LOCK_ICON_FIELD_NUMBER: _ClassVar[int]
    TEXT_ZH_FIELD_NUMBER: _ClassVar[int]
    TEXT_EN_FIELD_NUMBER: _ClassVar[int]
    number: int
    function: str
    function_zh: str
    color: str
    transmission: str
    direction_any: bool
    encrypted: bool
    lock_icon: bool
    text_zh: str
    text_en: str
    def __init__(self, number: _Optional[int] = ..., function: _Optional[str] = ..., function_zh: _Optional[str] = ..., color: _Optional[str] = ..., transmission: _Optional[str] = ..., direction_any: _Optional[bool] = ..., encrypted: _Optional[bool] = ..., lock_icon: _Optional[bool] = ..., text_zh: _Optional[str] = ..., text_en: _Optional[str] = ...) -> None: ...

class CharacterEntry(_message.Message):
    __slots__ = ("id", "zh", "en", "skills", "skills_zh", "mission", "skills_text_zh", "skills_text_en", "mission_zh")
    ID_FIELD_NUMBER: _ClassVar[int]
    ZH_FIELD_NUMBER: _ClassVar[int]
    EN_FIELD_NUMBER: _ClassVar[int]
    SKILLS_FIELD_NUMBER: _ClassVar[int]
    SKILLS_ZH_FIELD_NUMBER: _ClassVar[int]
    MISSION_FIELD_NUMBER: _ClassVar[int]
    SKILLS_TEXT_ZH_FIELD_NUMBER: _ClassVar[int]
    SKILLS_TEXT_EN_FIELD_NUMBER: _ClassVar[int]
    MISSION_ZH_FIELD_NUMBER: _ClassVar[int]
    id: str
    zh: str
    en: str
    skills: _containers.RepeatedScalarFieldContainer[str]
    skills_zh: _containers.RepeatedScalarFieldContainer[str]
    mission: str
    skills_text_zh: _containers.RepeatedScalarFieldContainer[str]
    skills_text_en: _containers.RepeatedScalarFieldContainer[str]
    mission_zh: str
    def __init__(self, id: _Optional[str] = ..., zh: _Optional[str] = ..., en: _Optional[str] = ..., skills: _Optional[_Iterable[str]] = ..., skills_zh: _Optional[_Iterable[str]] = ..., mission: _Optional[str] = ..., skills_text_zh: _Optional[_Iterable[str]] = ..., skills_text_en: _Optional[_Iterable[str]] = ..., mission_zh: _Optional[str] = ...) -> None: ...

class TextTemplate(_message.Message):
    __slots__ = ("key", "scope", "kind", "zh", "en", "match")
    KEY_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ZH_FIELD_NUMBER: _ClassVar[int]
    EN_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    key: str
    scope: str
    kind: str
    zh: str
    en: str
    match: str
    def __init__(self, key: _Optional[str] = ..., scope: _Optional[str] = ..., kind: _Optional[str] = ..., zh: _Optional[str] = ..., en: _Optional[str] = ..., match: _Optional[str] = ...) -> None: ...

class RulesetInfo(_message.Message):
    __slots__ = ("id", "zh", "players", "identities", "identity_table", "characters", "character_table", "cards", "texts")
    class IdentityTableEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: _game_pb2.IntList
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[_game_pb2.IntList, _Mapping]] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    ZH_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_TABLE_FIELD_NUMBER: _ClassVar[int]
    CHARACTERS_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_TABLE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    zh: str
    players: _containers.RepeatedScalarFieldContainer[int]
    identities: _containers.RepeatedScalarFieldContainer[str]
    identity_table: _containers.MessageMap[int, _game_pb2.IntList]
    characters: bool
    character_table: _containers.RepeatedCompositeFieldContainer[CharacterEntry]
    cards: _containers.RepeatedCompositeFieldContainer[DeckCard]
    texts: _containers.RepeatedCompositeFieldContainer[TextTemplate]
    def __init__(self, id: _Optional[str] = ..., zh: _Optional[str] = ..., players: _Optional[_Iterable[int]] = ..., identities: _Optional[_Iterable[str]] = ..., identity_table: _Optional[_Mapping[int, _game_pb2.IntList]] = ..., characters: _Optional[bool] = ..., character_table: _Optional[_Iterable[_Union[CharacterEntry, _Mapping]]] = ..., cards: _Optional[_Iterable[_Union[DeckCard, _Mapping]]] = ..., texts: _Optional[_Iterable[_Union[TextTemplate, _Mapping]]] = ...) -> None: ...

class Rulesets(_message.Message):
    __slots__ = ("rulesets", "default_ruleset")
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_RULESET_FIELD_NUMBER: _ClassVar[int]
    rulesets: _containers.RepeatedCompositeFieldContainer[RulesetInfo]
    default_ruleset: str
    def __init__(self, rulesets: _Optional[_Iterable[_Union[RulesetInfo, _Mapping]]] = ..., default_ruleset: _Optional[str] = ...) -> None: ...

class DeterminizeRequest(_message.Message):
    __slots__ = ("match_id", "seat", "seed")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    seed: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class DeterminizeResponse(_message.Message):
    __slots__ = ("snapshot", "decision")
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    snapshot: bytes
    decision: int
    def __init__(self, snapshot: _Optional[bytes] = ..., decision: _Optional[int] = ...) -> None: ...

class SeatOptionsRequest(_message.Message):
    __slots__ = ("match_id", "seat", "options")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    options: SeatOptions
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., options: _Optional[_Union[SeatOptions, _Mapping]] = ...) -> None: ...

class SeatOptions(_message.Message):
    __slots__ = ("ask_every_decision",)
    ASK_EVERY_DECISION_FIELD_NUMBER: _ClassVar[int]
    ask_every_decision: bool
    def __init__(self, ask_every_decision: _Optional[bool] = ...) -> None: ...
