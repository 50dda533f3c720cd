"""老鬼: 就计 and 城府 (rulebook p.12; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, as_function

from .. import deck
from ..cards import FUNCTIONS
from ..characters.base import Mission, Skill
from ..hooks import CARD_PLAY_PROVIDERS

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import Item

#: Hand cards 老鬼 must hold at his death (summary: 死亡時存有5張或以上手牌).
MISSION_HAND = 5


class JiuJi(Skill):
    """就计: the true intel you hold can be used as function cards; a 秘密下达 held as intel
    is used as 识破. Responses are asked as usual; the card then goes to the discard pile
    (p.12 note). Encrypted intel cannot be used (p.16 搜取 note: 加密情报无法被烧毁/使用/替换).
    Card change: ``play N …`` with N an intel card (provider :func:`intel_plays`)."""

    id = "jiu_ji"
    zh = "就计"

    def credited_for_use(self, g: Game, item: Item, from_intel: bool) -> bool:
        return from_intel


class ChengFu(Skill):
    """城府: 试探 and 秘密下达 cannot target you, nor 拷问, 紧急下达 and 真相 (p.12 ①); you may
    keep your identity hidden whenever you would have to reveal it, unless you declare
    victory (②; 雇佣关系 still looks at it, ③). Passive: read by the cards
    (``cards.basic.shielded``: :meth:`shields`) and at death (``rules.die``:
    :meth:`hides_identity`)."""

    id = "cheng_fu"
    zh = "城府"

    def shields(self, g: Game, seat: int) -> bool:
        return True

    def hides_identity(self, g: Game, seat: int) -> bool:
        return True


def usable_intel(g: Game, card: int) -> bool:
    """A received true intel 就计 can use: not encrypted (tutorial: no markers)."""
    return deck.IS_TRUE[card] and (g.state.tutorial or not deck.ENCRYPTED[card])


def intel_plays(g: Game, seat: int, ctx: str) -> list[Action]:
    """就计: ``play N …`` for each usable intel N, by its function; 秘密下达 as 识破."""
    out: list[Action] = []
    for card in sorted(set(g.state.seats[seat].intel)):
        if not usable_intel(g, card):
            continue
        fn = deck.FUNCTION[card]
        if fn == "secret_order":
            out.extend(as_function(a, "see_through") for a in FUNCTIONS["see_through"].plays(g, seat, card, ctx))
        else:
            out.extend(FUNCTIONS[fn].plays(g, seat, card, ctx))
    return out


CARD_PLAY_PROVIDERS["jiu_ji"] = intel_plays


class LaoGuiMission(Mission):
    """At your death, hold 5 or more hand cards (checked before the discard)."""

    when = "death"

    def done(self, g: Game, seat: int) -> bool:
        return len(g.state.seats[seat].hand) >= MISSION_HAND


SKILLS = (JiuJi(), ChengFu())
MISSION = LaoGuiMission()
