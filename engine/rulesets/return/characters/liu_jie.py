"""六姐: 搜取 and 拷问 (rulebook p.15; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, play, use_skill
from engine.state import Frame, Item

from .. import deck
from ..cards import FUNCTIONS
from ..cards.base import CardFunction, Context, no_timing
from ..cards.basic import burn_intel, shielded
from ..characters.base import Skill, WeakPlayerDies, take_answer
from ..choices import ask_choice
from ..hooks import CARD_PLAY_PROVIDERS, alt_function_plays

if TYPE_CHECKING:
    from engine.game import Game


class SouQu(Skill):
    """搜取: when your intel is burned, draw 1; when another player's intel is burned, you
    may take it into hand. Using or replacing an intel is not burning; encrypted intel
    cannot be burned (p.15 note). Window ``burned`` (the card is on the discard pile)."""

    id = "sou_qu"
    zh = "搜取"
    windows = ("burned",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        if ev.seat == seat or ev.card in g.state.discard:
            return [use_skill(self.id)]
        return []

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        ev = g.state.stack[-1]  # the 'burned' window being answered
        if ev.kind == "trigger":
            item.target = ev.seat
            item.on = ev.card

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if not st.seats[item.user].alive:
            return True
        item.done = True
        if item.target == item.user:
            g.draw(item.user, 1)
        elif item.on in st.discard:
            st.discard.remove(item.on)
            st.seats[item.user].hand.append(item.on)
            if st.chain:
                st.fresh.append(item.on)
            g.log("take.takes_burned_intel_card_into", item.user, {"seat": item.user, "card": item.on},
                  cards=(item.on,))
        return True


class KaoWen(Skill):
    """拷问: your 试探 or 公开文本 may instead be used as "in any player's turn: name a
    player, who chooses: discard 2 hand cards / burn one of their true intel / have their
    identity looked at"; the original function is void (p.15 ①); the identity option may
    be chosen again while the identity card is not public (②); a 试探 used so is discarded,
    not removed (③). Card change: ``play N to S as kao_wen`` (:class:`KaoWenCard`)."""

    id = "kao_wen"
    zh = "拷问"

    def credited_for_use(self, g: Game, item: Item, from_intel: bool) -> bool:
        return item.alt == self.id


def kao_wen_options(g: Game, seat: int) -> list[Action]:
    """What the tortured player can carry out (rule ⑦: an option they can do first)."""
    p = g.state.seats[seat]
    out: list[Action] = []
    if len(p.hand) >= 2:
        out.append(choose_option("discard"))
    if any(deck.IS_TRUE[c] and (g.state.tutorial or not deck.ENCRYPTED[c]) for c in p.intel):
        out.append(choose_option("burn"))
    if not p.identity_revealed:
        out.append(choose_option("identity"))
    return out or [choose_option("discard")]


class KaoWenCard(CardFunction):
    """A 试探 or 公开文本 used as 拷问 (discarded afterwards)."""

    id = "kao_wen"
    zh = "拷问"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        if not no_timing(ctx):
            return []
        return [play(card, s, alt="kao_wen") for s in g.living() if not shielded(g, s)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        seat = item.target
        p = st.seats[seat]
        if not p.alive:
            return True
        if fr.stage == 0:
            item.done = True
            fr.stage = 1
            ask_choice(g, seat, "prompt.choose.zh_by_seat_discard_n", kao_wen_options(g, seat),
                       args={"zh": "拷问", "seat": item.user, "n": 2})
            return False
        if fr.stage == 1:
            answer = take_answer(fr)
            g.log("kao_wen.chooses_id_zh", seat, {"seat": seat, "id": answer.option, "zh": "拷问"})
            if answer.option == "identity":
                g.log("look_identity.looks_at_seat_identity_id", item.user,
                      {"seat": item.user, "seat2": seat, "id": p.identity}, audience=(item.user, seat),
                      public="look_identity.looks_at_seat_identity")
                return True
            if answer.option == "burn":
                fr.stage = 6
                ask_choice(g, seat, "prompt.choose.zh_burn_one_your_true",
                           [choose(c) for c in sorted(set(p.intel))
                            if deck.IS_TRUE[c] and (st.tutorial or not deck.ENCRYPTED[c])], args={"zh": "拷问"})
                return False
            fr.stage = 2
        if fr.stage in (2, 3):
            # Discard two cards, one at a time (stage 2: the first, 3: the second).
            if fr.answer:
                fr.stage = 3 if fr.stage == 2 else 9
                g.discard_from_hand(seat, [take_answer(fr).pick])
                return False
            if not p.hand:
                return True
            ask_choice(g, seat, "prompt.choose.zh_discard_hand_card", [choose(c) for c in sorted(set(p.hand))],
                       args={"zh": "拷问"})
            return False
        if fr.stage == 6:
            fr.stage = 9
            card = take_answer(fr).pick
            if card in p.intel:
                burn_intel(g, seat, card)
            return False
        return True


FUNCTIONS["kao_wen"] = KaoWenCard()



CARD_PLAY_PROVIDERS["kao_wen"] = alt_function_plays("kao_wen", ("probe", "public_text"))



SKILLS = (SouQu(), KaoWen())
MISSION = WeakPlayerDies()
