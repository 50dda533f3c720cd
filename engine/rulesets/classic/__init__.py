"""风声 classic (``classic``): the 81-card base deck, the identity table 3–9, the nine card
functions, the priority loop and transmission steps, death, losing and victory, and the
25-character skill framework (shared/rules/classic-edition.md).

The package builds :data:`RULESET`, reached through :func:`engine.rulesets.get_ruleset`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.action import PASS, Action
from engine.ruleset import CardTable, CharacterInfo, Ruleset
from engine.state import Frame

from . import deck, marks, ruledata
from .characters import ROWS, SKILLS
from .flow import HANDLERS
from .legal import legal_for
from .privacy import hidden_action
from .records import ClassicMatch
from .setup import new_state, position_state

if TYPE_CHECKING:
    from engine.game import Game


def _discarded(g: Game, seat: int, cards: list[int]) -> None:
    """No classic rule reacts to a discard."""


def _intel_placed(g: Game, seat: int, cards: list[int], users: list[int], cause: str) -> None:
    """Victory, deaths and receipt triggers follow a placed intel (the ``after`` frame,
    flow.h_after)."""
    g.push(Frame("after", seat=seat, card=cards[0], order=list(users), text=cause, cards=list(cards)))


def _alias(g: Game, action: Action, legal: list[Action]) -> list[Action] | None:
    """``declare`` from the turn player at an empty chain in a play phase means ``pass``;
    ``play N on #K`` names the card at chain position K (classic notation)."""
    st = g.state
    if action.kind == "declare" and PASS in legal and st.timing in ("main1", "main2") and not st.chain:
        return [PASS]
    if action.kind == "play" and action.chain and action.chain <= len(st.chain):
        # ``on #K`` (a chain position) for a card the seat can see: the same as naming it.
        named = replace(action, chain=0, on=st.chain[action.chain - 1].card)
        if named in legal:
            return [named]
    return None


RULESET = Ruleset(
    id="classic",
    zh="风声",
    cards=CardTable(
        function=deck.FUNCTION,
        function_zh=("",) + tuple(c.function_zh for c in deck.CARDS),
        is_red=deck.IS_RED,
        is_blue=deck.IS_BLUE,
        is_black=deck.IS_BLACK,
        is_true=deck.IS_TRUE,
        mode=deck.MODE,
    ),
    identities=ruledata.IDENTITIES,
    identity_table=ruledata.IDENTITY_TABLE,
    hand_limit=None,
    handlers=HANDLERS,
    characters={cid: CharacterInfo(r.id, r.zh, r.en, r.kind == "P", r.skills, r.mission) for cid, r in ROWS.items()},
    skills=SKILLS,
    code_aliases={},
    face_down_kinds=("probe",),
    new_state=new_state,
    position_state=position_state,
    legal_for=legal_for,
    hidden_action=hidden_action,
    discarded=_discarded,
    alias=_alias,
    hand_discards_face_down=True,
    mark_kinds=marks.KINDS,
    match_record=ClassicMatch,
    intel_placed=_intel_placed,
    # rules digest §8: 3 red intel wins for every 潜伏 player, 3 blue for every 军情 one
    factions={"latent": "red", "military": "blue"},
)
