"""Setting a match up: a seeded deal (rulebook p.4 游戏准备; digest §1, §3) or a scenario
position (shared/spec/scenario-format.md), with the invariants checked."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine import rng
from engine.action import Action, choose_option
from engine.choosing import offer_characters
from engine.errors import SetupError
from engine.marks import Placed
from engine.positions import PositionRules, parse_position
from engine.state import Frame, Seat, State

from . import deck, marks, ruledata
from .choices import ask_choice
from .records import ReturnMatch, ReturnSeat, seat_ext
from .skills import CHARACTERS, available_characters
from .triggers import open_window

if TYPE_CHECKING:
    from engine.game import Game

IDENTITY_TABLE = ruledata.IDENTITY_TABLE
START_HAND = ruledata.START_HAND


CHARACTER_OFFER = 3
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
    seats = [Seat(identity=name, ext=ReturnSeat()) for name in names]
    for _ in range(START_HAND):
        for s in seats:
            s.hand.append(pile.pop())
    state, first = rng.below(state, players)
    st = State(ruleset=ruleset, players=players, seed=seed, tutorial=tutorial, characters=characters,
               rng=state, seats=seats, pile=pile, ext=ReturnMatch())
    st.stack.append(Frame("turn", seat=first))
    if characters:
        # Each player is offered three characters, keeps one secretly, returns two (p.4
        # 游戏准备 ③); tutorial mode removes the state characters (p.1 ③).
        playable = [c for c in available_characters() if not (tutorial and CHARACTERS[c].stateful)]
        offer_characters(st, playable, CHARACTER_OFFER, first, character_pool)
    return st


def _check_seats(seats: list[Seat]) -> None:
    """At most the identity cards of the player-count table (p.4 游戏准备 ②)."""
    n = len(seats)
    counts = Counter(s.identity for s in seats)
    latent, military, agent = IDENTITY_TABLE[n]
    if counts["latent"] > latent or counts["military"] > military or counts["agent"] > agent:
        raise SetupError(f"{n} players use at most {latent} latent, {military} military and {agent} agent "
                         f"identity cards; got {dict(counts)}")


def _relations(relations: Any, seats: list[Seat]) -> None:
    """``relations:``: 礼服蒙面's nemesis and 职业杀手's employer (seat -> seat), 致命香水's
    绝密任务 character (seat -> character), as chosen at game start."""
    n = len(seats)
    if not isinstance(relations, dict) or set(relations) - {"nemesis", "employer", "secret_character"}:
        raise SetupError("relations: only nemesis, employer and secret_character are known")
    for key in ("nemesis", "employer"):
        for a, b in (relations.get(key) or {}).items():
            if not (0 <= int(a) < n and 0 <= int(b) < n) or int(a) == int(b):
                raise SetupError(f"relations.{key}: {a} -> {b} is not a pair of different seats")
            seat_ext(seats[int(a)]).relation = int(b)
    for a, ch in (relations.get("secret_character") or {}).items():
        if ch not in CHARACTERS or not 0 <= int(a) < n:
            raise SetupError(f"relations.secret_character: {a} -> {ch!r} is not a seat and a known character")
        seat_ext(seats[int(a)]).secret_character = ch


#: What a 风声再临 position may hold (shared/spec/scenario-format.md): 3 to 7 seats, at most
#: the identity cards of the table, ``relations:``, ``tutorial:``.
def _frames(st: State, step: str, turn: int) -> list[Frame]:
    """The turn at ``step``: ``game_start`` (the character choice over, the characters about
    to be placed), ``start`` (before the draw) or ``main`` (the play phase)."""
    n = st.players
    if step == "game_start":
        if not st.characters:
            raise SetupError("step game_start needs characters (the game-start skills are theirs)")
        # The character choice is over (index past the order): placing them opens the
        # game-start window, as after a dealt game's choice (h_characters).
        order = [(turn + i) % n for i in range(n) if st.seats[(turn + i) % n].alive]
        return [Frame("turn", seat=turn), Frame("characters", seat=turn, order=order, index=len(order))]
    if step == "start":
        return [Frame("turn", seat=turn)]
    return [Frame("turn", seat=turn, stage=3), Frame("main", seat=turn)]


POSITIONS = PositionRules(ruleset="return", seats=(3, 7), identities=deck.IDENTITIES, characters=CHARACTERS,
                          cards=deck.ALL_CARDS, steps=STEPS, frames=_frames, seat_record=ReturnSeat,
                          match_record=ReturnMatch, tutorial=True, check_seats=_check_seats, relations=_relations,
                          unplaced_steps=frozenset({"game_start"}))


def position_state(pos: dict[str, Any]) -> State:
    """A state from a scenario's set-up keys; raises SetupError naming the problem."""
    return parse_position(pos, POSITIONS)


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
        ask_choice(g, s, "prompt.character.choose_your_character", character_choices(st.seats[s].options), args={},
                   kind="character")
        return
    st.stack.pop()
    marks.add(st, Placed())
    for i, p in enumerate(st.seats):
        key = "character.places_id" if p.exposed else "character.places_face_down_character"
        g.log(key, i, {"seat": i, "id": p.character})
        if not p.exposed:
            g.log("character.character_id", i, {"seat": i, "id": p.character}, audience=(i,))
    open_window(g, "game_start", fr.seat, order=list(fr.order))


def character_choices(options: list[str]) -> list[Action]:
    """``choose ID`` for each character offered; a state character is kept face up or face
    down (``choose ID exposed`` / ``choose ID hidden``, p.3)."""
    out: list[Action] = []
    for c in options:
        if CHARACTERS[c].stateful:
            out += [Action("choose", options=(c,), face="exposed"), Action("choose", options=(c,), face="hidden")]
        else:
            out.append(choose_option(c))
    return out
