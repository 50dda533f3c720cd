"""What an action shows to whom (digest §5, §9; classic notation): a 密电/直达 send names
a face-down card (only the sender sees its number), a 试探 is seen by user and target
only, a character choice by its chooser only, a 识破 on a face-down 试探 does not name it,
a card chosen to be discarded (face down, §12 D12) is seen by its discarder only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, Hidden, hide

from . import deck
from .characters import SKILLS
from .characters.base import skill_privacy

if TYPE_CHECKING:
    from engine.game import Game


def hidden_action(g: Game, seat: int, action: Action) -> Hidden | None:
    """Who sees ``action`` of ``seat`` in full and its public form for everyone else (None:
    it is public): decided from the action's typed fields and the decision it answers."""
    st = g.state
    prompt = st.prompt
    kind = prompt.kind if prompt is not None else ""
    if kind == "character":
        return hide((seat,), "action.hidden_chooses_character")
    if action.kind == "send" and action.mode in ("secret", "direct"):
        if action.to:  # the mode and the target are public, the card is not (§5)
            return hide((seat,), "action.hidden_sends_id_seat", id=action.mode, seat2=action.target)
        return hide((seat,), "action.hidden_sends_id", id=action.mode)
    if action.kind == "play":
        card = action.card
        function = action.alt or deck.FUNCTION[card]
        if function == "probe" and action.to:
            return hide((seat, action.target), "action.hidden_plays_probe_seat", seat2=action.target)
        if function == "see_through" and action.on:
            on = action.on
            for it in st.chain:
                if it.card == on and it.kind == "probe":
                    return hide((seat, it.user, it.target), "action.hidden_plays_card_on_face_down_probe", card=card)
    if kind in ("choose", "trigger") and st.stack and st.stack[-1].kind == "skill_step":
        fr = st.stack[-1]
        skill = SKILLS.get(fr.text)
        found = skill.hidden_answer(g, fr, action) if skill is not None else None
        if found is not None:
            return found
    if kind == "choose" and st.stack and st.stack[-1].kind == "card_step" and st.stack[-1].text == "probe":
        fr = st.stack[-1]
        if fr.stage == 0:
            return hide((seat, fr.order[0]), "action.hidden_answers_probe")
        # the discarded card goes face down (§12 D12): only the discarder knows it
        return hide((seat,), "action.hidden_chooses_discard")
    if st.characters:
        return skill_privacy(g, seat, action)
    return None
