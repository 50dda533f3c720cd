"""黑玫瑰: 血染【暴露】 and 凋零 (rulebook p.12; digest §9, §11.6)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, use_skill
from engine.state import Frame, Item

from .. import deck
from ..cards.basic import burn_intel
from ..characters.base import Mission, Skill, take_answer
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game

XUE_RAN = "xue_ran"
DIAO_LING = "diao_ling"
SHOW = 5
PER_PLAYER = 2


class XueRan(Skill):
    """血染【暴露】: expose and show the top 5 pile cards, then distribute the fake ones
    among players of your choice, at most 2 each, who successfully receive them; if all 5
    are true or all 5 are fake, take them all into your hand. No timing: your play phase
    and any response point (p.4 ①). Fake cards not given and the true cards are discarded
    (p.12 example ①; decision §11.6). A player given 2 receives them at once: receipt
    triggers fire once (example ②).

    The cards are shown at use (before "然后"); at resolution one prompt per fake card:
    ``choose S`` (a living player with fewer than 2 so far) or ``choose none``."""

    id = XUE_RAN
    zh = "血染"
    state = "expose"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        if ctx not in ("main", "respond") or not (st.pile or st.discard):
            return []
        return [use_skill(self.id)]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        shown: list[int] = []
        for _ in range(SHOW):
            card = g.take_pile_top()
            if card == 0:
                break
            shown.append(card)
        item.held = shown
        g.log("show_pile.shows_pile_top_cards", item.user, {"seat": item.user, "cards": tuple(shown)}, cards=shown)

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        fakes = [c for c in item.held if deck.IS_BLACK[c]]
        if fr.stage == 0:
            if not st.seats[item.user].alive or not item.held:
                return True
            item.done = True
            if len(fakes) in (0, len(item.held)):
                st.seats[item.user].hand.extend(item.held)
                g.log("take.takes_shown_cards_into_hand", item.user, {"seat": item.user}, cards=item.held)
                item.held = []
                return True
            fr.stage = 1
            fr.order = []
        elif fr.stage == 1 and fr.answer:
            answer = take_answer(fr)
            fr.order.append(-1 if answer.option == "none" else answer.pick)
        if fr.stage == 1 and len(fr.order) < len(fakes):
            card = fakes[len(fr.order)]
            takers = [s for s in g.living() if fr.order.count(s) < PER_PLAYER]
            ask_choice(g, item.user, "prompt.choose.zh_who_receives_card",
                       [*(choose(s) for s in takers), choose_option("none")], args={"zh": "血染", "card": card})
            return False
        if fr.stage == 1:
            fr.stage = 2
            given = {s: [c for c, t in zip(fakes, fr.order, strict=True) if t == s] for s in set(fr.order) if s >= 0}
            for c in [c for c in item.held if all(c not in got for got in given.values())]:
                g.discard_card(c)
            item.held = []
            # Every recipient receives at the same time (all cards are placed before any
            # receipt is processed); one receipt per player, processed in turn order.
            start = st.turn
            order = sorted(given, key=lambda s: (s - start) % st.players)
            for s in reversed(order):
                g.place_intel(s, given[s], [item.user], cause=XUE_RAN)
            return not order
        return True


def burnable_true(g: Game, seat: int) -> list[int]:
    """Own true intel that can be burned (not encrypted, p.3 加密标记)."""
    st = g.state
    return sorted({c for c in st.seats[seat].intel if deck.IS_TRUE[c] and (st.tutorial or not deck.ENCRYPTED[c])})


def wither_options(g: Game, seat: int) -> list[Action]:
    """凋零's choices: ``skill diao_ling on C`` burns true intel C, ``… cards A,B`` discards
    two hand cards."""
    hand = sorted(set(g.state.seats[seat].hand))
    return ([use_skill(DIAO_LING, on=c) for c in burnable_true(g, seat)]
            + [use_skill(DIAO_LING, cards=(a, b)) for a, b in combinations(hand, 2)])


class DiaoLing(Skill):
    """凋零: at each of your turn ends, burn one of your true intel or discard 2 hand
    cards, otherwise die. Once the character is exposed it fires at every own turn end
    (p.12 note); forced. With a choice you can carry out you must take it (p.4 ⑦):
    ``skill diao_ling`` alone (die) is offered only when neither is possible."""

    id = DIAO_LING
    zh = "凋零"
    windows = ("turn_end",)
    forced = True

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat != seat or st.turn != seat or not st.seats[seat].exposed or not st.seats[seat].alive:
            return []
        return wither_options(g, seat) or [use_skill(self.id)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        p = st.seats[item.user]
        if not p.alive or fr.stage == 2:
            return True
        if fr.answer:
            picks = fr.given().picks
            fr.answer = None
            item.on, item.cards = (0, list(picks)) if len(picks) > 1 else (picks[0], [])
        item.done = True
        if item.on and item.on in burnable_true(g, item.user):
            burn_intel(g, item.user, item.on)
            return True
        if len(item.cards) == 2 and all(item.cards.count(c) <= p.hand.count(c) for c in item.cards):
            g.discard_from_hand(item.user, list(item.cards))
            return True
        left = wither_options(g, item.user)
        if left:
            # A response took the chosen card away: choose again among what can be done.
            item.on, item.cards = 0, []
            ask_choice(g, item.user, "prompt.choose.zh_burn_true_intel_or",
                       [*(choose(c) for c in burnable_true(g, item.user)),
                        *(choose(a, b) for a, b in combinations(sorted(set(p.hand)), 2))], args={"zh": "凋零", "n": 2})
            return False
        fr.stage = 2
        g.log("diao_ling.can_neither_burn_true_intel", item.user, {"seat": item.user, "n": 2})
        g.push(Frame("death", seat=item.user, index=1, order=[item.user], text=DIAO_LING))
        return False


class HeiMeiGuiMission(Mission):
    """At least two players (not yourself) holding true intel have died (card: 至少兩名存
    真情報的玩家死亡)."""

    def done(self, g: Game, seat: int) -> bool:
        return sum(1 for k in g.state.kills if k.dead != seat and k.true_intel > 0) >= 2


SKILLS = (XueRan(), DiaoLing())
MISSION = HeiMeiGuiMission()
