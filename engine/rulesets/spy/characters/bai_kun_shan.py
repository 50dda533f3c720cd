"""白昆山 bai_kun_shan (hidden; spy digest §9): 毒计 — contest, flip, choose two other players
with hand cards; each draws one random hand card from the other and shows it; you take the
shown cards into your hand, except that for each black one you may instead have the player
who drew it choose to put it into their own or the other's intel area (both black: you
decide who chooses first). Resolves fully before anything else; deaths it causes are
simultaneous (§6.1).

Prompts: with a black shown card, the user answers ``choose take`` (all into the hand) or
``choose D`` (the drawers of the black cards place them, D first; docs/rule-decisions.md);
each drawer then ``choose X`` (X: their own seat or the other's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, use_skill
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class DuJi(Skill):
    id = "du_ji"
    zh = "毒计"
    kind = "contest"
    flip = True

    def actions(self, g: Game, seat: int) -> list[Action]:
        have = [s for s in g.living() if s != seat and g.state.seats[s].hand]
        return [use_skill(self.id, (a, b)) for i, a in enumerate(have) for b in have[i + 1:]]

    def use(self, g: Game, seat: int, action: Action) -> None:
        st = g.state
        a, b = action.to
        ha, hb = st.seats[a].hand, st.seats[b].hand
        from_b = hb[g.random_below(len(hb))]
        from_a = ha[g.random_below(len(ha))]
        hb.remove(from_b)
        ha.remove(from_a)
        g.log("show.draws_card_from_seat_seat", seat,
              {"seat": a, "card": from_b, "seat2": b, "seat3": b, "card2": from_a, "seat4": a}, cards=(from_b, from_a),
              seats=(a, b))
        drawn = {a: from_b, b: from_a}
        blacks = [s for s in (a, b) if deck.IS_BLACK[drawn[s]]]
        for s in (a, b):  # shown cards go to the user's hand; black ones may leave it again
            st.seats[seat].hand.append(drawn[s])
        if blacks:
            g.push(Frame("spy_card", seat=seat, order=blacks, cards=[drawn[s] for s in blacks],
                         card=b if a in blacks else a, index=-1, text=self.id))
        for s in (a, b):
            if s not in blacks:
                g.log("take.takes_cards", seat, {"seat": seat, "cards": (drawn[s],)}, cards=(drawn[s],))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.stage == 0:
            if not fr.answer:
                g.ask(fr.seat, "choose", "prompt.choose.zh_take_black_cards_or",
                      [choose_option("take"), *(choose(s) for s in fr.order)], args={"zh": "毒计"})
                return
            pick = fr.answer
            fr.answer = None
            if pick.option == "take":
                st.stack.pop()
                g.log("take.takes_cards", fr.seat, {"seat": fr.seat, "cards": tuple(fr.cards)}, cards=tuple(fr.cards))
                return
            first = pick.pick
            if fr.order[0] != first:
                fr.order.reverse()
                fr.cards.reverse()
            fr.stage = 1
            fr.index = 0
        if fr.answer:
            to = fr.answer.pick
            fr.answer = None
            st.seats[fr.seat].hand.remove(fr.cards[fr.index])
            place(g, to, fr.cards[fr.index])
            fr.index += 1
        if fr.index >= len(fr.order):
            st.stack.pop()
            return
        drawer = fr.order[fr.index]
        pair = {drawer, fr.card if fr.card != drawer else fr.order[0]}
        if len(fr.order) == 2:
            pair = set(fr.order)
        g.ask(drawer, "choose", "prompt.choose.zh_into_whose_intel_area", [choose(s) for s in sorted(pair)],
              args={"zh": "毒计"})


SKILLS[DuJi.id] = DuJi()
