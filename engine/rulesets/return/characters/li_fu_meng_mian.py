"""礼服蒙面: 危机关系 and 以爱宣名 (rulebook p.16; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import Mission, Skill, game_start_naming, take_random
from ..records import seat_ext

if TYPE_CHECKING:
    from engine.game import Game

WEI_JI = "wei_ji_guan_xi"
YI_AI = "yi_ai_xuan_ming"


def nemesis(g: Game, seat: int) -> int:
    """The nemesis (X) this seat named at game start (-1: none); the relation lasts the
    whole game (p.16 危机关系 note)."""
    p = g.state.seats[seat]
    return seat_ext(p).relation if p.character == "li_fu_meng_mian" else -1


class WeiJiGuanXi(Skill):
    """危机关系: at game start name another player as your nemesis (X); each time they
    successfully receive a fake intel you may draw 2 (p.16).

    ``skill wei_ji_guan_xi to S`` at game start (forced); ``skill wei_ji_guan_xi`` at X's
    receipt of a fake (optional), even when it kills X."""

    id = WEI_JI
    zh = "危机关系"
    windows = ("game_start", "received")

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        named = game_start_naming(g, seat, ev, self.id)
        if named is not None:
            return named
        x = nemesis(g, seat)
        if x < 0 or ev.seat != x:
            return []
        return [use_skill(self.id)] if any(deck.IS_BLACK[c] for c in ev.cards or [ev.card]) else []

    def forced_at(self, g: Game, seat: int, ev: Frame) -> bool:
        return ev.text == "game_start"

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if item.target >= 0:
            item.done = True
            seat_ext(st.seats[item.user]).relation = item.target
            g.log("nemesis.names_seat_as_nemesis", item.user, {"seat": item.user, "seat2": item.target},
                  seats=(item.target,))
            return True
        if st.seats[item.user].alive:
            item.done = True
            g.draw(item.user, 2)
        return True


def declared(g: Game, seat: int) -> str:
    """What this seat declared with 以爱宣名 for this turn's send ("" if nothing)."""
    return next((m.what for m in marks.find(g.state, marks.Declared) if m.seat == seat), "")


class YiAiXuanMing(Skill):
    """以爱宣名: when you send an intel, you may declare "the receiver draws 2" or "the
    receiver has a card taken by you". Every player who chooses to receive it carries it
    out, even if the receipt then fails or the intel was replaced (调包); if the receiver
    changes several times it fires several times; if you are the receiver of "taken by
    you", nothing happens (p.16 ①②③).

    ``skill yi_ai_xuan_ming choose draw`` / ``choose take`` at the send; then at each
    ``receive_chosen`` window of this turn ``skill yi_ai_xuan_ming`` carries it out
    (forced: it is the receiver's duty, not a choice)."""

    id = YI_AI
    zh = "以爱宣名"
    windows = ("send", "receive_chosen")

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.text == "send":
            if ev.seat != seat or declared(g, seat):
                return []
            return [use_skill(self.id, options=("draw",)), use_skill(self.id, options=("take",))]
        t = st.transit
        word = declared(g, seat)
        if not word or t is None or t.sender != seat or not st.seats[ev.seat].alive:
            return []
        if word == "take" and (ev.seat == seat or not st.seats[ev.seat].hand):
            return []
        return [use_skill(self.id, ev.seat)]

    def forced_at(self, g: Game, seat: int, ev: Frame) -> bool:
        return ev.text == "receive_chosen"

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if item.target < 0:
            item.done = True
            marks.add(st, marks.Declared(item.user, item.code))
            key = "yi_ai_xuan_ming.declares_receiver_draws_n" if item.code == "draw" else (
                "yi_ai_xuan_ming.declares_receiver_has_card_taken")
            g.log(key, item.user, {"seat": item.user, "n": 2})
            return True
        target = st.seats[item.target]
        if not target.alive:
            return True
        if declared(g, item.user) == "draw":
            item.done = True
            g.draw(item.target, 2)
        elif target.hand and item.target != item.user and st.seats[item.user].alive:
            item.done = True
            take_random(g, item.user, item.target, 1)
        return True


class LiFuMengMianMission(Mission):
    """Your nemesis X dies (summary: X陣亡)."""

    def done(self, g: Game, seat: int) -> bool:
        x = seat_ext(g.state.seats[seat]).relation
        return x >= 0 and any(k.dead == x for k in g.state.kills)


SKILLS = (WeiJiGuanXi(), YiAiXuanMing())
MISSION = LiFuMengMianMission()
