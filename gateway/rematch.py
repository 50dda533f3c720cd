"""A rematch: the same table dealt again once its game is over (issue 28 §5).

Every person who held a seat of the finished match is asked; each one who confirms
(``POST /api/matches/{id}/rematch``) keeps their seat in the new match. The new match is
created when every seated person has confirmed, or earlier when one of them asks to start
now: the seats of those who did not confirm (and human seats nobody had claimed) are then
played by the platform's bots ("bots refill"), of the kind the finished match's bots were.
Bot seats stay bots of their kind. The deal is new (the server's random seed), the ruleset,
player count, characters and timers are the finished match's.

What the rematch remembers lives beside the match's seat table: ``gw:{ID}:rematch`` (hash
seat -> confirming player JSON) and ``gw:{ID}:rematch_to`` (the new match id, set once with
NX so that two confirmations arriving together create one match). Without Redis both live
in this process's memory.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gateway import keys
from gateway.auth import Player, TokenSigner
from gateway.policy import JOINABLE
from gateway.store import MatchRecord, MatchStore

#: how long a rematch offer is kept (a finished match's record lives longer; this is bounded
#: separately so that an offer nobody took does not linger): one day
OFFER_TTL_S = 24 * 3600

#: the bot kind that takes a person's seat in a rematch when the finished match had no bots
DEFAULT_REFILL = "heuristic"

#: creates a match under a chosen id: (new id, seat kinds, the finished match's settings)
CreateMatch = Callable[[str, list[str], dict[str, Any]], Awaitable[None]]


class RematchError(Exception):
    """A rematch that cannot be asked for (the status and code of the API's error body)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


@dataclass
class RematchState:
    """The rematch of one finished match as one of its players sees it."""

    #: the seat this player held (and holds again in the new match if confirmed)
    seat: int
    #: the seats whose person confirmed, in seat order
    confirmed: list[int]
    #: the seated persons still to confirm
    waiting: list[int]
    #: the new match, once created
    match_id: str | None = None
    #: the seat kinds of the new match, once created
    seats: list[str] = field(default_factory=list)
    #: this player's seat token for the new match (None until created, or if they did not confirm)
    seat_token: str | None = None


class RematchBook(Protocol):
    async def confirm(self, match_id: str, seat: int, player: Player) -> None:
        """Record that the person of ``seat`` wants the rematch."""
        ...

    async def confirmed(self, match_id: str) -> dict[int, dict[str, str]]:
        """The confirming person of every seat that confirmed."""
        ...

    async def reserve(self, match_id: str, new_id: str) -> str:
        """The rematch's match id: ``new_id`` if none was reserved yet, else the one that was."""
        ...

    async def reserved(self, match_id: str) -> str | None: ...

    async def release(self, match_id: str) -> None:
        """Forget the reserved id (its match could not be created)."""
        ...

    async def close(self) -> None: ...


class MemoryRematchBook:
    """Rematch offers in this process's memory (one gateway process, tests)."""

    def __init__(self) -> None:
        self._confirmed: dict[str, dict[int, dict[str, str]]] = {}
        self._to: dict[str, str] = {}

    async def confirm(self, match_id: str, seat: int, player: Player) -> None:
        self._confirmed.setdefault(match_id, {})[seat] = {"pid": player.pid, "name": player.name}

    async def confirmed(self, match_id: str) -> dict[int, dict[str, str]]:
        return dict(self._confirmed.get(match_id, {}))

    async def reserve(self, match_id: str, new_id: str) -> str:
        return self._to.setdefault(match_id, new_id)

    async def reserved(self, match_id: str) -> str | None:
        return self._to.get(match_id)

    async def release(self, match_id: str) -> None:
        self._to.pop(match_id, None)

    async def close(self) -> None:
        return None


class RedisRematchBook:
    """Rematch offers in Redis, beside the match's seat table (same hash slot)."""

    def __init__(self, url: str) -> None:
        from services.redis_client import shared_client  # redis is imported only with a Redis store

        self._redis = shared_client(url)

    async def confirm(self, match_id: str, seat: int, player: Player) -> None:
        key = keys.rematch_key(match_id)
        pipe = self._redis.pipeline(transaction=False)
        pipe.hset(key, str(seat), json.dumps({"pid": player.pid, "name": player.name}))
        pipe.expire(key, OFFER_TTL_S)
        await pipe.execute()

    async def confirmed(self, match_id: str) -> dict[int, dict[str, str]]:
        raw = await self._redis.hgetall(keys.rematch_key(match_id))
        return {int(k): json.loads(v) for k, v in raw.items()}

    async def reserve(self, match_id: str, new_id: str) -> str:
        key = keys.rematch_to_key(match_id)
        if await self._redis.set(key, new_id, nx=True, ex=OFFER_TTL_S):
            return new_id
        return await self.reserved(match_id) or new_id

    async def reserved(self, match_id: str) -> str | None:
        raw = await self._redis.get(keys.rematch_to_key(match_id))
        return None if raw is None else (raw.decode() if isinstance(raw, bytes) else str(raw))

    async def release(self, match_id: str) -> None:
        await self._redis.delete(keys.rematch_to_key(match_id))

    async def close(self) -> None:
        await self._redis.aclose()


def refill_kind(record: MatchRecord) -> str:
    """The bot kind that takes the seat of a person who did not confirm: the finished
    match's first bot kind (its table's level), else :data:`DEFAULT_REFILL`."""
    bots = [k for k in record.seats if k not in JOINABLE]
    return bots[0] if bots else DEFAULT_REFILL


class RematchService:
    """Confirm a rematch, and create it when the table is ready (module docstring)."""

    def __init__(self, store: MatchStore, book: RematchBook, signer: TokenSigner) -> None:
        self.store = store
        self.book = book
        self.signer = signer

    @classmethod
    def open(cls, store: MatchStore, signer: TokenSigner, redis_url: str | None) -> RematchService:
        book: RematchBook = RedisRematchBook(redis_url) if redis_url else MemoryRematchBook()
        return cls(store, book, signer)

    async def _seat_of(self, match_id: str, player: Player) -> tuple[MatchRecord, dict[int, dict[str, str]], int]:
        record = await self.store.get_match(match_id)
        if record is None:
            raise RematchError(404, "not_found", f"no match {match_id!r} was created through this gateway")
        claims = await self.store.claims(match_id)
        mine = [s for s, c in claims.items() if c["pid"] == player.pid]
        if not mine:
            raise RematchError(403, "forbidden", "only the players of a match can ask for its rematch")
        return record, claims, mine[0]

    async def state(self, match_id: str, player: Player) -> RematchState:
        """The rematch as ``player`` sees it, with their seat token once it is created."""
        record, claims, seat = await self._seat_of(match_id, player)
        return await self._state(match_id, record, claims, seat, player)

    async def confirm(self, match_id: str, player: Player, *, start_now: bool, create: CreateMatch) -> RematchState:
        """``player`` wants the rematch; it is created (with ``create``) when every seated
        person has confirmed, or now if ``start_now`` (bots take the other persons' seats)."""
        record, claims, seat = await self._seat_of(match_id, player)
        await self.book.confirm(match_id, seat, player)
        new_id = await self.book.reserved(match_id)
        if new_id is not None:  # already created: this player joins their seat if it is still a person's
            created = await self.store.get_match(new_id)
            if created is not None and created.seats[seat] in JOINABLE:
                await self.store.claim(new_id, seat, player)
            return await self._state(match_id, record, claims, seat, player)
        confirmed = await self.book.confirmed(match_id)
        if start_now or not [s for s in claims if s not in confirmed]:
            wanted = secrets.token_hex(8)
            new_id = await self.book.reserve(match_id, wanted)
            if new_id == wanted:  # this request creates it; a concurrent one only reads it
                refill = refill_kind(record)
                kinds = [
                    kind if kind not in JOINABLE or s in confirmed else refill for s, kind in enumerate(record.seats)
                ]
                try:
                    await create(new_id, kinds, record.settings)
                except BaseException:
                    await self.book.release(match_id)  # the next confirmation tries again
                    raise
                for s, holder in confirmed.items():
                    if kinds[s] in JOINABLE:
                        await self.store.claim(new_id, s, Player(pid=holder["pid"], name=holder["name"]))
        return await self._state(match_id, record, claims, seat, player)

    async def _state(
        self, match_id: str, record: MatchRecord, claims: dict[int, dict[str, str]], seat: int, player: Player
    ) -> RematchState:
        confirmed = await self.book.confirmed(match_id)
        state = RematchState(
            seat=seat,
            confirmed=sorted(confirmed),
            waiting=sorted(s for s in claims if s not in confirmed),
        )
        new_id = await self.book.reserved(match_id)
        created = await self.store.get_match(new_id) if new_id else None
        if created is not None and new_id is not None:
            state.match_id = new_id
            state.seats = list(created.seats)
            holder = (await self.store.claims(new_id)).get(seat)
            if holder is not None and holder["pid"] == player.pid:
                state.seat_token = self.signer.new_seat(new_id, seat, player)
        return state
