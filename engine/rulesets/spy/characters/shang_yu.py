"""商玉 shang_yu (hidden; spy digest §9): 借刀杀人 — contest, flip, draw one random hand card
from another player into your hand and show it. If black: you may put it into any player's
intel area (``choose S``; ``pass`` keeps it) and turn your character face down (so you can
use it again this contest). If not black: you draw 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import PASS, Action, choose, use_skill
from engine.state import Frame

from .. import deck
from ..cards import place
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JieDaoShaRen(Skill):
    id = "jie_dao_sha_ren"
    zh = "借刀杀人"
    kind = "contest"
    flip = True

    def actions(self, g: Game, seat: int) -> list[Action]:
        return [use_skill(self.id, s) for s in g.living() if s != seat and g.state.seats[s].hand]

    def use(self, g: Game, seat: int, action: Action) -> None:
        st = g.state
        target = action.target
        hand = st.seats[target].hand
        card = hand[g.random_below(len(hand))]
        hand.remove(card)
        st.seats[seat].hand.append(card)
        g.log("take.draws_cards_from_seat_hand", seat, {"seat": seat, "cards": (card,), "seat2": target}, cards=(card,))
        if not deck.IS_BLACK[card]:
            g.draw(seat, 1)
            return
        g.push(Frame("spy_card", seat=seat, card=card, text=self.id))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if not fr.answer:
            g.ask(fr.seat, "choose", "prompt.choose.zh_put_black_card_into",
                  [PASS, *(choose(s) for s in g.living())], args={"zh": "借刀杀人"})
            return
        st.stack.pop()
        if fr.answer == PASS:
            return
        st.seats[fr.seat].hand.remove(fr.card)
        place(g, fr.given().pick, fr.card)
        st.seats[fr.seat].exposed = False
        g.log("flip_down.turns_character_face_down", fr.seat, {"seat": fr.seat}, seats=(fr.seat,))


SKILLS[JieDaoShaRen.id] = JieDaoShaRen()
