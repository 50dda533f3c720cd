"""柒佰 (qi_bai, 公开, M): 敏锐, 联动 and 风度 (classic digest §10.2, §6.1 golden rule, §12
D6, D22; source "敏锐 你可以在他人回合中使用锁定 … 这些【锁定】可以被【识破】", "联动 当你使用锁定时，
抽二张牌然后选择一张手牌分给另一位玩家 … 【锁定】被识破的情况下无法发动 … 该技能为强制发动",
"风度 当你宣告胜利时选择一位女性一同胜利 … 若场上存在女性时此效果必须触发 … 盖伏状态下的角色失去
性别", and the §6.3 example where 柒佰 locks B in A's 情报传递 step)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, Hidden, choose, hide, use_skill
from engine.state import Frame
from engine.text import ArgValue

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_choose, sexes

if TYPE_CHECKING:
    from engine.game import Game


class MinRui(Skill):
    """敏锐: you may use 锁定 in other players' turns, in their play phases and 情报传递
    steps (D22; golden rule §6.1). Such a 锁定 is a card: it can be 识破'd."""

    id: ClassVar[str] = "min_rui"
    zh: ClassVar[str] = "敏锐"
    kind: ClassVar[SkillKind] = "passive"

    def timing_override(self, g: Game, seat: int, function: str) -> bool | None:
        st = g.state
        if function == "lock" and st.turn != seat and st.timing in ("main1", "main2", "transmit"):
            return True
        return None

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        """Log a 锁定 used in another player's turn as a use of 敏锐 (simulate summary)."""
        if event == "card_used" and fr.text == "lock" and fr.order[:1] == [seat] and g.state.turn != seat:
            g.log("skill.uses_id", seat, {"seat": seat, "id": self.id})
        return None


class LianDong(Skill):
    """联动 (mandatory): when you use 锁定 successfully (not 识破'd; §6.5: after the chain
    settles, before the 锁定's effect) → draw 2, then give 1 hand card to another player
    (``choose N to S``; only the two of you see the card)."""

    id: ClassVar[str] = "lian_dong"
    zh: ClassVar[str] = "联动"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "used_on" and fr.text == "lock" and fr.order[:1] == [seat]:
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def step(self, g: Game, fr: Frame) -> None:
        give_step(g, fr, self.id, draw=2, to_self=False, text="prompt.choose.zh_give_n_hand_card_2",
                  args={"zh": "联动", "n": 1})

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return give_choices(g, seat, to_self=False)

    def hidden(self, g: Game, seat: int, action: Action) -> Hidden | None:
        return give_hidden(seat, action)


def give_step(g: Game, fr: Frame, skill: str, *, draw: int, to_self: bool, text: str,
              args: dict[str, ArgValue]) -> None:
    """Draw ``draw`` cards (stage 0), then give 1 hand card to a living player
    (``choose N to S``; ``to_self``: the giver may name itself, keeping the card)."""
    st = g.state
    me = st.seats[fr.seat]
    if fr.stage == 0:
        fr.stage = 1
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": skill})
        g.draw(fr.seat, draw)
    if not fr.answer:
        targets = [s for s in g.living() if to_self or s != fr.seat]
        if not me.alive or not me.hand or not targets:
            st.stack.pop()
            return
        ask_choose(g, fr.seat, text, give_choices(g, fr.seat, to_self=to_self), args=args)
        return
    act = fr.given()
    st.stack.pop()
    card, to = act.pick, act.target
    if to == fr.seat:
        g.log("give.keeps_cards_id", fr.seat, {"seat": fr.seat, "id": skill})
        return
    me.hand.remove(card)
    st.seats[to].hand.append(card)
    g.log("give.gives_cards_seat", fr.seat, {"seat": fr.seat, "cards": (card,), "seat2": to}, audience=(fr.seat, to),
          cards=(card,), public="give.gives_hand_card_seat")


def give_choices(g: Game, seat: int, *, to_self: bool) -> list[Action]:
    """``choose N to S``: a distinct hand card of ``seat`` to a living player (``to_self``:
    ``seat`` too)."""
    targets = [s for s in g.living() if to_self or s != seat]
    return [choose(c, to=s) for c in sorted(set(g.state.seats[seat].hand)) for s in targets]


def give_hidden(seat: int, action: Action) -> Hidden | None:
    """``choose N to S``: the card given is seen by giver and receiver only."""
    if action.kind == "choose" and action.to:
        to = action.target
        return hide((seat,) if to == seat else (seat, to), "action.hidden_gives_hand_card_seat", seat2=to)
    return None


class FengDu(Skill):
    """风度: when you declare victory → a female wins with you: a living player other
    than you whose character is face up and female (D6); mandatory when one exists; with
    several you choose (a ``trigger`` decision ``skill feng_du to S``, asked while
    declaring). Her win is hers alone (§8): her faction does not win through it."""

    id: ClassVar[str] = "feng_du"
    zh: ClassVar[str] = "风度"
    kind: ClassVar[SkillKind] = "passive"
    co_winner_choice: ClassVar[bool] = True

    def co_winners(self, g: Game, seat: int, winners: list[int]) -> list[int]:
        women = [s for s in g.living() if s != seat and "F" in sexes(g, s)]
        if len(women) == 1:  # no choice to make (several: the declare frame logs the use)
            g.log("skill.uses_id", seat, {"seat": seat, "id": self.id})
        return women

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """The choice among several women (``fr``: the ``declare`` frame waiting for it,
        its ``order`` the candidates)."""
        return [use_skill(self.id, c) for c in fr.order]


class FiveTrueIntel(Mission):
    """Hold 5 or more true (red or blue) intel."""

    def met(self, g: Game, seat: int) -> bool:
        s = g.state.seats[seat]
        return s.alive and sum(1 for c in s.intel if deck.IS_TRUE[c]) >= 5


SKILLS = (MinRui, LianDong, FengDu)
MISSION = FiveTrueIntel()
