"""王田香 wang_tian_xiang (spy digest §9): 禁闭 — once per play phase, choose another player;
unless they give you 2 hand cards, for the rest of this turn they cannot use hand cards and
their character skills have no effect (§11.21: their own skills); with fewer than 2 cards
they must take the penalty."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import PASS, Action, Hidden, choose, hide, use_skill
from engine.marks import add
from engine.state import Frame

from ..cards import give
from ..marks import Jailed
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JinBi(Skill):
    id = "jin_bi"
    zh = "禁闭"
    kind = "main"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living() if s != seat]

    def use(self, g: Game, seat: int, action: Action) -> None:
        target = action.target
        if len(g.state.seats[target].hand) < 2:
            jail(g, target)
            return
        g.push(Frame("spy_card", seat=seat, index=target, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            st.stack.pop()
            if fr.answer == PASS:
                jail(g, fr.index)
            else:
                give(g, fr.index, fr.seat, list(fr.given().picks))
            return
        hand = sorted(st.seats[fr.index].hand)
        g.ask(fr.index, "choose", "prompt.choose.zh_give_seat_n_hand",
              [PASS, *(choose(a, b) for a, b in combinations(hand, 2))],
              args={"zh": "禁闭", "seat": fr.seat, "n": 2})

    def hidden_answer(self, g: Game, seat: int, action: Action) -> Hidden | None:
        if action.kind == "choose":
            return hide((seat, g.state.stack[-1].seat), "action.hidden_gives_n_cards", n=2)
        return None


def jail(g: Game, seat: int) -> None:
    add(g.state, Jailed(seat))
    g.log("jailed.cannot_use_hand_cards_or", seat, {"seat": seat}, seats=(seat,))


SKILLS[JinBi.id] = JinBi()
