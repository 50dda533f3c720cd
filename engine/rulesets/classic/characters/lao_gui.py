"""老鬼 (lao_gui, 潜伏, F): 就计, 城府, 遗志 (digest §10.2). 就计 is shared with 老枪, who
imports it from here (digest §10.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger, flip, has_skill

if TYPE_CHECKING:
    from engine.game import Game


class JiuJi(Skill):
    """就计 [flip]: when a 试探 or 锁定 is used on you successfully (not 识破'd), you may
    turn this character face up and draw 2; it resolves before that card (digest §10.2,
    §6.5; source: "【试探】或【锁定】没人响应的情况下先结算【就计】…被【识破】后…不能使用").
    Face down only, and never by choice at a priority ("不符合翻开条件时不能主动翻开角色牌"):
    a ``trigger`` decision, ``skill jiu_ji`` or ``pass``. A 锁定 made from another card
    (换日, 预谋 …) is a 锁定 (§6.4)."""

    id: ClassVar[str] = "jiu_ji"
    zh: ClassVar[str] = "就计"
    kind: ClassVar[SkillKind] = "flip"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if self.flip_window(g, event, fr) == seat:
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def flip_window(self, g: Game, event: str, fr: Frame) -> int:
        return fr.seat if event == "used_on" and fr.text in ("probe", "lock") else -1

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)] if has_skill(g, seat, self.id) else []

    def step(self, g: Game, fr: Frame) -> None:
        if not fr.answer:
            # The prompt is public: it must not name the face-down character's skill. Every
            # face-down target is asked (base.fire); only 老鬼/老枪 may answer the skill.
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.card_used_on_you_respond", args={})
            return
        g.state.stack.pop()
        if fr.answer == PASS:
            return
        flip(g, fr.seat, up=True)
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.draw(fr.seat, 2)


class ChengFu(Skill):
    """城府: face up only; when 试探'd you may carry out either action of the card whatever
    your identity (the card's discard / draw, or only the sentence). Face down, 就计 may
    flip the character first and 城府 then applies to the same 试探 (digest §10.2; the
    choice is asked by the 试探 itself, ``cards/targeted.py``)."""

    id: ClassVar[str] = "cheng_fu"
    zh: ClassVar[str] = "城府"
    kind: ClassVar[SkillKind] = "passive"

    def probe_choice(self, g: Game, seat: int, item: Item) -> bool:
        # Asked once, as the 试探 resolves on this seat: the use is public (which answer
        # is chosen is not, privacy.py).
        g.log("skill.uses_id", seat, {"seat": seat, "id": self.id})
        return True


class YiZhi(Skill):
    """遗志: at your death, face up, before your identity is revealed, you may give your
    whole hand face down to another player (``skill yi_zhi to S``); they take 3 of it at
    random as their intel (cannot refuse; 3 or fewer: all); the rest is discarded
    (digest §10.2, §7 ①, §12 D16). The placed intel is received (D19) and 老鬼 is
    credited with the kills (D15). 老鬼's own mission is read from the hand held at the
    death, before it is given away: if that completes it, 遗志 is not asked
    (docs/rule-decisions.md, classic)."""

    id: ClassVar[str] = "yi_zhi"
    zh: ClassVar[str] = "遗志"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "dying" and fr.seat == seat and g.state.seats[seat].hand:
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living() if s != seat]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        if fr.stage == 0:
            fr.stage = 1
            if marks.has(st, marks.saved(fr.seat)):
                st.stack.pop()  # saved (救美) before this skill: no death
                return
            MISSION.dying(g, fr.seat)
            if marks.has(st, marks.mission_done(fr.seat)):
                st.stack.pop()  # her mission is met: she wins as the death completes
                return
        if not fr.answer:
            options = self.offers(g, fr.seat, fr)
            if not me.hand or not options:
                st.stack.pop()
                return
            ask_trigger(g, fr, options, "prompt.trigger.zh_give_your_hand_player", args={"zh": "遗志"})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        target = act.target
        hand = list(me.hand)
        me.hand.clear()
        given = len(hand)
        taken = [hand.pop(g.random_below(len(hand))) for _ in range(min(3, len(hand)))]
        for c in hand:
            g.discard_card(c)
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.log("give.gives_n_hand_card_seat", fr.seat, {"seat": fr.seat, "n": given, "seat2": target})
        g.place_intel(target, taken, [fr.seat], cause=self.id)


class RedHandAtDeath(Mission):
    """At your death, reveal your hand: it holds 3 or more red cards (digest §10.2). Read
    when the death happens (before the hand is discarded or given away by 遗志)."""

    def dying(self, g: Game, seat: int) -> None:
        st = g.state
        s = st.seats[seat]
        if s.identity != "bystander" or marks.has(st, marks.mission_done(seat)):
            return
        if sum(1 for c in s.hand if deck.IS_RED[c]) >= 3:
            marks.add(st, marks.mission_done(seat))
            g.log("reveal.shows_hand_cards", seat, {"seat": seat, "cards": tuple(sorted(s.hand))}, cards=tuple(s.hand))

    def met(self, g: Game, seat: int) -> bool:
        return marks.has(g.state, marks.mission_done(seat))


SKILLS = (JiuJi, ChengFu, YiZhi)
MISSION = RedHandAtDeath()
