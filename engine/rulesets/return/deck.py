"""The 风声再临 basic-card deck: 87 cards, numbered as in the rules digest's deck table.

The table is data (``data/return-deck.tsv``, a copy of
``shared/rules/return-deck.tsv``); this module loads it once into flat tuples indexed by
card number, so the hot path looks a card up with one index.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

# The deck's words, re-exported for the modules that read them here.
from .kinds import IDENTITIES as IDENTITIES
from .kinds import MODES as MODES

DECK_FILE = Path(__file__).with_name("data") / "return-deck.tsv"


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One printed basic card: what it does as a function and how it travels as intel."""

    number: int
    function: str
    """Canonical function id (``probe``, ``burn`` …)."""
    function_zh: str
    color: str
    """``red`` (latent true intel), ``blue`` (military true intel), ``black`` (fake), ``red+blue``."""
    transmission: str
    """``secret`` 密电, ``direct`` 直达, ``text`` 文本 or ``any`` (the sender picks)."""
    direction_any: bool
    """转向标记: the sender picks the direction."""
    encrypted: bool
    """加密标记: once received, cannot be burned, used or replaced."""

    @property
    def is_true(self) -> bool:
        """True intel: red, blue or the dual-colour 机密文件."""
        return self.color != "black"


def load_deck(path: Path = DECK_FILE) -> tuple[CardInfo, ...]:
    """Read the deck table; raise ValueError if it is not 87 cards numbered 1..87."""
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    cards = tuple(
        CardInfo(
            number=int(r["card"]),
            function=r["function"],
            function_zh=r["function_zh"],
            color=r["color"],
            transmission=r["transmission"],
            direction_any=r["direction_any"] == "yes",
            encrypted=r["encrypted"] == "yes",
        )
        for r in rows
    )
    if [c.number for c in cards] != list(range(1, len(cards) + 1)) or len(cards) != 87:
        raise ValueError(f"{path}: expected cards numbered 1..87")
    return cards


CARDS: tuple[CardInfo, ...] = load_deck()
N_CARDS = len(CARDS)
ALL_CARDS: tuple[int, ...] = tuple(range(1, N_CARDS + 1))

# Flat lookup tables indexed by card number (index 0 unused) for the hot path.
FUNCTION: tuple[str, ...] = ("",) + tuple(c.function for c in CARDS)
COLOR: tuple[str, ...] = ("",) + tuple(c.color for c in CARDS)
MODE: tuple[str, ...] = ("",) + tuple(c.transmission for c in CARDS)
DIRECTION_ANY: tuple[bool, ...] = (False,) + tuple(c.direction_any for c in CARDS)
ENCRYPTED: tuple[bool, ...] = (False,) + tuple(c.encrypted for c in CARDS)
IS_BLACK: tuple[bool, ...] = (False,) + tuple(c.color == "black" for c in CARDS)
IS_RED: tuple[bool, ...] = (False,) + tuple(c.color in ("red", "red+blue") for c in CARDS)
IS_BLUE: tuple[bool, ...] = (False,) + tuple(c.color in ("blue", "red+blue") for c in CARDS)
IS_TRUE: tuple[bool, ...] = (False,) + tuple(c.color != "black" for c in CARDS)


def card_name(number: int) -> str:
    """``24 截获`` style label for logs and prompts."""
    return f"{number} {CARDS[number - 1].function_zh}"
