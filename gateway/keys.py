"""The gateway's Redis keys (``FENGSHENG_GATEWAY_REDIS_URL``), and their migration.

Every key of one match shares the hash tag ``{ID}`` (one slot on a Redis Cluster), so the
seat-claim script (claims + players) and the chat script (a channel + the counter) touch
one slot, and a match's keys are renewed and dropped together:

==============================  ==========================================================
``gw:{ID}:match``               the match's record (JSON; gateway/store.py)
``gw:{ID}:claims``              hash seat -> holder JSON
``gw:{ID}:players``             hash player id -> seat
``gw:{ID}:chat:CHANNEL``        a chat channel's last lines (``table``, ``spectators``)
``gw:{ID}:chatseq``             the match's chat counter
``gw:recent``                   the lobby's index (sorted set of ids; one key)
``gw:rl:…``, ``gw:rp:…``,       token buckets (fengsheng/ratelimit.py; one key per script)
``gw:chatrl:…``
==============================  ==========================================================

Before, the per-match keys were ``gw:match:ID``, ``gw:claims:ID``, ``gw:players:ID``,
``gw:chat:ID:CHANNEL`` and ``gw:chatseq:ID``: :func:`migrate` renames them at a gateway's
start (services/key_migration.py).
"""

from __future__ import annotations

from typing import Any

from services.key_migration import Rule, migrate_async

#: the lobby's index of match ids by creation time
RECENT_KEY = "gw:recent"
#: set once the old per-match keys were renamed (:func:`migrate`)
MIGRATED_KEY = "gw:migrated:keys-v1"


def match_key(match_id: str) -> str:
    return f"gw:{{{match_id}}}:match"


def claims_key(match_id: str) -> str:
    return f"gw:{{{match_id}}}:claims"


def players_key(match_id: str) -> str:
    return f"gw:{{{match_id}}}:players"


def chat_key(match_id: str, channel: str) -> str:
    return f"gw:{{{match_id}}}:chat:{channel}"


def chat_seq_key(match_id: str) -> str:
    return f"gw:{{{match_id}}}:chatseq"


def _renamer(old_prefix: str, part: str) -> Rule:
    """``gw:PART:ID`` -> ``gw:{ID}:PART``."""

    def new_name(old: str) -> str | None:
        match_id = old[len(old_prefix) :]
        return f"gw:{{{match_id}}}:{part}" if match_id and ":" not in match_id else None

    return old_prefix + "*", new_name


def _chat_renamer(old: str) -> str | None:
    """``gw:chat:ID:CHANNEL`` -> ``gw:{ID}:chat:CHANNEL``."""
    match_id, sep, channel = old[len("gw:chat:") :].rpartition(":")
    return chat_key(match_id, channel) if sep and match_id and channel else None


#: the old layout's patterns and their new names
RULES: tuple[Rule, ...] = (
    _renamer("gw:match:", "match"),
    _renamer("gw:claims:", "claims"),
    _renamer("gw:players:", "players"),
    ("gw:chat:*", _chat_renamer),
    _renamer("gw:chatseq:", "chatseq"),
)


async def migrate(redis: Any) -> int:
    """Rename the per-match keys of the old layout (once per Redis; see the module)."""
    return await migrate_async(redis, MIGRATED_KEY, RULES, what="gateway")
