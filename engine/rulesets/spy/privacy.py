"""What an action shows to whom (spy digest §4, §5.4, §8): a send names a face-down card
(only the sender sees its number), a 试探 is seen by its user and target, a 调包 card by
its user, a given card (威逼, the hand-off) by giver and taker, a character choice by its
chooser."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import deck
from .skills import SKILLS

if TYPE_CHECKING:
    from engine.game import Game


def hidden_action(g: Game, seat: int, action: str) -> tuple[tuple[int, ...], str] | None:
    st = g.state
    words = action.split()
    prompt = st.prompt
    kind = prompt.kind if prompt is not None else ""
    if kind == "character":
        return (seat,), "chooses a character"
    if words[0] == "send":
        rest = words[2:]
        shown = ["send"]
        i = 0
        while i < len(rest):
            if rest[i] in ("to", "lock") and i + 1 < len(rest):
                shown += [rest[i], "seat", rest[i + 1]]
                i += 2
            else:
                shown.append(rest[i])
                i += 1
        return (seat,), " ".join(shown)
    if words[0] == "play" and len(words) >= 2 and words[1].isdigit():
        function = deck.FUNCTION[int(words[1])]
        if function == "probe" and len(words) >= 4:
            return (seat, int(words[3])), f"play probe to {words[3]}"
        if function == "swap" and kind == "contest":
            return (seat,), "play swap"
    if kind == "handoff" and words[0] == "choose" and len(words) == 4:
        n = len(words[1].split(","))
        return (seat, int(words[3])), f"gives {n} cards to seat {words[3]}"
    if kind == "choose" and st.stack and st.stack[-1].kind == "spy_card" and st.stack[-1].text == "threaten":
        fr = st.stack[-1]
        if seat == fr.index:
            return (seat, fr.seat), "gives a card"
    if kind in ("choose", "trigger") and st.stack and st.stack[-1].kind in ("spy_card", "spy_trigger"):
        sid = st.stack[-1].text.split()[0]
        sk = SKILLS.get(sid)
        hide = getattr(sk, "hidden_answer", None)
        if hide is not None:
            found: tuple[tuple[int, ...], str] | None = hide(g, seat, action)
            return found
    return None
