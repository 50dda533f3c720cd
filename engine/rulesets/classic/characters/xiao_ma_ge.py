"""小马哥 (xiao_ma_ge, 公开, M): 英雄本色 (digest §10.2) — the model of an automatic skill."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger

if TYPE_CHECKING:
    from engine.game import Game


class YingXiongBenSe(Skill):
    """英雄本色: when you receive a fake intel → draw 1 (mandatory), then you may place a
    fake intel from your hand in front of a player (``skill ying_xiong_ben_se to S cards N``
    or ``pass``). The placed card is that player's received intel (D19), credited to you
    (D15)."""

    id: ClassVar[str] = "ying_xiong_ben_se"
    zh: ClassVar[str] = "英雄本色"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "received" and fr.seat == seat and any(deck.IS_BLACK[c] for c in fr.cards):
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """A fake intel of the hand, in front of any living player."""
        blacks = sorted({c for c in g.state.seats[seat].hand if deck.IS_BLACK[c]})
        return [use_skill(self.id, s, cards=(c,)) for s in g.living() for c in blacks]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        if fr.stage == 0:
            fr.stage = 1
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.draw(fr.seat, 1)
        if not fr.answer:
            if not me.alive:
                st.stack.pop()
                return
            # Asked also without a fake in hand (then only ``pass``): being asked must not
            # tell the table what the hand holds.
            ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                        "prompt.trigger.zh_place_fake_intel_from", args={"zh": "英雄本色"})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        target, card = act.target, act.cards[0]
        me.hand.remove(card)
        g.place_intel(target, [card], [fr.seat], cause=self.id)


class LatentAndMilitaryDied(Mission):
    """A 潜伏 player and a 军情 player have died (lost players do not count, D23)."""

    def met(self, g: Game, seat: int) -> bool:
        dead = {k.identity for k in g.state.kills}
        return "latent" in dead and "military" in dead


SKILLS = (YingXiongBenSe,)
MISSION = LatentAndMilitaryDied()
