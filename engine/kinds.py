"""The decision kinds every ruleset's prompts use (docs/notation.md, "Decisions"), as a
``Literal`` type: a misspelt kind at a call site is a type error (``mypy --strict``)."""

from __future__ import annotations

from typing import Literal, get_args

#: What a pending decision asks for.
PromptKind = Literal["main", "send", "arrive", "respond", "returned", "discard", "choose", "trigger",
                     "turn_start", "character",
                     "priority", "receive",
                     "contest", "rescue", "handoff"]
PROMPT_KINDS: tuple[str, ...] = get_args(PromptKind)
