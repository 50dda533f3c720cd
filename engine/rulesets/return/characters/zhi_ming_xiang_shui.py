"""致命香水: 致命一击 and 绝密任务 (rulebook p.12; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck
from ..characters.base import Mission, Skill, take_answer
from ..choices import ask_choice
from ..records import seat_ext

if TYPE_CHECKING:
    from engine.game import Game

CAUSE = "zhi_ming_yi_ji"
#: Characters 绝密任务 redraws (p.12): their missions depend on set-up choices or skills.
REDRAW = ("zhi_ye_sha_shou", "li_fu_meng_mian", "huang_que")


def dangers_in_discard(g: Game) -> list[int]:
    return sorted(c for c in g.state.discard if deck.FUNCTION[c] == "danger")


class ZhiMingYiJi(Skill):
    """致命一击: at another player's turn end you may discard 1 hand card, then a 危险情报
    from the discard pile is successfully received by that player (p.12). You may discard a
    危险情报 and use that very card at resolution (p.12 note). The discard is the cost paid
    at use; the 危险情报 is chosen at resolution (none there: it fails); the kill credit and
    cause are yours."""

    id = CAUSE
    zh = "致命一击"
    windows = ("turn_end",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat == seat or not st.seats[ev.seat].alive:
            return []
        # Any hand card may be discarded, even with no 危险情报 in the discard pile: the part
        # after "然后" then fails at resolution (p.4 ⑥). Offering it only to a holder of a
        # 危险情报 would tell everyone what is in her hand.
        return [use_skill(self.id, ev.seat, cards=(c,)) for c in sorted(set(st.seats[seat].hand))]

    def on_use(self, g: Game, item: Item) -> None:
        g.discard_from_hand(item.user, list(item.cards))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 2:
            return True
        if fr.answer:
            card = take_answer(fr).pick
        else:
            options = dangers_in_discard(g)
            if not options or not st.seats[item.target].alive or not st.seats[item.user].alive:
                g.log("fail.zh_fails", item.user, {"zh": "致命一击"})
                return True
            if len(options) > 1:
                fr.stage = 1
                ask_choice(g, item.user, "prompt.choose.zh_zh_seat_receives",
                           [choose(c) for c in options],
                           args={"zh": "致命一击", "zh2": '危险情报', "seat": item.target})
                return False
            card = options[0]
        if card not in st.discard:
            return True
        st.discard.remove(card)
        item.done = True
        fr.stage = 2
        g.place_intel(item.target, [card], [item.user], cause=CAUSE)
        return False


class JueMiRenWu(Skill):
    """绝密任务: at game start, draw a random character face down under your identity card,
    redrawing 职业杀手, 礼服蒙面 and 黄雀; its secret mission is an extra victory condition
    for you (p.12). Forced. The card has no other use and stays secret until you die or
    declare victory (①); a non-agent who completes both the faction condition and this
    mission wins together with the faction (②, rules.py ``victory``); 乔装 taking
    this skill changes nothing (③: it resolved at game start). The mission is read from
    ``ReturnSeat.secret_character`` by ``rules.mission_done``."""

    id = "jue_mi_ren_wu"
    zh = "绝密任务"
    windows = ("game_start",)
    forced = True

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        p = g.state.seats[seat]
        if seat_ext(p).secret_character or not [c for c in g.state.character_pool if c not in REDRAW]:
            return []
        return [use_skill(self.id)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        p = st.seats[item.user]
        pool = [c for c in st.character_pool if c not in REDRAW]
        if seat_ext(p).secret_character or not pool:
            return True
        item.done = True
        chosen = pool[g.random_below(len(pool))]
        st.character_pool.remove(chosen)
        seat_ext(p).secret_character = chosen
        g.log("secret_character.zh_character_id", item.user, {"seat": item.user, "zh": "绝密任务", "id": chosen},
              audience=(item.user,), public="secret_character.draws_zh_character_face_down")
        return True


class ZhiMingXiangShuiMission(Mission):
    """Complete the 绝密任务: the drawn character's mission. ``rules.mission_done``
    checks ``ReturnSeat.secret_character``'s mission directly (with that mission's own timing),
    so this one adds nothing."""

    def done(self, g: Game, seat: int) -> bool:
        return False


SKILLS = (ZhiMingYiJi(), JueMiRenWu())
MISSION = ZhiMingXiangShuiMission()
