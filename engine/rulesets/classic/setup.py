"""Setting a classic match up (digest §3): characters first (each player is offered 2 and
keeps 1; 潜伏 ones face down), then identities by the player-count table (§1, D3), then
3 cards each, a random first player; or a scenario position (shared spec + classic
notation: players 3–9, identities latent/military/bystander in any mix, cards 1–81)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rng
from engine.choosing import choose_characters
from engine.errors import SetupError
from engine.marks import Placed
from engine.positions import card_list, position_deaths, turn_and_step, zones
from engine.state import Frame, Seat, State

from . import deck, marks, ruledata
from .characters import PENDING, ROWS, playable

if TYPE_CHECKING:
    from engine.game import Game

SEAT_KEYS = frozenset({"identity", "character", "exposed", "hand", "intel", "alive", "identity_revealed", "lost"})
STEPS = ("start", "main")


def new_state(ruleset: str, players: int, seed: int, *, tutorial: bool = False, characters: bool = False,
              character_pool: list[str] | None = None) -> State:
    if players not in ruledata.IDENTITY_TABLE:
        raise SetupError(f"players must be 3 to 9, got {players}")
    state = rng.seed_state(seed)
    pile = list(deck.ALL_CARDS)
    state = rng.shuffle(state, pile)
    state, first = rng.below(state, players)
    st = State(ruleset=ruleset, players=players, seed=seed, tutorial=tutorial, characters=characters,
               rng=state, seats=[Seat(identity="") for _ in range(players)], pile=pile)
    st.stack.append(Frame("turn", seat=first))
    if characters:
        st.pool_setting = list(character_pool or [])
        pool = [c for c in playable() if not st.pool_setting or c in st.pool_setting]
        offer = ruledata.CHARACTER_OFFER
        if len(pool) < players:
            raise SetupError(f"only {len(pool)} characters available for {players} players")
        offer = min(offer, len(pool) // players)
        st.rng = rng.shuffle(st.rng, pool)
        for s in st.seats:
            s.options = [pool.pop() for _ in range(offer)]
        st.character_pool = pool
        order = [(first + i) % players for i in range(players)]
        st.stack.append(Frame("characters", seat=first, order=order))
    else:
        deal(st)
    return st


def deal(st: State) -> None:
    """Identities (face down, secret) then the starting hands (§3 ③ ④)."""
    latent, military, bystander = ruledata.IDENTITY_TABLE[st.players]
    names = ["latent"] * latent + ["military"] * military + ["bystander"] * bystander
    st.rng = rng.shuffle(st.rng, names)
    for s, name in zip(st.seats, names, strict=True):
        s.identity = name
    for _ in range(ruledata.START_HAND):
        for s in st.seats:
            s.hand.append(st.pile.pop())


def h_characters(g: Game, fr: Frame) -> None:
    """Each player keeps one of the characters offered (decision ``character``,
    ``choose ID``); when all have chosen, 潜伏 ones are placed face down, 公开 ones face
    up; then identities and cards are dealt (§3 ②–④)."""
    if not choose_characters(g, fr):
        return
    st = g.state
    for i, p in enumerate(st.seats):
        p.exposed = ROWS[p.character].kind != "P"
        key = "character.places_id" if p.exposed else "character.places_face_down_character"
        g.log(key, i, {"seat": i, "id": p.character})
    marks.add(st, Placed())
    deal(st)
    for i, p in enumerate(st.seats):
        g.log("identity.id", i, {"seat": i, "id": p.identity}, audience=(i,))
        g.log("deal.gets_cards", i, {"seat": i, "cards": tuple(p.hand), "n": len(p.hand)}, audience=(i,), cards=p.hand,
              public="deal.gets_n_cards")


def _cards(value: Any, where: str) -> list[int]:
    return card_list(value, where, deck.N_CARDS)


def position_state(pos: dict[str, Any]) -> State:
    """A state from a classic scenario's set-up keys; SetupError names the problem."""
    seats_in = pos.get("seats")
    if not isinstance(seats_in, list) or len(seats_in) not in ruledata.IDENTITY_TABLE:
        raise SetupError("seats: a list of 3 to 9 seats is required")
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
        character = raw.get("character") or ""
        if character and character not in ROWS:
            raise SetupError(f"seat {i}: unknown character {character!r}")
        if character in PENDING:
            raise SetupError(f"seat {i}: character {character!r} is not implemented yet")
        alive = bool(raw.get("alive", True)) and not raw.get("lost", False)
        if raw.get("lost"):
            lost.append(i)
        seat = Seat(identity=identity, hand=_cards(raw.get("hand"), f"seat {i} hand"),
                    intel=_cards(raw.get("intel"), f"seat {i} intel"), alive=alive,
                    identity_revealed=bool(raw.get("identity_revealed", not alive)),
                    exposed=bool(raw.get("exposed", True)), character=character)
        if not alive and (seat.hand or seat.intel):
            raise SetupError(f"seat {i}: a dead seat cannot hold cards")
        seats.append(seat)
    # Any mix of classic identities: the source's identity table is lost (digest §1, §12 D3
    # is a platform decision for dealt games) and the shared spec's set-up invariants name
    # no identity counts (docs/rule-decisions.md, classic 16).
    pile, discard, removed = zones(pos, seats, deck.ALL_CARDS, deck.N_CARDS)
    turn, step = turn_and_step(pos, seats, STEPS)
    if pos.get("relations"):
        raise SetupError("relations: the classic ruleset has none")
    seed = int(pos.get("seed", 0))
    st = State(ruleset="classic", players=n, seed=seed, tutorial=False, characters=any(s.character for s in seats),
               rng=rng.seed_state(seed), seats=seats, pile=pile, discard=discard, removed=removed, turn=turn,
               pile_exhausted_once=bool(pos.get("pile_exhausted_once", False)))
    for i in lost:
        marks.add(st, marks.lost(i))
    st.kills = position_deaths(pos, seats, lost)
    if st.characters:
        marks.add(st, Placed())
    if step == "start":
        st.stack.append(Frame("turn", seat=turn))
    else:
        st.turn_number = 1
        st.stack.append(Frame("turn", seat=turn, stage=2))
        st.stack.append(Frame("window", seat=turn, text="main1"))
    return st
