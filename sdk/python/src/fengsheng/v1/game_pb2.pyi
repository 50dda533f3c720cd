from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Identity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    IDENTITY_UNSPECIFIED: _ClassVar[Identity]
    MILITARY: _ClassVar[Identity]
    LATENT: _ClassVar[Identity]
    AGENT: _ClassVar[Identity]
    BYSTANDER: _ClassVar[Identity]
    SPECIAL_SERVICE: _ClassVar[Identity]
    MYSTERY: _ClassVar[Identity]

class CardFunction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CARD_FUNCTION_UNSPECIFIED: _ClassVar[CardFunction]
    PROBE: _ClassVar[CardFunction]
    SECRET_ORDER: _ClassVar[CardFunction]
    PUBLIC_TEXT: _ClassVar[CardFunction]
    INTERCEPT: _ClassVar[CardFunction]
    DANGER: _ClassVar[CardFunction]
    LURE_AWAY: _ClassVar[CardFunction]
    BURN: _ClassVar[CardFunction]
    SWAP: _ClassVar[CardFunction]
    SOW_DISCORD: _ClassVar[CardFunction]
    TRANSFER: _ClassVar[CardFunction]
    SEE_THROUGH: _ClassVar[CardFunction]
    REINFORCE: _ClassVar[CardFunction]
    CLASSIFIED: _ClassVar[CardFunction]
    DECRYPT: _ClassVar[CardFunction]
    LOCK: _ClassVar[CardFunction]
    SEND_BACK: _ClassVar[CardFunction]
    TRUE_OR_FALSE: _ClassVar[CardFunction]
    BALANCE: _ClassVar[CardFunction]
    THREATEN: _ClassVar[CardFunction]
    BRIBE: _ClassVar[CardFunction]
    CLARIFY: _ClassVar[CardFunction]
    MISLEAD: _ClassVar[CardFunction]

class Color(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COLOR_UNSPECIFIED: _ClassVar[Color]
    RED: _ClassVar[Color]
    BLUE: _ClassVar[Color]
    BLACK: _ClassVar[Color]
    RED_BLUE: _ClassVar[Color]

class Transmission(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRANSMISSION_UNSPECIFIED: _ClassVar[Transmission]
    SECRET: _ClassVar[Transmission]
    DIRECT: _ClassVar[Transmission]
    TEXT: _ClassVar[Transmission]
    ANY: _ClassVar[Transmission]
    ARROW_LEFT: _ClassVar[Transmission]
    ARROW_RIGHT: _ClassVar[Transmission]
    ARROW_UP: _ClassVar[Transmission]

class EndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    END_REASON_UNSPECIFIED: _ClassVar[EndReason]
    END_INTEL: _ClassVar[EndReason]
    END_MISSION: _ClassVar[EndReason]
    END_LAST_STANDING: _ClassVar[EndReason]
    END_NOBODY_LEFT: _ClassVar[EndReason]
    END_OTHER: _ClassVar[EndReason]
IDENTITY_UNSPECIFIED: Identity
MILITARY: Identity
LATENT: Identity
AGENT: Identity
BYSTANDER: Identity
SPECIAL_SERVICE: Identity
MYSTERY: Identity
CARD_FUNCTION_UNSPECIFIED: CardFunction
PROBE: CardFunction
SECRET_ORDER: CardFunction
PUBLIC_TEXT: CardFunction
INTERCEPT: CardFunction
DANGER: CardFunction
LURE_AWAY: CardFunction
BURN: CardFunction
SWAP: CardFunction
SOW_DISCORD: CardFunction
TRANSFER: CardFunction
SEE_THROUGH: CardFunction
REINFORCE: CardFunction
CLASSIFIED: CardFunction
DECRYPT: CardFunction
LOCK: CardFunction
SEND_BACK: CardFunction
TRUE_OR_FALSE: CardFunction
BALANCE: CardFunction
THREATEN: CardFunction
BRIBE: CardFunction
CLARIFY: CardFunction
MISLEAD: CardFunction
COLOR_UNSPECIFIED: Color
RED: Color
BLUE: Color
BLACK: Color
RED_BLUE: Color
TRANSMISSION_UNSPECIFIED: Transmission
SECRET: Transmission
DIRECT: Transmission
TEXT: Transmission
ANY: Transmission
ARROW_LEFT: Transmission
ARROW_RIGHT: Transmission
ARROW_UP: Transmission
END_REASON_UNSPECIFIED: EndReason
END_INTEL: EndReason
END_MISSION: EndReason
END_LAST_STANDING: EndReason
END_NOBODY_LEFT: EndReason
END_OTHER: EndReason

class Card(_message.Message):
    __slots__ = ("number", "function", "color", "transmission", "direction_any", "encrypted", "lock_icon")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FUNCTION_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    TRANSMISSION_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_ANY_FIELD_NUMBER: _ClassVar[int]
    ENCRYPTED_FIELD_NUMBER: _ClassVar[int]
    LOCK_ICON_FIELD_NUMBER: _ClassVar[int]
    number: int
    function: CardFunction
    color: Color
    transmission: Transmission
    direction_any: bool
    encrypted: bool
    lock_icon: bool
    def __init__(self, number: _Optional[int] = ..., function: _Optional[_Union[CardFunction, str]] = ..., color: _Optional[_Union[Color, str]] = ..., transmission: _Optional[_Union[Transmission, str]] = ..., direction_any: _Optional[bool] = ..., encrypted: _Optional[bool] = ..., lock_icon: _Optional[bool] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "alive", "identity", "identity_revealed", "intel", "hand_count", "hand", "character", "exposed", "locked", "relation", "secret_character", "character_options", "secret_task")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ALIVE_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_FIELD_NUMBER: _ClassVar[int]
    IDENTITY_REVEALED_FIELD_NUMBER: _ClassVar[int]
    INTEL_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_FIELD_NUMBER: _ClassVar[int]
    EXPOSED_FIELD_NUMBER: _ClassVar[int]
    LOCKED_FIELD_NUMBER: _ClassVar[int]
    RELATION_FIELD_NUMBER: _ClassVar[int]
    SECRET_CHARACTER_FIELD_NUMBER: _ClassVar[int]
    CHARACTER_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SECRET_TASK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    alive: bool
    identity: Identity
    identity_revealed: bool
    intel: _containers.RepeatedScalarFieldContainer[int]
    hand_count: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    character: str
    exposed: bool
    locked: bool
    relation: int
    secret_character: str
    character_options: _containers.RepeatedScalarFieldContainer[str]
    secret_task: str
    def __init__(self, seat: _Optional[int] = ..., alive: _Optional[bool] = ..., identity: _Optional[_Union[Identity, str]] = ..., identity_revealed: _Optional[bool] = ..., intel: _Optional[_Iterable[int]] = ..., hand_count: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., character: _Optional[str] = ..., exposed: _Optional[bool] = ..., locked: _Optional[bool] = ..., relation: _Optional[int] = ..., secret_character: _Optional[str] = ..., character_options: _Optional[_Iterable[str]] = ..., secret_task: _Optional[str] = ...) -> None: ...

class Transit(_message.Message):
    __slots__ = ("card", "mode", "direction", "sender", "holder", "target", "face_up", "receiver")
    CARD_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    SENDER_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    RECEIVER_FIELD_NUMBER: _ClassVar[int]
    card: int
    mode: Transmission
    direction: int
    sender: int
    holder: int
    target: int
    face_up: bool
    receiver: int
    def __init__(self, card: _Optional[int] = ..., mode: _Optional[_Union[Transmission, str]] = ..., direction: _Optional[int] = ..., sender: _Optional[int] = ..., holder: _Optional[int] = ..., target: _Optional[int] = ..., face_up: _Optional[bool] = ..., receiver: _Optional[int] = ...) -> None: ...

class ChainItem(_message.Message):
    __slots__ = ("user", "kind", "card", "target", "on", "code", "negated")
    USER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ON_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    NEGATED_FIELD_NUMBER: _ClassVar[int]
    user: int
    kind: str
    card: int
    target: int
    on: int
    code: str
    negated: bool
    def __init__(self, user: _Optional[int] = ..., kind: _Optional[str] = ..., card: _Optional[int] = ..., target: _Optional[int] = ..., on: _Optional[int] = ..., code: _Optional[str] = ..., negated: _Optional[bool] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("seat", "kind", "number", "prompt", "template", "args", "arguments")
    class ArgsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: str
    number: int
    prompt: str
    template: str
    args: _containers.ScalarMap[str, str]
    arguments: _containers.RepeatedCompositeFieldContainer[EventArg]
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[str] = ..., number: _Optional[int] = ..., prompt: _Optional[str] = ..., template: _Optional[str] = ..., args: _Optional[_Mapping[str, str]] = ..., arguments: _Optional[_Iterable[_Union[EventArg, _Mapping]]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("index", "kind", "seat", "text", "audience", "cards", "seats", "template", "args", "format", "action", "shown")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    AUDIENCE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    index: int
    kind: str
    seat: int
    text: str
    audience: _containers.RepeatedScalarFieldContainer[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    template: str
    args: _containers.RepeatedCompositeFieldContainer[EventArg]
    format: int
    action: Action
    shown: Action
    def __init__(self, index: _Optional[int] = ..., kind: _Optional[str] = ..., seat: _Optional[int] = ..., text: _Optional[str] = ..., audience: _Optional[_Iterable[int]] = ..., cards: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[int]] = ..., template: _Optional[str] = ..., args: _Optional[_Iterable[_Union[EventArg, _Mapping]]] = ..., format: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., shown: _Optional[_Union[Action, _Mapping]] = ...) -> None: ...

class EventArg(_message.Message):
    __slots__ = ("name", "seat", "seats", "card", "cards", "count", "id", "ids", "text")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    IDS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat: int
    seats: IntList
    card: int
    cards: IntList
    count: int
    id: str
    ids: StrList
    text: str
    def __init__(self, name: _Optional[str] = ..., seat: _Optional[int] = ..., seats: _Optional[_Union[IntList, _Mapping]] = ..., card: _Optional[int] = ..., cards: _Optional[_Union[IntList, _Mapping]] = ..., count: _Optional[int] = ..., id: _Optional[str] = ..., ids: _Optional[_Union[StrList, _Mapping]] = ..., text: _Optional[str] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("over", "winners", "reason", "killers", "identities", "end_reason", "tasks")
    class KillersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: IntList
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[IntList, _Mapping]] = ...) -> None: ...
    OVER_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    KILLERS_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    over: bool
    winners: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    killers: _containers.MessageMap[int, IntList]
    identities: _containers.RepeatedScalarFieldContainer[Identity]
    end_reason: EndReason
    tasks: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, over: _Optional[bool] = ..., winners: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ..., killers: _Optional[_Mapping[int, IntList]] = ..., identities: _Optional[_Iterable[_Union[Identity, str]]] = ..., end_reason: _Optional[_Union[EndReason, str]] = ..., tasks: _Optional[_Iterable[str]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("text", "kind", "card", "pile", "skill", "to", "on", "chain", "cards", "mode", "arrow", "lock", "code", "alt", "picks", "options", "face")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    ON_FIELD_NUMBER: _ClassVar[int]
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ARROW_FIELD_NUMBER: _ClassVar[int]
    LOCK_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ALT_FIELD_NUMBER: _ClassVar[int]
    PICKS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    FACE_FIELD_NUMBER: _ClassVar[int]
    text: str
    kind: str
    card: int
    pile: bool
    skill: str
    to: _containers.RepeatedScalarFieldContainer[int]
    on: int
    chain: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    mode: str
    arrow: str
    lock: int
    code: str
    alt: str
    picks: _containers.RepeatedScalarFieldContainer[int]
    options: _containers.RepeatedScalarFieldContainer[str]
    face: str
    def __init__(self, text: _Optional[str] = ..., kind: _Optional[str] = ..., card: _Optional[int] = ..., pile: _Optional[bool] = ..., skill: _Optional[str] = ..., to: _Optional[_Iterable[int]] = ..., on: _Optional[int] = ..., chain: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., mode: _Optional[str] = ..., arrow: _Optional[str] = ..., lock: _Optional[int] = ..., code: _Optional[str] = ..., alt: _Optional[str] = ..., picks: _Optional[_Iterable[int]] = ..., options: _Optional[_Iterable[str]] = ..., face: _Optional[str] = ...) -> None: ...

class IntList(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class StrList(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("ruleset", "viewer", "players", "turn", "turn_number", "seats", "transit", "has_transit", "chain", "pending", "legal_actions", "pile_count", "discard", "removed_count", "outcome", "events", "pile_exhausted_once", "discard_face_down", "legal")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TURN_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TRANSIT_FIELD_NUMBER: _ClassVar[int]
    HAS_TRANSIT_FIELD_NUMBER: _ClassVar[int]
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    PILE_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    REMOVED_COUNT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    PILE_EXHAUSTED_ONCE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    viewer: int
    players: int
    turn: int
    turn_number: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    transit: Transit
    has_transit: bool
    chain: _containers.RepeatedCompositeFieldContainer[ChainItem]
    pending: Decision
    legal_actions: _containers.RepeatedScalarFieldContainer[str]
    pile_count: int
    discard: _containers.RepeatedScalarFieldContainer[int]
    removed_count: int
    outcome: Outcome
    events: _containers.RepeatedCompositeFieldContainer[Event]
    pile_exhausted_once: bool
    discard_face_down: _containers.RepeatedScalarFieldContainer[int]
    legal: _containers.RepeatedCompositeFieldContainer[Action]
    def __init__(self, ruleset: _Optional[str] = ..., viewer: _Optional[int] = ..., players: _Optional[int] = ..., turn: _Optional[int] = ..., turn_number: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., transit: _Optional[_Union[Transit, _Mapping]] = ..., has_transit: _Optional[bool] = ..., chain: _Optional[_Iterable[_Union[ChainItem, _Mapping]]] = ..., pending: _Optional[_Union[Decision, _Mapping]] = ..., legal_actions: _Optional[_Iterable[str]] = ..., pile_count: _Optional[int] = ..., discard: _Optional[_Iterable[int]] = ..., removed_count: _Optional[int] = ..., outcome: _Optional[_Union[Outcome, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., pile_exhausted_once: _Optional[bool] = ..., discard_face_down: _Optional[_Iterable[int]] = ..., legal: _Optional[_Iterable[_Union[Action, _Mapping]]] = ...) -> None: ...

class Record(_message.Message):
    __slots__ = ("kind", "fields")
    KIND_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    fields: _containers.RepeatedCompositeFieldContainer[Field]
    def __init__(self, kind: _Optional[str] = ..., fields: _Optional[_Iterable[_Union[Field, _Mapping]]] = ...) -> None: ...

class RecordList(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedCompositeFieldContainer[Record]
    def __init__(self, values: _Optional[_Iterable[_Union[Record, _Mapping]]] = ...) -> None: ...

class Field(_message.Message):
    __slots__ = ("name", "int", "str", "flag", "ints", "strs", "record", "records", "none", "big")
    NAME_FIELD_NUMBER: _ClassVar[int]
    INT_FIELD_NUMBER: _ClassVar[int]
    STR_FIELD_NUMBER: _ClassVar[int]
    FLAG_FIELD_NUMBER: _ClassVar[int]
    INTS_FIELD_NUMBER: _ClassVar[int]
    STRS_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    NONE_FIELD_NUMBER: _ClassVar[int]
    BIG_FIELD_NUMBER: _ClassVar[int]
    name: str
    int: int
    str: str
    flag: bool
    ints: IntList
    strs: StrList
    record: Record
    records: RecordList
    none: bool
    big: int
    def __init__(self, name: _Optional[str] = ..., int: _Optional[int] = ..., str: _Optional[str] = ..., flag: _Optional[bool] = ..., ints: _Optional[_Union[IntList, _Mapping]] = ..., strs: _Optional[_Union[StrList, _Mapping]] = ..., record: _Optional[_Union[Record, _Mapping]] = ..., records: _Optional[_Union[RecordList, _Mapping]] = ..., none: _Optional[bool] = ..., big: _Optional[int] = ...) -> None: ...

class Snapshot(_message.Message):
    __slots__ = ("format", "ruleset", "players", "decision_number", "game_over", "state")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DECISION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    format: int
    ruleset: str
    players: int
    decision_number: int
    game_over: bool
    state: Record
    def __init__(self, format: _Optional[int] = ..., ruleset: _Optional[str] = ..., players: _Optional[int] = ..., decision_number: _Optional[int] = ..., game_over: _Optional[bool] = ..., state: _Optional[_Union[Record, _Mapping]] = ...) -> None: ...
