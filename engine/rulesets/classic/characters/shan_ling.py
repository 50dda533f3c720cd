"""闪灵 (shan_ling, 潜伏, F): 狙击 (digest §10.2) — the model of a flip skill."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, choose, use_skill
from engine.state import Frame, Item

from ..kinds import SkillKind
from .base import Mission, Skill, ask_choose

if TYPE_CHECKING:
    from engine.game import Game


class JuJi(Skill):
    """狙击 [flip]: any window (not a special moment) → turn face up, then burn 1 to 3
    intel in front of one other player. ``skill ju_ji to S``, then ``choose M`` per
    intel burned (``pass`` after the first)."""

    id: ClassVar[str] = "ju_ji"
    zh: ClassVar[str] = "狙击"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living() if s != seat and g.state.seats[s].intel]

    def resolve(self, g: Game, item: Item) -> None:
        g.push(Frame("skill_step", seat=item.user, text=self.id, order=[item.target]))

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """An intel of the target (``fr.order[0]``) to burn; ``pass`` after the first."""
        return [choose(c) for c in g.state.seats[fr.order[0]].intel] + ([PASS] if fr.index else [])

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        target = st.seats[fr.order[0]]
        if fr.answer:
            answer = fr.answer
            fr.answer = None
            if answer == PASS:
                st.stack.pop()
                return
            card = answer.pick
            target.intel.remove(card)
            g.discard_card(card)
            g.log("burn.intel_card_burned_zh", fr.order[0], {"seat": fr.order[0], "card": card, "zh": "狙击"},
                  cards=(card,))
            fr.index += 1
        if fr.index >= 3 or not target.alive or not target.intel:
            st.stack.pop()
            return
        ask_choose(g, fr.seat, "prompt.choose.zh_burn_intel_seat", self.choices(g, fr.seat, fr),
                   args={"zh": "狙击", "seat": fr.order[0]})


class KillNoTrueIntel(Mission):
    """Kill by your own hand a player holding no true intel (no suicide, §7)."""

    def met(self, g: Game, seat: int) -> bool:
        return any(seat in k.killers and k.dead != seat and k.true_intel == 0 for k in g.state.kills)


SKILLS = (JuJi,)
MISSION = KillNoTrueIntel()
