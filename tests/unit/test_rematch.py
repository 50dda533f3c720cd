"""The rematch service (gateway/rematch.py, issue 28 §5): people confirm and keep their
seats, bots refill the seats of those who did not, two confirmations create one match;
with the seat table in memory and in a real Redis."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from gateway.auth import Player, TokenSigner
from gateway.rematch import MemoryRematchBook, RedisRematchBook, RematchError, RematchService
from gateway.store import MatchRecord, MemoryStore, RedisStore

ANN = Player(pid="g_ann", name="ann")
BOB = Player(pid="g_bob", name="bob")
EVE = Player(pid="g_eve", name="eve")


class Made:
    """The matches the service asked to create (what the route's `create` does, recorded)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.calls: list[tuple[str, list[str], dict[str, Any]]] = []

    async def __call__(self, match_id: str, kinds: list[str], settings: dict[str, Any]) -> None:
        await asyncio.sleep(0.01)  # a concurrent confirmation runs meanwhile
        self.calls.append((match_id, kinds, settings))
        await self.store.add_match(MatchRecord(match_id=match_id, seats=kinds, settings=settings))


async def _table(store: Any, match_id: str) -> None:
    await store.add_match(
        MatchRecord(match_id=match_id, seats=["human", "human", "heuristic", "human"], settings={"ruleset": "return"})
    )
    assert await store.claim(match_id, 0, ANN)
    assert await store.claim(match_id, 1, BOB)  # seat 3 was never claimed


async def _scenario(store: Any, service: RematchService, match_id: str) -> None:
    await _table(store, match_id)
    made = Made(store)
    with pytest.raises(RematchError) as refused:
        await service.confirm(match_id, EVE, start_now=False, create=made)
    assert refused.value.status == 403
    # ann asks: bob has not, nothing is created yet
    state = await service.confirm(match_id, ANN, start_now=False, create=made)
    assert (state.seat, state.confirmed, state.waiting, state.match_id) == (0, [0], [1], None)
    assert made.calls == []
    # bob asks too, twice at once: one match, both people in their seats
    first, second = await asyncio.gather(
        service.confirm(match_id, BOB, start_now=False, create=made),
        service.confirm(match_id, BOB, start_now=False, create=made),
    )
    assert len(made.calls) == 1
    new_id, kinds, settings = made.calls[0]
    assert re.fullmatch(r"[0-9a-f]{16}", new_id) and new_id != match_id
    # people keep their seats, the bot its kind, the never-claimed human seat is a bot now
    assert kinds == ["human", "human", "heuristic", "heuristic"]
    assert settings == {"ruleset": "return"}
    claims = await store.claims(new_id)
    assert {s: c["pid"] for s, c in claims.items()} == {0: "g_ann", 1: "g_bob"}
    ann = await service.state(match_id, ANN)
    assert ann.match_id == new_id and ann.seat_token
    grant = service.signer.seat(ann.seat_token)
    assert (grant.match_id, grant.seat, grant.pid) == (new_id, 0, "g_ann")
    assert {first.match_id, second.match_id} <= {new_id, None}


async def _start_now(store: Any, service: RematchService, match_id: str) -> None:
    await _table(store, match_id)
    made = Made(store)
    state = await service.confirm(match_id, BOB, start_now=True, create=made)
    new_id, kinds, _ = made.calls[0]
    # ann did not confirm: a bot of the table's kind takes her seat
    assert kinds == ["heuristic", "human", "heuristic", "heuristic"]
    assert state.match_id == new_id and state.seat == 1 and state.seat_token
    late = await service.state(match_id, ANN)
    assert late.match_id == new_id and late.seat_token is None  # her seat is a bot's now


def test_rematch_in_memory() -> None:
    store = MemoryStore()
    service = RematchService(store, MemoryRematchBook(), TokenSigner("s" * 32))
    asyncio.run(_scenario(store, service, "a" * 16))
    asyncio.run(_start_now(store, service, "b" * 16))


def test_rematch_in_redis(redis_url: str) -> None:
    async def run() -> None:
        store = RedisStore(redis_url)
        book = RedisRematchBook(redis_url)
        service = RematchService(store, book, TokenSigner("s" * 32))
        suffix = f"{id(store):x}"[-6:]
        try:
            await _scenario(store, service, f"c{suffix}")
            await _start_now(store, service, f"d{suffix}")
        finally:
            await store.close()

    asyncio.run(run())
