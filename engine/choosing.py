"""The character choice at game start that rulesets share (classic §3, 谍战篇 §9): each
player in turn order keeps one of the characters offered (decision ``character``,
``choose ID``), the others go back to the pool."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game


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
        g.ask(s, "character", "prompt.character.choose_your_character", [f"choose {c}" for c in st.seats[s].options],
              args={})
        return False
    st.stack.pop()
    return True
