"""鬼脚 gui_jiao (spy digest §9): 急送 — once per contest phase (§11.22: once per turn),
discard 2 hand cards, or discard one non-black intel from your intel area; then move the
pending intel in front of any player."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import Action, use_skill

from .. import deck
from ..cards import move_pending
from ..skills import SKILLS, Skill

if TYPE_CHECKING:
    from engine.game import Game


class JiSong(Skill):
    id = "ji_song"
    zh = "急送"
    kind = "contest"
    once = True

    def actions(self, g: Game, seat: int) -> list[Action]:
        st = g.state
        t = st.transit
        if t is None:
            return []
        to = [s for s in g.living() if s != t.holder]
        hand = sorted(st.seats[seat].hand)
        out = [use_skill(self.id, s, cards=(a, b)) for a, b in combinations(hand, 2) for s in to]
        out += [use_skill(self.id, s, on=m) for m in sorted(st.seats[seat].intel) if not deck.IS_BLACK[m]
                for s in to]
        return out

    def use(self, g: Game, seat: int, action: Action) -> None:
        st = g.state
        if action.cards:
            g.discard_from_hand(seat, list(action.cards))
        else:
            m = action.on
            st.seats[seat].intel.remove(m)
            g.discard_card(m)
            g.log("discard.discards_intel_card", seat, {"seat": seat, "card": m}, cards=(m,))
        move_pending(g, seat, action.target, "急送")


SKILLS[JiSong.id] = JiSong()
