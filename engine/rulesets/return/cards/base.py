"""The shape of a card function and the timing helpers cards share."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action
from engine.state import Frame, Item

from .. import deck, ruledata
from ..skills import passive_skills

if TYPE_CHECKING:
    from engine.game import Game

#: Where a card may be used: ``main`` (the turn player's play phase), ``respond`` (a
#: response point), ``arrive`` (the intel reached you), ``returned`` (the intel is back
#: at its sender and others may 调包).
Context = str


class Effect:
    """Something that can sit on the response chain and resolve."""

    id: ClassVar[str] = ""

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        """Carry out the effect; return False after opening a decision or pushing work
        (the handler is called again with ``fr.answer`` / a later ``fr.stage``), True when
        finished. Set ``item.done`` when the effect took place. ``fr.index`` is the item's
        place on the chain: keep progress in ``fr.stage``, ``fr.cards``, ``fr.order`` and
        ``fr.text`` instead."""
        return True

    def dispose(self, g: Game, item: Item) -> None:
        """Put the used card where it goes after resolving (default: discard pile)."""
        g.discard_card(item.card)


class CardFunction(Effect):
    """A basic card used for its function (rulebook p.4 功能)."""

    zh: ClassVar[str] = ""
    #: 离间 may change this card's target (p.8).
    retargetable: ClassVar[bool] = False

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        """Every legal ``play CARD…`` action of this card now, built as values
        (:func:`engine.action.play`: ``play(card)``, ``play(card, 3)``, ``play(card, on=41)``,
        ``play(card, code="听风")``); empty when the card cannot be used."""
        return []

    def on_use(self, g: Game, item: Item) -> None:
        """Note what the card acts on when used (before responses)."""

    def retarget_candidates(self, g: Game, item: Item) -> list[int]:
        """Seats 离间 may move this card to: they must meet the target conditions, and
        may not be the original user (p.8 离间 ①②)."""
        return []


#: Card function id -> its class instance: the 15 basic functions, filled by
#: :mod:`.cards` when it loads, and alternative functions characters add (拷问, 紧急下达).
FUNCTIONS: dict[str, CardFunction] = {}
#: The chain items that are no card: ``declare`` and ``receive`` (filled by :mod:`.cards`).
PSEUDO: dict[str, Effect] = {}


def own_turn(g: Game, seat: int, ctx: Context) -> bool:
    """自己回合中: the turn player, in the play phase or at a response point of the turn."""
    return seat == g.state.turn and ctx in ("main", "respond")


def own_turn_or(g: Game, seat: int, ctx: Context, function: str) -> bool:
    """自己回合中, or "玩家回合中" for a seat whose skill widens the timing of
    ``function`` (七百's 机敏: :meth:`Skill.widens_timing`)."""
    if own_turn(g, seat, ctx):
        return True
    if ctx not in ("main", "respond") or not g.state.characters:
        return False
    return any(sk.widens_timing(g, seat, function) for sk in passive_skills(g, seat))


def note_widened(g: Game, seat: int, function: str) -> None:
    """Log the skill that let ``seat`` use ``function`` outside its own turn (机敏)."""
    for sk in passive_skills(g, seat):
        if sk.widens_timing(g, seat, function):
            note_skill(g, seat, sk.id)
            return


def note_skill(g: Game, seat: int, skill_id: str) -> None:
    """Log that a passive skill took effect (counted like a use)."""
    g.log("skill.uses_id", seat, {"seat": seat, "id": skill_id})


def no_timing(ctx: Context) -> bool:
    """Cards with no timing: the play phase (turn player) and any response point (p.4 ①)."""
    return ctx in ("main", "respond")


def others_with_hand(g: Game, seat: int) -> list[int]:
    st = g.state
    return [s for s, p in enumerate(st.seats) if s != seat and p.alive and p.hand]


def true_on_table(g: Game) -> int:
    """True intel held by all players (机密文件 counts)."""
    return sum(1 for p in g.state.seats if p.alive for c in p.intel if deck.IS_TRUE[c])


def burnable(g: Game, card: int) -> bool:
    """A received fake intel that is not encrypted (p.4 ② 加密标记; tutorial: no markers)."""
    return deck.IS_BLACK[card] and (g.state.tutorial or not deck.ENCRYPTED[card])


def code_matches(code: str | int, card: int) -> bool:
    """秘密下达 codes (decision §11.3): 听风 red, 看雨 blue, 日落 black; 机密文件 is red and blue.
    A card number (情报处长's 偷龙转凤 binding the send: ``State.send_code``): exactly that card."""
    if isinstance(code, int):
        return card == code
    colour = ruledata.SECRET_ORDER_CODES[code]
    if colour == "red":
        return deck.IS_RED[card]
    if colour == "blue":
        return deck.IS_BLUE[card]
    return deck.IS_BLACK[card]
