"""福尔摩斯: 线索 and 真相 (rulebook p.15 角色牌技能说明; digest §9, §11.12)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import Skill, ThreeOfAColourEarly, take_answer
from ..choices import ask_choice
from ..skills import has_skill

if TYPE_CHECKING:
    from engine.game import Game

XIAN_SUO = "xian_suo"
ZHEN_XIANG = "zhen_xiang"


class XianSuo(Skill):
    """线索: when another player discards (any reason: a card's or skill's effect, the turn-end
    discard, death), take one of the cards just discarded into your hand (p.15 note). A
    dying player's discarded hand and intel are one discard. The turn-end discard is one
    discard even though the engine asks for it card by card: 线索 works once per
    discard step (flag ``xian_suo:step:<seat>``, read only while that step lasts). Only
    cards still in the discard pile.
    ``skill xian_suo cards C``."""

    id = XIAN_SUO
    zh = "线索"
    windows = ("discarded",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        in_step = any(f.kind == "discard" for f in st.stack)
        if ev.seat == seat or (in_step and marks.has(st, marks.XianSuoStep(seat))):
            return []
        return [use_skill(self.id, cards=(c,)) for c in sorted(set(ev.cards)) if c in st.discard]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        st = g.state
        if any(f.kind == "discard" for f in st.stack):
            marks.add(st, marks.XianSuoStep(item.user))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        card = item.cards[0]
        if not st.seats[item.user].alive or card not in st.discard:
            g.log("fail.zh_fails_card_no_longer", item.user, {"zh": "线索"})
            return True
        item.done = True
        # The newest copy: the card taken is the one just discarded.
        st.discard.reverse()
        st.discard.remove(card)
        st.discard.reverse()
        st.seats[item.user].hand.append(card)
        g.log("xian_suo.takes_card_from_discard_pile", item.user, {"seat": item.user, "card": card}, cards=(card,))
        return True


IDENTITY_NAMES = ("military", "latent", "agent")


class ZhenXiang(Skill):
    """真相: in your turn, discard your whole hand (at least 4 cards; the cost), then name a
    player's identity and look at it: right, their identity is revealed and you
    successfully receive one of their intel that is not encrypted (chosen at resolution,
    §11.12); wrong, you reveal your own identity and get nothing (p.15 note). 城府 (老鬼)
    cannot be named (p.12 ①). Only a player whose identity is still hidden can be named
    (a revealed identity card cannot be turned again). ``skill zhen_xiang to S choose ID``."""

    id = ZHEN_XIANG
    zh = "真相"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        if ctx not in ("main", "respond") or st.turn != seat or len(st.seats[seat].hand) < 4:
            return []
        return [use_skill(self.id, s, options=(ident,)) for s, p in enumerate(st.seats)
                if s != seat and p.alive and not p.identity_revealed and not has_skill(g, s, "cheng_fu")
                for ident in IDENTITY_NAMES]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        g.discard_from_hand(item.user, list(g.state.seats[item.user].hand))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        me, them = st.seats[item.user], st.seats[item.target]
        if fr.stage == 2:
            return True
        if fr.answer:
            card = take_answer(fr).pick
            fr.stage = 2
            them.intel.remove(card)
            g.place_intel(item.user, [card], [item.user], cause=ZHEN_XIANG)
            return False
        if not me.alive or not them.alive:
            return True
        item.done = True
        g.log("look_identity.names_id_looks_at_seat", item.user,
              {"seat": item.user, "id": item.code, "seat2": item.target, "id2": them.identity},
              audience=(item.user, item.target), seats=(item.target,), public="look_identity.names_id_looks_at_seat_2")
        if them.identity != item.code:
            me.identity_revealed = True
            g.log("reveal.zh_was_wrong_seat_reveals", item.user, {"zh": "真相", "seat": item.user, "id": me.identity})
            return True
        them.identity_revealed = True
        g.log("reveal.zh_was_right_seat_id", item.target, {"zh": "真相", "seat": item.target, "id": them.identity})
        options = sorted({c for c in them.intel if st.tutorial or not deck.ENCRYPTED[c]})
        if not options:
            return True
        fr.stage = 1
        ask_choice(g, item.user, "prompt.choose.zh_receive_one_seat_intel", [choose(c) for c in options],
                   args={"zh": "真相", "seat": item.target})
        return False



SKILLS = (XianSuo(), ZhenXiang())
MISSION = ThreeOfAColourEarly()
