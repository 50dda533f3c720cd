"""大美女: 精明 and 算计 (rulebook p.9 角色牌技能说明; digest §9, §11.16)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import Mission, Skill, take_answer
from ..choices import ask_choice
from ..rules import turn_draw_count
from ..skills import once_per_turn

if TYPE_CHECKING:
    from engine.game import Game

JING_MING = "jing_ming"
SUAN_JI = "suan_ji"



class JingMing(Skill):
    """精明: at your turn-start draw, draw 1 more (3 in all), then put 1 hand card on top of
    the pile. The draw is made at use, before responses; the card is put back at
    resolution, which fails if a response left you without hand cards (p.9 note)."""

    id = JING_MING
    zh = "精明"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        first = ctx == "turn_start" and g.state.turn == seat and once_per_turn(g, seat, self.id)
        return [use_skill(self.id)] if first else []

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        st = g.state
        count = turn_draw_count(g, item.user) + 1
        # The turn-start draw happens now; the later draw step draws nothing more.
        marks.remove(st, marks.DrawSet, marks.DrawExtra)
        marks.add(st, marks.DrawSet(0))
        g.draw(item.user, count)

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        p = st.seats[item.user]
        if fr.answer:
            card = take_answer(fr).pick
            p.hand.remove(card)
            st.pile.append(card)
            g.log("pile_top.puts_card_on_top_pile", item.user, {"seat": item.user, "card": card}, audience=(item.user,),
                  cards=(card,), public="pile_top.puts_hand_card_on_top")
            return True
        if not p.alive or not p.hand:
            g.log("fail.zh_fails_no_hand_card", item.user, {"zh": "精明"})
            return True
        item.done = True
        ask_choice(g, item.user, "prompt.choose.zh_put_hand_card_on",
                   [choose(c) for c in sorted(set(p.hand))], args={"zh": "精明"})
        return False


def colour_of(card: int) -> str:
    if deck.IS_RED[card] and deck.IS_BLUE[card]:
        return "dual"
    if deck.IS_RED[card]:
        return "red"
    return "blue" if deck.IS_BLUE[card] else "black"


def only(colour: str, card: int) -> bool:
    """A single-colour card of ``colour``."""
    return colour_of(card) == colour


def first_show(colour: str, hand: list[int]) -> list[int]:
    """The hand cards a player may show first for an intel of ``colour``: a card of that
    colour; for a dual intel a 机密文件 (red and blue at once), or a red card when a blue
    one can be shown with it (§11.16, p.9 算计 ①)."""
    cards = sorted(set(hand))
    if colour == "dual":
        duals = [c for c in cards if colour_of(c) == "dual"]
        reds = [c for c in cards if only("red", c)] if any(only("blue", c) for c in cards) else []
        return sorted(duals + reds)
    if colour == "black":
        return [c for c in cards if deck.IS_BLACK[c]]
    flag = deck.IS_RED if colour == "red" else deck.IS_BLUE
    return [c for c in cards if flag[c]]


class SuanJi(Skill):
    """算计: at your turn end, name one of your intel; every other player shows a hand card of
    its colour, and a player who cannot discards 1 hand card. For a dual intel: a red and a
    blue card, or one 机密文件 (p.9 ①; §11.16); a 机密文件 in hand counts as red and as
    blue. Players without hand cards do nothing (①). If the named intel is gone at
    resolution, it fails and nobody shows (②). Showing is compulsory when possible (p.4
    ⑦). ``skill suan_ji on C``."""

    id = SUAN_JI
    zh = "算计"
    windows = ("turn_end",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        if ev.seat != seat:
            return []
        return [use_skill(self.id, on=c) for c in sorted(set(g.state.seats[seat].intel))]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        colour = colour_of(item.on)
        if fr.stage == 0:
            if item.on not in st.seats[item.user].intel:
                g.log("fail.zh_fails_named_intel_gone", item.user, {"zh": "算计"})
                return True
            item.done = True
            n = st.players
            g.log("suan_ji.names_intel_card_id", item.user, {"seat": item.user, "card": item.on, "id": colour},
                  cards=(item.on,))
            fr.order = [(item.user + i) % n for i in range(1, n)]
            fr.stage = 1
        elif fr.answer:
            seat = fr.order[fr.stage - 1]
            card = take_answer(fr).pick
            if fr.text == "discard":
                fr.stage += 1
                fr.text = ""
                g.discard_from_hand(seat, [card])
                return False
            if fr.text == "show" and colour == "dual" and colour_of(card) != "dual":
                fr.text = "show2"
                fr.cards = [card]
                ask_choice(g, seat, "prompt.choose.zh_show_id_hand_card",
                           [choose(c) for c in sorted({c for c in st.seats[seat].hand if only("blue", c)})],
                           args={"zh": "算计", "id": "blue"})
                return False
            shown = [*fr.cards, card]
            fr.cards = []
            fr.text = ""
            fr.stage += 1
            g.log("show.shows_cards", seat, {"seat": seat, "cards": tuple(shown)}, cards=shown)
        while fr.stage - 1 < len(fr.order):
            seat = fr.order[fr.stage - 1]
            p = st.seats[seat]
            if not p.alive or not p.hand:
                fr.stage += 1
                continue
            options = first_show(colour, p.hand)
            if options:
                fr.text = "show"
                ask_choice(g, seat, "prompt.choose.zh_show_id_hand_card_2", [choose(c) for c in options],
                           args={"zh": "算计", "id": colour})
            else:
                fr.text = "discard"
                ask_choice(g, seat, "prompt.choose.zh_you_cannot_show_discard",
                           [choose(c) for c in sorted(set(p.hand))], args={"zh": "算计"})
            return False
        return True


class DaMeiNvMission(Mission):
    """Hold 2 red and 1 blue intel (summary: 存有兩張潛伏及一張軍情情報); each 机密文件 counts
    as one colour of your choice (p.9 机密文件 ①)."""

    def done(self, g: Game, seat: int) -> bool:
        intel = g.state.seats[seat].intel
        pure_red = sum(1 for c in intel if colour_of(c) == "red")
        pure_blue = sum(1 for c in intel if colour_of(c) == "blue")
        dual = sum(1 for c in intel if colour_of(c) == "dual")
        return max(0, 2 - pure_red) + max(0, 1 - pure_blue) <= dual


SKILLS = (JingMing(), SuanJi())
MISSION = DaMeiNvMission()
