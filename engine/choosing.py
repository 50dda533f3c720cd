"""The set-up steps that rulesets share (each ruleset's set-up section): a seeded start (the
deck shuffled as the pile, a random first player: :func:`shuffled_start`) and the character
choice at game start: each player in turn order keeps one of the characters offered
(decision ``character``, ``choose ID``), the others go back to the pool."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from engine import rng
from engine.action import choose_option
from engine.errors import SetupError
from engine.state import Frame, MatchExt, Seat, SeatExt, State

if TYPE_CHECKING:
    from engine.game import Game


def shuffled_start(ruleset: str, players: int, seed: int, cards: Iterable[int], *, tutorial: bool, characters: bool,
                   seat_record: Callable[[], SeatExt] = SeatExt,
                   match_record: Callable[[], MatchExt] = MatchExt) -> tuple[State, int]:
    """A new match before anything is dealt: the deck shuffled as the pile, a random first
    player (returned with the state), seats with no identity yet, each holding its
    ruleset's own record."""
    state = rng.seed_state(seed)
    pile = list(cards)
    state = rng.shuffle(state, pile)
    state, first = rng.below(state, players)
    st = State(ruleset=ruleset, players=players, seed=seed, tutorial=tutorial, characters=characters, rng=state,
               seats=[Seat(identity="", ext=seat_record()) for _ in range(players)], pile=pile, ext=match_record())
    return st, first


def offer_characters(st: State, playable: Iterable[str], offer: int, first: int,
                     setting: list[str] | None) -> None:
    """Offer each seat ``offer`` characters (fewer when there are not enough for all) drawn
    at random from the ``playable`` ones, restricted to ``setting`` when it names some
    (``State.pool_setting``); the rest stay face down in ``State.character_pool``. Then
    every seat from ``first`` on chooses (a ``characters`` frame, :func:`choose_characters`)."""
    st.pool_setting = list(setting or [])
    pool = [c for c in playable if not st.pool_setting or c in st.pool_setting]
    if len(pool) < st.players:
        raise SetupError(f"only {len(pool)} characters available for {st.players} players")
    offer = min(offer, len(pool) // st.players)
    st.rng = rng.shuffle(st.rng, pool)
    for s in st.seats:
        s.options = [pool.pop() for _ in range(offer)]
    st.character_pool = pool
    order = [(first + i) % st.players for i in range(st.players)]
    st.stack.append(Frame("characters", seat=first, order=order))


def choose_characters(g: Game, fr: Frame) -> bool:
    """Take the answer of the seat choosing now and ask the next one; True once every seat
    has chosen (the frame is then popped and the ruleset places the characters)."""
    st = g.state
    if fr.answer:
        seat = st.seats[fr.order[fr.index]]
        seat.character = fr.answer.option
        st.character_pool.extend(c for c in seat.options if c != seat.character)
        seat.options = []
        fr.answer = None
        fr.index += 1
    if fr.index < len(fr.order):
        s = fr.order[fr.index]
        g.ask(s, "character", "prompt.character.choose_your_character", [choose_option(c) for c in st.seats[s].options],
              args={})
        return False
    st.stack.pop()
    return True
