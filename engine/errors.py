"""Typed errors of the engine, in the python-chess manner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.action import Action


class IllegalAction(ValueError):
    """An action that is not legal at this decision. The state is unchanged.

    ``legal`` lists the actions that are legal for the acting seat right now (empty when
    the seat is not the one to act or the game is over).
    """

    def __init__(self, message: str, legal: Sequence[Action] | None = None) -> None:
        self.legal: list[Action] = list(legal or [])
        if self.legal:
            shown = ", ".join(map(str, self.legal[:40])) + (" …" if len(self.legal) > 40 else "")
            message = f"{message}; legal: {shown}"
        super().__init__(message)


class NotationError(ValueError):
    """A line of text that is not an action in the notation of docs/notation.md."""


class SetupError(ValueError):
    """A set-up (player count, scenario position) that breaks the rules or an invariant."""


class SnapshotFormatError(ValueError):
    """Snapshot bytes this engine does not read: another format number (written by an
    older or newer engine), or records whose fields are not today's. Refused, never
    guessed at: nothing is released, so a stored match of another format is not upgraded.

    ``found`` is the snapshot's format number (0 when the bytes are not a snapshot at
    all); ``expected`` the one this engine reads (:data:`engine.snapshot.FORMAT`).
    """

    def __init__(self, message: str, *, found: int, expected: int) -> None:
        super().__init__(message)
        self.found = found
        self.expected = expected
