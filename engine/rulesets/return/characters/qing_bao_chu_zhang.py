"""情报处长: 偷龙转凤 and 紧急下达 (rulebook p.15; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, play, use_skill
from engine.state import Frame, Item

from .. import marks
from ..cards import FUNCTIONS
from ..cards.base import CardFunction, Context
from ..cards.basic import shielded
from ..cards.intel import receive_root
from ..characters.base import KillNonAgent, Skill, take_answer
from ..choices import ask_choice
from ..hooks import CARD_PLAY_PROVIDERS, alt_function_plays
from ..privacy import PRIVATE_CHOICES
from ..records import match_ext

if TYPE_CHECKING:
    from engine.game import Game


def replace_intel(g: Game, new: int, user: int, *, follow: bool) -> int:
    """Put ``new`` in transit in place of the travelling intel, face down, keeping its
    direction (p.8 调包 ④; docs/rule-decisions.md 3); ``user`` becomes the intel's user for
    kill credit (digest §11.10). The pending receive now receives the new intel. With
    ``follow`` (帽子戏法's 取代), a 破译 on the chain follows it and the flag
    ``superseded:OLD:NEW`` tells 速译 to; a 替换 (偷龙转凤) makes them fail (p.9 破译 特别;
    p.11 速译 ②). Returns the old card."""
    st = g.state
    t = st.transit
    assert t is not None
    old = t.card
    t.card = new
    t.face_up = False
    t.known_by = []
    if new != old:
        t.user = user
        if follow:  # read by 速译 (yi_dian_yuan.superseded)
            marks.add(st, marks.Superseded(old, new))
    for it in st.chain:
        if it.on == old and (it.kind == "receive" or (follow and it.kind == "decrypt")):
            it.on = new
    return old


class TouLongZhuanFeng(Skill):
    """偷龙转凤: when another player chooses to receive, discard 1 hand card, then look at
    the intel and the pile top and choose whether to swap them. It resolves even if the
    intel's position or receiver changed in response (p.15 note). A swapped intel goes on
    top of the pile face down; the new one travels face down (the receiver receives it)."""

    id = "tou_long_zhuan_feng"
    zh = "偷龙转凤"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        root = receive_root(g)
        st = g.state
        if ctx != "respond" or root is None or root.user == seat or st.transit is None:
            return []
        return [use_skill(self.id, cards=(c,)) for c in sorted(set(st.seats[seat].hand))]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        g.discard_from_hand(item.user, [item.cards[0]])

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        t = st.transit
        if t is None or not st.seats[item.user].alive:
            return True
        if fr.stage == 1:
            if take_answer(fr).option == "swap" and st.pile:
                top = st.pile.pop()
                old = replace_intel(g, top, item.user, follow=False)
                st.pile.append(old)
                t.known_by = [item.user]
                g.log("swap.swaps_intel_card_with_pile", item.user,
                      {"seat": item.user, "card": old, "card2": top, "zh": "偷龙转凤"}, audience=(item.user,),
                      cards=(top, old), public="swap.swaps_intel_with_pile_top")
            else:
                g.log("no_swap.leaves_intel_in_place", item.user, {"seat": item.user})
            return True
        item.done = True
        if not st.pile:
            g.reshuffle()
        top = st.pile[-1] if st.pile else 0
        if item.user not in t.known_by:
            t.known_by.append(item.user)
        shown = (t.card, top) if top else (t.card,)
        g.log("look.looks_at_intel_card_pile", item.user,
              {"seat": item.user, "card": t.card, "card2": top or '-', "zh": "偷龙转凤"}, audience=(item.user,),
              cards=shown, public="look.looks_at_intel_pile_top")
        if not top:
            return True
        fr.stage = 1
        ask_choice(g, item.user, "prompt.choose.zh_swap_intel_with_pile",
                   [choose_option("swap"), choose_option("keep")],
                   args={"zh": "偷龙转凤"})
        return False


class JinJiXiaDa(Skill):
    """紧急下达: your 秘密下达 or 危险情报 may instead be used as "when another player
    declares an intel send: look at their hand and choose the card they must send"; the
    original function is void (p.15 note). Like 秘密下达, the first to resolve voids the
    others (p.6 秘密下达 ②). Card change: ``play N as jin_ji_xia_da``
    (:class:`JinJiXiaDaCard`)."""

    id = "jin_ji_xia_da"
    zh = "紧急下达"

    def credited_for_use(self, g: Game, item: Item, from_intel: bool) -> bool:
        return item.alt == self.id


class JinJiXiaDaCard(CardFunction):
    """A 秘密下达 or 危险情报 used as 紧急下达 (then discarded face up, p.15)."""

    id = "jin_ji_xia_da"
    zh = "紧急下达"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        st = g.state
        if (ctx != "respond" or st.timing != "declare" or seat == st.turn or not st.seats[st.turn].hand
                or shielded(g, st.turn)):
            return []
        return [play(card, alt="jin_ji_xia_da")]

    def on_use(self, g: Game, item: Item) -> None:
        item.target = g.state.turn

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        target = st.seats[item.target]
        if match_ext(st).send_code or not target.alive or not target.hand or not st.seats[item.user].alive:
            return True
        if fr.stage == 1:
            card = take_answer(fr).pick
            item.done = True
            match_ext(st).send_code = card  # that very card must be sent (code_matches)
            match_ext(st).send_code_user = item.user
            g.log("choose_intel.chooses_card_as_seat_intel", item.user,
                  {"seat": item.user, "card": card, "seat2": item.target}, audience=(item.user, item.target),
                  cards=(card,), public="choose_intel.chooses_card_seat_must_send")
            return True
        hand = sorted(target.hand)
        g.log("look_hand.looks_at_seat_hand_cards", item.user,
              {"seat": item.user, "seat2": item.target, "cards": tuple(hand)}, audience=(item.user, item.target),
              cards=hand, public="look_hand.looks_at_seat_hand")
        fr.stage = 1
        ask_choice(g, item.user, "prompt.choose.zh_card_seat_must_send",
                   [choose(c) for c in sorted(set(hand))], args={"zh": "紧急下达", "seat": item.target})
        return False


FUNCTIONS["jin_ji_xia_da"] = JinJiXiaDaCard()
PRIVATE_CHOICES.add("jin_ji_xia_da")  # the chosen card will travel face down



CARD_PLAY_PROVIDERS["jin_ji_xia_da"] = alt_function_plays("jin_ji_xia_da", ("secret_order", "danger"))




SKILLS = (TouLongZhuanFeng(), JinJiXiaDa())
MISSION = KillNonAgent()
