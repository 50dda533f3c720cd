"""The chat service's checks without Redis (gateway/chat.py): text cleaning, phrases, the
rate bucket, ids and the kept window of the in-memory store."""

from __future__ import annotations

import asyncio

import pytest

from fengsheng.ratelimit import TokenBucket
from fengsheng.retention import Retention
from gateway.chat import ChatError, ChatLimits, ChatService, MemoryChatStore, clean_text


def test_clean_text_removes_control_and_bidi_characters() -> None:
    assert clean_text(" a\u202eb\u200b\x00  c\n\td ", 200) == "ab c d"
    assert clean_text("<b>x</b>", 200) == "<b>x</b>"  # kept as written: escaping is the page's
    with pytest.raises(ChatError) as empty:
        clean_text("\u200b \n", 200)
    assert empty.value.status == 422 and empty.value.code == "empty_message"
    with pytest.raises(ChatError) as long:
        clean_text("长" * 11, 10)
    assert long.value.code == "message_too_long"


def test_post_read_phrases_and_rate() -> None:
    clock = [0.0]
    bucket = TokenBucket(0.5, 2, clock=lambda: clock[0])
    chat = ChatService(MemoryChatStore(keep=3), bucket, limits=ChatLimits(keep=3), retention=Retention())

    async def run() -> None:
        said = await chat.post("m", "table", seat=1, pid="p", name="ann", text="hi", over=False)
        assert (said.id, said.seat, said.text, said.phrase) == (1, 1, "hi", "")
        gg = await chat.post("m", "spectators", seat=-1, pid="q", name="bo", phrase="gg", over=False)
        assert gg.id == 2  # one counter per match, both channels
        with pytest.raises(ChatError) as bad:
            await chat.post("m", "table", seat=1, pid="p", name="ann", phrase="nope", over=False)
        assert bad.value.status == 422
        await chat.post("m", "table", seat=1, pid="p", name="ann", text="again", over=False)
        with pytest.raises(ChatError) as limited:
            await chat.post("m", "table", seat=1, pid="p", name="ann", text="third", over=False)
        assert limited.value.status == 429 and limited.value.retry_after_s > 0
        clock[0] += 2.0  # one message every 2 s
        await chat.post("m", "table", seat=1, pid="p", name="ann", text="later", over=False)
        assert [m["text"] for m in await chat.read("m", "table")] == ["hi", "again", "later"]
        assert [m["id"] for m in await chat.read("m", "table", after=3)] == [4]
        assert await chat.read("other", "table") == []

    asyncio.run(run())
