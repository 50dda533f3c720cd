"""Example bots for the SDK: the platform's own policies (``engine/bots.py``) as ``decide``
functions. ``python -m fengsheng.bot --bot heuristic --token T --url URL`` runs one."""

from __future__ import annotations

import random

from engine.bots import heuristic_bot as _heuristic
from engine.bots import random_bot as _random
from engine.notation import parse
from fengsheng.v1 import game_pb2

_rng = random.Random()


def random_decide(observation: game_pb2.Observation, legal_actions: list[str]) -> str:
    """Any legal action, uniformly."""
    return str(_random(observation, [parse(a) for a in legal_actions], _rng))


def heuristic_decide(observation: game_pb2.Observation, legal_actions: list[str]) -> str:
    """The platform's cautious heuristic (accepts its colour, avoids a third black intel...)."""
    return str(_heuristic(observation, [parse(a) for a in legal_actions], _rng))


EXAMPLES = {"random": random_decide, "heuristic": heuristic_decide}
