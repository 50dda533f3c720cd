"""Setting a classic match up (digest §3): characters first (each player is offered 2 and
keeps 1; 潜伏 ones face down), then identities by the player-count table (§1, D3), then
3 cards each, a random first player; or a scenario position (shared spec + classic
notation: players 3–9, identities latent/military/bystander in any mix, cards 1–81)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rng
from engine.choosing import choose_characters, offer_characters, shuffled_start
from engine.errors import SetupError
from engine.marks import Placed
from engine.positions import PositionRules, parse_position
from engine.state import Frame, State

from . import deck, marks, ruledata
from .characters import PENDING, ROWS, playable
from .records import ClassicMatch

if TYPE_CHECKING:
    from engine.game import Game

STEPS = ("start", "main")


def new_state(ruleset: str, players: int, seed: int, *, tutorial: bool = False, characters: bool = False,
              character_pool: list[str] | None = None) -> State:
    if players not in ruledata.IDENTITY_TABLE:
        raise SetupError(f"players must be 3 to 9, got {players}")
    st, first = shuffled_start(ruleset, players, seed, deck.ALL_CARDS, tutorial=tutorial, characters=characters,
                               match_record=ClassicMatch)
    st.stack.append(Frame("turn", seat=first))
    if characters:
        offer_characters(st, playable(), ruledata.CHARACTER_OFFER, first, character_pool)
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


def _frames(step: str, turn: int) -> list[Frame]:
    """The turn at its start (before the draw) or in its first play phase (§4)."""
    if step == "start":
        return [Frame("turn", seat=turn)]
    return [Frame("turn", seat=turn, stage=2), Frame("window", seat=turn, text="main1")]


def _playable(character: str) -> str:
    return "is not implemented yet" if character in PENDING else ""


#: What a classic position may hold (shared spec + classic notation): players 3–9, seats
#: written ``lost: true``, and any mix of classic identities: the source's identity table is
#: lost (digest §1, §12 D3 is a platform decision for dealt games) and the shared spec's
#: set-up invariants name no identity counts (docs/rule-decisions.md, classic 16).
POSITIONS = PositionRules(ruleset="classic", seats=(min(ruledata.IDENTITY_TABLE), max(ruledata.IDENTITY_TABLE)),
                          identities=ruledata.IDENTITIES, characters=ROWS, cards=deck.ALL_CARDS, steps=STEPS,
                          frames=lambda st, step, turn: _frames(step, turn), match_record=ClassicMatch, lost=True,
                          playable=_playable)


def position_state(pos: dict[str, Any]) -> State:
    """A state from a classic scenario's set-up keys; SetupError names the problem."""
    return parse_position(pos, POSITIONS)
