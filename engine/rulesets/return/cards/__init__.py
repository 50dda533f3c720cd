"""Card functions: one small class per basic-card function, keyed by its canonical id
(rules digest §8), plus the two pseudo-items that open chains (``declare``, ``receive``).

Each class answers three questions: which ``play`` actions a card allows at a given
moment (:meth:`CardFunction.plays`), what happens when it resolves
(:meth:`CardFunction.resolve`), and where the card goes afterwards
(:meth:`CardFunction.dispose`).
"""

from __future__ import annotations

from ..cards.base import CardFunction, Effect
from ..cards.basic import BASIC
from ..cards.intel import INTEL
from ..cards.pseudo import Declare, Receive

FUNCTIONS: dict[str, CardFunction] = {c.id: c for c in (*BASIC, *INTEL)}
PSEUDO: dict[str, Effect] = {"declare": Declare(), "receive": Receive()}

__all__ = ["FUNCTIONS", "PSEUDO", "CardFunction", "Effect"]
