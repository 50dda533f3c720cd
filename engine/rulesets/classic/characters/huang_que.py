"""黄雀 (huang_que, 潜伏, F): 潜藏伏击 and 黄雀在后 (classic digest §10.2; source
"潜藏伏击 翻开此角色牌，然后把另一位玩家面前的一張情报放回牌库顶", "黄雀在后 当另一位玩家死亡时，
可以翻开你的身份牌然后在一位玩家面前放置最多二张假情报")."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..kinds import SkillKind
from .base import Skill, ask_trigger
from .xiao_ma_ge import LatentAndMilitaryDied

if TYPE_CHECKING:
    from engine.game import Game


class QianCangFuJi(Skill):
    """潜藏伏击 [flip]: any window → turn face up, then put one intel in front of another
    player back on the pile top (``skill qian_cang_fu_ji to S on M``; it fails if M is no
    longer in front of S when it resolves, §6.3). A flip skill cannot be 识破'd (D9)."""

    id: ClassVar[str] = "qian_cang_fu_ji"
    zh: ClassVar[str] = "潜藏伏击"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        st = g.state
        return [use_skill(self.id, s, on=m) for s in g.living() if s != seat for m in st.seats[s].intel]

    def valid(self, g: Game, item: Item) -> bool:
        s = g.state.seats[item.target]
        return s.alive and item.on in s.intel

    def resolve(self, g: Game, item: Item) -> None:
        st = g.state
        st.seats[item.target].intel.remove(item.on)
        st.pile.append(item.on)
        g.log("pile_top.intel_card_goes_on_pile", item.target, {"seat": item.target, "card": item.on, "zh": '潜藏伏击'},
              cards=(item.on,))


def dying_seats(g: Game) -> set[int]:
    """Seats whose death is being settled now (a ``dying`` frame is open)."""
    return {fr.seat for fr in g.state.stack if fr.kind == "dying"}


class HuangQueZaiHou(Skill):
    """黄雀在后: face up; when another player dies (a death-time skill, §7 ①: before the
    reveal, also if the death is then prevented) → you may reveal your identity card, then
    place 1 or 2 fake intel from your hand in front of one player, at once
    (``skill huang_que_zai_hou to S cards N[,M]`` or ``pass``). Once per game, and not
    with an identity already revealed (D17). The placed cards are received by S (D19),
    kills credited to 黄雀 (D15). S is any living player not dying at this moment."""

    id: ClassVar[str] = "huang_que_zai_hou"
    zh: ClassVar[str] = "黄雀在后"
    kind: ClassVar[SkillKind] = "auto"

    def usable(self, g: Game, seat: int) -> bool:
        """Not used yet and the identity still secret (D17). Asked also without a black
        card in hand (then only ``pass``): whether she is asked must not tell the table
        what her hand holds."""
        st = g.state
        return not st.seats[seat].identity_revealed and not marks.has(st, marks.once(self.id, seat))

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "dying" and fr.seat != seat and self.usable(g, seat):
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """One or two fake intel of the hand, in front of a living player who is not dying."""
        blacks = sorted({c for c in g.state.seats[seat].hand if deck.IS_BLACK[c]})
        picks = [(c,) for c in blacks] + list(combinations(blacks, 2))
        dying = dying_seats(g)
        return [use_skill(self.id, s, cards=p) for s in g.living() if s not in dying for p in picks]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        if not fr.answer:
            if not me.alive or not self.usable(g, fr.seat):
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_seat_dies_reveal_your_2",
                        args={"zh": "黄雀在后", "seat": fr.order[0]})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        target = act.target
        cards = list(act.cards)
        marks.add(st, marks.once(self.id, fr.seat))
        me.identity_revealed = True
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.log("reveal.reveals_identity_id", fr.seat, {"seat": fr.seat, "id": me.identity})
        for c in cards:
            me.hand.remove(c)
        g.place_intel(target, cards, [fr.seat], cause=self.id)


SKILLS = (QianCangFuJi, HuangQueZaiHou)
MISSION = LatentAndMilitaryDied()
