"""浮萍 (fu_ping, 潜伏, F): 先机 and 后着 (digest §10.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, choose, use_skill
from engine.state import Frame, Item

from ..kinds import SkillKind
from .base import Mission, Skill, ask_choose, ask_trigger

if TYPE_CHECKING:
    from engine.game import Game


class XianJi(Skill):
    """先机 [flip]: any window → turn face up, take 2 random hand cards from another player
    (抽取: without looking; fewer if they hold fewer), then they draw 2 (digest §10.2, §11
    抽取手牌). ``skill xian_ji to S``. Which cards moved is known to the two players only."""

    id: ClassVar[str] = "xian_ji"
    zh: ClassVar[str] = "先机"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living() if s != seat]

    def valid(self, g: Game, item: Item) -> bool:
        seats = g.state.seats
        return seats[item.user].alive and seats[item.target].alive

    def resolve(self, g: Game, item: Item) -> None:
        st = g.state
        me, other = item.user, item.target
        hand = st.seats[other].hand
        taken = [hand.pop(g.random_below(len(hand))) for _ in range(min(2, len(hand)))]
        st.seats[me].hand.extend(taken)
        if taken:
            g.log("take.takes_cards_from_seat", me,
                  {"seat": me, "cards": tuple(taken), "seat2": other, "n": len(taken)}, audience=(me, other),
                  cards=taken, public="take.takes_n_hand_card_from")
        g.draw(other, 2)


class HouZhao(Skill):
    """后着: when you die, face up (before your identity is revealed, §7 ①) → you may look
    at another player's hand (only you; ``skill hou_zhao to S``) and place one of its cards
    as intel in front of any player (``choose N to T``; not yourself, you are leaving)
    (digest §10.2). The placed card is received (D19), credited to 浮萍 (D15)."""

    id: ClassVar[str] = "hou_zhao"
    zh: ClassVar[str] = "后着"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "dying" and fr.seat == seat and self._hands(g, seat):
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Look at the hand of another living player who has one."""
        return [use_skill(self.id, s) for s in self._hands(g, seat)]

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """A card of the hand looked at (``fr.order[0]``'s) to another living player."""
        seats = [s for s in g.living() if s != seat]
        return [choose(c, to=s) for c in sorted(set(g.state.seats[fr.order[0]].hand)) for s in seats]

    @staticmethod
    def _hands(g: Game, seat: int) -> list[int]:
        return [s for s in g.living() if s != seat and g.state.seats[s].hand]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        answer = fr.answer
        fr.answer = None
        if fr.stage == 0:
            if not answer:
                options = self.offers(g, fr.seat, fr)
                if not options:
                    st.stack.pop()
                    return
                ask_trigger(g, fr, options, "prompt.trigger.zh_look_at_player_hand", args={"zh": "后着"})
                return
            if answer == PASS:
                st.stack.pop()
                return
            fr.stage = 1
            other = answer.target
            fr.order = [other]
            hand = sorted(st.seats[other].hand)
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.log("look.looks_at_seat_hand_cards", fr.seat, {"seat": fr.seat, "seat2": other, "cards": tuple(hand)},
                  audience=(fr.seat,), cards=hand, public="look.looks_at_seat_hand")
            answer = None
        other = fr.order[0]
        if not answer:
            ask_choose(g, fr.seat, "prompt.choose.zh_place_card_seat_hand", self.choices(g, fr.seat, fr),
                       args={"zh": "后着", "seat": other})
            return
        card, to = answer.pick, answer.target
        st.stack.pop()
        st.seats[other].hand.remove(card)
        g.place_intel(to, [card], [fr.seat], cause=self.id)


class SecondOrLaterToDie(Mission):
    """You are the second or a later player to die (lost players are not dead, D23)."""

    def met(self, g: Game, seat: int) -> bool:
        return any(k.dead == seat for k in g.state.kills[1:])


SKILLS = (XianJi, HouZhao)
MISSION = SecondOrLaterToDie()
