"""Setting a 谍战篇 match up (spy digest §3): characters first (each player is offered 2 and
keeps 1; hidden characters placed face down), identities by the player-count table (§1.1;
神秘人 cards drawn at random from the pool, §11.1), 3 cards each from the first player, a
random first player; or a scenario position (shared spec + the spy notation section)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rng
from engine.choosing import choose_characters, offer_characters, shuffled_start
from engine.errors import SetupError
from engine.marks import Placed, add
from engine.positions import PositionRules, parse_position
from engine.state import Frame, Seat, State

from . import deck, ruledata
from .characters import ROWS, implemented, playable
from .records import SpySeat, seat_ext

if TYPE_CHECKING:
    from engine.game import Game

STEPS = ("start", "main")
MIN_SEATS = 2


def new_state(ruleset: str, players: int, seed: int, *, tutorial: bool = False, characters: bool = False,
              character_pool: list[str] | None = None) -> State:
    if players not in ruledata.IDENTITY_TABLE:
        raise SetupError(f"players must be 5 to 8, got {players}")
    st, first = shuffled_start(ruleset, players, seed, deck.ALL_CARDS, tutorial=tutorial, characters=characters,
                               seat_record=SpySeat)
    st.turn = first
    st.stack.append(Frame("spy_turn", seat=first))
    if characters:
        offer_characters(st, playable(), ruledata.CHARACTER_OFFER, first, character_pool)
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
            seat_ext(s).secret_task = tasks.pop()
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


def _playable(character: str) -> str:
    return "" if implemented(character) else "is not implemented yet"


def _read_seat(i: int, raw: dict[str, Any], seat: Seat) -> None:
    """``secret_task:``: a mystery seat's 神秘人 card (§1.1, §11.1), and only theirs."""
    task = raw.get("secret_task") or ""
    if seat.identity == "mystery" and task not in ruledata.SECRET_TASKS:
        raise SetupError(f"seat {i}: a mystery seat needs secret_task, one of {', '.join(ruledata.SECRET_TASKS)}")
    if seat.identity != "mystery" and task:
        raise SetupError(f"seat {i}: only a mystery seat has a secret_task")
    seat_ext(seat).secret_task = task


#: What a 谍战篇 position may hold (shared spec + the spy notation section): 2 to 8 seats,
#: ``lost: true``, a mystery seat's ``secret_task``; a dead seat's identity stays hidden
#: unless written revealed.
POSITIONS = PositionRules(ruleset="spy", seats=(MIN_SEATS, max(ruledata.IDENTITY_TABLE)),
                          identities=ruledata.IDENTITIES, characters=ROWS, cards=deck.ALL_CARDS, steps=STEPS,
                          seat_record=SpySeat, seat_keys=frozenset({"secret_task"}), lost=True,
                          revealed_when_dead=False, playable=_playable, read_seat=_read_seat,
                          frames=lambda st, step, turn: [Frame("spy_turn", seat=turn, stage=int(step == "main"))])


def position_state(pos: dict[str, Any]) -> State:
    """A state from a spy scenario's set-up keys; SetupError names the problem."""
    return parse_position(pos, POSITIONS)
