"""风声再临 (``return``): the 87-card deck, its rule data, the 25 characters, and the turn
as frame handlers (rulebook; shared/rules/return-edition.md).

The package builds :data:`RULESET`, which the core reaches through
:func:`engine.rulesets.get_ruleset`; nothing outside the package imports its modules by
name (``return`` is a Python keyword: use :func:`engine.rulesets.ruleset_module`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ruleset import CardTable, CharacterInfo, Ruleset
from engine.state import Frame

from . import deck, marks, ruledata
from .cards import table as _card_table  # noqa: F401  (fills the card tables)
from .characters import CHARACTERS, SKILLS
from .flow import HANDLERS
from .legal import legal_for
from .privacy import hidden_action
from .records import ReturnMatch, ReturnSeat
from .setup import new_state, position_state
from .triggers import open_window

if TYPE_CHECKING:
    from engine.game import Game


def _discarded(g: Game, seat: int, cards: list[int]) -> None:
    """A discard (弃牌) opens the ``discarded`` window (福尔摩斯's 线索)."""
    open_window(g, "discarded", seat, cards=cards)


def _drawn(g: Game, seat: int, cards: list[int]) -> None:
    """Cards drawn during a chain cannot join it (rulebook 杀意/窃于无形 notes): they are
    ``State.fresh`` until the chain ends."""
    if g.state.chain:
        g.state.fresh.extend(cards)


def _intel_placed(g: Game, seat: int, cards: list[int], users: list[int], cause: str) -> None:
    """Victory, deaths and receipt triggers follow a placed intel (the ``after`` frame,
    flow.h_after)."""
    g.push(Frame("after", seat=seat, card=cards[0], order=list(users), text=cause, cards=list(cards)))


RULESET = Ruleset(
    id="return",
    zh="风声再临",
    cards=CardTable(
        function=deck.FUNCTION,
        function_zh=("",) + tuple(c.function_zh for c in deck.CARDS),
        is_red=deck.IS_RED,
        is_blue=deck.IS_BLUE,
        is_black=deck.IS_BLACK,
        is_true=deck.IS_TRUE,
    ),
    identities=deck.IDENTITIES,
    identity_table={n: (military, latent, agent) for n, (latent, military, agent) in ruledata.IDENTITY_TABLE.items()},
    hand_limit=ruledata.HAND_LIMIT,
    handlers=HANDLERS,
    characters={cid: CharacterInfo(c.id, c.zh, c.en, c.stateful, c.skills, c.mission) for cid, c in CHARACTERS.items()},
    skills=SKILLS,
    code_aliases=ruledata.CODE_ALIASES,
    face_down_kinds=("probe", "secret_order"),
    new_state=new_state,
    position_state=position_state,
    legal_for=legal_for,
    hidden_action=hidden_action,
    discarded=_discarded,
    mark_kinds=marks.KINDS,
    seat_record=ReturnSeat,
    match_record=ReturnMatch,
    drawn=_drawn,
    intel_placed=_intel_placed,
    # rules digest §7: 3 red intel wins for every latent player, 3 blue for every military one
    factions={"latent": "red", "military": "blue"},
    secret_codes=tuple(ruledata.SECRET_ORDER_CODES),
)
