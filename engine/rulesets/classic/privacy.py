"""What an action shows to whom (digest §5, §9; classic notation): a 密电/直达 send names
a face-down card (only the sender sees its number), a 试探 is seen by user and target
only, a character choice by its chooser only, a 识破 on a face-down 试探 does not name it,
a card chosen to be discarded (face down, §12 D12) is seen by its discarder only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action

from . import deck
from .characters import SKILLS
from .characters.base import skill_privacy

if TYPE_CHECKING:
    from engine.game import Game


def hidden_action(g: Game, seat: int, action: Action) -> tuple[tuple[int, ...], str] | None:
    st = g.state
    prompt = st.prompt
    kind = prompt.kind if prompt is not None else ""
    if kind == "character":
        return (seat,), "chooses a character"
    if action.kind == "send" and action.mode in ("secret", "direct"):
        return (seat,), f"send {action.mode}" + (f" to {action.target}" if action.to else "")
    if action.kind == "play":
        card = action.card
        function = action.alt or deck.FUNCTION[card]
        if function == "probe" and action.to:
            return (seat, action.target), f"play probe to {action.target}"
        if function == "see_through" and action.on:
            on = action.on
            for it in st.chain:
                if it.card == on and it.kind == "probe":
                    return (seat, it.user, it.target), f"play {card} on the face-down probe"
    if kind in ("choose", "trigger") and st.stack and st.stack[-1].kind == "skill_step":
        fr = st.stack[-1]
        skill = SKILLS.get(fr.text)
        found = skill.hidden_answer(g, fr, action) if skill is not None else None
        if found is not None:
            return found
    if kind == "choose" and st.stack and st.stack[-1].kind == "card_step" and st.stack[-1].text == "probe":
        fr = st.stack[-1]
        if fr.stage == 0:
            return (seat, fr.order[0]), "chooses how to answer the probe"
        # the discarded card goes face down (§12 D12): only the discarder knows it
        return (seat,), "chooses a card to discard"
    if st.characters:
        return skill_privacy(g, seat, action)
    return None
