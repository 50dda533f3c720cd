"""Fill the card tables of 风声再临: the 15 basic functions and the two pseudo-items that
open a chain (imported once, when the ruleset loads)."""

from __future__ import annotations

from .base import FUNCTIONS, PSEUDO
from .basic import BASIC
from .intel import INTEL
from .pseudo import Declare, Receive

FUNCTIONS.update({c.id: c for c in (*BASIC, *INTEL)})
PSEUDO.update({"declare": Declare(), "receive": Receive()})
