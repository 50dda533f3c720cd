"""致命香水 (zhi_ming_xiang_shui, 公开, F): 攻守兼备 and 临危受命 (digest §10.2, §12 D27; source:
攻守兼备 当你使用锁定或调虎离山时，抽二张牌然后选择一张手牌放回牌库顶 / 临危受命 当另一位玩家死亡时在其翻开身份牌
前，你可以把你的身份牌面朝下移出游戏然后得到他的身份牌，并且将一位玩家面前的一张情报与牌库顶的第一张牌调换;
不会触发因某阵营死亡而触发的技能也不会完成因某阵营死亡而完成的机密任务). No mission (D27)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, Hidden, use_skill
from engine.state import Frame

from ..kinds import SkillKind
from .base import Skill, ask_trigger, hand_choices
from .da_mei_nv import put_back, put_back_hidden

if TYPE_CHECKING:
    from engine.game import Game


class GongShouJianBei(Skill):
    """攻守兼备: when you use 锁定 or 调虎离山 successfully (not 识破'd, §6.5; before its
    effect) → draw 2, then put 1 hand card on the pile top (mandatory; only you see it)."""

    id: ClassVar[str] = "gong_shou_jian_bei"
    zh: ClassVar[str] = "攻守兼备"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "used_on" and fr.text in ("lock", "lure_away") and fr.order[:1] == [seat]:
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def step(self, g: Game, fr: Frame) -> None:
        if fr.stage == 0:
            fr.stage = 1
            if not g.state.seats[fr.seat].alive:
                g.state.stack.pop()
                return
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.draw(fr.seat, 2)
        put_back(g, fr, "攻守兼备")

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return hand_choices(g, seat)

    def hidden_answer(self, g: Game, fr: Frame, action: Action) -> Hidden | None:
        return put_back_hidden(fr, action)


class LinWeiShouMing(Skill):
    """临危受命: when another player dies (the death stands), before their identity is
    revealed → you may remove your identity card from the game face down and take theirs as
    yours (only you see it), then swap one intel in front of a living player (not the dying
    one) with the pile top card: ``skill lin_wei_shou_ming on M`` (``skill
    lin_wei_shou_ming`` when no intel lies on the table). The dying player then has no
    identity card: the death counts for no faction (no faction-death missions or
    triggers). The card taken from the pile is placed as intel, a receipt (D19) credited
    to you (D15); M goes on the pile top. Repeatable (source: 请再次使用该技能)."""

    id: ClassVar[str] = "lin_wei_shou_ming"
    zh: ClassVar[str] = "临危受命"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "death" and fr.seat != seat and g.state.seats[fr.seat].identity:
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Take an intel of a living player other than the dying one (``fr.order[0]``); with
        none on the table, the skill alone."""
        dying = fr.order[0]
        on_table = sorted(m for i in g.living() if i != dying for m in g.state.seats[i].intel)
        return [use_skill(self.id, on=m) for m in on_table] or [use_skill(self.id)]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        dying = fr.order[0]
        if not fr.answer:
            if not st.seats[fr.seat].alive or not st.seats[dying].identity:
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_take_seat_identity_card",
                        args={"zh": "临危受命", "seat": dying})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        me = st.seats[fr.seat]
        old, new = me.identity, st.seats[dying].identity
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.log("identity.removes_identity_card_id_from", fr.seat, {"seat": fr.seat, "id": old}, audience=(fr.seat,),
              public="identity.removes_identity_card_from_game")
        me.identity = new
        me.identity_revealed = False  # the card she takes is face down, whatever her old one was
        st.seats[dying].identity = ""
        g.log("identity.identity_now_id_zh", fr.seat, {"seat": fr.seat, "id": new, "zh": '临危受命', "seat2": dying},
              audience=(fr.seat,), public="identity.takes_seat_identity_card_zh")
        if not act.on:
            return
        card = act.on
        holder = next(i for i, s in enumerate(st.seats) if card in s.intel)
        top = g.take_pile_top()
        if not top:
            return
        st.seats[holder].intel.remove(card)
        st.pile.append(card)
        g.log("swap.intel_card_goes_on_pile", holder, {"seat": holder, "card": card, "card2": top}, cards=(card, top))
        g.place_intel(holder, [top], [fr.seat], cause=self.id)


SKILLS = (GongShouJianBei, LinWeiShouMing)
MISSION = None
