"""The plain-data state of a match: every field is an int, str, bool, list or a nested
record of these, so the whole state (the response chain and half-resolved effects
included) round-trips through the protobuf snapshot (:mod:`engine.snapshot`).

Zones of physical cards: the draw pile (牌库), the discard pile (弃牌堆), removed from the
game (移出游戏), each seat's hand and intel area, the intel in transmission, and cards on
the response chain. Every card is in exactly one of them at every decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from engine.action import Action

SX = TypeVar("SX", bound="SeatExt")
MX = TypeVar("MX", bound="MatchExt")


@dataclass(slots=True)
class SeatExt:
    """A ruleset's own fields of a seat, beyond what every edition has. A ruleset with some
    subclasses it (a slotted dataclass of plain values, like every record here), lists the
    subclass in ``Ruleset.records`` and gives each seat one (:attr:`Seat.ext`); the
    snapshot keeps it as it keeps the core records. The core reads a seat's record only
    through these methods, which a subclass overrides for what its edition has; the base
    has nothing."""

    def tie(self) -> int:
        """A seat this one is bound to for the whole game, known to everyone (-1: none)."""
        return -1

    def private_character(self) -> str:
        """A character this seat holds face down besides its own, whose mission is part of
        its victory: its owner sees it, everyone once the owner died or won ("": none)."""
        return ""

    def private_task(self) -> str:
        """A card of this seat's own victory condition, dealt with its identity: its owner
        sees it, everyone at game end ("": none)."""
        return ""

    def set_private_character(self, character: str) -> None:
        """Write the private character (a determinization's sample); a record that holds
        none refuses."""
        raise TypeError(f"{type(self).__name__} holds no private character")

    def set_private_task(self, task: str) -> None:
        """Write the private task (a determinization's sample); a record that holds none
        refuses."""
        raise TypeError(f"{type(self).__name__} holds no private task")


@dataclass(slots=True)
class MatchExt:
    """A ruleset's own fields of the match, beyond what every edition has: declared, listed
    and kept like :class:`SeatExt` (:attr:`State.ext`). The core reads it only through these
    methods; the base has nothing."""

    def code_hidden_from(self, seat: int, turn: int) -> bool:
        """This turn's send is bound by a secret code that ``seat`` has not seen (``turn``:
        the turn player's seat)."""
        return False

    def set_code(self, code: str) -> None:
        """Write the secret code binding this turn's send (a determinization's sample)."""
        raise TypeError(f"{type(self).__name__} holds no secret code")

    def face_down_discards(self) -> tuple[tuple[int, int], ...]:
        """The cards of the discard pile that lie face down, each with the seat that
        discarded it (only that seat knows the card), in the order they were laid."""
        return ()

    def lay_face_down(self, card: int, seat: int) -> None:
        """``seat`` discarded ``card`` face down (``Ruleset.hand_discards_face_down``)."""
        raise TypeError(f"{type(self).__name__} keeps no face-down discards")

    def turn_face_up(self, card: int) -> None:
        """``card`` left the discard pile: it lies face down no more."""

    def clear_face_down(self) -> None:
        """The discard pile was shuffled into a new pile: no card of it lies face down."""

    def card_lists(self) -> tuple[list[int], ...]:
        """Every list of card numbers this record holds, for a determinization renaming the
        hidden cards in place."""
        return ()


@dataclass(slots=True)
class Seat:
    """One player: secret identity, hand, received intel (face up, in order), state."""

    identity: str
    hand: list[int] = field(default_factory=list)
    intel: list[int] = field(default_factory=list)
    alive: bool = True
    identity_revealed: bool = False
    character: str = ""
    exposed: bool = True
    options: list[str] = field(default_factory=list)
    """Characters offered at set-up (private to this seat)."""
    ext: SeatExt = field(default_factory=SeatExt)
    """The ruleset's own fields of this seat (its :class:`SeatExt` subclass)."""


@dataclass(slots=True)
class Transit:
    """The intel in transmission (传递中的情报)."""

    card: int
    mode: str
    """secret / direct / text."""
    direction: int
    """+1: to the right (next seat); -1: to the left; 0 for 直达."""
    sender: int
    """The turn player who sent it (传出者); a replaced intel keeps its sender."""
    user: int
    """Whose intel it counts as for kill credit: the sender, or the 转移/调包 user."""
    holder: int
    """The seat it has reached (情报传至)."""
    target: int = -1
    """直达 target."""
    face_up: bool = False
    forced: bool = False
    """The holder cannot decline (转移'd to them, or back at the sender)."""
    known_by: list[int] = field(default_factory=list)
    """Seats that have seen the face-down card (the sender, 破译 users …)."""
    sender_done: bool = False
    """At the sender: the sender has passed its own window (see ``returned``)."""


@dataclass(slots=True)
class Item:
    """One entry of the response chain: a used card or skill, or the declared send
    (``declare``) or the choice to receive (``receive``) that opened the chain."""

    kind: str
    user: int
    card: int = 0
    target: int = -1
    on: int = 0
    code: str = ""
    alt: str = ""
    targets: list[int] = field(default_factory=list)
    """Further target seats (核燃机体's second 危险情报 target, skills naming several)."""
    cards: list[int] = field(default_factory=list)
    """Cards a skill names (costs paid, cards chosen)."""
    held: list[int] = field(default_factory=list)
    """Cards physically on the chain with this item (a skill's card on its way); whatever
    is still held when the item is done goes to the discard pile."""
    ref: int = -1
    """Index of the chain item this one acts on (识破, 离间)."""
    negated: bool = False
    """识破 made it have no effect."""
    void: bool = False
    """Cancelled (a receive that was 截获'd / 调虎离山'd, a 秘密下达 voided by another)."""
    done: bool = False
    """Its effect took place (decides where the card goes afterwards)."""


@dataclass(slots=True)
class Frame:
    """A unit of pending work on the engine's explicit stack (no recursion, no
    generators): a turn, a phase, a response poll, a resolving effect. ``stage`` says how
    far it got; ``answer`` holds the decision just taken for it."""

    kind: str
    seat: int = -1
    stage: int = 0
    index: int = 0
    card: int = 0
    order: list[int] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    answer: Action | None = None
    text: str = ""
    """One word naming what the frame is about: a card function, a skill id, a window, a
    cause (each handler says which). A word, compared whole: nothing splits it."""
    event: str = ""
    """The event a trigger window answers (``targeted``, ``received`` …: the ruleset's
    words), '' for other frames."""
    function: str = ""
    """The card function that event involved (a card that targeted or was used), ''
    when none."""

    def given(self) -> Action:
        """The answer just given (a handler reading it knows there is one)."""
        assert self.answer is not None, f"{self.kind} frame has no answer"
        return self.answer


@dataclass(slots=True)
class Prompt:
    """The open decision: who, what kind, its number, and for ``choose``/``discard``
    prompts the listed options (values: :class:`engine.action.Action`; a snapshot writes
    their canonical text). What is asked is a value: ``key``, a prompt row of the
    ruleset's text table (engine/text.py), and its typed ``args`` (seats, cards, counts,
    ids, printed names); ``text`` is that row's English line for the log, the CLI and the
    scenario files (issue 27)."""

    seat: int
    kind: str
    number: int
    text: str = ""
    options: list[Action] = field(default_factory=list)
    key: str = ""
    args: dict[str, int | str | tuple[int, ...] | tuple[str, ...]] = field(default_factory=dict)


@dataclass(slots=True)
class Kill:
    """A death and the seats credited with it (亲手杀死)."""

    dead: int
    killers: list[int] = field(default_factory=list)
    cause: str = ""
    """The card function or skill id that directly killed (黄雀's mission)."""
    true_intel: int = 0
    """True intel the dead player held when dying (missions count them)."""
    identity: str = ""
    """The dead player's identity (missions that name whom to kill read it)."""


@dataclass(slots=True)
class Mark:
    """A mark a card, skill or rule leaves on the match (单枪匹马's extra send, 乔装's
    borrowed skill, the characters being placed …): a tag saying what it is and its values,
    typed by what they are. Rulesets read and write marks as typed records
    (:mod:`engine.marks`); this is the form the state and the snapshot keep."""

    tag: str
    seats: list[int] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    lasting: bool = False
    """It lasts the game; other marks are cleared when the turn ends."""


@dataclass(slots=True)
class State:
    """The whole match."""

    ruleset: str
    players: int
    seed: int
    tutorial: bool
    characters: bool
    rng: int
    seats: list[Seat]
    pile: list[int] = field(default_factory=list)
    """Draw pile, top = last element."""
    discard: list[int] = field(default_factory=list)
    """Discard pile, top = last element."""
    removed: list[int] = field(default_factory=list)
    turn: int = 0
    turn_number: int = 0
    pile_exhausted_once: bool = False
    transit: Transit | None = None
    received: bool = False
    """This turn's intel has been received successfully (the play phase is over)."""
    locked: list[int] = field(default_factory=list)
    chain: list[Item] = field(default_factory=list)
    timing: str = ""
    """What opened the current chain: main, declare, arrive, returned, receive."""
    stack: list[Frame] = field(default_factory=list)
    prompt: Prompt | None = None
    decision: int = 0
    event_count: int = 0
    over: bool = False
    winners: list[int] = field(default_factory=list)
    reason: str = ""
    end: str = ""
    """Why the game ended, as a value (engine.game.END_REASONS: intel, mission, last_standing,
    nobody_left, other; proto ``EndReason``); ``""`` while it is not over."""
    kills: list[Kill] = field(default_factory=list)
    window: int = 0
    """Serial number of timings (chains, trigger windows): a skill cannot be used twice at
    one timing (a ruleset's mark of a use names it)."""
    fresh: list[int] = field(default_factory=list)
    """Cards drawn by a card or skill during the current chain: they cannot join it
    (rulebook 杀意/窃于无形 notes)."""
    marks: list[Mark] = field(default_factory=list)
    """Marks: per-turn ones of skills (单枪匹马's extra send, 先机后置's choice, 乔装 …)
    and ones that last the game (:class:`engine.marks.Placed`); a ruleset reads and
    writes them as typed records (:mod:`engine.marks`)."""
    cause: str = ""
    """What is placing the intel being received (kill credit cause)."""
    character_pool: list[str] = field(default_factory=list)
    """Characters not dealt (face down), for 绝密任务."""
    pool_setting: list[str] = field(default_factory=list)
    """The characters this match was restricted to at creation (empty: all)."""
    ext: MatchExt = field(default_factory=MatchExt)
    """The ruleset's own fields of the match (its :class:`MatchExt` subclass)."""


def seat_record(seat: Seat, kind: type[SX]) -> SX:
    """``seat``'s own record as the ruleset's type ``kind`` (a ruleset's typed accessor);
    TypeError if the seat holds another ruleset's record."""
    rec = seat.ext
    if not isinstance(rec, kind):
        raise TypeError(f"the seat holds a {type(rec).__name__}, not a {kind.__name__}")
    return rec


def match_record(st: State, kind: type[MX]) -> MX:
    """The match's own record as the ruleset's type ``kind``, like :func:`seat_record`."""
    rec = st.ext
    if not isinstance(rec, kind):
        raise TypeError(f"the match holds a {type(rec).__name__}, not a {kind.__name__}")
    return rec
