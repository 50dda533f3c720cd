"""The chat service's checks without Redis (gateway/chat.py): text cleaning, phrases, the
rate bucket, ids and the kept window of the in-memory store."""

from __future__ import annotations

import asyncio
import time

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
        # times are Unix ms integers, as everywhere in the JSON (issue 29 §6)
        assert isinstance(said.at_ms, int) and abs(said.at_ms - time.time() * 1000) < 60_000
        assert "at" not in said.to_dict()
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


def test_clean_text_refuses_stacked_combining_marks() -> None:
    """Issue 26: 200 stacked combining marks passed the chat cleaner. At most four marks
    follow one another (fengsheng/display_text.py, MAX_MARKS); words of real scripts pass."""
    for zalgo in ("a" + "\u0301" * 199, "x" + "\u0300\u0301\u0302\u0303\u0304"):
        with pytest.raises(ChatError) as stacked:
            clean_text(zalgo, 200)
        assert stacked.value.status == 422 and stacked.value.code == "too_many_marks"
    assert clean_text("Tie\u0302\u0301ng Việt हिन्दी a\u0301\u0302", 200) == "Ti\u1ebfng Việt हिन्दी \u00e1\u0302"
