"""老金: 弃车保帅【隐藏】 and 破釜沉舟【暴露】 (rulebook p.13; digest §9)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import Mission, Skill, receipt, take_answer
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game

QI_CHE = "qi_che_bao_shuai"
PO_FU = "po_fu_chen_zhou"


def colours(card: int) -> set[str]:
    """A card's colours: 机密文件 is red and blue (p.9 机密文件 ①)."""
    out: set[str] = set()
    if deck.IS_RED[card]:
        out.add("red")
    if deck.IS_BLUE[card]:
        out.add("blue")
    if deck.IS_BLACK[card]:
        out.add("black")
    return out


def other_colour_secret(g: Game, received: list[int]) -> list[int]:
    """密电 in the discard pile of a colour different from the received intel's. A 机密文件
    counts as red or blue, whichever helps (p.9 机密文件 ①; digest §7), so after a dual
    intel a 密电 of any colour qualifies (密电 are never dual)."""
    got: set[str] = set()
    for c in received:
        got |= colours(c)
    return sorted({c for c in g.state.discard if deck.MODE[c] == "secret" and got - colours(c)})


class QiCheBaoShuai(Skill):
    """弃车保帅【隐藏】: when you successfully receive an intel, you may hide, then
    successfully receive a 密电 from the discard pile of a colour different from the
    received one. Death-time skills resolve first, so 老金 may use it while dying of that
    receipt and win if it meets his condition: victory beats death (p.13 note).

    Offered at the receipt window and, when the receipt itself made him dying, at his
    ``dying`` window; the 密电 is chosen at resolution ("然后选择"); it is only offered when
    one exists."""

    id = QI_CHE
    zh = "弃车保帅"
    state = "hide"
    windows = ("received", "dying")

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        fr = receipt(g)
        if fr is None or fr.seat != seat or ev.seat != seat or not st.seats[seat].alive:
            return []
        cards = fr.cards or [fr.card]
        if marks.has(st, marks.QiChe(seat, cards[0])):
            return []
        return [use_skill(self.id)] if other_colour_secret(g, cards) else []

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        st = g.state
        fr = receipt(g)
        assert fr is not None
        cards = fr.cards or [fr.card]
        marks.add(st, marks.QiChe(item.user, cards[0]))
        item.cards = list(cards)
        # Used while dying of this receipt: the original intel stays the cause of death.
        if any(f.kind == "trigger" and f.text == "dying" for f in st.stack):
            item.targets = list(fr.order)
            item.code = fr.text or "intel"

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 1:
            return True
        if not st.seats[item.user].alive:
            return True
        options = other_colour_secret(g, item.cards)
        if not fr.answer:
            if not options:
                return True
            ask_choice(g, item.user, "prompt.choose.zh_zh_another_colour_from",
                       [choose(c) for c in options], args={"zh": "弃车保帅", "zh2": '密电'})
            return False
        card = take_answer(fr).pick
        if card not in st.discard:
            return True
        item.done = True
        st.discard.remove(card)
        fr.stage = 1
        users = item.targets if item.code else [item.user]
        g.place_intel(item.user, [card], users, cause=item.code or QI_CHE)
        return False


class PoFuChenZhou(Skill):
    """破釜沉舟【暴露】: at your turn end, you may expose and discard 2 hand cards, then a
    player you name (another player) successfully receives the pile's bottom card as
    intel. You may look at or show the card before naming the player; being successful at
    once, it has no "情报接收时" response point (p.13 note)."""

    id = PO_FU
    zh = "破釜沉舟"
    state = "expose"
    windows = ("turn_end",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat != seat or st.turn != seat:
            return []
        hand = sorted(set(st.seats[seat].hand))
        return [use_skill(self.id, cards=(a, b)) for a, b in combinations(hand, 2)]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        g.discard_from_hand(item.user, list(item.cards))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 2:
            return True
        if fr.stage == 1:
            target = take_answer(fr).pick
            fr.stage = 2
            if not st.seats[target].alive:
                return True
            item.done = True
            card = item.held.pop()
            g.place_intel(target, [card], [item.user], cause=PO_FU)
            return False
        others = [s for s in g.living() if s != item.user]
        if not st.seats[item.user].alive or not others:
            return True
        if not st.pile:
            g.reshuffle()
        if not st.pile:
            return True
        card = st.pile.pop(0)
        if not st.pile:
            st.pile_exhausted_once = True
        item.held = [card]
        g.log("pile_bottom.looks_at_pile_bottom_card", item.user, {"seat": item.user, "card": card},
              audience=(item.user,), cards=(card,), public="pile_bottom.looks_at_pile_bottom")
        fr.stage = 1
        # The prompt is public (every seat and spectator reads ``pending.prompt``): it must
        # not name the card, which only 老金 has looked at (the event above tells him).
        ask_choice(g, item.user, "prompt.choose.zh_who_receives_pile_bottom",
                   [choose(s) for s in others], args={"zh": "破釜沉舟"})
        return False


class LaoJinMission(Mission):
    """Hold 2 red and 2 blue intel (summary: 存有潛伏及軍情情報各兩張); a 机密文件 counts
    as red or blue, not both at once."""

    def done(self, g: Game, seat: int) -> bool:
        intel = g.state.seats[seat].intel
        dual = sum(1 for c in intel if deck.IS_RED[c] and deck.IS_BLUE[c])
        red = sum(1 for c in intel if deck.IS_RED[c]) - dual
        blue = sum(1 for c in intel if deck.IS_BLUE[c]) - dual
        return max(0, 2 - red) + max(0, 2 - blue) <= dual


SKILLS = (QiCheBaoShuai(), PoFuChenZhou())
MISSION = LaoJinMission()
