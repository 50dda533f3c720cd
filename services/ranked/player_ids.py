"""Player ids of house bots: letters, digits, ``_`` and ``-`` only, so an id goes into a
URL path as it is (``GET /api/ranked/players/house-heuristic-2/history``), never URL-encoded.
"""

from __future__ import annotations


def house_id(policy: str, k: int) -> str:
    """The ``k``-th house bot of a match playing ``policy``: ``house-heuristic-2``."""
    return f"house-{policy}-{k}"
