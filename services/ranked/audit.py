"""The collusion audit: which pairs of rated accounts play together too often, queue together,
or spare each other across sides (issue 26 point 3; the measures are defined in
docs/ranked.md, "The collusion audit").

Pure: no Redis, no gRPC. A rated match leaves one :class:`MatchFacts` (who sat where, when
each joined the queue, and every intel that came through transmission and was received,
scored for its receiver), made at the ladder update by :class:`DeedRecorder` from the
engine's own history (:func:`facts_from_actions`) and stored next to the ratings
(:mod:`services.ranked.audit_store`). :func:`audit` reads any list of them and answers one
:class:`PairEvidence` per pair of accounts that sat together, flagged or not.

The three signals of a pair ``{a, b}`` (z-scores, one-sided: only "more than chance" flags):

- **seated**: matches with both seated against the number expected if ``b``'s seats were
  spread at random over every seat not ``a``'s (each account's match count and the table
  sizes kept);
- **co-queue**: of their matches together, how many had their queue joins within
  :attr:`Thresholds.close_s`, against the share of close joins among all other pairs
  seated together;
- **soft play**: every intel one of them made the other receive while on opposite sides,
  scored +1 (it counts toward the receiver's win), -1 (black) or 0, against what that same
  actor's intel scored for its other opponents (the actor's own baseline, so a player who
  sends many black cards to everyone is no suspect).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Game
from engine.rulesets import get_ruleset

#: The stored facts' format; other versions are refused with a clear error.
AUDIT_VERSION = 1
#: A seat's team when its identity belongs to no faction (an agent wins alone): opposed to all.
SOLO = "solo"


class AuditFormatError(ValueError):
    """A stored audit record of another format version (or not one at all)."""


@dataclass(frozen=True, slots=True)
class SeatFact:
    """One seat of a rated match, as the audit sees it."""

    seat: int
    #: ``ladder:player id`` (``human:p_…``, ``bot:b_…``; house bots ``bot:house-…``)
    account: str
    #: the seat's faction at game end (``latent``, ``military`` …) or :data:`SOLO`
    team: str
    #: when the account's ticket joined the queue (ms since the epoch); 0: unknown
    enq_ms: int = 0
    #: a house bot: it fills seats but is never a suspect
    house: bool = False


@dataclass(frozen=True, slots=True)
class IntelDeed:
    """An intel that came through transmission and was received: whose intel it counted as
    (the sender, or the 转移 user who redirected it), who received it, and what it did for
    the receiver."""

    user: int
    receiver: int
    #: +1 counts toward the receiver's win (its faction's colour; any true intel for an
    #: agent), -1 black (toward its death), their sum when a card is both, else 0
    score: int
    #: black, and the receiver already had two black intel: it killed (rules digest §6)
    lethal: bool = False


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """What the audit keeps of one rated match."""

    match_id: str
    ruleset: str
    at: float
    seats: tuple[SeatFact, ...]
    #: ``None`` when the match's history could not be read (the soft-play signal skips it)
    intel: tuple[IntelDeed, ...] | None = ()

    def opposed(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` were on opposite sides (not one faction)."""
        ta, tb = self.seats[a].team, self.seats[b].team
        return ta == SOLO or ta != tb

    def to_json(self) -> str:
        return json.dumps({
            "v": AUDIT_VERSION, "match_id": self.match_id, "ruleset": self.ruleset, "at": self.at,
            "seats": [[s.seat, s.account, s.team, s.enq_ms, int(s.house)] for s in self.seats],
            "intel": None if self.intel is None else [[d.user, d.receiver, d.score, int(d.lethal)] for d in self.intel],
        }, separators=(",", ":"))  # fmt: skip

    @classmethod
    def from_json(cls, raw: str | bytes) -> MatchFacts:
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise AuditFormatError(f"an audit record is not JSON: {exc}") from exc
        if not isinstance(data, dict) or data.get("v") != AUDIT_VERSION:
            version = data.get("v") if isinstance(data, dict) else None
            raise AuditFormatError(f"audit record format {version!r} is not {AUDIT_VERSION}; re-rate or drop it")
        intel = data["intel"]
        return cls(
            match_id=data["match_id"],
            ruleset=data["ruleset"],
            at=float(data["at"]),
            seats=tuple(SeatFact(int(s), str(a), str(t), int(e), bool(h)) for s, a, t, e, h in data["seats"]),
            intel=None if intel is None else tuple(IntelDeed(int(u), int(r), int(x), bool(k)) for u, r, x, k in intel),
        )


# ------------------------------------------------------------------------ facts from the engine


def team_of(ruleset: str, identity: str) -> str:
    """The faction an identity id plays for (``latent``, ``military`` …), else :data:`SOLO`."""
    return identity if identity in get_ruleset(ruleset).factions else SOLO


def intel_score(ruleset: str, identity: str, card: int) -> int:
    """What ``card`` received does for a seat of ``identity``: +1 toward its win (its
    faction's colour, rules digest §7; for an agent any true intel), -1 if black (§6), summed."""
    rules = get_ruleset(ruleset)
    cards = rules.cards
    colour = rules.factions.get(identity)
    helps = (
        (cards.is_red[card] if colour == "red" else cards.is_blue[card])
        if colour is not None
        else identity == "agent" and cards.is_true[card]
    )
    return int(bool(helps)) - int(cards.is_black[card])


@dataclass(slots=True)
class DeedRecorder:
    """Watches a game being played or replayed and keeps every intel received from
    transmission with whose intel it counted as. Call :meth:`before` before each ``apply``
    and :meth:`after` after it; :meth:`deeds` once the game is over."""

    raw: list[tuple[int, int, int, bool]] = field(default_factory=list)
    _transit: tuple[int, int] | None = None
    _events: int = 0

    def before(self, game: Game) -> None:
        t = game.state.transit
        self._transit = (t.card, t.user) if t is not None else None
        self._events = len(game.events)

    def after(self, game: Game) -> None:
        if self._transit is None:
            return
        card, user = self._transit
        for e in game.events[self._events :]:
            # return/classic log "received" (Game.place_intel), 谍战篇 "receive", with the card
            if e.kind in ("received", "receive") and card in e.cards and e.seat != user:
                intel = game.state.seats[e.seat].intel
                blacks = sum(1 for c in intel if c != card and game.ruleset.cards.is_black[c])
                self.raw.append((user, e.seat, card, blacks >= 2))
                break

    def deeds(self, ruleset: str, identities: Sequence[str]) -> tuple[IntelDeed, ...]:
        """The recorded intel scored for each receiver's identity (from the outcome)."""
        cards = get_ruleset(ruleset).cards
        return tuple(
            IntelDeed(user, receiver, intel_score(ruleset, identities[receiver], card), lethal and cards.is_black[card])
            for user, receiver, card, lethal in self.raw
        )


def facts_from_actions(game: Game, actions: Iterable[tuple[int, str]]) -> tuple[tuple[IntelDeed, ...], tuple[str, ...]]:
    """Replay a finished match's ``actions`` (seat, action) on ``game`` (its deal, step 0)
    and return its intel deeds and every seat's identity from the outcome."""
    rec = DeedRecorder()
    for seat, action in actions:
        rec.before(game)
        game.apply(seat, action)
        rec.after(game)
    outcome = game.outcome
    if outcome is None:
        raise ValueError("the replayed history does not end the match")
    return rec.deeds(game.state.ruleset, outcome.identities), outcome.identities


# ------------------------------------------------------------------------------- the maths


@dataclass(frozen=True, slots=True)
class Thresholds:
    """When a signal counts (docs/ranked.md, "The collusion audit")."""

    #: a signal at or above this z flags the pair (one-sided p about 3e-5)
    z: float = 4.0
    #: queue joins this close (seconds) are "together"
    close_s: float = 5.0
    #: the seated signal needs this many matches expected or seen together
    min_together: int = 5
    #: the co-queue signal needs this many matches together with both join times known
    min_coqueue: int = 5
    #: the soft-play signal needs this many intel between them on opposite sides
    min_deeds: int = 10


@dataclass(frozen=True, slots=True)
class Signal:
    """One signal of a pair: what was seen, what chance expects, and how far apart."""

    observed: float
    expected: float
    count: int
    z: float
    #: enough data for the signal to count (its minimum count met)
    counted: bool

    @property
    def p(self) -> float:
        """One-sided normal tail of :attr:`z`."""
        return 0.5 * math.erfc(self.z / math.sqrt(2.0))

    def to_dict(self) -> dict[str, Any]:
        return {"observed": round(self.observed, 3), "expected": round(self.expected, 3), "count": self.count,
                "z": round(self.z, 2), "p": float(f"{self.p:.3g}"), "counted": self.counted}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PairEvidence:
    """The audit of one pair of accounts (``a < b``)."""

    a: str
    b: str
    seated: Signal
    coqueue: Signal
    soft: Signal
    #: black intel one made the other receive as a third black (kills), both directions
    lethal: int
    #: why it is flagged: ``soft`` (the soft-play signal at or above the threshold), ``queue``
    #: (the seated *and* the co-queue signals both at or above it; seated alone is no flag:
    #: players who finish a match together queue again together, docs/ranked.md)
    flags: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        return bool(self.flags)

    @property
    def score(self) -> float:
        """The strongest counted signal (what the listing sorts by)."""
        return max([s.z for s in (self.seated, self.coqueue, self.soft) if s.counted], default=0.0)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "flagged": self.flagged, "flags": list(self.flags),
                "score": round(self.score, 2), "seated": self.seated.to_dict(), "coqueue": self.coqueue.to_dict(),
                "soft": self.soft.to_dict(), "lethal": self.lethal}  # fmt: skip


def _z(observed: float, expected: float, variance: float) -> float:
    return (observed - expected) / math.sqrt(variance) if variance > 1e-12 else 0.0


@dataclass(slots=True)
class _Moments:
    """Count, sum and sum of squares of intel scores."""

    n: int = 0
    s: float = 0.0
    s2: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.s += x
        self.s2 += x * x


def audit(matches: Iterable[MatchFacts], thresholds: Thresholds | None = None) -> list[PairEvidence]:
    """Every pair of non-house accounts seated together at least once, strongest first
    (docs/ranked.md, "The collusion audit", defines each number)."""
    th = thresholds or Thresholds()
    ms = list(matches)
    # seats: each account's matches and the other seats of each of them
    n_of: dict[str, int] = defaultdict(int)
    total_seats = 0
    for m in ms:
        total_seats += len(m.seats)
        for s in m.seats:
            n_of[s.account] += 1
    together: dict[tuple[str, str], int] = defaultdict(int)
    gaps: dict[tuple[str, str], list[float]] = defaultdict(list)
    # soft play: per actor over opposed receivers, and per (actor, receiver)
    by_actor: dict[str, _Moments] = defaultdict(_Moments)
    by_pair: dict[tuple[str, str], _Moments] = defaultdict(_Moments)
    lethal: dict[tuple[str, str], int] = defaultdict(int)
    for m in ms:
        people = [s for s in m.seats if not s.house]
        for i, x in enumerate(people):
            for y in people[i + 1 :]:
                key = (x.account, y.account) if x.account < y.account else (y.account, x.account)
                together[key] += 1
                if x.enq_ms and y.enq_ms:
                    gaps[key].append(abs(x.enq_ms - y.enq_ms) / 1000.0)
        for d in m.intel or ():
            if d.user == d.receiver or not m.opposed(d.user, d.receiver):
                continue
            actor, receiver = m.seats[d.user].account, m.seats[d.receiver].account
            by_actor[actor].add(d.score)
            by_pair[(actor, receiver)].add(d.score)
            if d.lethal:
                lethal[(actor, receiver)] += 1
    # the expected seat overlap: for each match of a, the chance one of its other seats is b's
    others_of: dict[str, list[int]] = defaultdict(list)
    for m in ms:
        for s in m.seats:
            others_of[s.account].append(len(m.seats) - 1)
    close_all = sum(1 for g in gaps.values() for x in g if x <= th.close_s)
    known_all = sum(len(g) for g in gaps.values())
    out = []
    for (a, b), met in together.items():
        seated = _seated(a, b, met, n_of, others_of, total_seats, th)
        coqueue = _coqueue(gaps.get((a, b), []), close_all, known_all, th)
        soft = _soft(a, b, by_actor, by_pair, th)
        hit = [sig.counted and sig.z >= th.z for sig in (seated, coqueue, soft)]
        flags = (("soft",) if hit[2] else ()) + (("queue",) if hit[0] and hit[1] else ())
        out.append(PairEvidence(a, b, seated, coqueue, soft, lethal[(a, b)] + lethal[(b, a)], flags))
    out.sort(key=lambda e: (-e.score, e.a, e.b))
    return out


def _seated(a: str, b: str, x: int, n_of: dict[str, int], others_of: dict[str, list[int]], total: int,
            th: Thresholds) -> Signal:  # fmt: skip
    """X = matches together; E = mean over both points of view of the sum over a's matches of
    min(1, (k - 1) n_b / (S - n_a)); Var the same sum of p (1 - p)."""
    exp = var = 0.0
    for me, other in ((a, b), (b, a)):
        free = total - n_of[me]
        for k1 in others_of[me]:
            p = min(1.0, k1 * n_of[other] / free) if free > 0 else 0.0
            exp += p / 2
            var += p * (1.0 - p) / 2
    return Signal(x, exp, x, _z(x, exp, var), max(x, exp) >= th.min_together)


def _coqueue(pair_gaps: list[float], close_all: int, known_all: int, th: Thresholds) -> Signal:
    """c of t matches together with joins within ``close_s``, against p0 = (close joins of all
    other seated pairs + 1) / (their known joins + 2): z = (c - t p0) / sqrt(t p0 (1 - p0))."""
    t = len(pair_gaps)
    c = sum(1 for g in pair_gaps if g <= th.close_s)
    p0 = (close_all - c + 1) / (known_all - t + 2)
    return Signal(c, t * p0, t, _z(c, t * p0, t * p0 * (1.0 - p0)), t >= th.min_coqueue)


def _soft(a: str, b: str, by_actor: dict[str, _Moments], by_pair: dict[tuple[str, str], _Moments],
          th: Thresholds) -> Signal:  # fmt: skip
    """Sum over the intel between them of (score - the actor's mean score for its other
    opponents), over sqrt of the sum of the actor's variance there: a z of kindness."""
    observed = expected = variance = 0.0
    n = 0
    for actor, receiver in ((a, b), (b, a)):
        pair = by_pair.get((actor, receiver))
        if pair is None or pair.n == 0:
            continue
        whole = by_actor[actor]
        n0 = whole.n - pair.n
        # the actor's baseline against everyone else it opposed (a weak prior while it is thin)
        s0, s20 = whole.s - pair.s, whole.s2 - pair.s2
        mean0 = s0 / n0 if n0 else 0.0
        var0 = max(s20 / n0 - mean0 * mean0, 0.0) if n0 else 0.0
        prior = 2.0  # pseudo-decisions at variance 0.5: no baseline yet, no certainty either
        var0 = (var0 * n0 + 0.5 * prior) / (n0 + prior)
        observed += pair.s
        expected += pair.n * mean0
        variance += pair.n * var0 * (1.0 + pair.n / max(n0, 1))  # the baseline's own error too
        n += pair.n
    return Signal(observed, expected, n, _z(observed, expected, variance), n >= th.min_deeds)


def report(matches: Sequence[MatchFacts], thresholds: Thresholds | None = None, *, everyone: bool = False,
           limit: int = 100) -> dict[str, Any]:  # fmt: skip
    """The audit as plain data (``fengsheng ladder audit --json``, the operator page): the
    thresholds, how many matches and pairs were read, and the flagged pairs (``everyone``:
    every pair), strongest first, at most ``limit``."""
    th = thresholds or Thresholds()
    evidence = audit(matches, th)
    shown = evidence if everyone else [e for e in evidence if e.flagged]
    return {
        "thresholds": dataclasses.asdict(th),
        "matches": len(matches),
        "without_soft_play": sum(1 for m in matches if m.intel is None),
        "pairs": len(evidence),
        "flagged": sum(1 for e in evidence if e.flagged),
        "rows": [e.to_dict() for e in shown[:limit]],
    }
