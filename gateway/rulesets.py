"""The rulesets the engine plays, as the gateway serves them (``GET /api/rulesets``,
``GET /api/cards``) and checks new matches against them.

The gateway never imports :mod:`engine`: it asks the engine service (``ListRulesets``),
which builds the answer from its registry (:mod:`services.engine.rulesets`), and keeps it for
:data:`CACHE_S` seconds. So no ruleset id, player range or deck table is written here: a
ruleset added to the engine's registry is offered by the gateway as soon as the engine
serving it runs.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

from fengsheng.v1 import engine_service_pb2 as pb
from gateway import errors
from gateway.convert import to_dict
from gateway.engine_client import EngineClient

#: how long an engine's list of rulesets is kept (an engine upgrade shows within this time)
CACHE_S = 60.0


def players_text(counts: list[int]) -> str:
    """``3 to 7`` for a contiguous range, else the counts listed (``3, 5 or 7``)."""
    ordered = sorted(counts)
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    return ", ".join(map(str, ordered[:-1])) + f" or {ordered[-1]}"


def summary(info: pb.RulesetInfo) -> dict[str, Any]:
    """One ruleset for ``GET /api/rulesets`` (its deck is at ``GET /api/cards?ruleset=``)."""
    return {
        "id": info.id,
        "zh": info.zh,
        "players": list(info.players),
        "min_players": min(info.players),
        "max_players": max(info.players),
        "identities": list(info.identities),
        "identity_table": {str(n): list(row.values) for n, row in sorted(info.identity_table.items())},
        "characters": info.characters,
        "character_table": [
            {
                "id": c.id,
                "zh": c.zh,
                "en": c.en,
                "skills": [
                    {"id": s, "zh": zh, "text_zh": text_zh, "text_en": text_en}
                    for s, zh, text_zh, text_en in itertools.zip_longest(
                        c.skills, c.skills_zh, c.skills_text_zh, c.skills_text_en, fillvalue=""
                    )
                ],
                "mission": c.mission,
            }
            for c in info.character_table
        ],
        "cards": len(info.cards),
    }


class RulesetCatalog:
    """The engine's ``ListRulesets`` answer, fetched on first use and kept for :data:`CACHE_S`."""

    def __init__(self, engine: EngineClient) -> None:
        self._engine = engine
        self._answer: pb.Rulesets | None = None
        self._fetched = 0.0
        self._lock = asyncio.Lock()

    async def all(self) -> pb.Rulesets:
        """Every ruleset (an engine failure goes to the route: 503 when it is unavailable)."""
        if self._answer is not None and time.monotonic() - self._fetched < CACHE_S:
            return self._answer
        async with self._lock:
            if self._answer is None or time.monotonic() - self._fetched >= CACHE_S:
                self._answer = await self._engine.rulesets()
                self._fetched = time.monotonic()
            return self._answer

    async def find(self, ruleset: str | None) -> pb.RulesetInfo:
        """The ruleset named (``None``: the engine's default), or a 404 naming the known ones."""
        answer = await self.all()
        wanted = ruleset or answer.default_ruleset
        for info in answer.rulesets:
            if info.id == wanted:
                return info
        known = ", ".join(info.id for info in answer.rulesets)
        raise errors.not_found(f"unknown ruleset {wanted!r}; known: {known}")

    async def for_match(self, ruleset: str | None, players: int, *, characters: bool) -> pb.RulesetInfo:
        """The ruleset of a new match with ``players`` seats, or a 422 saying what is wrong:
        an unknown ruleset (naming the known ones), a player count it is not played by, or
        characters asked of a ruleset that has none."""
        try:
            info = await self.find(ruleset)
        except errors.ApiError as exc:
            raise errors.ApiError(422, "malformed_request", exc.message) from exc
        if players not in info.players:
            raise errors.ApiError(
                422,
                "malformed_request",
                f"ruleset {info.id!r} ({info.zh}) is played by {players_text(list(info.players))} players, "
                f"not {players}",
            )
        if characters and not info.characters:
            raise errors.ApiError(422, "malformed_request", f"ruleset {info.id!r} ({info.zh}) has no characters")
        return info

    async def listing(self) -> dict[str, Any]:
        """``GET /api/rulesets``."""
        answer = await self.all()
        return {"default": answer.default_ruleset, "rulesets": [summary(info) for info in answer.rulesets]}

    async def deck(self, ruleset: str | None) -> dict[str, Any]:
        """``GET /api/cards``: the printed deck of a ruleset, by card number, and its text
        table (template key -> the Chinese and English templates of its events and prompts)."""
        info = await self.find(ruleset)
        cards = {str(card.number): to_dict(card) for card in info.cards}
        texts = {
            row.key: {"scope": row.scope, "kind": row.kind, "zh": row.zh, "en": row.en, "match": row.match}
            for row in info.texts
        }
        return {"ruleset": info.id, "zh": info.zh, "cards": cards, "texts": texts}
