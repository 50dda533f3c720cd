"""The shape of characters, skills and secret missions (rulebook pp.3, 9–16; digest §9).

A character is data (id, Chinese name, whether it is a state character, its two skill
ids) plus a mission; each skill is one small class keyed by its canonical id. A skill is
found by the engine in three ways:

* **active** – :meth:`Skill.plays` lists ``skill ID …`` actions the owner may take in a
  context (``main``, ``respond``, ``arrive``, ``turn_start``); the use pays its cost
  (:meth:`Skill.on_use`, the part before "然后" and the state switch), goes on the chain
  like a card, and resolves with :meth:`Skill.resolve`;
* **triggered** – :meth:`Skill.trigger_plays` lists actions at a trigger window (an event
  the engine announces: a receipt, a turn end, a card use …); outside chain resolution the
  use opens a chain, during resolution it resolves at once (p.4 ②);
* **passive** – the engine asks :func:`engine.characters.has_skill` where a skill changes
  a rule (城府, 机敏, 核燃机体 …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.cards.base import Effect
from engine.state import Frame, Item

if TYPE_CHECKING:
    from engine.game import Game


class Skill(Effect):
    """One character skill."""

    zh: ClassVar[str] = ""
    character: ClassVar[str] = ""
    #: ``hide`` for 【隐藏】 (usable while exposed; using it turns the character face
    #: down), ``expose`` for 【暴露】 (usable while hidden; using it turns it face up).
    state: ClassVar[str] = ""
    #: Trigger windows this skill listens to (see engine/triggers.py).
    windows: ClassVar[tuple[str, ...]] = ()

    def plays(self, g: Game, seat: int, ctx: str) -> list[str]:
        """Suffixes of the legal ``skill ID…`` actions in ``ctx`` ("" for none needed)."""
        return []

    def trigger_plays(self, g: Game, seat: int, ev: Frame) -> list[str]:
        """Suffixes of the legal ``skill ID…`` actions at the trigger window ``ev``."""
        return []

    def on_use(self, g: Game, item: Item) -> None:
        """Pay the cost before responses: by default only the state switch."""
        switch_state(g, item.user, self.state)

    def dispose(self, g: Game, item: Item) -> None:
        """Skills have no card of their own to put away."""


def switch_state(g: Game, seat: int, state: str) -> None:
    """Turn a state character face down (``hide``) or face up (``expose``)."""
    p = g.state.seats[seat]
    if state == "hide" and p.exposed:
        p.exposed = False
        g.log("hide", seat, f"seat {seat} hides its character")
    elif state == "expose" and not p.exposed:
        p.exposed = True
        g.log("expose", seat, f"seat {seat} exposes its character: {p.character}")


@dataclass(frozen=True)
class Character:
    """A character card: id, Chinese name, state character or not, its two skills."""

    id: str
    zh: str
    stateful: bool
    skills: tuple[str, str]


class Mission:
    """A secret mission (机密任务): an agent's victory condition. "Players" in a mission
    never include yourself; it holds even while the character is face down (p.3)."""

    #: When the condition is checked besides every state change: ``death`` (at your own
    #: death, before discarding), ``declare`` (when another player declares victory).
    when: ClassVar[str] = ""

    def done(self, g: Game, seat: int) -> bool:
        return False
