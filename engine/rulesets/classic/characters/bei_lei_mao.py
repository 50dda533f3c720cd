"""贝雷帽 (bei_lei_mao, 公开, M): 换日 and 偷天 (digest §10.2) — the model of a conversion
skill next to an automatic one."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger

if TYPE_CHECKING:
    from engine.game import Game


class HuanRi(Skill):
    """换日: your black hand cards may be used as 锁定 (``play N as lock to S``; colour
    and mode unchanged; it can be 识破'd, §6.4)."""

    id: ClassVar[str] = "huan_ri"
    zh: ClassVar[str] = "换日"
    kind: ClassVar[SkillKind] = "conversion"

    def converts(self, g: Game, seat: int, card: int) -> tuple[str, ...]:
        return ("lock",) if deck.IS_BLACK[card] else ()


class TouTian(Skill):
    """偷天: when a player receives a fake intel you sent → you may put one true intel in
    front of them into any player's hand (``skill tou_tian to S on M``). Intel you sent:
    passed, locked or intercepted, not skill-placed nor 真伪莫辨 (D19)."""

    id: ClassVar[str] = "tou_tian"
    zh: ClassVar[str] = "偷天"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "received" and fr.text in ("send", "intercept") and fr.order[:1] == [seat]
                and any(deck.IS_BLACK[c] for c in fr.cards)
                and any(deck.IS_TRUE[c] for c in g.state.seats[fr.seat].intel)):
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """A true intel of the receiver (``fr.order[0]``), to any living player."""
        intel = g.state.seats[fr.order[0]].intel
        return [use_skill(self.id, s, on=m) for s in g.living() for m in intel if deck.IS_TRUE[m]]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        victim = st.seats[fr.order[0]]
        if not fr.answer:
            options = self.offers(g, fr.seat, fr)
            if not options:
                st.stack.pop()
                return
            ask_trigger(g, fr, options, "prompt.trigger.zh_move_true_intel_seat",
                        args={"zh": "偷天", "seat": fr.order[0]})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        to, card = act.target, act.on
        victim.intel.remove(card)
        st.seats[to].hand.append(card)
        g.log("move.intel_card_seat_goes_seat", fr.seat, {"card": card, "seat": fr.order[0], "seat2": to},
              cards=(card,))
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})


class RedAndBlueInHand(Mission):
    """Hold 3 or more red cards and 3 or more blue cards in hand."""

    def met(self, g: Game, seat: int) -> bool:
        hand = g.state.seats[seat].hand
        return (g.state.seats[seat].alive and sum(1 for c in hand if deck.IS_RED[c]) >= 3
                and sum(1 for c in hand if deck.IS_BLUE[c]) >= 3)


SKILLS = (HuanRi, TouTian)
MISSION = RedAndBlueInHand()
