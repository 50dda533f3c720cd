"""戴笠: 运筹帷幄【隐藏】 and 笑里藏刀【暴露】 (rulebook p.14; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck
from ..characters.base import KillNonAgent, Skill, take_answer
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game

YUN_CHOU = "yun_chou_wei_wo"
XIAO_LI = "xiao_li_cang_dao"
LOOK = 5


class YunChouWeiWo(Skill):
    """运筹帷幄【隐藏】: when you successfully receive a true intel, you may hide and look at
    the top 5 pile cards, then put 2 of them at the bottom and the other 3 back on top in
    any order. With fewer than 5 in the pile, the discard pile is shuffled into a new pile
    and the rest are taken from it (p.14 note).

    Prompts: the first and the second card for the bottom (each goes to the very bottom
    in turn), then the cards for the top, the last chosen ending on top."""

    id = YUN_CHOU
    zh = "运筹帷幄"
    state = "hide"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        if ev.seat != seat or not g.state.seats[seat].alive:
            return []
        return [use_skill(self.id)] if any(deck.IS_TRUE[c] for c in ev.cards or [ev.card]) else []

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        st = g.state
        taken: list[int] = []
        while len(taken) < LOOK:
            if not st.pile:
                g.reshuffle()
                if not st.pile:
                    break
            taken.append(st.pile.pop())
        item.held = taken
        if taken:
            g.log("look_pile.looks_at_pile_top_cards", item.user,
                  {"seat": item.user, "cards": tuple(taken), "n": len(taken)}, audience=(item.user,), cards=taken,
                  public="look_pile.looks_at_n_pile_card")

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if fr.answer:
            self._place(g, item, fr, take_answer(fr).pick)
        else:
            item.done = True
        if len(item.held) == 1:
            self._place(g, item, fr, item.held[0])
        if not item.held:
            g.log("arrange_pile.puts_cards_back", item.user, {"seat": item.user})
            return True
        key = "prompt.choose.zh_card_for_pile_bottom" if fr.stage < 2 else "prompt.choose.zh_card_put_back_on"
        ask_choice(g, item.user, key, [choose(c) for c in sorted(item.held)], args={"zh": "运筹帷幄"})
        return False

    @staticmethod
    def _place(g: Game, item: Item, fr: Frame, card: int) -> None:
        """The first two cards go to the very bottom in turn, the rest on top in turn."""
        item.held.remove(card)
        if fr.stage < 2:
            g.state.pile.insert(0, card)
        else:
            g.state.pile.append(card)
        fr.stage += 1


class XiaoLiCangDao(Skill):
    """笑里藏刀【暴露】: when another player successfully receives a true intel, you may
    expose, then choose a fake intel from the discard pile, which that player successfully
    receives. Usable even with no fake intel in the discard pile (p.14 ②); no window
    remains when the receipt already won the game."""

    id = XIAO_LI
    zh = "笑里藏刀"
    state = "expose"
    windows = ("received",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat == seat or not st.seats[ev.seat].alive:
            return []
        return [use_skill(self.id, ev.seat)] if any(deck.IS_TRUE[c] for c in ev.cards or [ev.card]) else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 1:
            return True
        if fr.answer:
            card = take_answer(fr).pick
            if card not in st.discard or not st.seats[item.target].alive:
                return True
            item.done = True
            st.discard.remove(card)
            fr.stage = 1
            g.place_intel(item.target, [card], [item.user], cause=XIAO_LI)
            return False
        fakes = sorted({c for c in st.discard if deck.IS_BLACK[c]})
        if not fakes or not st.seats[item.target].alive or not st.seats[item.user].alive:
            return True
        ask_choice(g, item.user, "prompt.choose.zh_fake_intel_from_discard",
                   [choose(c) for c in fakes], args={"zh": "笑里藏刀", "seat": item.target})
        return False




SKILLS = (YunChouWeiWo(), XiaoLiCangDao())
MISSION = KillNonAgent()
