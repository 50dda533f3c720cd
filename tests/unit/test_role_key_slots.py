"""Redis Cluster for the ranked and gateway roles (issue 15, point 1): the keys of every
script and ``MULTI`` of theirs hash to one slot (a cluster refuses a script or transaction
over two slots: ``CROSSSLOT``), and the start-up migration maps each key of the old,
untagged layout to its new name. Slots computed with redis-py's own ``key_slot``."""

from __future__ import annotations

import secrets

from redis.crc import key_slot

from gateway import keys as gw
from gateway.chat import CHANNELS, chat_keys
from gateway.store import RedisStore
from services.ranked import store as ranked
from services.ranked.casual import bots_queue_holder_key, bots_queue_key, challenge_key
from services.ranked.ladder import NAMES_KEY, RatingKey, done_key, rating_key


def slots(*names: str) -> set[int]:
    return {key_slot(k.encode()) for k in names}


def test_a_bot_accounts_keys_share_one_slot() -> None:
    """register_bot (name, record, token, token list, owner's list in one MULTI), rotate and
    revoke (token + token list), the live stream key: all under ``{bot}``."""
    for _ in range(50):
        bot_id, token, owner = "b_" + secrets.token_hex(6), "fsb_" + secrets.token_urlsafe(32), secrets.token_hex(8)
        names = [
            ranked.bot_name_key(f"Name {token[:5]}"),
            ranked.bot_key(bot_id),
            ranked.token_hash_key(token),
            ranked.bot_tokens_key(bot_id),
            ranked.owned_key(owner),
            ranked.bot_live_key(bot_id),
            ranked.BOT_KEYS_MIGRATED_KEY,
        ]
        assert slots(*names) == slots("{bot}"), names
        assert all(n.startswith("bot:{bot}:") for n in names)


def test_the_ranked_families_each_keep_one_tag() -> None:
    """Matchmaking (tickets, queue, challenges, bots-only queue) and the ladder (ratings,
    done marker, names) keys: one slot per family, as their scripts and WATCH blocks need."""
    mm = [ranked.QUEUE_KEY, ranked.ACTIVE_KEY, ranked.ticket_key("t_1"), ranked.holder_key("b:b_1"),
          ranked.invitations_key("h:p"), ranked.match_key("rk-1"), ranked.bot_matches_key("b_1"),
          challenge_key("cs-1"), bots_queue_key("return", 5), bots_queue_holder_key("b:b_1")]  # fmt: skip
    assert slots(*mm) == slots("{mm}")
    rk = [rating_key(RatingKey("bot", "all", "b_1", "return")), done_key("rk-1"), NAMES_KEY]
    assert slots(*rk) == slots("{rk}")


def test_a_matchs_gateway_keys_share_its_slot() -> None:
    """The seat claim script (claims + players), the chat script (a channel + the counter),
    and touch/forget (every key of the match) touch one slot: the match id's."""
    for match_id in ["m1", "cs-0a1b2c", "rk-" + secrets.token_hex(6), secrets.token_hex(8), "a.b_c-d"]:
        every = RedisStore._keys(match_id)
        assert len(every) == 3 + len(CHANNELS) + 1
        assert slots(*every) == slots(match_id), every
        assert slots(gw.claims_key(match_id), gw.players_key(match_id)) == slots(match_id)
        for channel in CHANNELS:
            assert slots(gw.chat_key(match_id, channel), gw.chat_seq_key(match_id)) == slots(match_id)
        assert set(chat_keys(match_id)) <= set(every)


def test_the_old_gateway_keys_map_to_the_new_ones() -> None:
    renames = {
        "gw:match:m1": "gw:{m1}:match",
        "gw:claims:m1": "gw:{m1}:claims",
        "gw:players:m1": "gw:{m1}:players",
        "gw:chat:m1:table": "gw:{m1}:chat:table",
        "gw:chat:m1:spectators": "gw:{m1}:chat:spectators",
        "gw:chatseq:m1": "gw:{m1}:chatseq",
    }
    for old, new in renames.items():
        found = [rule(old) for pattern, rule in gw.RULES if old.startswith(pattern.rstrip("*"))]
        assert found == [new], (old, found)
    for pattern, rule in gw.RULES:  # new keys and the other gw: keys are left alone
        for other in ("gw:{m1}:match", "gw:recent", "gw:migrated:keys-v1"):
            if other.startswith(pattern.rstrip("*")):
                assert rule(other) is None, (pattern, other)
    assert "gw:chatrl:m1:p1".startswith("gw:chat:") is False  # chat rate buckets: not chat lines


def test_the_old_bot_keys_map_to_the_new_ones() -> None:
    rename = ranked._tagged_bot_key
    assert rename("bot:b_0a1b2c3d4e5f") == ranked.bot_key("b_0a1b2c3d4e5f")
    token = "fsb_x"
    old_token_key = ranked.token_hash_key(token).replace("bot:{bot}:", "bot:")
    assert rename(old_token_key) == ranked.token_hash_key(token)
    assert rename("bot:name:ab12") == "bot:{bot}:name:ab12"
    assert rename("bot:toks:b_1") == ranked.bot_tokens_key("b_1")
    assert rename("bot:owned:p1") == ranked.owned_key("p1")
    assert rename("bot:live:b_1") == ranked.bot_live_key("b_1")
    assert rename(ranked.bot_key("b_1")) is None  # already tagged
