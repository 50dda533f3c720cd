"""What an action shows to whom (spy digest §4, §5.4, §8): a send names a face-down card
(only the sender sees its number), a 试探 is seen by its user and target, a 调包 card by
its user, a given card (威逼, the hand-off) by giver and taker, a character choice by its
chooser."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, Hidden, hide, hide_cards

from . import deck
from .skills import SKILLS

if TYPE_CHECKING:
    from engine.game import Game


def hidden_action(g: Game, seat: int, action: Action) -> Hidden | None:
    """Who sees ``action`` of ``seat`` in full and its public form for everyone else (None:
    it is public), from the action's typed fields and the decision it answers."""
    st = g.state
    prompt = st.prompt
    kind = prompt.kind if prompt is not None else ""
    if kind == "character":
        return hide((seat,), "action.hidden_chooses_character")
    if action.kind == "send":
        # the way (arrow or target) and the lock are public, the card is face down (§4)
        return hide_cards((seat,), action)
    if action.kind == "play":
        function = deck.FUNCTION[action.card]
        if function == "probe" and action.to:
            return hide((seat, action.target), "action.hidden_plays_probe_seat", seat2=action.target)
        if function == "swap" and kind == "contest":
            return hide((seat,), "action.hidden_plays_swap")
    if kind == "handoff" and action.kind == "choose" and action.to:
        n = len(action.picks)
        return hide((seat, action.target), "action.hidden_gives_n_cards_seat", n=n, seat2=action.target)
    if kind == "choose" and st.stack and st.stack[-1].kind == "spy_card" and st.stack[-1].text == "threaten":
        fr = st.stack[-1]
        if seat == fr.index:
            return hide((seat, fr.seat), "action.hidden_gives_card")
    if kind in ("choose", "trigger") and st.stack and st.stack[-1].kind in ("spy_card", "spy_trigger"):
        sk = SKILLS.get(st.stack[-1].text)  # the skill id (a card step's function names no skill)
        hide_answer = getattr(sk, "hidden_answer", None)
        if hide_answer is not None:
            found: Hidden | None = hide_answer(g, seat, action)
            return found
    return None
