"""The gateway's Redis keys (``FENGSHENG_GATEWAY_REDIS_URL``).

Every key of one match shares the hash tag ``{ID}`` (one slot on a Redis Cluster), so the
seat-claim script (claims + players) and the chat script (a channel + the counter) touch
one slot, and a match's keys are renewed and dropped together:

==============================  ==========================================================
``gw:{ID}:match``               the match's record (JSON; gateway/store.py)
``gw:{ID}:claims``              hash seat -> holder JSON
``gw:{ID}:players``             hash player id -> seat
``gw:{ID}:chat:CHANNEL``        a chat channel's last lines (``table``, ``spectators``)
``gw:{ID}:chatseq``             the match's chat counter
``gw:{ID}:rematch``             hash seat -> player who confirmed the rematch (gateway/rematch.py)
``gw:{ID}:rematch_to``          the rematch's match id
``gw:recent``                   the lobby's index (sorted set of ids; one key)
``gw:rl:…``, ``gw:rp:…``,       token buckets (fengsheng/ratelimit.py; one key per script)
``gw:chatrl:…``
==============================  ==========================================================
"""

from __future__ import annotations

#: the lobby's index of match ids by creation time
RECENT_KEY = "gw:recent"


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


def rematch_key(match_id: str) -> str:
    return f"gw:{{{match_id}}}:rematch"


def rematch_to_key(match_id: str) -> str:
    return f"gw:{{{match_id}}}:rematch_to"
