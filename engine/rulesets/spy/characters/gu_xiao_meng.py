"""顾小梦 gu_xiao_meng (hidden; spy digest §9): 急智 — when a player is dying (when you are
asked) or in the contest, flip, then draw 4; 承志 — before another player dies, if face up,
take all their hand cards and look at their identity card; you may take it as yours (your
original leaves the game face down; only whether you took it is announced); 尾声 — when you
win (face up and alive), every player without an identity card wins with you
(:func:`co_winners`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose_option, use_skill
from engine.state import Frame

from ..cards import give
from ..records import seat_ext
from ..skills import SKILLS, Event, Skill, passive

if TYPE_CHECKING:
    from engine.game import Game


class JiZhi(Skill):
    id = "ji_zhi"
    zh = "急智"
    kind = "contest"
    also = ("rescue",)
    flip = True

    def use(self, g: Game, seat: int, action: Action) -> None:
        g.draw(seat, 4)


class ChengZhi(Skill):
    id = "cheng_zhi"
    zh = "承志"
    kind = "trigger"
    windows = ("before_death",)
    forced = True  # taking the hand is not optional; only taking the identity is (可以)

    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        return [use_skill(self.id)] if ev.seat != seat and g.state.seats[seat].alive else []

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        st = g.state
        dead = fr.index
        hand = list(st.seats[dead].hand)
        if hand:
            give(g, dead, fr.seat, hand)
        ident = st.seats[dead].identity
        if not ident:
            return
        g.log("look_identity.looks_at_seat_identity_card", fr.seat, {"seat": fr.seat, "seat2": dead, "id": ident},
              audience=(fr.seat,), public="look_identity.looks_at_seat_identity_card_2")
        g.push(Frame("spy_card", seat=fr.seat, index=dead, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if not fr.answer:
            g.ask(fr.seat, "choose", "prompt.choose.zh_take_that_identity_card",
                  [choose_option("take"), choose_option("keep")], args={"zh": "承志"})
            return
        st.stack.pop()
        if fr.answer == choose_option("take"):
            me, dead = st.seats[fr.seat], st.seats[fr.index]
            me.identity, seat_ext(me).secret_task = dead.identity, seat_ext(dead).secret_task
            dead.identity, seat_ext(dead).secret_task = "", ""
            g.log("cheng_zhi.takes_seat_identity_card", fr.seat, {"seat": fr.seat, "seat2": fr.index})


class WeiSheng(Skill):
    id = "wei_sheng"
    zh = "尾声"
    kind = "passive"


def co_winners(g: Game, winners: set[int]) -> set[int]:
    """尾声 (§7.3 last step): a winning 顾小梦, face up and alive, brings every player without
    an identity card (承志 took it) into the win."""
    st = g.state
    if any(st.seats[w].character == "gu_xiao_meng" and passive(g, w, "wei_sheng") for w in winners):
        return winners | {i for i, p in enumerate(st.seats) if not p.identity}
    return winners


SKILLS[JiZhi.id] = JiZhi()
SKILLS[ChengZhi.id] = ChengZhi()
SKILLS[WeiSheng.id] = WeiSheng()
