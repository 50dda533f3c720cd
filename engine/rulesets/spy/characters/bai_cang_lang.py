"""白沧浪 bai_cang_lang (spy digest §9): 博爱 — once per play phase, draw 1, then you may
give 1 hand card to another player; if their character is female (face up), draw 1 more
(§11.13: the character's sex, face up only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import PASS, Action, Hidden, choose, hide
from engine.state import Frame

from ..cards import give
from ..skills import SKILLS, Skill
from ..table import ROWS

if TYPE_CHECKING:
    from engine.game import Game


def female(g: Game, seat: int) -> bool:
    """A face-up female character (§5.2: a face-down character has no sex)."""
    p = g.state.seats[seat]
    return bool(p.character) and p.exposed and ROWS[p.character].sex == "F"


class BoAi(Skill):
    id = "bo_ai"
    zh = "博爱"
    kind = "main"

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.draw(seat, 1)
        g.push(Frame("spy_card", seat=seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            st.stack.pop()
            if fr.answer != PASS:
                act = fr.given()
                target = act.target
                give(g, fr.seat, target, [act.pick])
                if female(g, target):
                    g.draw(fr.seat, 1)
            return
        others = [s for s in g.living() if s != fr.seat]
        opts = [choose(c, to=s) for c in sorted(st.seats[fr.seat].hand) for s in others]
        if not opts:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_give_hand_card_another", [PASS, *opts], args={"zh": "博爱"})

    def hidden_answer(self, g: Game, seat: int, action: Action) -> Hidden | None:
        if action.kind == "choose" and action.to:
            return hide((seat, action.target), "action.hidden_gives_card_seat", seat2=action.target)
        return None


SKILLS[BoAi.id] = BoAi()
