"""译电员: 反侦【隐藏】 and 速译【暴露】 (rulebook p.11; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose_option, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import Skill, TwoOfAColourOnDeclare, take_answer
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game

#: Card functions whose use lets 反侦 fire (a true intel used as 识破 by 就计 counts too:
#: the chain item's kind is the function used).
FAN_ZHEN_KINDS = ("see_through", "decrypt")


class FanZhen(Skill):
    """反侦【隐藏】: when another player uses 识破 or 破译, you may hide and draw 1. "使用…时"
    means as soon as the card is used, whatever its outcome (p.11 note). Triggered at the
    ``card_used`` window; used inside the chain it resolves at once, and the drawn card
    cannot join that chain."""

    id = "fan_zhen"
    zh = "反侦"
    state = "hide"
    windows = ("card_used",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat == seat:
            return []
        index = ev.cards[0] if ev.cards else -1
        kind = st.chain[index].kind if 0 <= index < len(st.chain) else deck.FUNCTION[ev.card]
        return [use_skill(self.id)] if kind in FAN_ZHEN_KINDS else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if g.state.seats[item.user].alive:
            item.done = True
            g.draw(item.user, 1)
        return True


def superseded(g: Game, old: int, new: int) -> bool:
    """The intel ``old`` was "取代" (帽子戏法), not "替换" (偷龙转凤), by ``new``: a skill that
    supersedes the intel in transit marks it with the flag ``superseded:OLD:NEW`` (p.11
    速译 ②). Follows a series of such marks."""
    seen = {old}
    card = old
    while card != new:
        nxt = [m.new for m in marks.find(g.state, marks.Superseded) if m.old == card]
        if not nxt or nxt[-1] in seen:
            return False
        card = nxt[-1]
        seen.add(card)
    return True


class SuYi(Skill):
    """速译【暴露】: in another player's turn, you may expose and look at a face-down intel
    (the one in transmission), then either turn it face up and draw 1, or leave it and
    draw nothing. Turning it face up does not change its mode (p.11 ①). If a response
    replaced the intel (偷龙转凤, 调包) it fails; if the intel was superseded (帽子戏法) it
    still resolves, on the new intel (p.11 ②). Usable at any decision of another's turn
    that this seat is given (a response point, the intel reaching it, the returned poll)."""

    id = "su_yi"
    zh = "速译"
    state = "expose"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        t = st.transit
        if ctx not in ("respond", "arrive", "returned") or seat == st.turn or t is None or t.face_up:
            return []
        return [use_skill(self.id)]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        t = g.state.transit
        assert t is not None
        item.on = t.card
        look(g, item.user, t.card)

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        t = st.transit
        if fr.answer:
            answer = take_answer(fr)
            if answer.option == "flip" and t is not None and not t.face_up:
                t.face_up = True
                g.log("flip.turns_intel_face_up_card", item.user, {"seat": item.user, "card": t.card}, cards=(t.card,))
                g.draw(item.user, 1)
            return True
        if t is None or t.face_up or not st.seats[item.user].alive:
            return True
        if t.card != item.on:
            if not superseded(g, item.on, t.card):
                g.log("fail.zh_fails_intel_was_replaced", item.user, {"zh": "速译"})
                return True
            look(g, item.user, t.card)
        item.done = True
        ask_choice(g, item.user, "prompt.choose.zh_turn_intel_face_up",
                   [choose_option("flip"), choose_option("keep")], args={"zh": "速译", "n": 1})
        return False


def look(g: Game, seat: int, card: int) -> None:
    """检视 the intel in transmission (only this seat sees it)."""
    t = g.state.transit
    assert t is not None
    if seat not in t.known_by:
        t.known_by.append(seat)
    g.log("decrypt.looks_at_intel_card", seat, {"seat": seat, "card": card}, audience=(seat,), cards=(card,),
          public="decrypt.looks_at_intel")



SKILLS = (FanZhen(), SuYi())
MISSION = TwoOfAColourOnDeclare()
