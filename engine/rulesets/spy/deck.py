"""The 谍战篇 base deck (100 cards; spy digest §1.2, §8) as flat tuples indexed by card
number, loaded once from ``data/spy-deck.tsv`` (a copy of ``shared/rules/spy-deck.tsv``):
each card's function, colours, arrow (← → ↑, used only when sent) and lock icon."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).with_name("data")
DECK_FILE = DATA / "spy-deck.tsv"

#: The nine card functions (digest §8) and their Chinese names.
FUNCTION_ZH = {"probe": "试探", "balance": "平衡", "threaten": "威逼", "bribe": "利诱", "clarify": "澄清",
               "decrypt": "破译", "swap": "调包", "intercept": "截获", "mislead": "误导"}
FUNCTIONS = tuple(FUNCTION_ZH)
#: Arrow word -> seat step (``up``: 0, a named seat).
ARROWS = {"left": -1, "right": 1, "up": 0}


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One printed game card: function, colours (``red``, ``blue``, ``black``, or a
    dual ``red+black`` / ``blue+black``), arrow and lock icon."""

    number: int
    function: str
    function_zh: str
    colors: tuple[str, ...]
    direction: str
    lock: bool


def load_deck(path: Path = DECK_FILE) -> tuple[CardInfo, ...]:
    """Read the deck table; ValueError unless it is 100 cards numbered 1..100 of known values."""
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    cards = tuple(CardInfo(int(r["card"]), r["function"], r["function_zh"], tuple(r["colors"].split("+")),
                           r["direction"], r["lock"] == "yes") for r in rows)
    if [c.number for c in cards] != list(range(1, 101)):
        raise ValueError(f"{path}: expected cards numbered 1..100")
    for c in cards:
        if c.function not in FUNCTIONS or c.direction not in ARROWS \
                or not set(c.colors) <= {"red", "blue", "black"}:
            raise ValueError(f"{path}: card {c.number} has an unknown function, colour or arrow")
    return cards


CARDS: tuple[CardInfo, ...] = load_deck()
N_CARDS = len(CARDS)
ALL_CARDS: tuple[int, ...] = tuple(range(1, N_CARDS + 1))
FUNCTION: tuple[str, ...] = ("",) + tuple(c.function for c in CARDS)
DIRECTION: tuple[str, ...] = ("",) + tuple(c.direction for c in CARDS)
LOCK: tuple[bool, ...] = (False,) + tuple(c.lock for c in CARDS)
IS_RED: tuple[bool, ...] = (False,) + tuple("red" in c.colors for c in CARDS)
IS_BLUE: tuple[bool, ...] = (False,) + tuple("blue" in c.colors for c in CARDS)
IS_BLACK: tuple[bool, ...] = (False,) + tuple("black" in c.colors for c in CARDS)
#: "Red or blue" (true) intel: any card containing red or blue (§7.2).
IS_TRUE: tuple[bool, ...] = (False,) + tuple("red" in c.colors or "blue" in c.colors for c in CARDS)
IS_DUAL: tuple[bool, ...] = (False,) + tuple(len(c.colors) == 2 for c in CARDS)
COLOR_OF = {"red": IS_RED, "blue": IS_BLUE, "black": IS_BLACK}


def colors(card: int) -> tuple[str, ...]:
    return CARDS[card - 1].colors


def count(cards: list[int], color: str) -> int:
    """How many of these intel contain ``color`` (a dual card counts for both, §5.4)."""
    return sum(map(COLOR_OF[color].__getitem__, cards))  # True counts 1


#: The three colours in a fixed order (for colours kept as numbers).
COLORS_ALL = ("red", "blue", "black")

