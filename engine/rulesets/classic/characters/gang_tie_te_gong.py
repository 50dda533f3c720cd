"""钢铁特工 (gang_tie_te_gong, 潜伏, M): 警觉 and 掩护 (classic digest §10.2; source "警觉
玩家使用卡牌时，可以翻开此角色牌然后视为使用了识破。使用时机和作用与【识破】游戏卡相同", "掩护
你可以获得一位玩家面前的一张假情报然后盖伏此角色牌"); mission §12 D27."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, Hidden, hide, use_skill
from engine.state import Item

from .. import deck
from ..cards import FUNCTIONS
from ..cards.table import visible_card, waiting_cards
from ..kinds import SkillKind
from .base import Mission, Skill, flip

if TYPE_CHECKING:
    from engine.game import Game


class JingJue(Skill):
    """警觉 [flip]: when a player uses a card (a card waits on the chain) → turn face up;
    counts as using 识破, same timing and effect (D8): ``skill jing_jue`` voids the newest
    waiting card, ``skill jing_jue on M`` any waiting card M he may see (D7). It stays a
    skill on the chain, so 识破 cannot target it (D8, D9)."""

    id: ClassVar[str] = "jing_jue"
    zh: ClassVar[str] = "警觉"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        waiting = waiting_cards(g)
        if not waiting:
            return []
        return [use_skill(self.id)] + [use_skill(self.id, on=it.card) for it in waiting if visible_card(g, seat, it)]

    def declare(self, g: Game, seat: int, action: Action) -> Item:
        newest = waiting_cards(g)[-1].card
        item = super().declare(g, seat, action)
        if not item.on:
            item.on = newest
        return item

    def valid(self, g: Game, item: Item) -> bool:
        return FUNCTIONS["see_through"].valid(g, item)

    def resolve(self, g: Game, item: Item) -> None:
        FUNCTIONS["see_through"].resolve(g, item)

    def hidden(self, g: Game, seat: int, action: Action) -> Hidden | None:
        """Naming a face-down 试探 shows its number to its user and target only."""
        if not action.on:
            return None
        on = action.on
        for it in g.state.chain:
            fn = FUNCTIONS.get(it.kind)
            if it.card == on and fn is not None and fn.face_down:
                return hide((seat, it.user, it.target), "action.hidden_skill_id_on_face_down_probe", id=self.id)
        return None


class YanHu(Skill):
    """掩护: face up, any window, at a priority → take one fake intel from in front of
    another player and receive it as your own intel (获得: a receipt, D19; a third fake
    kills you, by your own hand, D15), then turn this character face down
    (``skill yan_hu to S on M``). A skill on the chain: it cannot be 识破'd; it fails if M
    is gone when it resolves (§6.3)."""

    id: ClassVar[str] = "yan_hu"
    zh: ClassVar[str] = "掩护"
    kind: ClassVar[SkillKind] = "active"

    def actions(self, g: Game, seat: int) -> list[Action]:
        st = g.state
        return [use_skill(self.id, s, on=m) for s in g.living() if s != seat
                for m in st.seats[s].intel if deck.IS_BLACK[m]]

    def valid(self, g: Game, item: Item) -> bool:
        st = g.state
        return st.seats[item.user].alive and st.seats[item.target].alive and item.on in st.seats[item.target].intel

    def resolve(self, g: Game, item: Item) -> None:
        st = g.state
        st.seats[item.target].intel.remove(item.on)
        g.log("move.takes_seat_intel_card_zh", item.user,
              {"seat": item.user, "seat2": item.target, "card": item.on, "zh": '掩护'}, cards=(item.on,))
        flip(g, item.user, up=False)
        g.place_intel(item.user, [item.on], [item.user], cause=self.id)


class FourSeeThrough(Mission):
    """Hold 4 识破 in hand (not in the source; the digest's decision §12 D27)."""

    def met(self, g: Game, seat: int) -> bool:
        s = g.state.seats[seat]
        return s.alive and sum(1 for c in s.hand if deck.FUNCTION[c] == "see_through") >= 4


SKILLS = (JingJue, YanHu)
MISSION = FourSeeThrough()
