"""The classic base deck (标准版, 81 cards; classic digest §1, §12 D1) as flat tuples
indexed by card number, loaded once from ``data/classic-deck.tsv`` (a copy of
``shared/rules/classic-deck.tsv``). The 绝密任务 deck (``classic-deck-secret-mission.tsv``)
is kept as data and not used by default (D1)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from .kinds import MODES

DATA = Path(__file__).with_name("data")
DECK_FILE = DATA / "classic-deck.tsv"
SECRET_MISSION_DECK_FILE = DATA / "classic-deck-secret-mission.tsv"

#: The nine card functions (digest §9).
FUNCTIONS = ("lure_away", "intercept", "send_back", "decrypt", "burn", "see_through", "probe", "lock",
             "true_or_false")
FUNCTION_ZH = {"lure_away": "调虎离山", "intercept": "截获", "send_back": "退回", "decrypt": "破译", "burn": "烧毁",
               "see_through": "识破", "probe": "试探", "lock": "锁定", "true_or_false": "真伪莫辨"}


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One printed game card: its function, colour (red/blue true intel, black fake) and
    transmission mode (secret 密电, direct 直达, text 文本)."""

    number: int
    function: str
    function_zh: str
    color: str
    transmission: str


def load_deck(path: Path = DECK_FILE) -> tuple[CardInfo, ...]:
    """Read a deck table; ValueError unless it is 81 cards numbered 1..81 of known functions."""
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    cards = tuple(CardInfo(int(r["card"]), r["function"], r["function_zh"], r["color"], r["transmission"])
                  for r in rows)
    if [c.number for c in cards] != list(range(1, 82)):
        raise ValueError(f"{path}: expected cards numbered 1..81")
    for c in cards:
        if c.function not in FUNCTIONS or c.color not in ("red", "blue", "black") \
                or c.transmission not in MODES:
            raise ValueError(f"{path}: card {c.number} has an unknown function, colour or mode")
    return cards


CARDS: tuple[CardInfo, ...] = load_deck()
N_CARDS = len(CARDS)
ALL_CARDS: tuple[int, ...] = tuple(range(1, N_CARDS + 1))
FUNCTION: tuple[str, ...] = ("",) + tuple(c.function for c in CARDS)
MODE: tuple[str, ...] = ("",) + tuple(c.transmission for c in CARDS)
IS_RED: tuple[bool, ...] = (False,) + tuple(c.color == "red" for c in CARDS)
IS_BLUE: tuple[bool, ...] = (False,) + tuple(c.color == "blue" for c in CARDS)
IS_BLACK: tuple[bool, ...] = (False,) + tuple(c.color == "black" for c in CARDS)
IS_TRUE: tuple[bool, ...] = (False,) + tuple(c.color != "black" for c in CARDS)


def card_name(number: int) -> str:
    """``49 试探`` style label."""
    return f"{number} {CARDS[number - 1].function_zh}"
