"""The nine card functions of the classic ruleset (digest §9), one class each."""

from __future__ import annotations

from . import table, targeted, transit
from .base import FUNCTIONS, CardFunction

__all__ = ["FUNCTIONS", "CardFunction", "table", "targeted", "transit"]
