"""Determinization: a full game consistent with what one seat has seen, the rest resampled.

A search bot cannot look at the real hands, identities or pile; it plays out *possible*
worlds instead. :func:`determinize` builds one in three steps that keep the real hidden
information out by construction:

1. :func:`shape_of` reads **where** the hidden things of the position lie as ``seat`` sees
   them (how many cards each other hand holds, the pile's size, which discards lie face down,
   whether the intel in transit or a chain card is face down to the seat, which seats'
   identities and characters it has not seen). Counts and places only: no hidden content.
2. :func:`sample_world` draws the hidden **contents** from the seat's observation and that
   shape only: the cards the seat cannot see anywhere (the deck minus every card its
   observation shows), the identity cards not shown to it (the player-count table minus its
   own and the revealed ones, or an assignment drawn from a belief), what it learned in
   private events (an identity looked at), the characters in play it has not seen, the
   private task cards (:attr:`Ruleset.secret_tasks`) it has not seen.
3. :func:`realize` writes that world into a clone of the state: it pairs each hidden slot's
   real content with the sampled one and renames the card everywhere the state names it
   (zones, the response chain, half-resolved frames, marks, the open prompt), so every card
   stays in exactly one zone and a half-resolved effect names the card now lying where the
   real one lay. The clone's generator state is fresh, its event log is the seat's own view
   of the events, its action history is empty.

So the determinized game's observation for ``seat`` is the real one (tests/unit/
test_determinize.py checks it over many random positions and every seat), and the sampled
contents depend on nothing the seat has not seen. Ruleset-generic: it reads only the core
state (the rulesets' own records through :class:`engine.state.SeatExt` /
:class:`engine.state.MatchExt`), :attr:`Ruleset.face_down_kinds`, :attr:`Ruleset.identity_table`,
:attr:`Ruleset.cards` (its printed modes too), :attr:`Ruleset.secret_codes` and
:attr:`Ruleset.secret_tasks` (docs/rule-decisions.md, "Determinization").
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.action import Action
from engine.marks import placed as characters_placed
from engine.notation import parse
from engine.observation import IDENTITY, MODE
from engine.state import Frame, Item, Kill, Mark, Prompt, State, Transit
from fengsheng.v1 import game_pb2

if TYPE_CHECKING:
    from engine.game import Event, Game

#: Protobuf identity enum -> identity id.
IDENTITY_ID: dict[int, str] = {v: k for k, v in IDENTITY.items()}
#: Protobuf transmission enum -> the mode's id (``secret``, ``left`` …).
MODE_ID: dict[int, str] = {v: k for k, v in MODE.items()}

#: A belief over the hidden identities: ``(seats, assignments, weights)``, see
#: :func:`sample_world`.
IdentityPrior = tuple[tuple[int, ...], Sequence[tuple[str, ...]], Sequence[float]]


@dataclass(frozen=True, slots=True)
class Shape:
    """Where the hidden things of a position lie as ``seat`` sees them: counts and places,
    never contents (everything here is also in the seat's observation, or is the engine's
    public bookkeeping: how many cards a chain item holds, which characters are in play)."""

    seat: int
    hands: tuple[tuple[int, int], ...]
    """(other seat, how many cards its hand holds)."""
    pile: int
    removed: int
    discard: tuple[int, ...]
    """Positions in the discard pile of face-down cards the seat did not discard."""
    transit: bool
    """The intel in transmission is face down and the seat has not seen it."""
    chain: tuple[int, ...]
    """Chain indices whose face-down card (试探, 秘密下达) the seat does not see."""
    held: tuple[tuple[int, int], ...]
    """(chain index, how many cards the item holds on the chain)."""
    identity_seats: tuple[int, ...]
    """Seats whose identity the seat has not seen (dealt, not revealed, not its own)."""
    character_slots: tuple[tuple[str, int, int], ...]
    """(``character`` | ``options`` | ``secret`` | ``pool``, seat or -1, how many)."""
    characters_in_play: tuple[str, ...]
    """The characters dealt in this match (public: the ruleset and the match settings)."""
    codes: tuple[int, ...]
    """Chain indices whose hidden code (秘密下达) the seat does not know."""
    send_code: bool
    """This turn's send is bound by a code the seat does not know."""
    tasks: tuple[int, ...] = ()
    """Seats whose private task card (:attr:`Ruleset.secret_tasks`) the seat
    has not seen: every other seat while the game is on (the tasks are shown at its end)."""


@dataclass(frozen=True, slots=True)
class World:
    """The sampled hidden contents, in the order of :class:`Shape`'s slots."""

    cards: tuple[int, ...]
    """Hands (by ``Shape.hands``), pile (bottom first), removed, face-down discards, transit,
    chain cards, held cards: one card per hidden card slot."""
    identities: tuple[str, ...]
    """One identity per ``Shape.identity_seats``."""
    characters: tuple[str, ...]
    """One character per character slot position (by ``Shape.character_slots``)."""
    codes: tuple[str, ...]
    """One code per ``Shape.codes``, then one for the send code if ``Shape.send_code``."""
    tasks: tuple[str, ...] = ()
    """One secret task per ``Shape.tasks`` (empty for a seat whose identity holds none)."""


def _hidden_chain(g: Game, seat: int, item: Item) -> bool:
    return item.kind in g.ruleset.face_down_kinds and seat not in (item.user, item.target)


def _character_hidden(st: State, seat: int, i: int, placed: bool) -> bool:
    p = st.seats[i]
    return i != seat and bool(p.character) and not (p.exposed and placed)


def _secret_hidden(st: State, seat: int, i: int) -> bool:
    p = st.seats[i]
    return i != seat and bool(p.ext.private_character()) and p.alive and i not in st.winners


def shape_of(g: Game, seat: int) -> Shape:
    """The shape of ``g``'s hidden information as ``seat`` sees it (no hidden content)."""
    st = g.state
    hands = tuple((i, len(p.hand)) for i, p in enumerate(st.seats) if i != seat and p.hand)
    discard: list[int] = []
    face_down = st.ext.face_down_discards()
    if face_down:
        by: dict[int, int] = {}
        for card, who in face_down:
            by.setdefault(card, who)
        discard = [pos for pos, card in enumerate(st.discard) if by.get(card, seat) != seat]
    t = st.transit
    chain = tuple(k for k, item in enumerate(st.chain) if item.card and _hidden_chain(g, seat, item))
    held = tuple((k, len(item.held)) for k, item in enumerate(st.chain) if item.held)
    ids = tuple(i for i, p in enumerate(st.seats) if i != seat and p.identity and not p.identity_revealed)
    slots: list[tuple[str, int, int]] = []
    in_play: list[str] = []
    if st.characters:
        placed = characters_placed(st)
        for i, p in enumerate(st.seats):
            in_play.extend(c for c in (p.character, p.ext.private_character(), *p.options) if c)
            if _character_hidden(st, seat, i, placed):
                slots.append(("character", i, 1))
            if i != seat and p.options:
                slots.append(("options", i, len(p.options)))
            if _secret_hidden(st, seat, i):
                slots.append(("secret", i, 1))
        in_play.extend(st.character_pool)
        if st.character_pool:
            slots.append(("pool", -1, len(st.character_pool)))
    codes = tuple(k for k, item in enumerate(st.chain) if item.code and _hidden_chain(g, seat, item))
    send_code = st.ext.code_hidden_from(seat, st.turn)
    tasks = tuple(i for i in range(st.players) if i != seat) if g.ruleset.secret_tasks and not st.over else ()
    return Shape(seat, hands, len(st.pile), len(st.removed), tuple(discard),
                 t is not None and not t.face_up and seat not in t.known_by, chain, held, ids, tuple(slots),
                 tuple(sorted(in_play)), codes, send_code, tasks)


def card_slots(shape: Shape) -> int:
    """How many hidden card slots the shape has."""
    return (sum(n for _, n in shape.hands) + shape.pile + shape.removed + len(shape.discard) + shape.transit
            + len(shape.chain) + sum(n for _, n in shape.held))


def unseen_cards(obs: game_pb2.Observation, count: int) -> list[int]:
    """The cards of a ``count``-card deck that ``obs`` shows nowhere (the seat's hand, intel
    areas, the discard pile, the intel in transit and chain cards it sees), ascending."""
    seen: set[int] = set(obs.discard)
    for sv in obs.seats:
        seen.update(sv.intel)
        seen.update(sv.hand)
    if obs.has_transit:
        seen.add(obs.transit.card)
    seen.update(c.card for c in obs.chain)
    seen.update(c.on for c in obs.chain)
    return [c for c in range(1, count + 1) if c not in seen]


def _event_arg(e: Any, name: str) -> Any:
    """One typed argument of an event: an engine :class:`~engine.game.Event` (``args``, a
    dict) or a protobuf ``Event`` (``args``, a list of ``EventArg``); None when absent."""
    args = e.args
    if isinstance(args, dict):
        return args.get(name)
    for a in args:
        if a.name == name:
            which = a.WhichOneof("value")
            return getattr(a, which) if which else None
    return None


def private_identities(events: Sequence[Any], seat: int,
                       identities: Sequence[str]) -> dict[int, str]:
    """Identities ``seat`` was shown in private events (an ``identity`` event addressed to
    it naming another seat: 老枪, 福尔摩斯, 六姐 …): seat -> identity id, latest wins. Read
    from the events' typed arguments: the seat it names and its ``id``."""
    known: dict[int, str] = {}
    for e in events:
        if e.kind != "identity" or not e.audience or seat not in e.audience:
            continue
        target = e.seats[0] if e.seats else _event_arg(e, "seat")
        if not isinstance(target, int) or target < 0 or target == seat:
            continue
        named = _event_arg(e, "id")
        if named in identities:
            known[target] = named
    return known


def private_cards(events: Sequence[Any], seat: int) -> dict[int, int]:
    """Cards ``seat`` saw go into, or sit in, another seat's hand in private events: a card
    shown to exactly it and one other seat (a looked-at hand, a card given or taken, a 试探
    shown to its target) lies in that other seat's hand as far as the seat knows, unless it
    has been seen since. Card -> seat, latest wins; -1 for a card seen put on the pile top."""
    known: dict[int, int] = {}
    for e in events:
        if not e.cards or not e.audience or seat not in e.audience:
            continue
        others = [a for a in e.audience if a != seat and a >= 0]
        if len(others) == 1 and len(e.audience) == 2 and e.kind not in ("send", "decrypt", "draw"):
            for c in e.cards:
                known.pop(c, None)
                known[c] = others[0]
        elif len(e.audience) == 1 and e.kind == "pile_top":
            known.pop(e.cards[0], None)
            known[e.cards[0]] = -1
        else:
            for c in e.cards:
                known.pop(c, None)
    return known


def _place_cards(shape: Shape, cards: list[int], pinned: Mapping[int, int], rng: random.Random,
                 chain_kinds: Sequence[str], functions: Sequence[str], transit_mode: str = "",
                 modes: Sequence[str] = ()) -> list[int]:
    """Shuffle ``cards`` into the slots, first putting each pinned card in its seat's hand
    (or on the pile top) while that place has room, in each face-down chain slot a card
    of the function the chain shows (a face-down 试探 is a 试探), and in a face-down intel in
    transit a card printed with the mode it travels in (``modes``, where the ruleset prints
    it: a 密电 is a 密电 card)."""
    rng.shuffle(cards)
    slots: list[int] = [0] * len(cards)
    at = sum(n for _, n in shape.hands) + shape.pile + shape.removed + len(shape.discard) + shape.transit
    taken: set[int] = set()
    if shape.transit and modes and transit_mode:
        fit = next((c for c in cards if modes[c] == transit_mode), 0)
        if fit:
            slots[at - 1] = fit
            taken.add(fit)
    for j, kind in enumerate(chain_kinds):
        fits = [c for c in cards if c not in taken and functions[c] == kind] if functions else []
        if fits:
            slots[at + j] = fits[0]
            taken.add(fits[0])
    where: dict[int, list[int]] = {}
    pos = 0
    for i, n in shape.hands:
        where[i] = list(range(pos, pos + n))
        pos += n
    where[-1] = list(range(pos + shape.pile - 1, pos - 1, -1))  # pile, top first
    left = set(cards) - taken
    for card, owner in pinned.items():
        free = where.get(owner)
        if card in left and free:
            slots[free.pop(0)] = card  # a hand keeps the order the seat saw it in
            left.discard(card)
    rest = iter(c for c in cards if c in left)
    return [c or next(rest) for c in slots]


def sample_world(obs: game_pb2.Observation, shape: Shape, rules_cards: int, identities: Sequence[str],
                 table: Sequence[int], rng: random.Random, *, codes: Sequence[str] = (),
                 known_identities: Mapping[int, str] | None = None, known_cards: Mapping[int, int] | None = None,
                 prior: IdentityPrior | None = None, functions: Sequence[str] = (), modes: Sequence[str] = (),
                 tasks: Mapping[str, Sequence[str]] | None = None) -> World:
    """Draw the hidden contents for ``shape`` from the seat's observation alone.

    Cards: the unseen cards (:func:`unseen_cards`), shuffled into the slots. Identities: an
    assignment drawn from ``prior`` (a belief: seats, assignments, weights) when given, else
    the identity cards not shown to the seat (``table`` counts in ``identities`` order, minus
    its own, the revealed ones and ``known_identities``) shuffled onto the unseen seats.
    Characters: those in play the seat does not see, shuffled. Codes: uniform over ``codes``.
    Secret tasks: for each seat of ``Shape.tasks`` whose (drawn or shown) identity holds one,
    one of ``tasks[identity]`` other than the seat's own, without repeats."""
    cards = unseen_cards(obs, rules_cards)
    need = card_slots(shape)
    if len(cards) != need:
        raise ValueError(f"{len(cards)} unseen cards for {need} hidden card slots")
    shown_mode = MODE_ID.get(obs.transit.mode, "") if obs.has_transit else ""
    cards = _place_cards(shape, cards, known_cards or {}, rng, [obs.chain[k].kind for k in shape.chain], functions,
                         shown_mode, modes)
    known = dict(known_identities or {})
    seats = shape.identity_seats
    assigned: dict[int, str] | None = None
    if prior is not None and prior[1]:
        pseats, assignments, weights = prior
        pick = rng.choices(range(len(assignments)), weights=weights)[0]
        assigned = dict(zip(pseats, assignments[pick], strict=True))
        if not all(s in assigned for s in seats):
            assigned = None
    if assigned is None:
        left: Counter[str] = Counter({ident: n for ident, n in zip(identities, table, strict=True)})
        for sv in obs.seats:
            shown = IDENTITY_ID.get(sv.identity, "")
            if shown and (sv.seat == obs.viewer or sv.identity_revealed):
                left[shown] -= 1
        for s in seats:
            if s in known:
                left[known[s]] -= 1
        pool = [ident for ident, n in left.items() for _ in range(max(0, n))]
        rng.shuffle(pool)
        assigned = {}
        for s in seats:
            if s in known:
                assigned[s] = known[s]
            else:
                # the table is exhausted only by a ruleset moving identity cards (classic
                # 临危受命): any identity then
                assigned[s] = pool.pop() if pool else rng.choice(list(identities))
    visible: Counter[str] = Counter()
    me = obs.seats[obs.viewer] if 0 <= obs.viewer < len(obs.seats) else None
    for sv in obs.seats:
        visible.update(c for c in (sv.character, sv.secret_character) if c)
    if me is not None:
        visible.update(me.character_options)
    chars = list((Counter(shape.characters_in_play) - visible).elements())
    rng.shuffle(chars)
    want = sum(n for _, _, n in shape.character_slots)
    while len(chars) < want:  # a character seen twice over (a copy shown in two places): reuse one
        chars.append(rng.choice(shape.characters_in_play))
    drawn = [rng.choice(list(codes)) for _ in range(len(shape.codes) + shape.send_code)] if codes else []
    return World(tuple(cards), tuple(assigned[s] for s in seats), tuple(chars[:want]), tuple(drawn),
                 _draw_tasks(obs, shape, assigned, tasks or {}, rng))


def _draw_tasks(obs: game_pb2.Observation, shape: Shape, assigned: Mapping[int, str],
                tasks: Mapping[str, Sequence[str]], rng: random.Random) -> tuple[str, ...]:
    """A secret task for each seat of ``shape.tasks`` whose identity (drawn, else as shown)
    holds one: the ruleset's cards for it minus the seat's own, without repeats."""
    if not shape.tasks:
        return ()
    own = obs.seats[obs.viewer].secret_task if 0 <= obs.viewer < len(obs.seats) else ""
    pools: dict[str, list[str]] = {}
    out: list[str] = []
    for s in shape.tasks:
        ident = assigned.get(s) or IDENTITY_ID.get(obs.seats[s].identity, "")
        cards = tasks.get(ident, ())
        if not cards:
            out.append("")
            continue
        if ident not in pools:
            pools[ident] = [t for t in cards if t != own]
            rng.shuffle(pools[ident])
        pool = pools[ident]
        out.append(pool.pop() if pool else rng.choice(list(cards)))
    return tuple(out)


#: How many worlds :func:`determinize` draws at most to find one that gives the seat the legal
#: actions it really has (after that, the last one drawn).
REJECTION_TRIES = 20

# ------------------------------------------------------------------ the fast clone
_FIELDS: dict[type, tuple[str, ...]] = {}


def _copy(value: Any) -> Any:
    """A deep copy of plain state data (dataclass records, lists, scalars), without the
    generality of :func:`copy.deepcopy`."""
    if isinstance(value, list):
        if not value or isinstance(value[0], int | str | bool | float):
            return list(value)
        return [_copy(v) for v in value]
    if isinstance(value, Action):
        return value  # immutable
    if is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        names = _FIELDS.get(cls)
        if names is None:
            names = tuple(f.name for f in fields(value))
            _FIELDS[cls] = names
        return cls(**{n: _copy(getattr(value, n)) for n in names})
    return value


def clone_state(st: State) -> State:
    """An independent copy of a match state."""
    copied: State = _copy(st)
    return copied


# ------------------------------------------------------------------ realization
def _real_cards(st: State, shape: Shape) -> list[int]:
    """The real contents of the hidden card slots, in :class:`World` order."""
    out: list[int] = []
    for i, _ in shape.hands:
        out.extend(st.seats[i].hand)
    out.extend(st.pile)
    out.extend(st.removed)
    out.extend(st.discard[pos] for pos in shape.discard)
    if shape.transit and st.transit is not None:
        out.append(st.transit.card)
    out.extend(st.chain[k].card for k in shape.chain)
    for k, _ in shape.held:
        out.extend(st.chain[k].held)
    return out


def _rename_action(a: Action | None, sigma: Mapping[int, int], low: int) -> Action | None:
    """``a`` with every card it names renamed (numbers up to ``low`` in ``picks`` may be
    seats, never renamed; ``to`` and ``lock`` are seats)."""
    if a is None or not sigma:
        return a

    def r(c: int) -> int:
        return sigma.get(c, c) if c > low else c

    return replace(a, card=r(a.card), on=r(a.on), cards=tuple(map(r, a.cards)), picks=tuple(map(r, a.picks)))


def _rename(st: State, sigma: Mapping[int, int]) -> None:
    """Rename hidden cards everywhere the state names a card."""
    def m(cards: list[int]) -> None:
        for n, c in enumerate(cards):
            if c in sigma:
                cards[n] = sigma[c]

    for p in st.seats:
        m(p.hand)
    m(st.pile)
    m(st.discard)
    m(st.removed)
    m(st.fresh)
    for cards in st.ext.card_lists():
        m(cards)
    t: Transit | None = st.transit
    if t is not None:
        t.card = sigma.get(t.card, t.card)
    for item in st.chain:
        item.card = sigma.get(item.card, item.card)
        item.on = sigma.get(item.on, item.on)
        m(item.cards)
        m(item.held)
    low = st.players - 1  # words up to the highest seat number may name a seat, not a card
    fr: Frame
    for fr in st.stack:
        fr.card = sigma.get(fr.card, fr.card)
        m(fr.cards)
        fr.answer = _rename_action(fr.answer, sigma, low)
    mk: Mark
    for mk in st.marks:
        m(mk.cards)
    pr: Prompt | None = st.prompt
    if pr is not None:
        keep = 0 if pr.kind == "discard" else low
        pr.options = [_rename_action(o, sigma, keep) or o for o in pr.options]
        # the prompt's card arguments name the sampled cards too (its line stays as shown);
        # a new dict: the copied state shares the real one's (clone_state copies no dict)
        if any(name.startswith("card") for name in pr.args):
            pr.args = {name: (sigma.get(v, v) if name.rstrip("0123456789") == "card" and isinstance(v, int)
                              else tuple(sigma.get(c, c) for c in v if isinstance(c, int))
                              if name.rstrip("0123456789") == "cards" and isinstance(v, tuple) else v)
                       for name, v in pr.args.items()}


def _keep_hand_order(shape: Shape, real: list[int], sampled: list[int]) -> list[int]:
    """A card the sample leaves in the hand that really holds it keeps its place in that
    hand: the order of a hand is no game information, but prompts list a looked-at hand in
    hand order, and the seat saw that list."""
    pos = 0
    for _, n in shape.hands:
        r, w = real[pos:pos + n], sampled[pos:pos + n]
        both = set(r) & set(w)
        if both:
            rest = iter(c for c in w if c not in both)
            sampled[pos:pos + n] = [c if c in both else next(rest) for c in r]
        pos += n
    return sampled


def realize(g: Game, shape: Shape, world: World, rng: random.Random, *,
            events: Sequence[Event] | None = None) -> Game:
    """A new game: ``g``'s state with ``world`` written into the hidden slots of ``shape``."""
    st = clone_state(g.state)
    real = _real_cards(g.state, shape)
    sampled = _keep_hand_order(shape, real, list(world.cards))
    sigma = {r: w for r, w in zip(real, sampled, strict=True) if r != w}
    _rename(st, sigma)
    for s, ident in zip(shape.identity_seats, world.identities, strict=True):
        st.seats[s].identity = ident
    kill: Kill
    for kill in st.kills:
        if kill.identity and kill.dead in shape.identity_seats:
            kill.identity = st.seats[kill.dead].identity
    chars = iter(world.characters)
    for kind, s, n in shape.character_slots:
        got = [next(chars) for _ in range(n)]
        if kind == "character":
            st.seats[s].character = got[0]
        elif kind == "options":
            st.seats[s].options = got
        elif kind == "secret":
            st.seats[s].ext.set_private_character(got[0])
        else:
            st.character_pool = got
    codes = iter(world.codes)
    for k in shape.codes:
        st.chain[k].code = next(codes, st.chain[k].code)
    if shape.send_code:
        code = next(codes, None)
        if code is not None:
            st.ext.set_code(code)
    for s, task in zip(shape.tasks, world.tasks, strict=True):
        st.seats[s].ext.set_private_task(task)
    st.rng = rng.getrandbits(64)
    out = type(g)(st)  # the game class without importing engine.game (it imports us)
    if events is not None:
        out.events = list(events)
    return out


def determinize(g: Game, seat: int, rng: random.Random, *, prior: IdentityPrior | None = None,
                observation: game_pb2.Observation | None = None, events: Sequence[Any] | None = None,
                sample: Callable[..., World] = sample_world) -> Game:
    """A full game consistent with everything ``seat`` has seen in ``g``; the rest resampled
    (see the module docstring). ``prior`` draws the unseen identities from a belief
    (:mod:`engine.belief`). ``events``: the events the seat saw (engine or protobuf events;
    default ``g``'s own log in the seat's view — a restored game has none, so a caller that
    holds the match's event stream passes it). The clone's event log is the seat's view
    when those are engine events, else empty."""
    shape = shape_of(g, seat)
    obs = observation if observation is not None else g.observation(seat)
    rules = g.ruleset
    seen: Sequence[Any] = [e for e in g.events if e.visible_to(seat)] if events is None else events
    known = private_identities(seen, seat, rules.identities)
    pinned = private_cards(seen, seat)
    mine = [e for e in seen if not isinstance(e, game_pb2.Event)]  # engine events, not protobuf ones
    legal = [parse(text) for text in obs.legal_actions]  # the wire's text form, read as values
    out = None
    for _ in range(REJECTION_TRIES):
        world = sample(obs, shape, rules.cards.count, rules.identities, rules.identity_table[g.players], rng,
                       codes=rules.secret_codes, known_identities=known, known_cards=pinned,
                       prior=prior, functions=rules.cards.function, modes=rules.cards.mode,
                       tasks=rules.secret_tasks)
        out = realize(g, shape, world, rng, events=mine)
        # The seat's own legal actions can depend on what it cannot see (城府 shields a
        # face-down 老鬼 from 试探): a world that lists other actions is rejected.
        if not legal or out.legal_actions(seat) == legal:
            break
    assert out is not None
    return out


__all__ = ["Shape", "World", "clone_state", "determinize", "realize", "sample_world", "shape_of", "unseen_cards"]

