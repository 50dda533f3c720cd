"""老枪 (lao_qiang, 潜伏, M): 就计 (老鬼's, imported) and 合谋 (digest §10.2, §12 D26)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Item

from .. import deck
from ..kinds import SkillKind
from .base import ROWS, Mission, Skill, flip
from .lao_gui import JiuJi

if TYPE_CHECKING:
    from engine.game import Game


def _face_up_latent(g: Game, seat: int) -> bool:
    """A living seat whose character is of 潜伏 type and face up (D26: 蝮蛇, a 公开 type
    turned face down and up again, does not qualify)."""
    s = g.state.seats[seat]
    return s.alive and s.exposed and bool(s.character) and ROWS[s.character].kind == "P"


class HeMou(Skill):
    """合谋: face up; any time, any turn, no limit; needs another face-up 潜伏 character
    (D26) → place a fake intel from your hand in front of yourself, turn your character
    and that one face down, then you and its player look at each other's identity card
    (only you two) (digest §10.2; source "只有进行效果的两位玩家才能查看到对方的身份牌").
    ``skill he_mou to S cards N`` (N a black hand card). Used at a priority like a card
    (§6.5): the fake waits on the chain, face up (it will be public intel), and everything
    happens when the item resolves; it fails if either character is no longer face up."""

    id: ClassVar[str] = "he_mou"
    zh: ClassVar[str] = "合谋"
    kind: ClassVar[SkillKind] = "active"

    def actions(self, g: Game, seat: int) -> list[Action]:
        blacks = sorted({c for c in g.state.seats[seat].hand if deck.IS_BLACK[c]})
        partners = [s for s in g.living() if s != seat and _face_up_latent(g, s)]
        return [use_skill(self.id, s, cards=(c,)) for s in partners for c in blacks]

    def declare(self, g: Game, seat: int, action: Action) -> Item:
        item = super().declare(g, seat, action)
        item.card = item.cards[0]
        g.state.seats[seat].hand.remove(item.card)
        return item

    def valid(self, g: Game, item: Item) -> bool:
        return _face_up_latent(g, item.user) and _face_up_latent(g, item.target)

    def resolve(self, g: Game, item: Item) -> None:
        st = g.state
        me, other = item.user, item.target
        card = item.card
        item.card = 0
        flip(g, me, up=False)
        flip(g, other, up=False)
        g.log("identity.look_at_each_other_identity", me, {"seat": me, "seat2": other})
        for viewer, seen in ((me, other), (other, me)):
            g.log("identity.id", viewer, {"seat": seen, "id": st.seats[seen].identity}, audience=(viewer,))
        g.place_intel(me, [card], [me], cause=self.id)


class ThreeRedIntel(Mission):
    """Hold 3 or more red intel (digest §10.2)."""

    def met(self, g: Game, seat: int) -> bool:
        s = g.state.seats[seat]
        return s.alive and sum(1 for c in s.intel if deck.IS_RED[c]) >= 3


SKILLS = (JiuJi, HeMou)
MISSION = ThreeRedIntel()
