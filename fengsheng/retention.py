"""How long a match is kept, read from the environment in one place: the engine service's
match keys (services/engine/store.py) and the gateway's seat table (gateway/store.py) use the same
numbers, so the two expire together (docs/operations.md, "Retention").

=====================================  =====================================================  ==========
variable                               meaning                                                default
=====================================  =====================================================  ==========
``FENGSHENG_MATCH_IDLE_TTL_MS``        an unfinished match with no action for this long is    ``86400000``
                                       forgotten (every action starts the clock again)
``FENGSHENG_MATCH_FINISHED_TTL_MS``    a finished match (and its replay) is kept this long    ``604800000``
                                       after its last action
=====================================  =====================================================  ==========
"""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_IDLE_TTL_S = 24 * 3600
DEFAULT_FINISHED_TTL_S = 7 * 24 * 3600


def _seconds(name: str, default: int) -> int:
    """Whole seconds (at least 1, rounded up) from ``$NAME``, in milliseconds (``default``
    seconds when unset or empty); a ``ValueError`` naming it otherwise. The older name in
    seconds (``NAME`` with ``_S`` for ``_MS``) is refused, not ignored: every duration is ms."""
    old = name.removesuffix("_MS") + "_S"
    if (os.environ.get(old) or "").strip():
        raise ValueError(f"{old} is no longer read: durations are milliseconds; set {name} instead")
    raw = os.environ.get(name) or ""
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number of milliseconds, not {raw!r}") from exc
    if not 1000 <= value < float("inf"):
        raise ValueError(f"{name} must be at least 1000 (one second), not {raw!r}")
    return -int(-value // 1000)


@dataclass(frozen=True)
class Retention:
    """Lifetimes of a match's stored state, in whole seconds (Redis ``EXPIRE``)."""

    #: an unfinished match expires this long after its last write
    idle_s: int = DEFAULT_IDLE_TTL_S
    #: a finished match expires this long after the write that ended it
    finished_s: int = DEFAULT_FINISHED_TTL_S

    @classmethod
    def from_env(cls) -> Retention:
        return cls(
            idle_s=_seconds("FENGSHENG_MATCH_IDLE_TTL_MS", DEFAULT_IDLE_TTL_S),
            finished_s=_seconds("FENGSHENG_MATCH_FINISHED_TTL_MS", DEFAULT_FINISHED_TTL_S),
        )

    def ttl(self, *, over: bool) -> int:
        return self.finished_s if over else self.idle_s
