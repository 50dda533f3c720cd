"""The lobby's service without Redis (gateway/lobby.py; the gateway alone keeps it in memory):
who is online expires, is capped and kept bounded; pings are rate-limited; the lobby's chat
keeps its last lines under the table chat's checks (issue 28 §6)."""

from __future__ import annotations

import asyncio

import pytest

from fengsheng.ratelimit import TokenBucket
from gateway.chat import ChatError, ChatService, MemoryChatStore
from gateway.lobby import LobbyLimited, LobbyLimits, LobbyService, MemoryPresence


def test_memory_presence_expires_caps_and_keeps_the_latest() -> None:
    async def run() -> None:
        store = MemoryPresence()
        for i in range(5):
            await store.seen(f"p{i}", f"n{i}", now_ms=1000 + i, ttl_ms=100, keep=4)
        listed, count = await store.online(since_ms=900, cap=2)
        assert listed == [("p4", "n4"), ("p3", "n3")] and count == 4  # p0, the longest silent, dropped
        await store.gone("p4")
        assert (await store.online(since_ms=900, cap=9))[1] == 3
        await store.seen("p9", "n9", now_ms=1200, ttl_ms=100, keep=4)  # the others are 100+ ms old
        assert await store.online(since_ms=1100, cap=9) == ([("p9", "n9")], 1)

    asyncio.run(run())


def test_lobby_service_rate_and_chat() -> None:
    async def run() -> None:
        limits = LobbyLimits(rate=0.001, burst=2, chat_keep=3)
        chat = ChatService(MemoryChatStore(limits.chat_keep), TokenBucket(1000, 1000))
        lobby = LobbyService(MemoryPresence(), TokenBucket(limits.rate, limits.burst), chat, limits)
        seen = await lobby.ping("g_a", "ann")
        assert seen["players"] == [{"player_id": "g_a", "name": "ann"}] and seen["count"] == 1
        await lobby.online("g_a")
        with pytest.raises(LobbyLimited):
            await lobby.ping("g_a", "ann")
        await lobby.leave("g_a")  # leaving draws nothing
        for i in range(5):
            await lobby.say("g_a", "ann", f"line {i}", "")
        assert [m["text"] for m in await lobby.lines(0)] == ["line 2", "line 3", "line 4"]
        with pytest.raises(ChatError) as refused:
            await lobby.say("g_a", "ann", "x" * 201, "")
        assert refused.value.status == 422

    asyncio.run(run())
