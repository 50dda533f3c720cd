"""游卡 风声·谍战篇 (``spy``), base set: the 100-card deck, the identity table 5–8 with the
神秘人 cards, the five fixed phases with arrows and lock icons, 破译, the public contest
phase, queue resolution without responses, dying and the rescue round, death and the
hand-off, victory and its ordering, and the character framework
(shared/rules/spy-edition.md).

The package builds :data:`RULESET`, reached through :func:`engine.rulesets.get_ruleset`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.action import Action
from engine.ruleset import CardTable, CharacterInfo, Ruleset

from . import deck, marks, ruledata
from .characters import ROWS, SKILLS
from .flow import HANDLERS
from .legal import legal_for
from .privacy import hidden_action
from .records import SpySeat
from .setup import new_state, position_state

if TYPE_CHECKING:
    from engine.game import Game


def _discarded(g: Game, seat: int, cards: list[int]) -> None:
    """No 谍战篇 base rule reacts to a discard."""


def _alias(g: Game, action: Action, legal: list[Action]) -> list[Action] | None:
    """``send N left`` / ``send N right`` naming the card's own arrow means ``send N``."""
    if (action.kind == "send" and action.arrow and not action.to and 1 <= action.card <= deck.N_CARDS
            and deck.DIRECTION[action.card] == action.arrow):
        shorter = replace(action, arrow="")
        if shorter in legal:
            return [shorter]
    return None


RULESET = Ruleset(
    id="spy",
    zh="风声·谍战篇",
    cards=CardTable(
        function=deck.FUNCTION,
        function_zh=("",) + tuple(c.function_zh for c in deck.CARDS),
        is_red=deck.IS_RED,
        is_blue=deck.IS_BLUE,
        is_black=deck.IS_BLACK,
        is_true=deck.IS_TRUE,
        mode=deck.DIRECTION,
    ),
    identities=ruledata.IDENTITIES,
    identity_table=ruledata.IDENTITY_TABLE,
    hand_limit=None,
    handlers=HANDLERS,
    # 谍战篇 characters have no secret missions (§9); the 神秘人 cards carry the extra victories
    characters={cid: CharacterInfo(r.id, r.zh, r.en, r.hidden, r.skills, "") for cid, r in ROWS.items()},
    skills=SKILLS,
    code_aliases={},
    face_down_kinds=("probe",),
    new_state=new_state,
    position_state=position_state,
    legal_for=legal_for,
    hidden_action=hidden_action,
    discarded=_discarded,
    mark_kinds=marks.KINDS,
    seat_record=SpySeat,
    secret_tasks={"mystery": ruledata.SECRET_TASK_POOL},
    # rules digest §7.1: 3 red intel wins for every 潜伏战线 player, 3 blue for every 特工机关 one
    factions={"latent": "red", "special_service": "blue"},
    alias=_alias,
)
