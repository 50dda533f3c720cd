"""What an action shows to whom (spy digest §4, §5.4, §8): a send names a face-down card
(only the sender sees its number), a 试探 is seen by its user and target, a 调包 card by
its user, a given card (威逼, the hand-off) by giver and taker, a character choice by its
chooser."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action

from . import deck
from .skills import SKILLS

if TYPE_CHECKING:
    from engine.game import Game


def hidden_action(g: Game, seat: int, action: Action) -> tuple[tuple[int, ...], str] | None:
    st = g.state
    prompt = st.prompt
    kind = prompt.kind if prompt is not None else ""
    if kind == "character":
        return (seat,), "chooses a character"
    if action.kind == "send":
        shown = ["send"]
        if action.to:
            shown += ["to", "seat", str(action.target)]
        if action.arrow:
            shown.append(action.arrow)
        if action.lock >= 0:
            shown += ["lock", "seat", str(action.lock)]
        return (seat,), " ".join(shown)
    if action.kind == "play":
        function = deck.FUNCTION[action.card]
        if function == "probe" and action.to:
            return (seat, action.target), f"play probe to {action.target}"
        if function == "swap" and kind == "contest":
            return (seat,), "play swap"
    if kind == "handoff" and action.kind == "choose" and action.to:
        n = len(action.picks)
        return (seat, action.target), f"gives {n} cards to seat {action.target}"
    if kind == "choose" and st.stack and st.stack[-1].kind == "spy_card" and st.stack[-1].text == "threaten":
        fr = st.stack[-1]
        if seat == fr.index:
            return (seat, fr.seat), "gives a card"
    if kind in ("choose", "trigger") and st.stack and st.stack[-1].kind in ("spy_card", "spy_trigger"):
        sk = SKILLS.get(st.stack[-1].text)  # the skill id (a card step's function names no skill)
        hide = getattr(sk, "hidden_answer", None)
        if hide is not None:
            found: tuple[tuple[int, ...], str] | None = hide(g, seat, action)
            return found
    return None
