"""小白: 乔装 and 收买 (rulebook p.12 角色牌技能说明; digest §9, §11.5, §11.12)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from .. import skills as registry
from ..characters.base import Mission, Skill, give, take_answer
from ..choices import ask_choice
from ..skills import once_per_turn

if TYPE_CHECKING:
    from engine.game import Game

QIAO_ZHUANG = "qiao_zhuang"
SHOU_MAI = "shou_mai"



def takeable_skills(g: Game, seat: int) -> list[tuple[int, str]]:
    """(owner, skill) pairs 乔装 may take: a non-state skill (no 【隐藏】/【暴露】, p.12 ②) that
    another living player has now. Only face-up characters: a face-down character's
    skills are unknown to you, and offering them would reveal it."""
    st = g.state
    out: list[tuple[int, str]] = []
    for s, p in enumerate(st.seats):
        if s == seat or not p.alive or not p.exposed:
            continue
        out.extend((s, sid) for sid in registry.skills_of(g, s)
                   if not registry.SKILLS[sid].state and sid != QIAO_ZHUANG)
    return out


class QiaoZhuang(Skill):
    """乔装: at your turn start, before drawing, take a non-state skill of another player
    until your turn ends; they lose it until then (p.12 ①②). A skill that acts only at
    game start (绝密任务) does nothing when taken later (③). The taking is the flag
    :class:`marks.QiaoZhuang` read by ``skills_of``; marks are cleared at
    turn end. ``skill qiao_zhuang to S choose SKILL``."""

    id = QIAO_ZHUANG
    zh = "乔装"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        if ctx != "turn_start" or g.state.turn != seat or not once_per_turn(g, seat, self.id):
            return []
        return [use_skill(self.id, s, options=(sid,)) for s, sid in takeable_skills(g, seat)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if (item.target, item.code) not in takeable_skills(g, item.user):
            g.log("fail.zh_fails_skill_no_longer", item.user, {"zh": "乔装"})
            return True
        item.done = True
        marks.add(g.state, marks.QiaoZhuang(item.user, item.target, item.code))
        g.log("qiao_zhuang.takes_id_from_seat_until", item.user,
              {"seat": item.user, "id": item.code, "seat2": item.target}, seats=(item.target,))
        return True


def buyable(g: Game, seat: int) -> list[int]:
    """Intel 收买 may take: not encrypted (§11.12; p.3 加密标记)."""
    st = g.state
    return sorted({c for c in st.seats[seat].intel if st.tutorial or not deck.ENCRYPTED[c]})


class ShouMai(Skill):
    """收买: at another player's turn end (§11.5: the rulebook's timing), give the turn
    player 4 hand cards (the cost, paid at use), then successfully receive one of their
    intel, chosen at resolution (p.12 note); only this part can fail. Encrypted intel
    cannot be taken (§11.12). ``skill shou_mai``; the 4 cards are then picked one by one
    before the responses (``choose N``; a ``cost`` frame, triggers.py h_cost)."""

    id = SHOU_MAI
    zh = "收买"
    windows = ("turn_end",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat == seat or not st.seats[ev.seat].alive or len(st.seats[seat].hand) < 4 or not buyable(g, ev.seat):
            return []
        return [use_skill(self.id)]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        item.target = g.state.turn
        g.push(Frame("cost", seat=item.user, text=self.id))

    def pay(self, g: Game, item: Item, fr: Frame) -> bool:
        """The cost: pick 4 hand cards, then give them to the turn player at once."""
        if fr.answer:
            fr.cards.append(take_answer(fr).pick)
        left = sorted(set(g.state.seats[item.user].hand) - set(fr.cards))
        if len(fr.cards) < 4 and left:
            ask_choice(g, item.user, "prompt.choose.zh_pick_hand_card_give",
                       [choose(c) for c in left],
                       args={"zh": "收买", "seat": item.target, "n": len(fr.cards) + 1, "n2": 4})
            return False
        item.cards = list(fr.cards)
        give(g, item.user, item.target, item.cards)
        return True

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 2:
            return True
        if fr.answer:
            card = take_answer(fr).pick
            fr.stage = 2
            st.seats[item.target].intel.remove(card)
            g.log("shou_mai.takes_intel_card_from_seat", item.user,
                  {"seat": item.user, "card": card, "seat2": item.target}, cards=(card,))
            g.place_intel(item.user, [card], [item.user], cause=SHOU_MAI)
            return False
        options = buyable(g, item.target)
        if not st.seats[item.user].alive or not st.seats[item.target].alive or not options:
            g.log("fail.zh_fails_no_intel_take", item.user, {"zh": "收买"})
            return True
        item.done = True
        fr.stage = 1
        ask_choice(g, item.user, "prompt.choose.zh_receive_one_seat_intel",
                   [choose(c) for c in options], args={"zh": "收买", "seat": item.target})
        return False


class XiaoBaiMission(Mission):
    """Be the first player to die, holding fewer than 6 intel (summary: 成爲首名死亡玩家且存有
    情報少於6張). Checked at your death, before you discard."""

    when = "death"

    def done(self, g: Game, seat: int) -> bool:
        st = g.state
        return all(p.alive for i, p in enumerate(st.seats) if i != seat) and len(st.seats[seat].intel) < 6


SKILLS = (QiaoZhuang(), ShouMai())
MISSION = XiaoBaiMission()
