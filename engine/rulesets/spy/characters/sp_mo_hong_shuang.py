"""墨红霜(SP) sp_mo_hong_shuang (hidden; spy digest §9): 朝百合 — contest, flip, choose a
female character (face up); they draw 1 or discard 1 hand card at random (the 墨红霜 player
chooses, §11.13); 暮蔷薇 — in your own turn, after you receive an intel, you may turn your
character face down, take one intel from your intel area into your hand, then put one hand
card into a male character's intel area."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, use_skill
from engine.state import Frame

from ..cards import place
from ..skills import SKILLS, Event, Skill
from ..table import ROWS

if TYPE_CHECKING:
    from engine.game import Game


def sex(g: Game, seat: int) -> str:
    """The sex of a face-up character ('' face down or none, §5.2)."""
    p = g.state.seats[seat]
    return ROWS[p.character].sex if p.character and p.exposed else ""


class ZhaoBaiHe(Skill):
    id = "zhao_bai_he"
    zh = "朝百合"
    kind = "contest"
    flip = True

    def actions(self, g: Game, seat: int) -> list[Action]:
        # herself counts: she is a face-up female character once flipped
        return [use_skill(self.id, s) for s in g.living() if s == seat or sex(g, s) == "F"]

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.push(Frame("spy_card", seat=seat, index=action.target, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        hand = st.seats[fr.index].hand
        if not fr.answer:
            g.ask(fr.seat, "choose", "prompt.choose.zh_they_draw_n_or",
                  [choose_option("draw"), *([choose_option("discard")] if hand else [])],
                  args={"zh": "朝百合", "n": 1, "n2": 1})
            return
        st.stack.pop()
        if fr.answer == choose_option("draw"):
            g.draw(fr.index, 1)
            return
        g.discard_from_hand(fr.index, [hand[g.random_below(len(hand))]])


class MuQiangWei(Skill):
    id = "mu_qiang_wei"
    zh = "暮蔷薇"
    kind = "trigger"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        st = g.state
        if ev.seat != seat or st.turn != seat or not st.seats[seat].intel:
            return []
        if not any(sex(g, s) == "M" for s in g.living()):
            return []
        return [use_skill(self.id)]

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        g.state.seats[fr.seat].exposed = False
        g.log("flip_down.turns_character_face_down", fr.seat, {"seat": fr.seat}, seats=(fr.seat,))
        g.push(Frame("spy_card", seat=fr.seat, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        if fr.stage == 0:
            if fr.answer:
                m = fr.answer.pick
                fr.answer = None
                me.intel.remove(m)
                me.hand.append(m)
                g.log("take.takes_intel_cards_into_hand", fr.seat, {"seat": fr.seat, "cards": (m,)}, cards=(m,))
                fr.stage = 1
            else:
                g.ask(fr.seat, "choose", "prompt.choose.zh_take_intel_into_your",
                      [choose(m) for m in sorted(me.intel)], args={"zh": "暮蔷薇"})
                return
        males = [s for s in g.living() if sex(g, s) == "M"]
        if fr.answer:
            act = fr.answer
            st.stack.pop()
            card, to = act.pick, act.target
            me.hand.remove(card)
            place(g, to, card)
            return
        if not males or not me.hand:
            st.stack.pop()
            return
        g.ask(fr.seat, "choose", "prompt.choose.zh_put_hand_card_into_2",
              [choose(c, to=s) for c in sorted(me.hand) for s in males], args={"zh": "暮蔷薇"})


SKILLS[ZhaoBaiHe.id] = ZhaoBaiHe()
SKILLS[MuQiangWei.id] = MuQiangWei()
