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
``gw:{lobby}:online``           who is online: player id -> last heard, Unix ms (gateway/lobby.py)
``gw:{lobby}:names``            hash player id -> name of those online
``gw:{lobby}:chat:lobby``       the lobby's chat (and ``gw:{lobby}:chatseq``, its counter;
                                buckets ``gw:lobbyrl:…``, ``gw:lobbychatrl:…``)
``gw:rl:…``, ``gw:rp:…``,       token buckets (fengsheng/ratelimit.py; one key per script)
``gw:chatrl:…``, ``gw:lobby…``
==============================  ==========================================================
"""

from __future__ import annotations

#: the lobby's index of match ids by creation time
RECENT_KEY = "gw:recent"

#: the lobby's place among the keys: its chat is kept as a match's would be under this id
#: (match ids are 16 hex digits, so it is no match's)
LOBBY = "lobby"


def lobby_online_key() -> str:
    return f"gw:{{{LOBBY}}}:online"


def lobby_names_key() -> str:
    return f"gw:{{{LOBBY}}}:names"


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
