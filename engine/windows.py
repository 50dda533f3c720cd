"""Trigger windows, the core's part: a moment the rules announce (a card used, intel
received, a turn's end, a death …) so that triggered skills may fire.

Every ruleset has them and they share one shape, which lives here:

- **who is asked, in which order**: the seats in turn order from a start seat (the turn
  player, or the subject of a ``dying`` window), living ones, each seat whose skills could
  fire (:func:`seats_from`, :class:`Listeners`);
- **the cover of a face-down character**: where a face-down character's skill could fire,
  every face-down seat is asked too, whatever its character, so that who is prompted never
  tells a hidden character (design.md, "prompt order must not leak hands";
  :func:`face_down`);
- **one frame per asked seat or skill, first-asked on top**: rulesets that queue a frame
  per seat push them reversed so the first seat in the
  order answers first (:func:`push_in_order`, :func:`open_per_seat`).

What differs stays in the rulesets: one asks the listed seats from one ``trigger`` frame,
one asks each skill's ``trigger`` method for a frame, one queues a frame per skill; the
frames are the rulesets' own, so snapshots do not change with this module.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import Frame, Seat, State


def seats_from(st: State, start: int) -> list[int]:
    """Every seat in turn order, beginning with ``start`` (dead seats included: a window's
    asker skips them, and "before death" windows ask the dead)."""
    n = st.players
    return [(start + i) % n for i in range(n)]


def face_down(seat: Seat) -> bool:
    """A living seat whose character is still face down: asked at a window where a
    face-down character's skill could fire, whatever its character."""
    return seat.alive and bool(seat.character) and not seat.exposed


def push_in_order(g: Game, frames: list[Frame]) -> None:
    """Push per-seat window frames so that ``frames[0]`` runs first (the stack is LIFO)."""
    for fr in reversed(frames):
        g.push(fr)


def open_per_seat(g: Game, start: int, frames_of: Callable[[int], Iterable[Frame]]) -> None:
    """Open a window asking seat by seat from ``start`` in turn order: each seat's frames
    (``frames_of(seat)``, possibly none) are queued in that order."""
    push_in_order(g, [fr for s in seats_from(g.state, start) for fr in frames_of(s)])


class Listeners:
    """Which skills listen to each window, built once per window name from a ruleset's
    skill registry (fixed once its character modules are loaded)."""

    def __init__(self, windows_of: Callable[[], Iterable[tuple[str, Collection[str]]]]) -> None:
        """``windows_of()`` yields ``(skill id, the windows it listens to)`` for every skill."""
        self._windows_of = windows_of
        self._by_window: dict[str, frozenset[str]] = {}

    def __call__(self, window: str) -> frozenset[str]:
        """The ids of the skills that listen to ``window``."""
        found = self._by_window.get(window)
        if found is None:
            found = self._by_window[window] = frozenset(
                sid for sid, windows in self._windows_of() if window in windows)
        return found
