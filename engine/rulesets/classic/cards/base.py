"""The card-function framework of the classic ruleset (digest §9, §6.4): one small class
per function says when a seat may use it (``usable``), what it may name (``actions``),
and what it does when its chain item resolves (``resolve``; multi-decision effects
continue in ``step`` on a ``card_step`` frame).

Timings (``State.timing``): ``start`` (turn start window), ``main1`` / ``main2`` (play
phases), ``transmit`` (情报传递), ``arrive`` (情报到达) — digest §4, §5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, play
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import timing_override

if TYPE_CHECKING:
    from engine.game import Game

PLAY_PHASES = ("main1", "main2")


class CardFunction:
    """One of the nine functions. Subclasses set ``id`` and override the hooks."""

    id: ClassVar[str] = ""
    #: Shown only to user and target while waiting, removed from the game afterwards (试探).
    face_down: ClassVar[bool] = False
    #: The action names a target seat (``play N to S``).
    targeted: ClassVar[bool] = False

    # -- when ---------------------------------------------------------------
    def timing_ok(self, g: Game, seat: int) -> bool:
        """The function's own timing (digest §9 table)."""
        return True

    def usable(self, g: Game, seat: int) -> bool:
        """Timing holds for ``seat`` now, passive skills included (敏锐, golden rule §6.1)."""
        override = timing_override(g, seat, self.id)
        return override if override is not None else self.timing_ok(g, seat)

    # -- what ---------------------------------------------------------------
    def targets(self, g: Game, seat: int) -> list[int]:
        """Seats a targeted function may name: another living player by default."""
        return [s for s in g.living() if s != seat]

    def actions(self, g: Game, seat: int, card: int, alt: str = "") -> list[Action]:
        """The ``play`` actions for ``card`` used as this function (``alt``: converted, ``… as F``)."""
        if self.targeted:
            return [play(card, s, alt=alt) for s in self.targets(g, seat)]
        return [play(card, alt=alt)]

    def make_item(self, g: Game, seat: int, card: int, action: Action) -> Item:
        item = Item(kind=self.id, user=seat, card=card)
        item.target = action.target
        item.on = action.on
        return item

    def used(self, g: Game, item: Item) -> None:
        """Right after the item joins the chain (logs, marks)."""

    # -- effect -------------------------------------------------------------
    def valid(self, g: Game, item: Item) -> bool:
        """Whether the item still has its target when it resolves (§6.3: it fails if not)."""
        return item.target < 0 or g.state.seats[item.target].alive

    def resolve(self, g: Game, item: Item) -> None:
        """The effect. May push frames (``card_step``) that ask decisions."""

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """The options of the ``choose`` decision its ``card_step`` frame ``fr`` has open,
        read from the state and the frame alone (the legal actions call it again)."""
        return []

    def step(self, g: Game, fr: Frame) -> None:
        """Continue a multi-decision effect; pops ``fr`` when done."""
        g.state.stack.pop()

    def after(self, g: Game, item: Item) -> None:
        """Where the card goes once the item is done: the discard pile (face up)."""
        if item.card:
            g.discard_card(item.card)


FUNCTIONS: dict[str, CardFunction] = {}


def register(cls: type[CardFunction]) -> type[CardFunction]:
    FUNCTIONS[cls.id] = cls()
    return cls


def own_turn(g: Game, seat: int) -> bool:
    return g.state.turn == seat


def timing(g: Game) -> str:
    return g.state.timing


def is_lured(g: Game, seat: int) -> bool:
    return marks.has(g.state, marks.lured(seat))


def function_of(card: int) -> str:
    return deck.FUNCTION[card]
