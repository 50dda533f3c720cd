"""小白 (xiao_bai, 公开, both): 乔装, 收买 and 败露 (digest §10.2, §7, §12 D23; source: 乔装 此角色既
视为男性也视为女性 / 收买 把你的四张手牌交给一位玩家然后获得他面前的一张情报 / 败露 当你获得六张或以上的情报时，
你输掉这场游戏)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, Hidden, choose, hide, use_skill
from engine.state import Frame, Item

from .. import flow, marks
from ..kinds import SkillKind
from .base import Mission, Skill, ask_choose

if TYPE_CHECKING:
    from engine.game import Game

#: How many hand cards 收买 gives.
PRICE = 4


class QiaoZhuang(Skill):
    """乔装: this character counts as male and as female (D6, D28)."""

    id: ClassVar[str] = "qiao_zhuang"
    zh: ClassVar[str] = "乔装"
    kind: ClassVar[SkillKind] = "passive"

    def sexes(self) -> tuple[str, ...] | None:
        return ("F", "M")


class ShouMai(Skill):
    """收买: any window, any turn, with 4 or more hand cards (source: 不足四张手牌时不能发动) →
    give 4 hand cards to a player (``skill shou_mai to S``, then ``choose N`` four times;
    they cannot refuse; only the two see the cards), then take any one intel in front of
    them, fake included (``choose M``), into your intel: a receipt (D19) credited to you
    (D15). A player with no intel only gets the cards. The item fails if you hold fewer
    than 4 cards when it resolves."""

    id: ClassVar[str] = "shou_mai"
    zh: ClassVar[str] = "收买"
    kind: ClassVar[SkillKind] = "active"

    def actions(self, g: Game, seat: int) -> list[Action]:
        if len(g.state.seats[seat].hand) < PRICE:
            return []
        return [use_skill(self.id, s) for s in g.living() if s != seat]

    def valid(self, g: Game, item: Item) -> bool:
        st = g.state
        return st.seats[item.target].alive and st.seats[item.user].alive and len(st.seats[item.user].hand) >= PRICE

    def resolve(self, g: Game, item: Item) -> None:
        g.push(Frame("skill_step", seat=item.user, text=self.id, order=[item.target]))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        target = fr.order[0]
        them = st.seats[target]
        if fr.stage == 0:
            if fr.answer:
                fr.cards.append(fr.answer.pick)
                fr.answer = None
            if len(fr.cards) < PRICE:
                ask_choose(g, fr.seat, "prompt.choose.zh_give_hand_card_seat", self.choices(g, fr.seat, fr),
                           args={"zh": "收买", "seat": target, "n": len(fr.cards) + 1, "n2": PRICE})
                return
            for c in fr.cards:
                me.hand.remove(c)
            them.hand.extend(fr.cards)
            g.log("give.gives_cards_seat_zh", fr.seat,
                  {"seat": fr.seat, "cards": tuple(fr.cards), "seat2": target, "zh": "收买", "n": PRICE},
                  audience=(fr.seat, target), cards=fr.cards, public="give.gives_n_hand_cards_seat")
            fr.stage = 1
        if not fr.answer:
            if not them.alive or not them.intel:
                st.stack.pop()
                return
            ask_choose(g, fr.seat, "prompt.choose.zh_take_intel_seat", self.choices(g, fr.seat, fr),
                       args={"zh": "收买", "seat": target})
            return
        card = fr.given().pick
        st.stack.pop()
        them.intel.remove(card)
        g.log("move.intel_card_goes_seat_zh", target, {"seat": target, "card": card, "seat2": fr.seat, "zh": "收买"},
              cards=(card,))
        g.place_intel(fr.seat, [card], [fr.seat], cause=self.id)

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Stage 0: a hand card not yet chosen to give; then an intel of the target."""
        st = g.state
        if fr.stage == 0:
            left = list(st.seats[seat].hand)
            for c in fr.cards:
                left.remove(c)
            return [choose(c) for c in sorted(set(left))]
        return [choose(m) for m in sorted(set(st.seats[fr.order[0]].intel))]

    def hidden_answer(self, g: Game, fr: Frame, action: Action) -> Hidden | None:
        if fr.stage == 0:
            return hide((fr.seat,), "action.hidden_chooses_card_to_give_bribe")
        return None


class BaiLu(Skill):
    """败露: when you hold 6 or more intel you lose the game (§7, D23): not a death, no
    death-time skills, not a death for missions; it beats a victory reached at the same
    moment (source: 当获得六张情报并同时达到胜利条件时，视为输掉游戏), so it is checked before
    any declaration."""

    id: ClassVar[str] = "bai_lu"
    zh: ClassVar[str] = "败露"
    kind: ClassVar[SkillKind] = "passive"

    def state_check(self, g: Game, seat: int) -> None:
        s = g.state.seats[seat]
        if s.alive and not marks.has(g.state, marks.lost(seat)) and len(s.intel) >= 6:
            g.log("skill.uses_id", seat, {"seat": seat, "id": self.id})
            flow.lose(g, seat, "败露")


class FirstToDieOrFactionGone(Mission):
    """You are the first player to die (a bystander dying first of 3 fakes wins, source
    note), or every 潜伏 player or every 军情 player is dead (lost players are not dead,
    D23; a death whose identity card 临危受命 took counts for no faction)."""

    def met(self, g: Game, seat: int) -> bool:
        kills = g.state.kills
        if kills and kills[0].dead == seat:
            return True
        dead = {k.dead for k in kills}
        for faction in ("latent", "military"):
            members = [i for i, s in enumerate(g.state.seats) if s.identity == faction]
            dead_members = [k.dead for k in kills if k.identity == faction]
            if dead_members and all(i in dead for i in members):
                return True
        return False


SKILLS = (QiaoZhuang, ShouMai, BaiLu)
MISSION = FirstToDieOrFactionGone()
