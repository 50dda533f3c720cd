"""李醒 li_xing (hidden; spy digest §9): 搜缉 — contest, flip, look at one player's hand and at
the pending intel; you may take any of those cards that are black (``choose N`` one at a
time, ``pass`` to stop), show them and put them into your hand. Taking the pending intel
ends the turn at once (nobody receives)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import PASS, Action, Hidden, choose, use_skill
from engine.state import Frame

from .. import deck
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class SouJi(Skill):
    id = "sou_ji"
    zh = "搜缉"
    kind = "contest"
    flip = True

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living() if s != seat]

    def use(self, g: Game, seat: int, action: Action) -> None:
        st = g.state
        target = action.target
        hand = sorted(st.seats[target].hand)
        g.log("look.looks_at_seat_hand_cards", seat, {"seat": seat, "seat2": target, "cards": tuple(hand)},
              audience=(seat,), cards=tuple(hand), public="look.looks_at_seat_hand_2")
        t = st.transit
        if t is not None and not t.face_up:
            if seat not in t.known_by:
                t.known_by.append(seat)
            g.log("look.looks_at_pending_intel_card", seat, {"seat": seat, "card": t.card}, audience=(seat,),
                  cards=(t.card,), public="look.looks_at_pending_intel")
        g.push(Frame("spy_card", seat=seat, index=target, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        t = st.transit
        if fr.answer:
            act = fr.answer
            fr.answer = None
            if act.kind == "pass":
                st.stack.pop()
                return
            card = act.pick
            st.seats[fr.seat].hand.append(card)
            g.log("take.takes_card_shows_it", fr.seat, {"seat": fr.seat, "card": card}, cards=(card,))
            if t is not None and t.card == card:
                st.transit = None
                g.log("intel_taken.pending_intel_taken_nobody_receives", fr.seat, {})
            else:
                st.seats[fr.index].hand.remove(card)
        t = st.transit
        cards = [c for c in sorted(st.seats[fr.index].hand) if deck.IS_BLACK[c]]
        if t is not None and deck.IS_BLACK[t.card]:
            cards.append(t.card)
        if not cards:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_take_black_card_or", [PASS, *(choose(c) for c in cards)],
              args={"zh": "搜缉"})

    def hidden_answer(self, g: Game, seat: int, action: Action) -> Hidden | None:
        return None  # a taken card is shown (展示)


SKILLS[SouJi.id] = SouJi()
