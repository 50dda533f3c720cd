"""Setting a match up: a seeded deal (rulebook p.4 游戏准备; digest §1, §3) or a scenario
position (shared/spec/scenario-format.md), with the invariants checked."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine import rng
from engine.errors import SetupError
from engine.marks import Placed
from engine.positions import card_list, position_deaths, turn_and_step, zones
from engine.state import Frame, Seat, State

from . import deck, marks, ruledata
from .skills import CHARACTERS, available_characters
from .triggers import open_window

if TYPE_CHECKING:
    from engine.game import Game

IDENTITY_TABLE = ruledata.IDENTITY_TABLE
START_HAND = ruledata.START_HAND


CHARACTER_OFFER = 3
#: The keys a scenario seat may set (shared/spec/scenario-format.md); any other key is an
#: error, so a typo (``intell: [5]``) cannot silently leave a seat empty.
SEAT_KEYS = frozenset({"identity", "character", "exposed", "hand", "intel", "alive", "identity_revealed"})
#: Where a scenario position starts: ``game_start`` (characters placed, the game-start
#: skills not yet used: 雇佣关系, 危机关系, 绝密任务), ``start`` (the turn player's turn
#: start, before the draw) or ``main`` (the play phase, intel not yet sent).
STEPS = ("game_start", "start", "main")


def new_state(ruleset: str, players: int, seed: int, *, tutorial: bool = False, characters: bool = False,
              character_pool: list[str] | None = None) -> State:
    if players not in IDENTITY_TABLE:
        raise SetupError(f"players must be 3 to 7, got {players}")
    if tutorial and players > 5:
        raise SetupError("tutorial mode allows at most 5 players (rulebook p.1 新手教学模式 ①)")
    state = rng.seed_state(seed)
    latent, military, agent = IDENTITY_TABLE[players]
    identities = [0] * latent + [1] * military + [2] * agent
    state = rng.shuffle(state, identities)
    names = [deck.IDENTITIES[(1, 0, 2)[i]] for i in identities[:players]]
    pile = list(deck.ALL_CARDS)
    state = rng.shuffle(state, pile)
    seats = [Seat(identity=name) for name in names]
    for _ in range(START_HAND):
        for s in seats:
            s.hand.append(pile.pop())
    state, first = rng.below(state, players)
    st = State(ruleset=ruleset, players=players, seed=seed, tutorial=tutorial, characters=characters,
               rng=state, seats=seats, pile=pile)
    st.stack.append(Frame("turn", seat=first))
    if characters:
        st.pool_setting = list(character_pool or [])
        deal_characters(st, first)
    return st


def deal_characters(st: State, first: int) -> None:
    """Each player is offered three characters, keeps one secretly, returns two (p.4
    游戏准备 ③); tutorial mode removes the state characters (p.1 ③)."""
    pool = [c for c in available_characters() if not (st.tutorial and CHARACTERS[c].stateful)
            and (not st.pool_setting or c in st.pool_setting)]
    if len(pool) < st.players:
        raise SetupError(f"only {len(pool)} characters available for {st.players} players")
    offer = min(CHARACTER_OFFER, len(pool) // st.players)
    st.rng = rng.shuffle(st.rng, pool)
    for s in st.seats:
        s.options = [pool.pop() for _ in range(offer)]
    st.character_pool = pool
    order = [(first + i) % st.players for i in range(st.players)]
    st.stack.append(Frame("characters", seat=first, order=order))


def _cards(value: Any, where: str) -> list[int]:
    return card_list(value, where, deck.N_CARDS)


def position_state(pos: dict[str, Any]) -> State:
    """A state from a scenario's set-up keys; raises SetupError naming the problem."""
    ruleset = pos.get("ruleset", "return")
    if ruleset != "return":
        raise SetupError(f"unknown ruleset {ruleset!r}")
    seats_in = pos.get("seats")
    if not isinstance(seats_in, list) or not 3 <= len(seats_in) <= 7:
        raise SetupError("seats: a list of 3 to 7 seats is required")
    n = len(seats_in)
    seats: list[Seat] = []
    for i, raw in enumerate(seats_in):
        if not isinstance(raw, dict):
            raise SetupError(f"seat {i}: expected a mapping")
        unknown = sorted(str(k) for k in set(raw) - SEAT_KEYS)
        if unknown:
            raise SetupError(f"seat {i}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(SEAT_KEYS))})")
        identity = raw.get("identity")
        if identity not in deck.IDENTITIES:
            raise SetupError(f"seat {i}: identity must be one of {', '.join(deck.IDENTITIES)}, got {identity!r}")
        character = raw.get("character") or ""
        if character and character not in CHARACTERS:
            raise SetupError(f"seat {i}: unknown character {character!r}")
        alive = bool(raw.get("alive", True))
        seat = Seat(identity=identity, hand=_cards(raw.get("hand"), f"seat {i} hand"),
                    intel=_cards(raw.get("intel"), f"seat {i} intel"), alive=alive,
                    identity_revealed=bool(raw.get("identity_revealed", not alive)),
                    exposed=bool(raw.get("exposed", True)), character=character)
        if not alive and (seat.hand or seat.intel):
            raise SetupError(f"seat {i}: a dead seat cannot hold cards")
        seats.append(seat)
    counts = Counter(s.identity for s in seats)
    latent, military, agent = IDENTITY_TABLE[n]
    if counts["latent"] > latent or counts["military"] > military or counts["agent"] > agent:
        raise SetupError(f"{n} players use at most {latent} latent, {military} military and {agent} agent "
                         f"identity cards; got {dict(counts)}")
    pile, discard, removed = zones(pos, seats, deck.ALL_CARDS, deck.N_CARDS)
    turn, step = turn_and_step(pos, seats, STEPS)
    seed = int(pos.get("seed", 0))
    st = State(ruleset="return", players=n, seed=seed, tutorial=bool(pos.get("tutorial", False)),
               characters=False, rng=rng.seed_state(seed), seats=seats, pile=pile, discard=discard,
               removed=removed, turn=turn, pile_exhausted_once=bool(pos.get("pile_exhausted_once", False)))
    st.kills = position_deaths(pos, seats)
    relations = pos.get("relations") or {}
    if not isinstance(relations, dict) or set(relations) - {"nemesis", "employer", "secret_character"}:
        raise SetupError("relations: only nemesis, employer and secret_character are known")
    for key in ("nemesis", "employer"):
        for a, b in (relations.get(key) or {}).items():
            if not (0 <= int(a) < n and 0 <= int(b) < n) or int(a) == int(b):
                raise SetupError(f"relations.{key}: {a} -> {b} is not a pair of different seats")
            seats[int(a)].relation = int(b)
    for a, ch in (relations.get("secret_character") or {}).items():
        if ch not in CHARACTERS or not 0 <= int(a) < n:
            raise SetupError(f"relations.secret_character: {a} -> {ch!r} is not a seat and a known character")
        seats[int(a)].secret_character = ch
    st.characters = any(s.character for s in seats)
    if step == "game_start":
        if not st.characters:
            raise SetupError("step game_start needs characters (the game-start skills are theirs)")
        # The character choice is over (index past the order): placing them opens the
        # game-start window, as after a dealt game's choice (h_characters).
        order = [(turn + i) % n for i in range(n) if seats[(turn + i) % n].alive]
        st.stack.append(Frame("turn", seat=turn))
        st.stack.append(Frame("characters", seat=turn, order=order, index=len(order)))
        return st
    if st.characters:
        marks.add(st, Placed())
    if step == "start":
        st.stack.append(Frame("turn", seat=turn))
    else:
        st.turn_number = 1
        st.stack.append(Frame("turn", seat=turn, stage=3))
        st.stack.append(Frame("main", seat=turn))
    return st



def h_characters(g: Game, fr: Frame) -> None:
    """Character choice: each player in turn order keeps one of three offered characters
    (state characters: hidden or exposed); all are placed at once, then the game-start
    skills trigger (p.4 游戏准备 ③)."""
    st = g.state
    if fr.answer:
        choice = fr.answer
        fr.answer = None
        seat = st.seats[fr.order[fr.index]]
        seat.character = choice.option
        seat.exposed = choice.face != "hidden"
        st.character_pool.extend(c for c in seat.options if c != choice.option)
        seat.options = []
        fr.index += 1
    if fr.index < len(fr.order):
        s = fr.order[fr.index]
        g.ask(s, "character", "prompt.character.choose_your_character", character_choices(st.seats[s].options), args={})
        return
    st.stack.pop()
    marks.add(st, Placed())
    for i, p in enumerate(st.seats):
        key = "character.places_id" if p.exposed else "character.places_face_down_character"
        g.log(key, i, {"seat": i, "id": p.character})
        if not p.exposed:
            g.log("character.character_id", i, {"seat": i, "id": p.character}, audience=(i,))
    open_window(g, "game_start", fr.seat, order=list(fr.order))


def character_choices(options: list[str]) -> list[str]:
    out: list[str] = []
    for c in options:
        if CHARACTERS[c].stateful:
            out += [f"choose {c} exposed", f"choose {c} hidden"]
        else:
            out.append(f"choose {c}")
    return out
