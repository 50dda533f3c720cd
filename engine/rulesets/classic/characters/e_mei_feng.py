"""峨眉峰 (e_mei_feng, 潜伏, M): 截上截 and 计中计 (digest §10.2, §12 D8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Frame, Item

from .. import deck
from ..cards import FUNCTIONS
from ..kinds import SkillKind
from .base import Skill, ask_trigger
from .yi_dian_yuan import ThreeBlueIntel

if TYPE_CHECKING:
    from engine.game import Game


class JieShangJie(Skill):
    """截上截 [flip]: another player's turn, 情报传递 step → turn face up; counts as using
    截获, same timing and effect (digest §10.2; source "使用时机和作用与【截获】游戏卡相同").
    A skill, not a card: it cannot be 识破'd (D8, D9). Several 截获 / 截上截 resolve last
    in first out; the later-resolving ones find no intel and fail (§5). Kill credit stays
    with the sender (D15). ``skill jie_shang_jie``."""

    id: ClassVar[str] = "jie_shang_jie"
    zh: ClassVar[str] = "截上截"
    kind: ClassVar[SkillKind] = "flip"

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id)] if FUNCTIONS["intercept"].timing_ok(g, seat) else []

    def valid(self, g: Game, item: Item) -> bool:
        return FUNCTIONS["intercept"].valid(g, item)

    def resolve(self, g: Game, item: Item) -> None:
        FUNCTIONS["intercept"].resolve(g, item)


class JiZhongJi(Skill):
    """计中计: face up; when another player receives a true intel you sent (passed on,
    locked or 截获'd; not skill-placed nor 真伪莫辨, D19) → you may burn one fake intel in
    front of them (``skill ji_zhong_ji on M``) (digest §10.2). Not when you take your own
    intel (source "当你自己传出的…情报被你自己获得时不能触发"); a receiver killed by that
    receipt is dead before the trigger (source: no saving him this way)."""

    id: ClassVar[str] = "ji_zhong_ji"
    zh: ClassVar[str] = "计中计"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "received" and fr.text in ("send", "intercept") and fr.order[:1] == [seat]
                and fr.seat != seat and any(deck.IS_TRUE[c] for c in fr.cards)
                and any(deck.IS_BLACK[c] for c in g.state.seats[fr.seat].intel)):
            return Frame("skill_step", seat=seat, text=self.id, order=[fr.seat])
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Burn one fake intel in front of the receiver (``fr.order[0]``)."""
        return [use_skill(self.id, on=m) for m in sorted(c for c in g.state.seats[fr.order[0]].intel
                                                         if deck.IS_BLACK[c])]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        victim = fr.order[0]
        if not fr.answer:
            if not any(deck.IS_BLACK[c] for c in st.seats[victim].intel):
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                        "prompt.trigger.zh_burn_fake_intel_seat", args={"zh": "计中计", "seat": victim})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        card = act.on
        st.seats[victim].intel.remove(card)
        g.discard_card(card)
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.log("burn.intel_card_burned_zh", victim, {"seat": victim, "card": card, "zh": '计中计'}, cards=(card,))


SKILLS = (JieShangJie, JiZhongJi)
MISSION = ThreeBlueIntel()
