"""The collusion audit's data in the ranked Redis: one :class:`MatchFacts` per rated match,
written by the ladder update in the same MULTI/EXEC as the ratings (so exactly once), read
by ``fengsheng ladder audit`` and ``RankedService.Audit`` (the gateway's operator page).

=======================  ====  ==============================================================
key                      type  holds
=======================  ====  ==============================================================
``rk:{rk}:audit``        list  :meth:`MatchFacts.to_json` of rated matches, newest first;
                               the newest ``FENGSHENG_AUDIT_KEEP`` (20,000) are kept
=======================  ====  ==============================================================

:func:`match_facts` builds the facts of a finished ranked match from its ranked record
(who sat where, their tickets' queue join times) and the engine's replay (its settings and
actions, ``EngineService.GetReplay``), replayed here through the pure engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import Game
from services.config import positive_int
from services.ranked.audit import AuditFormatError, IntelDeed, MatchFacts, SeatFact, facts_from_actions, team_of

AUDIT_KEY = "rk:{rk}:audit"
DEFAULT_KEEP = 20_000


def keep() -> int:
    """How many rated matches the audit keeps (``FENGSHENG_AUDIT_KEEP``, at least 1)."""
    return positive_int("FENGSHENG_AUDIT_KEEP", DEFAULT_KEEP)


def add(pipe: Any, facts: MatchFacts) -> None:
    """Queue the write of one match's facts on a pipeline (the ladder's MULTI)."""
    pipe.lpush(AUDIT_KEY, facts.to_json())
    pipe.ltrim(AUDIT_KEY, 0, keep() - 1)


def load(redis: Any, *, limit: int = 0, ruleset: str = "") -> tuple[list[MatchFacts], int]:
    """The stored facts, newest first (``limit`` 0: all kept), of one ruleset or (``""``)
    all; and how many records of another format were skipped."""
    raws = redis.lrange(AUDIT_KEY, 0, (limit or keep()) - 1)
    out: list[MatchFacts] = []
    skipped = 0
    for raw in raws:
        try:
            facts = MatchFacts.from_json(raw)
        except AuditFormatError:
            skipped += 1
            continue
        if not ruleset or facts.ruleset == ruleset:
            out.append(facts)
    return out, skipped


def match_facts(
    match_id: str,
    ruleset: str,
    at: float,
    seats: Sequence[Any],
    identities: Sequence[str],
    enq_ms: dict[str, int],
    replay: Any | None,
) -> MatchFacts:
    """The facts of a rated match. ``seats``: its record's :class:`SeatPlan` list;
    ``identities``: each seat's identity id at game end (the engine's outcome);
    ``enq_ms``: ticket id -> queue join (ms); ``replay``: the engine's ``Replay`` (settings
    and actions), or ``None`` when it could not be read (no soft-play facts then)."""
    intel: tuple[IntelDeed, ...] | None = None
    if replay is not None:
        s = replay.settings
        game = Game.new(ruleset=s.ruleset or ruleset, players=s.players, seed=s.seed, tutorial=s.tutorial,
                        characters=s.characters)  # fmt: skip
        intel, identities = facts_from_actions(game, ((a.seat, a.action) for a in replay.actions))
    return MatchFacts(
        match_id=match_id,
        ruleset=ruleset,
        at=at,
        seats=tuple(
            SeatFact(
                seat=p.seat,
                account=f"{'bot' if p.bot else 'human'}:{p.player_id}",
                team=team_of(ruleset, identities[p.seat]) if p.seat < len(identities) else "solo",
                enq_ms=enq_ms.get(p.ticket_id, 0) if p.ticket_id else 0,
                house=not p.holder,
            )
            for p in sorted(seats, key=lambda p: p.seat)
        ),
        intel=intel,
    )
