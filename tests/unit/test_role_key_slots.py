"""Redis Cluster for the ranked and gateway roles (issue 15, point 1): the keys of every
script and ``MULTI`` of theirs hash to one slot (a cluster refuses a script or transaction
over two slots: ``CROSSSLOT``). Slots computed with redis-py's own ``key_slot``."""

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
