"""The public face of the engine: :class:`Game`, a 风声 match as a state machine that
stops only at decisions.

>>> g = Game.new(players=5, seed=1)
>>> p = g.pending
>>> p.kind
'main'
>>> "declare" in g.legal_actions(p.seat)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import repeat
from operator import is_
from typing import Any

from engine import rng
from engine.action import Action
from engine.determinize import determinize
from engine.errors import IllegalAction, NotationError
from engine.kinds import PromptKind
from engine.notation import parse
from engine.observation import (
    END_REASON,
    IDENTITY,
    LastPieces,
    PublicView,
    action_message,
    build_observation,
    public_tasks,
)
from engine.positions import zone_counts
from engine.ruleset import Ruleset
from engine.rulesets import RULESET_IDS, get_ruleset
from engine.snapshot import state_from_bytes, state_to_bytes
from engine.state import Frame, Prompt, Seat, State
from engine.text import ArgValue, check_args, event_templates, prompt_templates, set_arg
from engine.view import View, build_view
from fengsheng.v1 import game_pb2

#: The ruleset ids a match may use (engine/rulesets/).
RULESETS = RULESET_IDS

@dataclass(frozen=True, slots=True)
class Pending:
    """The open decision: ``seat`` must answer a decision of ``kind`` (see
    docs/notation.md); ``number`` increases by one at every decision."""

    seat: int
    kind: str
    number: int
    prompt: str


#: The format of an event value on the wire (proto Event.format): 3 = typed arguments, and an
#: ``action`` event's action as a value (``Event.action``); 2 lacked the latter.
EVENT_FORMAT = 3


@dataclass(slots=True)
class Event:
    """Something that happened, as a value: the ``key`` of its template in the ruleset's
    text table (engine/text.py) and its typed ``args`` (seats, cards or a count, ids …).
    ``audience`` empty means public; otherwise only those seats see it (a 试探 card, a
    looked-at hand, a 破译'd intel …). A private event with a public variant is logged as
    two values: the public one has its own key and only that template's arguments, so a
    hidden card never reaches a seat outside the audience (another seat's draw: a count).

    ``text`` is the English line rendered from (key, args): the log, the CLI, the scenario
    files and the leak checks read it; nothing parses it back.

    Nothing changes an event once logged. The class is not ``frozen`` only for speed: a
    frozen dataclass sets each field through ``object.__setattr__`` and costs three times as
    much to build (~1.2 µs against ~0.4), at about two events a decision (issue 14 point 8)."""

    index: int
    kind: str
    seat: int
    key: str
    args: dict[str, ArgValue]
    audience: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    ruleset: str = ""
    """The match's ruleset: its text table holds the event's template (engine/text.py)."""
    shown: Action | None = None
    """The public form of a hidden action when it is an action value (its hidden cards face
    down: :func:`engine.action.redacted`); None for every other event."""
    _text: str | None = None

    @property
    def text(self) -> str:
        """The English line of this event, rendered from its template and arguments."""
        if self._text is None:
            self._text = event_templates(self.ruleset)[self.key].line(self.args)
        return self._text

    def visible_to(self, seat: int) -> bool:
        """Whether ``seat`` (-1: a spectator) may see this event."""
        return not self.audience or seat in self.audience

    def to_proto(self) -> Any:
        msg = game_pb2.Event(
            index=self.index,
            kind=self.kind,
            seat=self.seat,
            text=self.text,
            audience=self.audience,
            cards=self.cards,
            seats=self.seats,
            template=self.key,
            format=EVENT_FORMAT,
        )
        row = event_templates(self.ruleset).get(self.key) if self.ruleset else None
        if row is not None:
            for _, name, kind in row.parts:
                if name:
                    msg.args.append(arg_proto(name, kind, self.args[name]))
        text = self.args.get("action") if self.kind == "action" else None
        if isinstance(text, str):
            msg.action.MergeFromString(_action_bytes(text))
        elif self.shown is not None:
            msg.shown.CopyFrom(action_message(self.shown))
        return msg

    @property
    def action(self) -> Action | None:
        """The action an ``action`` event records, as a value (its ``action`` argument is the
        canonical text of the action applied); None for every other event, and for the
        public form of a hidden action (see :attr:`shown`)."""
        text = self.args.get("action") if self.kind == "action" else None
        return parse(text) if isinstance(text, str) else None


@lru_cache(maxsize=8192)
def _action_bytes(text: str) -> bytes:
    """The serialized ``fengsheng.v1.Action`` of the action whose canonical text is ``text``
    (built once per distinct action: about one action event is logged per decision)."""
    return bytes(action_message(parse(text)).SerializeToString())


def arg_proto(name: str, kind: str, value: ArgValue) -> Any:
    """One typed event argument as a protobuf EventArg (its field by the placeholder type)."""
    arg = game_pb2.EventArg(name=name)
    set_arg(arg, kind, value)
    return arg


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended: the winning seats, why, who killed whom, and every
    seat's identity (all identities are public at game end: docs/rule-decisions.md)."""

    over: bool
    winners: tuple[int, ...]
    reason: str
    killers: dict[int, tuple[int, ...]] = field(default_factory=dict)
    identities: tuple[str, ...] = ()
    """Identity id of each seat, by seat (``military``, ``latent`` …)."""
    end: str = ""
    """Why it ended, as a value (State.end: intel, mission, last_standing, nobody_left)."""
    tasks: tuple[str, ...] = ()
    """Each seat's victory condition public at game end, by seat (engine.observation.public_tasks)."""

    def to_proto(self) -> Any:
        msg = game_pb2.Outcome(over=self.over, winners=self.winners, reason=self.reason,
                               end_reason=END_REASON.get(self.end, game_pb2.END_OTHER) if self.over else None,
                               tasks=self.tasks)
        msg.identities.extend(IDENTITY.get(i, game_pb2.IDENTITY_UNSPECIFIED) for i in self.identities)
        for dead, who in self.killers.items():
            msg.killers[dead].values.extend(who)
        return msg


class Game:
    """A match of any ruleset (:mod:`engine.rulesets`; ``State.ruleset`` names it).

    Build one with :meth:`new` (a random deal from a seed), :meth:`from_position` (a
    scenario position) or :meth:`restore` (a snapshot). Then loop: :attr:`pending` says
    who must decide, :meth:`legal_actions` lists the answers in notation, :meth:`apply`
    takes one.
    """

    __slots__ = ("_last_pieces", "_legal_cache", "_legal_text", "_public_cache", "events", "history", "ruleset",
                 "state")

    def __init__(self, state: State) -> None:
        self.state = state
        #: The rules this match is played by, from ``state.ruleset``.
        self.ruleset: Ruleset = get_ruleset(state.ruleset)
        #: Every event since this object was created (restored games start empty;
        #: indices continue from the snapshot).
        self.events: list[Event] = []
        #: The applied actions, ``(seat, action)``.
        self.history: list[tuple[int, Action]] = []
        self._legal_cache: tuple[int, int, list[Action]] = (-1, -1, [])
        self._legal_text: tuple[int, int, tuple[str, ...]] = (-1, -1, ())
        self._public_cache: tuple[tuple[int, int, bool], PublicView] | None = None
        self._last_pieces = LastPieces(state.players)

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        ruleset: str = "return",
        players: int = 5,
        seed: int = 0,
        *,
        tutorial: bool = False,
        characters: bool = False,
        character_pool: list[str] | None = None,
    ) -> Game:
        """Deal a new match: identities by the player-count table, a shuffled pile,
        two cards each, a random first player (rules digest §1, §3; decision §11.7).
        With ``characters``, each player first picks one of three offered characters
        (``character_pool`` restricts the pool, e.g. for tests)."""
        rules = get_ruleset(ruleset)
        game = cls(rules.new_state(ruleset, players, seed, tutorial=tutorial, characters=characters,
                                   character_pool=character_pool))
        game._run()
        return game

    @classmethod
    def from_position(cls, position: dict[str, Any]) -> Game:
        """Build a match from a scenario position (shared/spec/scenario-format.md);
        raises :class:`SetupError` naming the broken invariant."""
        rules = get_ruleset(str(position.get("ruleset", "return")))
        game = cls(rules.position_state(position))
        game._run()
        return game

    @classmethod
    def restore(cls, data: bytes) -> Game:
        """Rebuild a match from :meth:`snapshot` bytes; it continues exactly as the
        original would."""
        return cls(state_from_bytes(data))

    def snapshot(self) -> bytes:
        """The full state as ``fengsheng.v1.Snapshot`` protobuf bytes (deterministic)."""
        return state_to_bytes(self.state)

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> int:
        return self.state.players

    @property
    def settings(self) -> dict[str, Any]:
        """What :meth:`new` needs to deal this match again."""
        st = self.state
        return {
            "ruleset": st.ruleset,
            "players": st.players,
            "seed": st.seed,
            "tutorial": st.tutorial,
            "characters": st.characters,
            **({"character_pool": list(st.pool_setting)} if st.pool_setting else {}),
        }

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def decision_number(self) -> int:
        return self.state.decision

    @property
    def pending(self) -> Pending | None:
        """Who must decide what; ``None`` once the game is over."""
        p = self.state.prompt
        if p is None:
            return None
        return Pending(p.seat, p.kind, p.number, p.text)

    @property
    def outcome(self) -> Outcome | None:
        st = self.state
        if not st.over:
            return None
        return Outcome(True, tuple(st.winners), st.reason, self.killers(), tuple(p.identity for p in st.seats),
                       st.end, tuple(public_tasks(st)))

    def killers(self) -> dict[int, tuple[int, ...]]:
        """Dead seat -> seats credited with the kill (亲手杀死, rules digest §6.3)."""
        return {k.dead: tuple(k.killers) for k in self.state.kills}

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (empty when the seat is not to act);
        ``str(action)`` is its canonical notation."""
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[Action]:
        """The cached list of :meth:`legal_actions` (not to be changed by the caller)."""
        p = self.state.prompt
        if p is None or p.seat != seat:
            return []
        number, cached_seat, actions = self._legal_cache
        if number == p.number and cached_seat == seat:
            return actions
        actions = list(self.ruleset.legal_for(self, p))  # a copy: the list may be the prompt's own
        self._legal_cache = (p.number, seat, actions)
        return actions

    def legal_texts(self, seat: int) -> tuple[str, ...]:
        """The canonical text of each of :meth:`legal_actions` (cached per decision: the
        observation's ``legal_actions``)."""
        p = self.state.prompt
        if p is None or p.seat != seat:
            return ()
        number, cached_seat, texts = self._legal_text
        if number != p.number or cached_seat != seat:
            texts = tuple([a.canonical for a in self._legal_now(seat)])
            self._legal_text = (p.number, seat, texts)
        return texts

    def default_action(self, seat: int) -> Action:
        """The action taken for a seat whose time ran out (docs/protocol.md): ``pass``
        where legal, else ``decline``, else ``accept``, else ``declare``, else the first
        legal action (for ``send``: the first card as listed)."""
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalAction(f"seat {seat} has no decision to take")
        for preferred in ("pass", "decline", "accept", "declare"):
            for a in legal:
                if a.kind == preferred:
                    return a
        return legal[0]

    def observation(self, seat: int = -1, *, include_events: bool = False) -> game_pb2.Observation:
        """What ``seat`` may know now, as a ``fengsheng.v1.Observation`` (seat -1: a
        spectator, public information only)."""
        return build_observation(self, seat, include_events=include_events)

    def view(self, seat: int = -1, *, include_events: bool = False) -> View:
        """What ``seat`` may know now as plain Python values, the same fields as
        :meth:`observation` without protobuf (:mod:`engine.view`): for bots in this process."""
        return build_view(self, seat, include_events=include_events)

    def determinize(self, seat: int, rng: random.Random) -> Game:
        """A full game consistent with everything ``seat`` has seen (its hand, the public
        zones and history, revealed identities, what it was shown), the rest resampled from
        its observation alone: other hands, identities, face-down cards, pile order, hidden
        characters (:mod:`engine.determinize`). For search bots."""
        return determinize(self, seat, rng)

    def events_for(self, seat: int) -> list[Event]:
        return [e for e in self.events if e.visible_to(seat)]

    # ------------------------------------------------------------------ acting
    def apply(self, seat: int, action: Action | str) -> None:
        """Take ``action`` for ``seat``; raise :class:`IllegalAction` (state unchanged)
        when it is not legal now. Text (scenario files, the CLI, services that receive
        text) is read once here with :func:`engine.notation.parse`."""
        st = self.state
        p = st.prompt
        if p is None:
            raise IllegalAction(f"the game is over; seat {seat} cannot {str(action)!r}")
        if seat != p.seat:
            raise IllegalAction(
                f"seat {seat} is not to act: seat {p.seat} must decide ({p.kind}: {p.text})"
            )
        legal = self._legal_now(seat)
        if isinstance(action, str):
            try:
                act = parse(action, self.ruleset.code_aliases)
            except NotationError as e:
                raise IllegalAction(f"seat {seat} cannot {action.strip()!r} now ({p.kind}): {e}", list(legal)) from None
        else:
            act = action
        # identity first, in C: the legal list's own values (and parse's cache) are shared;
        # ``act in legal`` would call Action.__eq__ for every entry before a match
        if not any(map(is_, legal, repeat(act))):
            if act in legal:
                act = legal[legal.index(act)]
            else:
                expanded = self._expand(act, legal)
                if expanded is None:
                    raise IllegalAction(f"seat {seat} cannot {str(action).strip()!r} now ({p.kind})", list(legal))
                for one in expanded:
                    self.apply(seat, one)
                return
        self.history.append((seat, act))
        canon = act.canonical
        hidden = self.ruleset.hidden_action(self, seat, act)
        if hidden is None:
            self.log("action.action", seat, {"seat": seat, "action": canon})
        else:
            # the public form (a value: a phrase row and its typed arguments, or the action
            # with its hidden cards face down) is what everyone outside the audience sees
            args: dict[str, ArgValue] = {**hidden.args, "seat": seat, "action": canon}
            if hidden.shown is not None:  # the "action.hidden" row: {action2} is its text
                args["action2"] = hidden.shown.canonical
            self.log("action.action", seat, args, audience=hidden.audience, public=hidden.key, shown=hidden.shown)
        st.stack[-1].answer = act
        st.prompt = None
        self._run()

    def _expand(self, act: Action, legal: list[Action]) -> list[Action] | None:
        """Accepted aliases: ``choose a b`` for several discards at once; ``send … right``
        for a card that can only go right; ``send N secret`` (no direction) for a
        direction-any card, meaning right; 秘密下达 naming the declarer as its target."""
        if self.ruleset.alias is not None:
            aliased = self.ruleset.alias(self, act, legal)
            if aliased is not None:
                return aliased
        kind = act.kind
        if kind == "choose" and len(act.picks) > 1 and self.state.prompt is not None:
            if self.state.prompt.kind != "discard" or self.ruleset.hand_limit is None:
                return None
            hand = list(self.state.seats[self.state.prompt.seat].hand)
            need = len(hand) - self.ruleset.hand_limit
            if len(act.picks) > need:
                return None
            for card in act.picks:
                if card not in hand:
                    return None
                hand.remove(card)
            return [Action("choose", picks=(card,)) for card in act.picks]
        if kind == "play" and act.code and act.to == (self.state.turn,):
            shorter = replace(act, to=())
            if shorter in legal:
                return [shorter]
        if kind == "send" and act.arrow == "right":
            shorter = replace(act, arrow="")
            if shorter in legal:
                return [shorter]
        if kind == "send" and act.mode in ("secret", "text") and not act.arrow:
            # A direction-any card sent without a direction goes right, like any other.
            right = replace(act, arrow="right")
            if right in legal:
                return [right]
        return None

    # ------------------------------------------------------------------ internals
    def _run(self) -> None:
        """Advance until a decision is needed or the game is over."""
        handlers = self.ruleset.handlers
        st = self.state
        while st.prompt is None and not st.over:
            if not st.stack:
                raise RuntimeError("engine stack empty without a decision")
            frame = st.stack[-1]
            handlers[frame.kind](self, frame)

    def ask(self, seat: int, kind: PromptKind, key: str, options: Iterable[Action] = (), *,
            args: dict[str, ArgValue]) -> None:
        """Open a decision for ``seat``: what is asked is ``key``, a prompt row of the
        ruleset's text table (engine/text.py), with its typed ``args`` (checked as an event's
        are: a wrong or missing one raises ``TypeError``). The prompt's English line (the
        log, the CLI, the scenario files) is that row's, rendered here once per decision."""
        st = self.state
        st.decision += 1
        row = prompt_templates(st.ruleset)[key]
        check_args(row, args)
        if len(args) != len(row.names):  # only the row's own arguments
            args = {name: args[name] for name in row.names}
        st.prompt = Prompt(seat, kind, st.decision, row.line(args), list(options), key, args)

    def push(self, frame: Frame) -> None:
        self.state.stack.append(frame)

    def log(
        self,
        key: str,
        seat: int,
        args: dict[str, ArgValue],
        *,
        audience: Iterable[int] = (),
        cards: Iterable[int] = (),
        seats: Iterable[int] = (),
        public: str | None = None,
        shown: Action | None = None,
    ) -> None:
        """Record an event: template ``key`` of the ruleset's text table with its typed
        ``args`` (engine/text.py; a wrong or missing argument raises ``TypeError``). With
        ``audience``, only those seats see it; if ``public`` (another template key) is given
        too, everyone else (spectators included) sees that template filled from the same
        ``args``: only its own placeholders, so what it does not name stays hidden; ``shown``
        is the public variant's action value, when it is one (a hidden action's public form
        with its hidden cards face down: :class:`engine.action.Hidden`)."""
        st = self.state
        table = event_templates(st.ruleset)
        row = table[key]
        check_args(row, args)
        # the value keeps only its template's arguments (another template's, for the public
        # variant, stay out of this one)
        mine = args if len(args) == len(row.names) else {name: args[name] for name in row.names}
        aud = tuple(audience)
        index = st.event_count
        self.events.append(Event(index, row.kind, seat, key, mine, aud, tuple(cards), tuple(seats), st.ruleset))
        if public is not None and aud:
            prow = table[public]
            check_args(prow, args)
            theirs = {name: args[name] for name in prow.names}
            index += 1
            others = (-1, *(s for s in range(st.players) if s not in aud))
            self.events.append(Event(index, prow.kind, seat, public, theirs, others, (), (), st.ruleset, shown))
        st.event_count = index + 1

    # zone helpers -------------------------------------------------------------
    def next_living(self, seat: int, direction: int = 1) -> int:
        seats = self.state.seats
        n = len(seats)
        s = seat
        for _ in range(n):
            s = (s + direction) % n
            if seats[s].alive:
                return s
        return seat

    def living(self) -> list[int]:
        return [i for i, s in enumerate(self.state.seats) if s.alive]

    def draw(self, seat: int, n: int) -> list[int]:
        """Draw ``n`` cards from the pile top into ``seat``'s hand, reshuffling the
        discard pile into a new pile when it runs out (rulebook p.5 ①; both empty: draw
        what there is)."""
        st = self.state
        got: list[int] = []
        for _ in range(n):
            card = self.take_pile_top()
            if card == 0:
                break
            got.append(card)
        if got:
            st.seats[seat].hand.extend(got)
            if self.ruleset.drawn is not None:
                self.ruleset.drawn(self, seat, got)
            self.log("draw.draws_cards", seat, {"seat": seat, "cards": tuple(got), "n": len(got)}, audience=(seat,),
                     cards=got, public="draw.draws_n")
        return got

    def take_pile_top(self) -> int:
        """Remove and return the pile's top card (0 when pile and discard are empty)."""
        st = self.state
        if not st.pile:
            self.reshuffle()
            if not st.pile:
                return 0
        card = st.pile.pop()
        if not st.pile:
            st.pile_exhausted_once = True
        return card

    def reshuffle(self) -> None:
        st = self.state
        st.pile_exhausted_once = True
        if not st.discard:
            return
        cards = st.discard
        st.discard = []
        st.ext.clear_face_down()
        st.rng = rng.shuffle(st.rng, cards)
        st.pile = cards
        self.log("reshuffle.discard_pile_n_shuffled_into", -1, {"n": len(cards)})

    def random_below(self, n: int) -> int:
        st = self.state
        st.rng, r = rng.below(st.rng, n)
        return r

    def discard_card(self, card: int) -> None:
        """Put a card on the discard pile face up (no discard trigger: a used card, a burned
        intel)."""
        st = self.state
        st.ext.turn_face_up(card)  # a card that left the pile face down comes back face up
        st.discard.append(card)

    def discard_face_down(self, seat: int, cards: Iterable[int]) -> None:
        """Put cards of ``seat`` on the discard pile face down: only ``seat`` knows them
        (observations show 0 to everyone else; :attr:`Ruleset.hand_discards_face_down`, the
        ruleset's match record keeps them). No event, no trigger."""
        st = self.state
        for card in cards:
            self.discard_card(card)
            st.ext.lay_face_down(card, seat)

    def discard_from_hand(self, seat: int, cards: list[int]) -> None:
        """The seat discards these hand cards (弃牌): the 'discarded' window (线索) follows.
        Face down when the ruleset says so (:attr:`Ruleset.hand_discards_face_down`)."""
        hand = self.state.seats[seat].hand
        for card in cards:
            hand.remove(card)
        if self.ruleset.hand_discards_face_down:
            self.discard_face_down(seat, cards)
            n = len(cards)
            self.log("discard.face_down", seat, {"seat": seat, "cards": tuple(cards), "n": n}, audience=(seat,),
                     cards=cards, public="discard.face_down_one" if n == 1 else "discard.face_down_n")
        else:
            self.state.discard.extend(cards)
            self.log("discard.discards_cards", seat, {"seat": seat, "cards": tuple(cards)}, cards=cards)
        self.ruleset.discarded(self, seat, cards)

    def place_intel(self, seat: int, cards: list[int], users: list[int], *, cause: str) -> None:
        """``seat`` receives ``cards`` successfully (成功接收), face up; then the ruleset's
        :attr:`Ruleset.intel_placed` hook runs what follows (victory, deaths, receipt
        triggers). ``users`` are credited with kills; ``cause`` is what placed them."""
        after = self.ruleset.intel_placed
        if after is None:
            raise NotImplementedError(f"the {self.ruleset.id} ruleset places intel its own way (no intel_placed)")
        self.state.seats[seat].intel.extend(cards)
        self.log("received.receives_cards", seat, {"seat": seat, "cards": tuple(cards)}, cards=cards)
        after(self, seat, cards, users, cause)

    def seat(self, i: int) -> Seat:
        return self.state.seats[i]

    def check_zones(self) -> None:
        """Raise AssertionError unless each card of the deck is in exactly one zone."""
        counts = zone_counts(self.state)
        bad = {c: n for c, n in counts.items() if n != 1}
        cards = self.ruleset.cards
        if bad or len(counts) != cards.count:
            missing = [c for c in cards.all_cards if c not in counts]
            raise AssertionError(f"card zones broken: duplicated {bad}, missing {missing}")
