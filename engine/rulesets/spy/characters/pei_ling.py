"""裴玲 pei_ling (spy digest §9): 交际 — once per play phase, draw at random up to 2 hand
cards of a player who has hand cards, then give them the same number of your hand cards,
less 1 for each black intel you hold (each reduction optional)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import PASS, Action, Hidden, choose, hide, use_skill
from engine.state import Frame

from .. import deck
from ..cards import give
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JiaoJi(Skill):
    id = "jiao_ji"
    zh = "交际"
    kind = "main"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living() if s != seat and g.state.seats[s].hand]

    def use(self, g: Game, seat: int, action: Action) -> None:
        st = g.state
        target = action.target
        taken: list[int] = []
        for _ in range(min(2, len(st.seats[target].hand))):
            hand = st.seats[target].hand
            taken.append(hand[g.random_below(len(hand))])
            hand.remove(taken[-1])
        st.seats[seat].hand.extend(taken)
        g.log("take.draws_cards_from_seat_hand_2", seat,
              {"seat": seat, "cards": tuple(taken), "seat2": target, "n": len(taken)}, audience=(seat, target),
              cards=tuple(taken), public="take.draws_n_cards_from_seat")
        g.push(Frame("spy_card", seat=seat, index=target, order=[len(taken)], text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.answer:
            st.stack.pop()
            if fr.answer != PASS:
                give(g, fr.seat, fr.index, list(fr.given().picks))
            return
        n = fr.order[0]
        low = max(0, n - deck.count(st.seats[fr.seat].intel, "black"))
        hand = sorted(st.seats[fr.seat].hand)
        options = [PASS] if low == 0 else []
        for k in range(max(1, low), n + 1):
            options += [choose(*combo) for combo in combinations(hand, k)]
        if not options:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_give_seat_hand_cards", options,
              args={"zh": "交际", "seat": fr.index})

    def hidden_answer(self, g: Game, seat: int, action: Action) -> Hidden | None:
        if action.kind == "choose":
            n = len(action.picks)
            return hide((seat, g.state.stack[-1].index), "action.hidden_gives_n_cards_back", n=n)
        return None


SKILLS[JiaoJi.id] = JiaoJi()
