"""The printed data of the deck (card number -> function, colour, transmission), for clients.

Read from the deck table shipped in the engine's ruleset package
(``engine/rulesets/<ruleset>/data/<ruleset>-deck.tsv``)
as a data file: the gateway still never imports :mod:`engine`.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "rulesets"


@functools.lru_cache(maxsize=8)
def deck(ruleset: str = "return") -> dict[int, dict[str, Any]]:
    """Card number -> its row (empty when the table is not installed)."""
    if not ruleset.isidentifier() or len(ruleset) > 32:
        return {}
    path = DATA_DIR / ruleset / "data" / f"{ruleset}-deck.tsv"
    if not path.is_file():
        return {}
    cards: dict[int, dict[str, Any]] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            number = int(row["card"])
            cards[number] = {
                "number": number,
                "function": row.get("function", ""),
                "function_zh": row.get("function_zh", ""),
                "color": row.get("color", ""),
                "transmission": row.get("transmission", ""),
                "direction_any": row.get("direction_any") == "yes",
                "encrypted": row.get("encrypted") == "yes",
            }
    return cards
