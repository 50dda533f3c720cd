"""Setting a 谍战篇 match up (spy digest §3): characters first (each player is offered 2 and
keeps 1; hidden characters placed face down), identities by the player-count table (§1.1;
神秘人 cards drawn at random from the pool, §11.1), 3 cards each from the first player, a
random first player; or a scenario position (shared spec + the spy notation section)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rng
from engine.choosing import choose_characters
from engine.errors import SetupError
from engine.marks import Placed, add
from engine.positions import card_list, position_deaths, turn_and_step, zones
from engine.state import Frame, Seat, State

from . import deck, ruledata
from .characters import ROWS, implemented, playable
from .marks import Lost

if TYPE_CHECKING:
    from engine.game import Game

SEAT_KEYS = frozenset({"identity", "secret_task", "character", "exposed", "hand", "intel", "alive",
                       "identity_revealed", "lost"})
STEPS = ("start", "main")
MIN_SEATS = 2


def new_state(ruleset: str, players: int, seed: int, *, tutorial: bool = False, characters: bool = False,
              character_pool: list[str] | None = None) -> State:
    if players not in ruledata.IDENTITY_TABLE:
        raise SetupError(f"players must be 5 to 8, got {players}")
    state = rng.seed_state(seed)
    pile = list(deck.ALL_CARDS)
    state = rng.shuffle(state, pile)
    state, first = rng.below(state, players)
    st = State(ruleset=ruleset, players=players, seed=seed, tutorial=tutorial, characters=characters,
               rng=state, seats=[Seat(identity="") for _ in range(players)], pile=pile, turn=first)
    st.stack.append(Frame("spy_turn", seat=first))
    if characters:
        st.pool_setting = list(character_pool or [])
        pool = [c for c in playable() if not st.pool_setting or c in st.pool_setting]
        if len(pool) < players:
            raise SetupError(f"only {len(pool)} characters available for {players} players")
        offer = min(ruledata.CHARACTER_OFFER, len(pool) // players)
        st.rng = rng.shuffle(st.rng, pool)
        for s in st.seats:
            s.options = [pool.pop() for _ in range(offer)]
        st.character_pool = pool
        order = [(first + i) % players for i in range(players)]
        st.stack.append(Frame("characters", seat=first, order=order))
    else:
        deal(st, first)
    return st


def deal(st: State, first: int) -> None:
    """Identities (§1.1: the 神秘人 cards drawn at random from the pool, unseen), then 3
    cards each starting with the first player (§3 ④)."""
    latent, special, mystery = ruledata.IDENTITY_TABLE[st.players]
    names = ["latent"] * latent + ["special_service"] * special + ["mystery"] * mystery
    tasks = list(ruledata.SECRET_TASK_POOL)
    st.rng = rng.shuffle(st.rng, tasks)
    st.rng = rng.shuffle(st.rng, names)
    for s, name in zip(st.seats, names, strict=True):
        s.identity = name
        if name == "mystery":
            s.secret_task = tasks.pop()
    n = st.players
    for _ in range(ruledata.START_HAND):
        for i in range(n):
            st.seats[(first + i) % n].hand.append(st.pile.pop())


def h_characters(g: Game, fr: Frame) -> None:
    """Each player keeps one of the 2 offered (decision ``character``); then hidden
    characters are placed face down, public ones face up; then identities and hands."""
    if not choose_characters(g, fr):
        return
    st = g.state
    for i, p in enumerate(st.seats):
        p.exposed = not ROWS[p.character].hidden
        key = "character.places_id" if p.exposed else "character.places_face_down_character"
        g.log(key, i, {"seat": i, "id": p.character})
    add(st, Placed())
    deal(st, fr.seat)
    for i, p in enumerate(st.seats):
        g.log("deal.gets_cards", i, {"seat": i, "cards": tuple(p.hand), "n": len(p.hand)}, audience=(i,), cards=p.hand,
              public="deal.gets_n_cards")


def _cards(value: Any, where: str) -> list[int]:
    return card_list(value, where, deck.N_CARDS)


def position_state(pos: dict[str, Any]) -> State:
    """A state from a spy scenario's set-up keys; SetupError names the problem."""
    seats_in = pos.get("seats")
    if not isinstance(seats_in, list) or not MIN_SEATS <= len(seats_in) <= max(ruledata.IDENTITY_TABLE):
        raise SetupError("seats: a list of 2 to 8 seats is required")
    n = len(seats_in)
    seats: list[Seat] = []
    lost: list[int] = []
    for i, raw in enumerate(seats_in):
        if not isinstance(raw, dict):
            raise SetupError(f"seat {i}: expected a mapping")
        unknown = sorted(str(k) for k in set(raw) - SEAT_KEYS)
        if unknown:
            raise SetupError(f"seat {i}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(SEAT_KEYS))})")
        identity = raw.get("identity")
        if identity not in ruledata.IDENTITIES:
            raise SetupError(f"seat {i}: identity must be one of {', '.join(ruledata.IDENTITIES)}, got {identity!r}")
        task = raw.get("secret_task") or ""
        if identity == "mystery" and task not in ruledata.SECRET_TASKS:
            raise SetupError(f"seat {i}: a mystery seat needs secret_task, one of {', '.join(ruledata.SECRET_TASKS)}")
        if identity != "mystery" and task:
            raise SetupError(f"seat {i}: only a mystery seat has a secret_task")
        character = raw.get("character") or ""
        if character and character not in ROWS:
            raise SetupError(f"seat {i}: unknown character {character!r}")
        if character and not implemented(character):
            raise SetupError(f"seat {i}: character {character!r} is not implemented yet")
        alive = bool(raw.get("alive", True)) and not raw.get("lost", False)
        if raw.get("lost"):
            lost.append(i)
        seat = Seat(identity=identity, hand=_cards(raw.get("hand"), f"seat {i} hand"),
                    intel=_cards(raw.get("intel"), f"seat {i} intel"), alive=alive,
                    identity_revealed=bool(raw.get("identity_revealed", False)),
                    exposed=bool(raw.get("exposed", True)), character=character, secret_task=task)
        if not alive and (seat.hand or seat.intel):
            raise SetupError(f"seat {i}: a dead seat cannot hold cards")
        seats.append(seat)
    pile, discard, removed = zones(pos, seats, deck.ALL_CARDS, deck.N_CARDS)
    turn, step = turn_and_step(pos, seats, STEPS)
    if pos.get("relations"):
        raise SetupError("relations: the spy ruleset has none")
    seed = int(pos.get("seed", 0))
    st = State(ruleset="spy", players=n, seed=seed, tutorial=False, characters=any(s.character for s in seats),
               rng=rng.seed_state(seed), seats=seats, pile=pile, discard=discard, removed=removed, turn=turn,
               pile_exhausted_once=bool(pos.get("pile_exhausted_once", False)))
    for i in lost:
        add(st, Lost(i))
    st.kills = position_deaths(pos, seats, lost)
    if st.characters:
        add(st, Placed())
    if step == "start":
        st.stack.append(Frame("spy_turn", seat=turn))
    else:
        st.turn_number = 1
        st.stack.append(Frame("spy_turn", seat=turn, stage=1))
    return st
