"""黑玫瑰 (hei_mei_gui, 潜伏, F): 血染玫瑰 (digest §10.2, §12 D14)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_choose

if TYPE_CHECKING:
    from engine.game import Game


class XueRanMeiGui(Skill):
    """血染玫瑰 [flip]: any window → turn face up, name a player (``skill xue_ran_mei_gui
    to S``), show the pile top card to all and put it back: black → you may place up to 3
    fake intel from your hand in front of them; otherwise at most 1; none is allowed
    (``choose N[,M…]`` or ``pass``). The cards are placed at once: a third fake kills at
    once, no 烧毁 in between (source ★ notes). A player killed in mid-transmission is
    skipped and the intel goes on; a 直达 goes back to its sender, who must take it (D14;
    the transmission steps do this, flow.py). Kill credit: 黑玫瑰 (D15)."""

    id: ClassVar[str] = "xue_ran_mei_gui"
    zh: ClassVar[str] = "血染玫瑰"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living()]

    def valid(self, g: Game, item: Item) -> bool:
        seats = g.state.seats
        return seats[item.user].alive and seats[item.target].alive

    def resolve(self, g: Game, item: Item) -> None:
        st = g.state
        top = g.take_pile_top()
        black = bool(top) and deck.IS_BLACK[top]
        if top:
            st.pile.append(top)
            colour = "black" if black else ("red" if deck.IS_RED[top] else "blue")
            g.log("show.pile_top_card_card_id", item.user, {"card": top, "id": colour}, cards=(top,))
        else:
            g.log("show.pile_empty_no_card_show", item.user, {})
        limit = 3 if black else 1
        g.push(Frame("skill_step", seat=item.user, text=self.id, order=[item.target], index=limit))

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """``pass`` or 1 to ``fr.index`` fake intel of the hand."""
        blacks = sorted({c for c in g.state.seats[seat].hand if deck.IS_BLACK[c]})
        return [PASS, *(choose(*combo) for k in range(1, fr.index + 1) for combo in combinations(blacks, k))]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        target = fr.order[0]
        if not fr.answer:
            options = self.choices(g, fr.seat, fr)
            if len(options) == 1 or not st.seats[target].alive:
                st.stack.pop()
                return
            key = "prompt.choose.zh_fake_intel_for_seat_2" if fr.index == 3 else "prompt.choose.zh_fake_intel_for_seat"
            ask_choose(g, fr.seat, key, options, args={"zh": "血染玫瑰", "seat": target})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        cards = list(act.picks)
        for c in cards:
            me.hand.remove(c)
        g.place_intel(target, cards, [fr.seat], cause=self.id)


class KillHolderOfThreeTrue(Mission):
    """Kill by your own hand a player holding 3 or more true intel (no suicide, §7)."""

    def met(self, g: Game, seat: int) -> bool:
        return any(seat in k.killers and k.dead != seat and k.true_intel >= 3 for k in g.state.kills)


SKILLS = (XueRanMeiGui,)
MISSION = KillHolderOfThreeTrue()
