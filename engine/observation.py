"""The view of one seat (OpenSpiel's observer): only what that seat may know.

A seat sees its own hand and identity, every public zone (intel areas, the discard pile
with a face-down card shown as 0 unless the seat discarded it, counts), identities that
were revealed, the intel in transmission when it is face up or the seat has seen it (as
its sender, by 破译 …), the chain with face-down cards (试探, 秘密下达) shown only to
their user and target, and the events addressed to it.
A spectator (seat -1) sees public information only.

How a view is built (speed: a search bot asks for one at every decision, issue 14 point 8).
Building a protobuf message field by field costs ~1 µs per sub-message; parsing bytes costs
almost nothing. So a view is assembled from *pieces*: each piece is a small ``Observation``
holding one part (the counts, one seat, one chain item, the prompt …), serialized, and kept
in a table keyed by exactly the values it shows, so the same seat or prompt is built once
and then reused across decisions and games. The view is the pieces joined and parsed once:
protobuf's merge rule (concatenated messages merge: repeated fields append in order,
sub-messages merge) makes that the message the pieces describe. Every piece of a view shows
the same fields, with the same values, as building the message directly would; a key holds
only what the piece shows, so nothing hidden from a viewer can reach its view through a
table. The public pieces of one decision are shared by every viewer (``Game._public_cache``);
a seat's own view swaps in its seat, the face-down cards it knows and its legal actions.

Parts that change too often for a table (a hand, the discard pile) are encoded directly
(:mod:`engine.wire`); a seat is its single-valued fields (a table) followed by its lists.
A game also keeps each seat's last piece with its key (:class:`LastPieces`): when a seat's
key equals the last one (most decisions change no seat) the piece is reused without hashing
the key. A piece is a function of its key, so this is the same as a table hit; the key is
still computed from the current state at every view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from google.protobuf.message import Message

from engine.action import Action
from engine.marks import placed as characters_placed
from engine.state import Item, State
from engine.text import ArgValue, fill_prompt
from engine.wire import delimited, key, packed
from fengsheng.v1 import game_pb2

if TYPE_CHECKING:
    from engine.game import Game
    from engine.view import ViewMemo

#: Identity id -> the protobuf enum value: the value named by the id in upper case, for every
#: ruleset (``bystander`` -> ``BYSTANDER``); proto/fengsheng/v1/game.proto only adds values.
#: (cast: the stubs type ``Identity.items()``'s numbers as plain ints; they are the enum's values)
IDENTITY: dict[str, game_pb2.Identity] = {
    name.lower(): cast("game_pb2.Identity", number)
    for name, number in game_pb2.Identity.items()
    if number != game_pb2.IDENTITY_UNSPECIFIED
}
MODE = {"secret": game_pb2.SECRET, "direct": game_pb2.DIRECT, "text": game_pb2.TEXT,
        "left": game_pb2.ARROW_LEFT, "right": game_pb2.ARROW_RIGHT, "up": game_pb2.ARROW_UP}
UNSPECIFIED = game_pb2.IDENTITY_UNSPECIFIED

#: How many pieces of one kind are kept; a full table is emptied and refilled.
TABLE_SIZE = 1 << 14


class Pieces(dict[tuple[Any, ...], bytes]):
    """A table of serialized pieces of one kind: ``table[key]`` is ``build(*key)`` (serialized
    if a message), built once while kept (``key``: the values the piece shows)."""

    __slots__ = ("_build",)

    def __init__(self, build: Callable[..., Message | bytes]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: tuple[Any, ...]) -> bytes:
        if len(self) >= TABLE_SIZE:
            self.clear()
        built = self._build(*key)
        piece = built if isinstance(built, bytes) else built.SerializeToString()
        self[key] = piece
        return piece


#: Keys (field number and wire type) of the fields assembled as bytes here (engine.wire).
SEATS_KEY = key(game_pb2.Observation, "seats")
DISCARD_KEY = key(game_pb2.Observation, "discard")
FACE_DOWN_KEY = key(game_pb2.Observation, "discard_face_down")
INTEL_KEY = key(game_pb2.SeatView, "intel")
LEGAL_VALUE_KEY = key(game_pb2.Observation, "legal")
LEGAL_TEXT_KEY = key(game_pb2.Observation, "legal_actions")
HAND_KEY = key(game_pb2.SeatView, "hand")


def _head(ruleset: str, players: int, turn: int, turn_number: int, pile_count: int, removed_count: int,
          pile_exhausted_once: bool) -> game_pb2.Observation:
    return game_pb2.Observation(ruleset=ruleset, players=players, turn=turn, turn_number=turn_number,
                                pile_count=pile_count, removed_count=removed_count,
                                pile_exhausted_once=pile_exhausted_once)


def _viewer(viewer: int) -> game_pb2.Observation:
    return game_pb2.Observation(viewer=viewer)


def _seat_core(seat: int, alive: bool, identity: int, identity_revealed: bool, hand_count: int, character: str,
               exposed: bool, locked: bool, relation: int, secret_character: str,
               secret_task: str) -> game_pb2.SeatView:
    """A seat's single-valued fields (a ``SeatView`` without its lists: few distinct ones)."""
    sv = game_pb2.SeatView(seat=seat, relation=relation)
    # only the fields that differ from their default (the same message, built faster)
    if alive:
        sv.alive = True
    if identity:
        sv.identity = cast("game_pb2.Identity", identity)
    if identity_revealed:
        sv.identity_revealed = True
    if hand_count:
        sv.hand_count = hand_count
    if character:
        sv.character = character
    if exposed:
        sv.exposed = True
    if locked:
        sv.locked = True
    if secret_character:
        sv.secret_character = secret_character
    if secret_task:
        sv.secret_task = secret_task
    return sv


def _options(options: tuple[str, ...]) -> game_pb2.SeatView:
    return game_pb2.SeatView(character_options=options)


def _public_seat(seat: int, alive: bool, identity: str, identity_revealed: bool, intel: tuple[int, ...],
                 hand_count: int, character: str, exposed: bool, locked: bool, relation: int,
                 secret_character: str, secret_task: str) -> bytes:
    """A seat as every viewer but its own sees it (no hand, no options); ``identity``: the
    revealed identity's id, or empty."""
    core = SEAT_CORE[seat, alive, IDENTITY[identity] if identity else UNSPECIFIED, identity_revealed, hand_count,
                     character, exposed, locked, relation, secret_character, secret_task]
    return delimited(SEATS_KEY, core + packed(INTEL_KEY, intel))


def _transit(mode: int, direction: int, sender: int, holder: int, target: int, face_up: bool, receiver: int,
             card: int) -> game_pb2.Observation:
    obs = game_pb2.Observation(has_transit=True)
    tv = obs.transit
    tv.mode = cast("game_pb2.Transmission", mode)
    tv.direction = direction
    tv.sender = sender
    tv.holder = holder
    tv.target = target
    tv.face_up = face_up
    tv.receiver = receiver
    if card:
        tv.card = card
    return obs


def _chain_item(user: int, kind: str, card: int, target: int, on: int, code: str,
                negated: bool) -> game_pb2.Observation:
    obs = game_pb2.Observation()
    obs.chain.add(user=user, kind=kind, card=card, target=target, on=on, code=code, negated=negated)
    return obs


def _pending(ruleset: str, seat: int, kind: str, text: str, key: str = "",
             args: tuple[tuple[str, ArgValue], ...] = ()) -> game_pb2.Observation:
    """The open decision without its number (a piece of its own: it changes every time);
    seat -1 and no kind once the game is over."""
    obs = game_pb2.Observation()
    pending = obs.pending
    pending.seat = seat
    if kind:
        pending.kind = kind
        pending.prompt = text
        fill_prompt(ruleset, kind, text, pending, key, args)
    return obs


def _number(number: int) -> game_pb2.Observation:
    obs = game_pb2.Observation()
    obs.pending.number = number
    return obs


def action_message(a: Action) -> game_pb2.Action:
    """``a`` as a ``fengsheng.v1.Action``: its text and its typed fields."""
    msg = game_pb2.Action(text=a.canonical, kind=a.kind, card=a.card, pile=a.pile, skill=a.skill, to=a.to, on=a.on,
                          chain=a.chain, cards=a.cards, mode=a.mode, arrow=a.arrow, code=a.code, alt=a.alt,
                          picks=a.picks, options=a.options, face=a.face)
    if a.lock >= 0:
        msg.lock = a.lock
    return msg


def _action_piece(a: Action) -> bytes:
    """One legal action: its text (``legal_actions``) and its value (``legal``). The two
    repeated fields may interleave in the bytes: parsing appends each field's values in
    order, so the views hold the same lists as with all texts first."""
    return (delimited(LEGAL_TEXT_KEY, a.canonical.encode())
            + delimited(LEGAL_VALUE_KEY, action_message(a).SerializeToString()))


def _legal(actions: list[Action]) -> bytes:
    """``legal_actions`` and ``legal`` of a decision (each action's piece built once while
    kept: :data:`ACTION`, by its text)."""
    table = ACTION
    out = []
    for a in actions:
        piece = table.get(a.canonical)
        if piece is None:
            if len(table) >= TABLE_SIZE:
                table.clear()
            piece = table[a.canonical] = _action_piece(a)
        out.append(piece)
    return b"".join(out)


HEAD, VIEWER, SEAT_CORE, OPTIONS = Pieces(_head), Pieces(_viewer), Pieces(_seat_core), Pieces(_options)
SEAT = Pieces(_public_seat)
TRANSIT, CHAIN_ITEM, PENDING = Pieces(_transit), Pieces(_chain_item), Pieces(_pending)
NUMBER = Pieces(_number)
#: By the texts of a decision's legal actions: its ``legal_actions`` and ``legal`` (:func:`_legal`).
LEGAL: dict[tuple[str, ...], bytes] = {}
#: By an action's text: its piece (:func:`_action_piece`).
ACTION: dict[str, bytes] = {}


@dataclass(slots=True)
class PublicView:
    """The spectator's view of one decision as pieces; a seat's view replaces some of them."""

    head: bytes
    discard: bytes
    seats: list[bytes]
    """By seat; empty until some view needs it (a seat's own view shows its own instead)."""
    transit: bytes
    chain: list[bytes]
    rest: bytes
    """The open decision and, once the game is over, the outcome."""
    all_seats: bool = False
    """Whether every entry of ``seats`` is built."""


class LastPieces:
    """The pieces of one game's last views, each with the key it was made from; reused while
    the key is unchanged (a piece is a function of its key, so equal keys mean equal pieces),
    which is cheaper than a table look-up (no hashing). Per game: :attr:`Game._last_pieces`."""

    __slots__ = ("discards", "seats", "views")

    def __init__(self, players: int) -> None:
        #: The same for the plain-value views (:mod:`engine.view`), made at the first one.
        self.views: ViewMemo | None = None
        #: For each seat, the key and piece of its last public view, then of its last own view.
        self.seats: list[tuple[tuple[Any, ...], bytes]] = [((), b"")] * (2 * players)
        #: By viewer (-1: any viewer, when no card lies face down): the discard pile, its
        #: face-down cards and who put them there (copies), and the piece.
        self.discards: dict[int, tuple[list[int], tuple[tuple[int, int], ...], bytes]] = {}


def build_observation(g: Game, viewer: int, *, include_events: bool = False) -> game_pb2.Observation:
    st = g.state
    key = (st.decision, st.event_count, st.over)
    cached = g._public_cache
    if cached is None or cached[0] != key:
        cached = (key, _public(g))
        g._public_cache = cached
    public = cached[1]
    if 0 <= viewer < st.players:
        parts = _seat_parts(g, viewer, public)
    else:
        parts = [public.head, public.discard, *_public_seats(g, public, -1), public.transit, *public.chain,
                 public.rest]
    parts.append(VIEWER[viewer,])
    obs = game_pb2.Observation.FromString(b"".join(parts))
    if include_events:
        obs.events.extend(e.to_proto() for e in g.events if e.visible_to(viewer))
    return obs


def _seat_parts(g: Game, viewer: int, public: PublicView) -> list[bytes]:
    """The pieces of ``viewer``'s own view: the public ones with its seat (identity, hand,
    character, options, 绝密任务 …), the face-down cards it knows and its legal actions."""
    st = g.state
    seats = _public_seats(g, public, viewer)
    seats[viewer] = _own_seat(g, viewer)
    transit = public.transit
    t = st.transit
    if t is not None and not t.face_up and viewer in t.known_by:
        transit = _transit_piece(g, t.card)
    chain = public.chain
    if st.chain:
        face_down = g.ruleset.face_down_kinds
        if any(item.kind in face_down and viewer in (item.user, item.target) for item in st.chain):
            chain = [_chain_piece(item, True) if item.kind in face_down and viewer in (item.user, item.target)
                     else shown for item, shown in zip(st.chain, public.chain, strict=True)]
    # the seat knows the cards it put on the discard pile face down (Ruleset.hand_discards_face_down)
    discard = _discard_piece(g, viewer) if st.ext.face_down_discards() else public.discard
    parts = [public.head, discard, *seats, transit, *chain, public.rest]
    prompt = st.prompt
    if prompt is not None and prompt.seat == viewer:
        texts = g.legal_texts(viewer)
        legal = LEGAL.get(texts)
        if legal is None:
            if len(LEGAL) >= TABLE_SIZE:
                LEGAL.clear()
            legal = LEGAL[texts] = _legal(g._legal_now(viewer))
        parts.append(legal)
    return parts


def _public_seats(g: Game, public: PublicView, viewer: int) -> list[bytes]:
    """The public pieces of every seat but ``viewer`` (a copy; ``viewer``'s entry is to be
    replaced), building those not built yet for this decision."""
    seats = public.seats
    if not public.all_seats:
        st = g.state
        locked = st.locked
        placed = not st.characters or characters_placed(st)
        over = st.over
        winners = st.winners
        memo = g._last_pieces.seats
        for i, p in enumerate(st.seats):
            if not seats[i] and i != viewer:
                key = (i, p.alive,
                       # A dead seat whose identity card was taken (classic 临危受命) shows none.
                       p.identity if p.identity_revealed else "", p.identity_revealed, tuple(p.intel), len(p.hand),
                       p.character if p.exposed and placed else "", p.exposed, i in locked, p.ext.tie(),
                       # a private character: shown once its owner died or won
                       p.ext.private_character() if not p.alive or i in winners else "",
                       # an identity card's own victory condition: public at game end only
                       p.ext.private_task() if over else "")
                last = memo[i]
                if last[0] != key:  # else the same piece as at the seat's last view
                    last = memo[i] = (key, SEAT[key])
                seats[i] = last[1]
        public.all_seats = all(seats)
    return seats.copy()


def _own_seat(g: Game, viewer: int) -> bytes:
    """``viewer``'s seat as it sees it: everything, its hand and options too. Assembled from
    its single-valued fields (a table) and its lists (encoded directly), unless it is the
    same as at this seat's last view."""
    st = g.state
    p = st.seats[viewer]
    key = (p.alive, p.identity, p.identity_revealed, tuple(p.intel), tuple(p.hand), p.character, p.exposed,
           viewer in st.locked, p.ext.tie(), p.ext.private_character(), tuple(p.options), p.ext.private_task())
    memo = g._last_pieces.seats
    last = memo[st.players + viewer]
    if last[0] == key:
        return last[1]
    (alive, identity, revealed, intel, hand, character, exposed, locked, relation, secret_character, options,
     secret_task) = key
    # The identity is unset while the characters are being chosen (classic §3: dealt after).
    body = (SEAT_CORE[viewer, alive, IDENTITY[identity] if identity else UNSPECIFIED, revealed, len(hand),
                      character, exposed, locked, relation, secret_character, secret_task]
            + packed(INTEL_KEY, intel) + packed(HAND_KEY, hand))
    if options:
        body += OPTIONS[options,]
    piece = delimited(SEATS_KEY, body)
    memo[st.players + viewer] = (key, piece)
    return piece


def _discard_piece(g: Game, viewer: int) -> bytes:
    """The discard pile with face-down cards as 0, except those ``viewer`` discarded; the
    same piece as at ``viewer``'s last view while the pile is unchanged."""
    st = g.state
    face_down = st.ext.face_down_discards()
    if not face_down:
        viewer = -1  # every viewer sees the same pile
    last = g._last_pieces.discards.get(viewer)
    if last is not None and last[0] == st.discard and last[1] == face_down:
        return last[2]
    piece = _encode_discard(g, viewer)
    g._last_pieces.discards[viewer] = (st.discard.copy(), face_down, piece)
    return piece


def shown_discard(discard: list[int], face_down: tuple[tuple[int, int], ...],
                  viewer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The discard pile as ``viewer`` sees it: each face-down card (``face_down``: card and
    the seat that laid it) as 0 unless ``viewer`` laid it, and the face-down positions."""
    by: dict[int, int] = {}
    for card, who in face_down:
        by.setdefault(card, who)
    shown: list[int] = []
    positions: list[int] = []
    for pos, card in enumerate(discard):
        owner = by.get(card)
        if owner is None:
            shown.append(card)
        else:
            shown.append(card if owner == viewer else 0)
            positions.append(pos)
    return tuple(shown), tuple(positions)


def _encode_discard(g: Game, viewer: int) -> bytes:
    """The discard pile's piece, encoded directly (it changes too often for a table)."""
    st = g.state
    face_down = st.ext.face_down_discards()
    if not face_down:
        return packed(DISCARD_KEY, st.discard)
    shown, positions = shown_discard(st.discard, face_down, viewer)
    return packed(DISCARD_KEY, shown) + packed(FACE_DOWN_KEY, positions)


def _transit_piece(g: Game, card: int) -> bytes:
    """The intel in transmission, showing ``card`` (0: face down to the viewer)."""
    st = g.state
    t = st.transit
    assert t is not None
    receiver = st.chain[0].user if st.timing == "receive" and st.chain else -1
    return TRANSIT[MODE[t.mode], t.direction, t.sender, t.holder, t.target, t.face_up, receiver, card]


def _chain_piece(item: Item, shown: bool) -> bytes:
    """A chain item; ``shown``: its face-down card and code too."""
    return CHAIN_ITEM[item.user, item.kind, item.card if shown else 0, item.target,
                      item.on if item.kind == "burn" else 0, item.code if shown else "", item.negated]


#: State.end -> the proto's EndReason (a finished game whose ruleset names no end: END_OTHER)
END_REASON: dict[str, game_pb2.EndReason] = {
    "intel": game_pb2.END_INTEL,
    "mission": game_pb2.END_MISSION,
    "last_standing": game_pb2.END_LAST_STANDING,
    "nobody_left": game_pb2.END_NOBODY_LEFT,
    "other": game_pb2.END_OTHER,
}


def public_tasks(st: State) -> list[str]:
    """Each seat's own victory condition that is public at game end, by seat ("" for none):
    a private task card (public at game end), a private character once its owner died or
    won (:class:`engine.state.SeatExt`); the same the seat views show then."""
    return [p.ext.private_task() or (p.ext.private_character() if not p.alive or i in st.winners else "")
            for i, p in enumerate(st.seats)]


def _public(g: Game) -> PublicView:
    """The spectator's view: public information only (shared by every seat's view; its seats
    are built when first needed, :func:`_public_seats`)."""
    st = g.state
    head = HEAD[st.ruleset, st.players, st.turn, st.turn_number, len(st.pile), len(st.removed),
                st.pile_exhausted_once]
    t = st.transit
    transit = _transit_piece(g, t.card if t.face_up else 0) if t is not None else b""
    face_down = g.ruleset.face_down_kinds
    chain = [_chain_piece(item, item.kind not in face_down) for item in st.chain]
    seats = [b""] * st.players
    return PublicView(head, _discard_piece(g, -1), seats, transit, chain, _rest(g))


def _rest(g: Game) -> bytes:
    """The open decision (or none) and, once the game is over, the outcome."""
    st = g.state
    prompt = st.prompt
    if prompt is not None:
        rest = PENDING[st.ruleset, prompt.seat, prompt.kind, prompt.text, prompt.key,
                       tuple(prompt.args.items())] + NUMBER[prompt.number,]
    else:
        rest = PENDING[st.ruleset, -1, "", ""] + NUMBER[st.decision,]
    if st.over:
        obs = game_pb2.Observation()
        obs.outcome.over = True
        obs.outcome.winners.extend(st.winners)
        obs.outcome.reason = st.reason
        obs.outcome.end_reason = END_REASON.get(st.end, game_pb2.END_OTHER)
        obs.outcome.tasks.extend(public_tasks(st))
        for k in st.kills:
            obs.outcome.killers[k.dead].values.extend(k.killers)
        # all identities are public at game end (docs/rule-decisions.md): the outcome names
        # every seat's, living losers' too; the seat views keep what was revealed in play
        obs.outcome.identities.extend(IDENTITY.get(p.identity, UNSPECIFIED) for p in st.seats)
        rest += obs.SerializeToString()
    return rest
