"""阿芙罗拉 a_fu_luo_la (hidden; spy digest §9): 妙手 — contest, flip, discard the pending
intel, then look at one player's hand and intel area (yourself allowed; they need at least
one card in either, §11.14) and take one card from them as the new pending intel, face up,
placed in front of any player. Prompts: ``choose S`` (the player), ``choose N`` (the card),
``choose S`` (in front of whom)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, Hidden, choose
from engine.state import Frame

from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class MiaoShou(Skill):
    id = "miao_shou"
    zh = "妙手"
    kind = "contest"
    flip = True

    def use(self, g: Game, seat: int, action: Action) -> None:
        st = g.state
        t = st.transit
        if t is None:
            return
        g.discard_card(t.card)
        g.log("discard.discards_pending_intel_card", seat, {"seat": seat, "card": t.card}, cards=(t.card,))
        t.card = 0
        g.push(Frame("spy_card", seat=seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        t = st.transit
        assert t is not None
        if fr.answer:
            pick = fr.answer.pick
            fr.answer = None
            if fr.stage == 0:
                fr.index = pick
                hand = sorted(st.seats[pick].hand)
                g.log("look.looks_at_seat_hand_cards", fr.seat, {"seat": fr.seat, "seat2": pick, "cards": tuple(hand)},
                      audience=(fr.seat,), cards=tuple(hand), public="look.looks_at_seat_hand_2")
            elif fr.stage == 1:
                fr.card = pick
                p = st.seats[fr.index]
                (p.hand if pick in p.hand else p.intel).remove(pick)
                t.card = pick
                t.face_up = True
                g.log("take.takes_card_as_new_pending", fr.seat, {"seat": fr.seat, "card": pick}, cards=(pick,))
            else:
                st.stack.pop()
                t.holder = pick
                g.log("contest.intel_now_in_front_seat", fr.seat, {"seat": pick}, seats=(pick,))
                return
            fr.stage += 1
        if fr.stage == 0:
            g.ask(fr.seat, "choose", "prompt.choose.zh_whose_hand_intel_area",
                  [choose(s) for s in g.living() if st.seats[s].hand or st.seats[s].intel], args={"zh": "妙手"})
        elif fr.stage == 1:
            p = st.seats[fr.index]
            g.ask(fr.seat, "choose", "prompt.choose.zh_take_one_card_as",
                  [choose(c) for c in sorted(p.hand + p.intel)], args={"zh": "妙手"})
        else:
            g.ask(fr.seat, "choose", "prompt.choose.zh_in_front_whom", [choose(s) for s in g.living()],
                  args={"zh": "妙手"})

    def hidden_answer(self, g: Game, seat: int, action: Action) -> Hidden | None:
        return None  # the taken card becomes the face-up pending intel


SKILLS[MiaoShou.id] = MiaoShou()
