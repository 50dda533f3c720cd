"""Example bots for the SDK: the platform's own policies (``engine/bots.py``) as ``decide``
functions. ``python -m fengsheng.bot --bot heuristic --token T --url URL`` runs one.

Each gets the SDK's typed values (:mod:`fengsheng_bot.values`) and answers with one of the
legal :class:`~fengsheng_bot.values.Action` values it was given; the engine's policies get
the same actions as the engine's values, built from their fields (no notation is read).
"""

from __future__ import annotations

from engine.bots import heuristic_bot as _heuristic
from engine.bots import random_bot as _random
from fengsheng_bot.client import Decide, decide_with

random_decide: Decide = decide_with(_random)
"""Any legal action, uniformly."""

heuristic_decide: Decide = decide_with(_heuristic)
"""The platform's cautious heuristic (accepts its colour, avoids a third black intel...)."""

EXAMPLES = {"random": random_decide, "heuristic": heuristic_decide}
