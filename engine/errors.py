"""Typed errors of the engine, in the python-chess manner."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that is not legal at this decision. The state is unchanged.

    ``legal`` lists the actions that are legal for the acting seat right now (empty when
    the seat is not the one to act or the game is over).
    """

    def __init__(self, message: str, legal: list[str] | None = None) -> None:
        self.legal: list[str] = list(legal or [])
        if self.legal:
            shown = ", ".join(self.legal[:40]) + (" …" if len(self.legal) > 40 else "")
            message = f"{message}; legal: {shown}"
        super().__init__(message)


class SetupError(ValueError):
    """A set-up (player count, scenario position) that breaks the rules or an invariant."""
