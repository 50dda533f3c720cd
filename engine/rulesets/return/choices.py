"""The answers a 再临 ``choose`` / ``character`` decision lists, as
:class:`engine.action.Action` values (issue 27 §1).

Cards, skills and set-up build each option as a value (:func:`engine.action.choose` for
cards and seats, :func:`engine.action.choose_option` for words) and open the decision with
:func:`ask_choice`; :func:`listed` gives them back to the legal actions. The core's
``Prompt.options`` holds the values themselves (``engine/state.py``): nothing is written
as text and read back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine.action import Action
from engine.kinds import PromptKind
from engine.state import Prompt
from engine.text import ArgValue

if TYPE_CHECKING:
    from engine.game import Game


def ask_choice(g: Game, seat: int, key: str, options: Iterable[Action], *, args: dict[str, ArgValue],
               kind: PromptKind = "choose") -> None:
    """Open a ``kind`` decision for ``seat`` listing ``options``; ``key`` and ``args``:
    what is asked (a prompt row of data/return-text.tsv and its arguments)."""
    g.ask(seat, kind, key, options, args=args)


def listed(p: Prompt) -> list[Action]:
    """The options of the open ``choose`` / ``character`` decision, as values."""
    return list(p.options)
