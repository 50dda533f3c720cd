"""Card functions: one small class per basic-card function, keyed by its canonical id
(rules digest §8), plus the two pseudo-items that open chains (``declare``, ``receive``).

Each class answers three questions: which ``play`` actions a card allows at a given
moment (:meth:`CardFunction.plays`), what happens when it resolves
(:meth:`CardFunction.resolve`), and where the card goes afterwards
(:meth:`CardFunction.dispose`).

The package itself only exposes the tables (:mod:`.base`), so that the chain machinery
can import them without importing the cards; :mod:`.table` fills them.
"""

from __future__ import annotations

from .base import FUNCTIONS, PSEUDO, CardFunction, Effect

__all__ = ["FUNCTIONS", "PSEUDO", "CardFunction", "Effect"]
