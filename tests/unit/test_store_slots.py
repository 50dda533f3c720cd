"""Redis Cluster: every key a match's write script touches is in the match's own hash slot
(a script over keys of two slots is a ``CROSSSLOT`` error on a cluster)."""

from __future__ import annotations

import secrets

from redis.crc import key_slot as redis_key_slot

from services.engine.store import (
    ACT_SCRIPT,
    CREATE_SCRIPT,
    _keys,
    key_slot,
    match_slot,
    notify_channel,
    outbox_key,
    slot_tag,
    state_key,
)


def test_key_slot_agrees_with_redis_py() -> None:
    for key in ["fs:m:{abc}", "fs:m:{abc}:h", "plain", "a{}b", "{x}y{z}", "fs:outbox:{s1f}"]:
        assert key_slot(key) == redis_key_slot(key.encode())


def test_every_key_of_a_match_write_shares_its_slot() -> None:
    for _ in range(200):
        match_id = secrets.token_hex(8)
        slots = {redis_key_slot(k.encode()) for k in _keys(match_id)}
        assert slots == {match_slot(match_id)}, (match_id, _keys(match_id))


def test_slot_tags_cover_every_slot() -> None:
    for slot in (0, 1, 777, 16383):
        assert redis_key_slot(("{" + slot_tag(slot) + "}").encode()) == slot
    assert outbox_key("m1") != outbox_key("m2") or match_slot("m1") == match_slot("m2")


def test_the_notify_channel_is_not_a_declared_key() -> None:
    """A declared key that never exists (the channel) made every action of a migrating slot
    wait for the hand-over (``TRYAGAIN``); the scripts build the channel from ``KEYS[1]``."""
    for match_id in ("m1", secrets.token_hex(8)):
        assert notify_channel(match_id) not in _keys(match_id)
        assert notify_channel(match_id) == state_key(match_id) + ":n"
    for script in (ACT_SCRIPT, CREATE_SCRIPT):
        assert "redis.call('PUBLISH', KEYS[1] .. ':n'," in script
        assert "SPUBLISH" not in script  # a sharded channel would have to be declared
