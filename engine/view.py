"""The view of one seat as plain Python values, for bots in the same process (issue 27 §6).

:func:`build_view` shows exactly what :func:`engine.observation.build_observation` shows
(the same fields, names and values: identities, modes and end reasons as the protobuf enum
numbers, lists as tuples), without building or parsing a protobuf message: a search bot
asks for a view at every decision of every playout, and the protobuf is only needed at the
service boundary. :func:`as_observation` turns a view into the ``fengsheng.v1.Observation``
it stands for; ``tests/unit/test_view.py`` checks that it equals the protobuf view of every
viewer at every decision of random games of each ruleset, so no hidden information
reaches a view that the protobuf one would not show.

A view is a snapshot: later decisions do not change it. Its parts are read-only values and
may be shared with other views of the same game (a seat whose shown values did not change
since the last view is the same :class:`SeatView` object), so a bot must not modify them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.action import Action
from engine.marks import placed as characters_placed
from engine.observation import END_REASON, IDENTITY, MODE, UNSPECIFIED, action_message, public_tasks, shown_discard
from engine.text import ArgValue, fill_prompt, prompt_arguments, set_arg
from fengsheng.v1 import game_pb2

if TYPE_CHECKING:
    from engine.game import Event, Game

#: How many prompts' template arguments are kept (:data:`_DECISION_ARGS`); a full table is emptied.
_TABLE_SIZE = 1 << 12


@dataclass(slots=True)
class SeatView:
    """One seat as the viewer sees it (``fengsheng.v1.SeatView``): ``hand``,
    ``character_options`` and the secret fields only for the viewer's own seat."""

    seat: int
    alive: bool
    identity: int
    """The protobuf ``Identity`` number; 0 unless the viewer may know it."""
    identity_revealed: bool
    intel: tuple[int, ...]
    hand_count: int
    character: str
    exposed: bool
    locked: bool
    relation: int
    secret_character: str
    secret_task: str
    hand: tuple[int, ...] = ()
    character_options: tuple[str, ...] = ()


@dataclass(slots=True)
class TransitView:
    """The intel in transmission (``fengsheng.v1.Transit``); ``card`` 0 when face down to the viewer."""

    mode: int
    direction: int
    sender: int
    holder: int
    target: int
    face_up: bool
    receiver: int
    card: int


@dataclass(slots=True)
class ChainView:
    """One item of the response chain (``fengsheng.v1.ChainItem``)."""

    user: int
    kind: str
    card: int
    target: int
    on: int
    code: str
    negated: bool


@dataclass(slots=True)
class DecisionView:
    """Who must decide what (``fengsheng.v1.Decision``); seat -1 once the game is over."""

    seat: int
    kind: str
    number: int
    prompt: str
    template: str
    args: dict[str, str]
    """The prompt's arguments as its English line writes them (shared: do not modify)."""
    arguments: tuple[tuple[str, str, ArgValue], ...] = ()
    """The prompt's typed arguments in its row's order: (name, placeholder type, value)
    (``Decision.arguments``)."""


@dataclass(slots=True)
class OutcomeView:
    """How the game ended (``fengsheng.v1.Outcome``); ``over`` False while it is not over."""

    over: bool = False
    winners: tuple[int, ...] = ()
    reason: str = ""
    killers: dict[int, tuple[int, ...]] | None = None
    identities: tuple[int, ...] = ()
    end_reason: int = 0
    tasks: tuple[str, ...] = ()


#: The transit of a view when no intel is in transmission (as protobuf's unset message reads).
NO_TRANSIT = TransitView(0, 0, 0, 0, 0, False, 0, 0)
NOT_OVER = OutcomeView()


@dataclass(slots=True)
class View:
    """What ``viewer`` may know at one decision (``fengsheng.v1.Observation``'s fields)."""

    ruleset: str
    viewer: int
    players: int
    turn: int
    turn_number: int
    pile_count: int
    removed_count: int
    pile_exhausted_once: bool
    seats: tuple[SeatView, ...]
    transit: TransitView
    has_transit: bool
    chain: tuple[ChainView, ...]
    discard: tuple[int, ...]
    discard_face_down: tuple[int, ...]
    pending: DecisionView
    legal: tuple[Action, ...]
    """The viewer's legal actions when it is to act, else empty."""
    outcome: OutcomeView
    events: tuple[Event, ...] = ()
    """The events the viewer may see, when asked for."""

    @property
    def legal_actions(self) -> tuple[str, ...]:
        """The canonical text of each legal action."""
        return tuple([a.canonical for a in self.legal])


class ViewMemo:
    """Per game (:attr:`engine.observation.LastPieces.views`): each seat's last shown values
    and the :class:`SeatView` made from them, reused while they are unchanged (a view part is
    a function of its key, so nothing is patched); the discard pile per viewer likewise."""

    __slots__ = ("discards", "seats")

    def __init__(self, players: int) -> None:
        #: For each seat, the key and value of its last public view, then of its last own view.
        self.seats: list[tuple[tuple[Any, ...], SeatView | None]] = [((), None)] * (2 * players)
        #: By viewer: a copy of the pile, its face-down cards with their owners, and the
        #: (discard, face-down positions) shown.
        self.discards: dict[
            int, tuple[list[int], tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]
        ] = {}


_DECISION_ARGS: dict[tuple[Any, ...], tuple[str, dict[str, str], tuple[tuple[str, str, ArgValue], ...]]] = {}


class _Args:
    """What :func:`engine.text.fill_prompt` writes into (a Decision's template and args;
    the typed arguments come from :func:`engine.text.prompt_arguments`)."""

    __slots__ = ("args", "template")

    def __init__(self) -> None:
        self.template = ""
        self.args: dict[str, str] = {}


def build_view(g: Game, viewer: int, *, include_events: bool = False) -> View:
    """What ``viewer`` (-1: a spectator) may know now, as plain values (see the module)."""
    st = g.state
    memo = g._last_pieces.views
    if memo is None:
        memo = g._last_pieces.views = ViewMemo(st.players)
    own = 0 <= viewer < st.players
    me = viewer if own else -2  # a spectator: no seat, not even a chain item's missing target (-1)
    seats = _seats(g, memo, me)
    t = st.transit
    if t is None:
        transit, has_transit = NO_TRANSIT, False
    else:
        card = t.card if t.face_up or me in t.known_by else 0
        receiver = st.chain[0].user if st.timing == "receive" and st.chain else -1
        transit = TransitView(MODE[t.mode], t.direction, t.sender, t.holder, t.target, t.face_up, receiver, card)
        has_transit = True
    chain: tuple[ChainView, ...] = ()
    if st.chain:
        face_down = g.ruleset.face_down_kinds
        chain = tuple([ChainView(item.user, item.kind,
                                 item.card if (shown := item.kind not in face_down
                                               or me in (item.user, item.target)) else 0,
                                 item.target, item.on if item.kind == "burn" else 0,
                                 item.code if shown else "", item.negated)
                       for item in st.chain])
    discard, face_down_at = _discard(st, memo, me)
    prompt = st.prompt
    legal: tuple[Action, ...] = ()
    if prompt is not None:
        key = (st.ruleset, prompt.kind, prompt.text, prompt.key, tuple(prompt.args.items()))
        found = _DECISION_ARGS.get(key)
        if found is None:
            out = _Args()
            fill_prompt(st.ruleset, prompt.kind, prompt.text, out, prompt.key, key[4], typed=False)
            if len(_DECISION_ARGS) >= _TABLE_SIZE:
                _DECISION_ARGS.clear()
            typed = prompt_arguments(st.ruleset, prompt.key, key[4]) if prompt.key else ()
            found = _DECISION_ARGS[key] = (out.template, out.args, typed)
        pending = DecisionView(prompt.seat, prompt.kind, prompt.number, prompt.text, *found)
        if prompt.seat == me:
            legal = tuple(g._legal_now(viewer))
    else:
        pending = DecisionView(-1, "", st.decision, "", "", {})
    outcome = _outcome(g) if st.over else NOT_OVER
    events = tuple([e for e in g.events if e.visible_to(viewer)]) if include_events else ()
    return View(st.ruleset, viewer, st.players, st.turn, st.turn_number, len(st.pile), len(st.removed),
                st.pile_exhausted_once, seats, transit, has_transit, chain, discard, face_down_at, pending, legal,
                outcome, events)


def _seats(g: Game, memo: ViewMemo, viewer: int) -> tuple[SeatView, ...]:
    """Every seat as ``viewer`` sees it: its own seat in full, the others' public values."""
    st = g.state
    locked = st.locked
    placed = not st.characters or characters_placed(st)
    over = st.over
    winners = st.winners
    last = memo.seats
    out: list[SeatView] = []
    for i, p in enumerate(st.seats):
        if i == viewer:
            key: tuple[Any, ...] = (
                i, p.alive, IDENTITY[p.identity] if p.identity else UNSPECIFIED, p.identity_revealed,
                tuple(p.intel), len(p.hand), p.character, p.exposed, i in locked, p.ext.tie(),
                p.ext.private_character(), p.ext.private_task(), tuple(p.hand), tuple(p.options))
            m = st.players + i
        else:
            key = (i, p.alive,
                   # A dead seat whose identity card was taken (classic 临危受命) shows none.
                   IDENTITY[p.identity] if p.identity_revealed and p.identity else UNSPECIFIED,
                   p.identity_revealed, tuple(p.intel), len(p.hand),
                   p.character if p.exposed and placed else "", p.exposed, i in locked, p.ext.tie(),
                   # 致命香水's 绝密任务 character: shown once she died or won (p.12 ①).
                   p.ext.private_character() if not p.alive or i in winners else "",
                   # an identity card's own victory condition (谍战篇 神秘人): public at game end only
                   p.ext.private_task() if over else "")
            m = i
        k, sv = last[m]
        if k != key or sv is None:
            sv = SeatView(*key)
            last[m] = (key, sv)
        out.append(sv)
    return tuple(out)


def _discard(st: Any, memo: ViewMemo, viewer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The discard pile with face-down cards as 0 except those ``viewer`` discarded, and the
    positions of the face-down cards (the ruleset's record says which lie face down)."""
    face_down = st.ext.face_down_discards()
    if not face_down:
        return tuple(st.discard), ()
    last = memo.discards.get(viewer)
    if last is not None and last[0] == st.discard and last[1] == face_down:
        return last[2], last[3]
    result = shown_discard(st.discard, face_down, viewer)
    memo.discards[viewer] = (st.discard.copy(), face_down, *result)
    return result


def _outcome(g: Game) -> OutcomeView:
    st = g.state
    return OutcomeView(True, tuple(st.winners), st.reason, {k.dead: tuple(k.killers) for k in st.kills},
                       tuple([IDENTITY.get(p.identity, UNSPECIFIED) for p in st.seats]),
                       END_REASON.get(st.end, game_pb2.END_OTHER), tuple(public_tasks(st)))


def as_observation(view: View) -> game_pb2.Observation:
    """The ``fengsheng.v1.Observation`` a view stands for (field by field; for tests and for
    handing a view across the service boundary)."""
    obs = game_pb2.Observation(
        ruleset=view.ruleset, viewer=view.viewer, players=view.players, turn=view.turn,
        turn_number=view.turn_number, pile_count=view.pile_count, removed_count=view.removed_count,
        pile_exhausted_once=view.pile_exhausted_once, has_transit=view.has_transit, discard=view.discard,
        discard_face_down=view.discard_face_down, legal_actions=view.legal_actions)
    for s in view.seats:
        obs.seats.add(seat=s.seat, alive=s.alive, identity=s.identity,
                      identity_revealed=s.identity_revealed, intel=s.intel, hand_count=s.hand_count, hand=s.hand,
                      character=s.character, exposed=s.exposed, locked=s.locked, relation=s.relation,
                      secret_character=s.secret_character, character_options=s.character_options,
                      secret_task=s.secret_task)
    if view.has_transit:
        t = view.transit
        obs.transit.mode = t.mode  # type: ignore[assignment]
        obs.transit.direction = t.direction
        obs.transit.sender = t.sender
        obs.transit.holder = t.holder
        obs.transit.target = t.target
        obs.transit.face_up = t.face_up
        obs.transit.receiver = t.receiver
        obs.transit.card = t.card
    for c in view.chain:
        obs.chain.add(user=c.user, kind=c.kind, card=c.card, target=c.target, on=c.on, code=c.code,
                      negated=c.negated)
    p = view.pending
    obs.pending.seat = p.seat
    obs.pending.number = p.number
    if p.kind:
        obs.pending.kind = p.kind
        obs.pending.prompt = p.prompt
        obs.pending.template = p.template
        obs.pending.args.update(p.args)
        for name, kind, value in p.arguments:
            set_arg(obs.pending.arguments.add(name=name), kind, value)
    obs.legal.extend(action_message(a) for a in view.legal)
    o = view.outcome
    if o.over:
        obs.outcome.over = True
        obs.outcome.winners.extend(o.winners)
        obs.outcome.reason = o.reason
        obs.outcome.end_reason = o.end_reason  # type: ignore[assignment]
        obs.outcome.tasks.extend(o.tasks)
        for dead, who in (o.killers or {}).items():
            obs.outcome.killers[dead].values.extend(who)
        obs.outcome.identities.extend(o.identities)  # type: ignore[arg-type]
    obs.events.extend(e.to_proto() for e in view.events)
    return obs
