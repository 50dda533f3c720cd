"""The pure rules engine of 风声 (The Message). First ruleset: 风声再临 (``return``).

No I/O here (a test enforces it): the engine is a state machine that stops only at
decisions, whose whole state is plain data that round-trips through the protobuf snapshot.
"""

from engine.errors import IllegalAction, SetupError
from engine.game import Event, Game, Outcome, Pending

__all__ = ["Event", "Game", "IllegalAction", "Outcome", "Pending", "SetupError"]
