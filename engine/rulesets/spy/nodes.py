"""A node (spy digest §5.3): after an effect, the check that runs collection victories
and dying (triggers are frames pushed above it, so they run first)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game


def settle(g: Game) -> None:
    """Reach a node: push the ``spy_settle`` check."""
    g.push(Frame("spy_settle"))


def forced(g: Game, seat: int) -> bool:
    """The seat the intel is in front of must accept it: the sender, a locked seat (§4.3)."""
    t = g.state.transit
    return t is not None and (seat == t.sender or seat in g.state.locked)
