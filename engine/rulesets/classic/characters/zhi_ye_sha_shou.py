"""职业杀手 (zhi_ye_sha_shou, 公开, M): 连击 and 预谋 (classic digest §10.2, §12 D34; source
"连击 当一位玩家获得你传出的假情报时你抽一张牌，然后可以在他面前再放置一张假情报 … 抽牌后可以选择
不放置假情报", "预谋 你的调虎离山可以当作锁定使用 … 这些【锁定】可以被【识破】", mission "亲手让另一位
玩家成为第二位或以后死亡的玩家 … 职业杀手不能通过自杀来完成该机密任务")."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger

if TYPE_CHECKING:
    from engine.game import Game


class LianJi(Skill):
    """连击: when a player (he himself included) receives a fake intel you sent — passed,
    locked or intercepted (D34), not 真伪莫辨 nor skill-placed (D19) → draw 1 (mandatory),
    then you may place a fake intel from your hand in front of that player
    (``skill lian_ji to S cards N`` or ``pass``); kills by it are yours (D15)."""

    id: ClassVar[str] = "lian_ji"
    zh: ClassVar[str] = "连击"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "received" and fr.text in ("send", "intercept") and fr.order[:1] == [seat]
                and any(deck.IS_BLACK[c] for c in fr.cards)):
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """A fake intel of the hand, in front of the receiver (``fr.order[0]``)."""
        blacks = sorted({c for c in g.state.seats[seat].hand if deck.IS_BLACK[c]})
        return [use_skill(self.id, fr.order[0], cards=(c,)) for c in blacks]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        victim = fr.order[0]
        if fr.stage == 0:
            fr.stage = 1
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.draw(fr.seat, 1)
        if not fr.answer:
            # Asked even with no fake in hand (only ``pass``): the prompt must not tell the
            # table what his hand holds.
            if not me.alive or not st.seats[victim].alive:
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                        "prompt.trigger.zh_place_fake_intel_from_2", args={"zh": "连击", "seat": victim})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        card = act.cards[0]
        me.hand.remove(card)
        g.place_intel(victim, [card], [fr.seat], cause=self.id)


class YuMou(Skill):
    """预谋: your 调虎离山 may be used as 锁定 (``play N to S as lock``): colour and mode
    unchanged, the 锁定's own timing, and it can be 识破'd (§6.4, §6.5)."""

    id: ClassVar[str] = "yu_mou"
    zh: ClassVar[str] = "预谋"
    kind: ClassVar[SkillKind] = "conversion"

    def converts(self, g: Game, seat: int, card: int) -> tuple[str, ...]:
        return ("lock",) if deck.FUNCTION[card] == "lure_away" else ()


class SecondOrLaterKill(Mission):
    """By your own hand make another player the second or a later player to die (no
    suicide; lost players are not deaths, D23; kill credit D15)."""

    def met(self, g: Game, seat: int) -> bool:
        return any(seat in k.killers and k.dead != seat for k in g.state.kills[1:])


SKILLS = (LianJi, YuMou)
MISSION = SecondOrLaterKill()
