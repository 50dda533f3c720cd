"""蝮蛇 (fu_she, 公开, M): 声东击西 and 弹药无限 (digest §10.2, §12 D8; source: 声东击西 情报传递时
可以盖伏此角色牌，然后视为使用了调虎离山 (使用时机和功能与调虎离山相同) / 弹药无限 若你没有手牌可以翻开此角色，
然后抽一张牌; mission: 当一位玩家宣告胜利时，没有玩家死亡你的胜利会导致他的宣告失败)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Item

from .. import marks
from ..cards import FUNCTIONS
from ..kinds import SkillKind
from .base import Mission, Skill, flip

if TYPE_CHECKING:
    from engine.game import Game


class ShengDongJiXi(Skill):
    """声东击西: face up; 情报传递 step, any turn (调虎离山's timing) → turn this character
    face down; counts as using 调虎离山 (same targets and effect, D8): ``skill
    sheng_dong_ji_xi to S``. A skill, not a card: 识破 cannot target it (D8, D9). The
    character turns face down when the skill is declared (the announcement, as a flip)."""

    id: ClassVar[str] = "sheng_dong_ji_xi"
    zh: ClassVar[str] = "声东击西"
    kind: ClassVar[SkillKind] = "active"

    def actions(self, g: Game, seat: int) -> list[Action]:
        lure = FUNCTIONS["lure_away"]
        if not lure.timing_ok(g, seat):
            return []
        return [use_skill(self.id, s) for s in lure.targets(g, seat)]

    def declare(self, g: Game, seat: int, action: Action) -> Item:
        item = super().declare(g, seat, action)
        flip(g, seat, up=False)
        return item

    def valid(self, g: Game, item: Item) -> bool:
        return FUNCTIONS["lure_away"].valid(g, item)

    def resolve(self, g: Game, item: Item) -> None:
        FUNCTIONS["lure_away"].resolve(g, item)


class DanYaoWuXian(Skill):
    """弹药无限 [flip]: face down, with no hand card, any window → turn this character face
    up, then draw 1 (``skill dan_yao_wu_xian``). Goes on the chain; cannot be 识破'd (D9)."""

    id: ClassVar[str] = "dan_yao_wu_xian"
    zh: ClassVar[str] = "弹药无限"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [] if g.state.seats[seat].hand else [use_skill(self.id)]

    def valid(self, g: Game, item: Item) -> bool:
        return g.state.seats[item.user].alive

    def resolve(self, g: Game, item: Item) -> None:
        g.draw(item.user, 1)


class NobodyDiedAtDeclaration(Mission):
    """When another player declares victory and no player has died (lost players are not
    dead, D23), you win alone and the declaration fails (§8)."""

    def on_declare(self, g: Game, seat: int, declarer: int) -> str | None:
        st = g.state
        died = st.kills or any(not s.alive and not marks.has(st, marks.lost(i)) for i, s in enumerate(st.seats))
        return None if died else "fail"


SKILLS = (ShengDongJiXi, DanYaoWuXian)
MISSION = NobodyDiedAtDeclaration()
