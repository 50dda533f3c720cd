"""The pure rules engine of 风声 (The Message).

No I/O here (a test enforces it): the engine is a state machine that stops only at
decisions, whose whole state is plain data that round-trips through the protobuf snapshot.
The core (this package's modules) is ruleset-neutral; each ruleset is a package under
``engine/rulesets/`` found through :func:`get_ruleset`.
"""

from engine.action import Action
from engine.errors import IllegalAction, NotationError, SetupError, SnapshotFormatError
from engine.game import Event, Game, Outcome, Pending
from engine.ruleset import Ruleset
from engine.rulesets import RULESET_IDS, get_ruleset

__all__ = ["RULESET_IDS", "Action", "Event", "Game", "IllegalAction", "NotationError", "Outcome", "Pending",
           "Ruleset", "SetupError", "SnapshotFormatError", "get_ruleset"]
