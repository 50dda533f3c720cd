"""Bot accounts are anyone's to register (POST /api/bots, rate-limited per address), so an
unused one expires (docs/security.md: anything an anonymous client can create expires); every
use of its token starts its idle lifetime again."""

from __future__ import annotations

import time

import pytest
import redis

from services.ranked.store import RankedStore, bot_idle_ttl_s, bot_key, token_hash_key


def test_an_unused_bot_account_expires_and_a_used_one_lives_on(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    store = RankedStore(client, bot_ttl_s=3)
    used_id, used_token = store.register_bot("used", "g_owner")
    idle_id, idle_token = store.register_bot("idle", "g_owner")
    for bot_id, token in ((used_id, used_token), (idle_id, idle_token)):
        assert 0 < client.ttl(bot_key(bot_id)) <= 3
        assert 0 < client.ttl(token_hash_key(token)) <= 3
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the used bot connects every second, the idle one never
        assert store.bot_of_token(used_token) == (used_id, "used", "g_owner")
        time.sleep(1.0)
    assert store.bot_of_token(idle_token) is None
    assert not client.exists(bot_key(idle_id), token_hash_key(idle_token))
    assert store.bot_of_token(used_token) == (used_id, "used", "g_owner")
    assert client.ttl(bot_key(used_id)) > 1


def test_the_idle_lifetime_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FENGSHENG_BOT_IDLE_TTL_MS", raising=False)
    monkeypatch.delenv("FENGSHENG_BOT_IDLE_TTL_S", raising=False)
    assert bot_idle_ttl_s() == 30 * 24 * 3600
    monkeypatch.setenv("FENGSHENG_BOT_IDLE_TTL_MS", "60000")
    assert bot_idle_ttl_s() == 60
    for bad in ("0", "soon"):
        monkeypatch.setenv("FENGSHENG_BOT_IDLE_TTL_MS", bad)
        with pytest.raises(ValueError, match="FENGSHENG_BOT_IDLE_TTL_MS"):
            bot_idle_ttl_s()
    monkeypatch.setenv("FENGSHENG_BOT_IDLE_TTL_MS", "60000")
    monkeypatch.setenv("FENGSHENG_BOT_IDLE_TTL_S", "60")  # the older name: refused, not ignored
    with pytest.raises(ValueError, match="FENGSHENG_BOT_IDLE_TTL_S is no longer read"):
        bot_idle_ttl_s()
