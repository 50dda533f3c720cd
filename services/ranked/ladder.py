"""The ranked ladder: OpenSkill (Plackett-Luce) ratings, seasons, leaderboards, history.

One rating model, two stores. :func:`plan_update` is the whole rating rule, a pure function;
:class:`RedisLadder` (the Celery task ``ladder.update``) and :class:`MemoryLadder`
(``fengsheng arena``, ``bench/ladder.py``, the rating-quality test) both call it, so the
arena and the service rate matches with the same code.

The rule (docs/ranked.md):

- Factions are hidden and their sizes are fixed by the identity table, and team-sum models
  were measured to lower the rating of a small winning team; so every player is rated as a
  team of one, winners ranked 1 and losers ranked 2 (ties among each group).
- Optional correction by (player count, identity): the win rate of each identity at each
  table size is learned from every finished match; with the correction on, each player's
  mu is shifted, for the rating step only, by ``c * (logit p(P, I) - mean over the table)``
  where ``c`` is the model's spread for the match (``sqrt(sum(sigma² + beta²))``). A player
  who wins with an identity that wins often gains less; one who wins with an underdog
  identity gains more.
- Each ruleset (``engine.rulesets``) has ladders of its own: ratings, games, leaderboards,
  histories and correction counts are kept per ruleset, each under keys naming it.
- Each participant is rated on its own ladder, ``human`` or ``bot`` (bots never move the
  human ladder), in two scopes: the season and all time.
- The shown score is ``mu - 3 sigma``; a rating is provisional while ``sigma`` is above
  :data:`PROVISIONAL_SIGMA`.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from openskill.models import PlackettLuce

from engine.rulesets import RULESET_IDS

if TYPE_CHECKING:
    from services.ranked.audit import MatchFacts

#: Ratings with a sigma above this are shown as provisional (a new player has 8.33;
#: about 25 five-player matches bring it below).
PROVISIONAL_SIGMA = 6.5
#: (player count, identity) cells need this many games before the correction uses them.
CORRECTION_MIN_GAMES = 50
#: Entries kept in each player's match history.
HISTORY_LEN = 200

HUMAN = "human"
BOT = "bot"
LADDERS = (HUMAN, BOT)
ALL_TIME = "all"
#: The ruleset of a match, ticket or query that names none: 风声再临, the platform's first.
DEFAULT_RULESET = "return"

_MODEL = PlackettLuce()
_BETA2 = _MODEL.beta**2
_TAU2 = _MODEL.tau**2


def known_ruleset(ruleset: str) -> str:
    """``ruleset`` (``""``: ``return``) if the engine's registry has it, so it has ladders;
    ``ValueError`` naming the known ones otherwise."""
    ruleset = ruleset or DEFAULT_RULESET
    if ruleset not in RULESET_IDS:
        raise ValueError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESET_IDS)}")
    return ruleset


def current_season(now: float | None = None) -> str:
    """``$FENGSHENG_SEASON`` if set, else the calendar quarter (``2026Q4``)."""
    env = os.environ.get("FENGSHENG_SEASON")
    if env:
        return env
    day = _dt.datetime.fromtimestamp(time.time() if now is None else now, _dt.UTC)
    return f"{day.year}Q{(day.month - 1) // 3 + 1}"


def season_scope(season: str) -> str:
    return f"s:{season}"


class Rating(NamedTuple):
    """One player's rating in one scope of one ladder (a tuple: cheap to make by the million)."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def score(self) -> float:
        """What leaderboards show and sort by: ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def to_dict(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "score": round(self.score, 4),
            "games": self.games,
            "wins": self.wins,
            "provisional": self.provisional,
        }


@dataclass(frozen=True, slots=True)
class Participant:
    """One seat of a finished ranked match."""

    player_id: str
    name: str
    bot: bool
    seat: int
    won: bool
    #: ``fengsheng.v1.Identity`` value (0 when unknown: no correction for this seat)
    identity: int = 0

    @property
    def ladder(self) -> str:
        return BOT if self.bot else HUMAN


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished ranked match as the ladder rates it."""

    match_id: str
    season: str
    participants: tuple[Participant, ...]
    finished_at: float = field(default_factory=time.time)
    #: the match's ruleset: it is rated on that ruleset's ladders only
    ruleset: str = DEFAULT_RULESET

    @property
    def players(self) -> int:
        return len(self.participants)


class RatingKey(NamedTuple):
    """Where a rating lives: ladder (``human``/``bot``), scope (season or ``all``), player,
    ruleset (each ruleset rates apart)."""

    ladder: str
    scope: str
    player_id: str
    ruleset: str = DEFAULT_RULESET


@dataclass
class Update:
    """Everything one match changes: new ratings, history entries, correction counts (all
    of the match's ruleset)."""

    ratings: dict[RatingKey, Rating]
    history: list[tuple[str, str, dict[str, Any]]]  # (ladder, player id, entry)
    correction: list[tuple[str, bool]]  # ("players:identity", won)


class Correction:
    """Win rates by (player count, identity), learned from finished matches."""

    def __init__(self, counts: dict[str, tuple[int, int]] | None = None) -> None:
        #: "players:identity" -> (games, wins)
        self.counts: dict[str, tuple[int, int]] = dict(counts or {})

    @staticmethod
    def cell(players: int, identity: int) -> str:
        return f"{players}:{identity}"

    def logit(self, players: int, identity: int) -> float | None:
        games, wins = self.counts.get(self.cell(players, identity), (0, 0))
        if identity == 0 or games < CORRECTION_MIN_GAMES:
            return None
        p = (wins + 1.0) / (games + 2.0)
        return math.log(p / (1.0 - p))

    def add(self, cell: str, won: bool) -> None:
        games, wins = self.counts.get(cell, (0, 0))
        self.counts[cell] = (games + 1, wins + int(won))

    def offsets(self, result: MatchResult, sigmas: Sequence[float]) -> list[float]:
        """Each seat's temporary mu shift (all zero while the cells lack data)."""
        logits = [self.logit(result.players, p.identity) for p in result.participants]
        if any(x is None for x in logits):
            return [0.0] * len(logits)
        known = [x for x in logits if x is not None]
        mean = sum(known) / len(known)
        c = math.sqrt(sum(s * s + _MODEL.beta**2 for s in sigmas))
        return [c * ((x or 0.0) - mean) for x in logits]


def rate(ratings: Sequence[Rating], won: Sequence[bool], offsets: Sequence[float] | None = None) -> list[Rating]:
    """One Plackett-Luce step: every player a team of one, winners rank 1, losers rank 2
    (everyone tied when all won or all lost).

    This is openskill's ``PlackettLuce().rate([[r] for r in ratings], ranks=...)`` (default
    model: beta, tau, kappa, gamma = sigma / c) in closed form for two rank groups of
    one-player teams: the same numbers (``tests/integration/test_ranked_model.py`` checks it
    against openskill to 1e-9) at about ten times the speed.
    """
    n = len(ratings)
    offsets = offsets or [0.0] * n
    mus = [r.mu + off for r, off in zip(ratings, offsets, strict=True)]
    s2 = [r.sigma * r.sigma + _TAU2 for r in ratings]
    c = math.sqrt(sum(s2) + n * _BETA2)
    e = [math.exp(m / c) for m in mus]
    nw = sum(1 for w in won if w)
    top = list(won) if 0 < nw < n else [True] * n
    nw = sum(top)
    nl = n - nw
    sum_all = sum(e)
    sum_low = sum(x for x, t in zip(e, top, strict=True) if not t)
    out = []
    for i, r in enumerate(ratings):
        t1 = e[i] / sum_all
        if top[i]:
            omega = (1.0 - nw * t1) / nw
            delta = t1 * (1.0 - t1)
        else:
            t2 = e[i] / sum_low
            omega = -t1 + (1.0 - nl * t2) / nl
            delta = t1 * (1.0 - t1) + t2 * (1.0 - t2)
        omega *= s2[i] / c
        delta *= s2[i] / (c * c) * math.sqrt(s2[i]) / c
        sigma = math.sqrt(s2[i]) * math.sqrt(max(1.0 - delta, _MODEL.kappa))
        out.append(Rating(mu=r.mu + omega, sigma=sigma, games=r.games + 1, wins=r.wins + int(won[i])))
    return out


def keys_of(result: MatchResult) -> list[RatingKey]:
    """The rating entries a match touches: each participant × (season, all time)."""
    scopes = (season_scope(result.season), ALL_TIME)
    return [RatingKey(p.ladder, s, p.player_id, result.ruleset) for p in result.participants for s in scopes]


def plan_update(result: MatchResult, current: dict[RatingKey, Rating], correction: Correction | None = None) -> Update:
    """The pure rating rule: ``current`` holds the stored ratings among :func:`keys_of`
    (missing ones are new players); returns what to write."""
    parts = result.participants
    won = [p.won for p in parts]
    logits = None
    if correction is not None:
        logits = [correction.logit(result.players, p.identity) for p in parts]
        if any(x is None for x in logits):
            logits = None
    new: dict[RatingKey, Rating] = {}
    fresh = Rating()
    for scope in (season_scope(result.season), ALL_TIME):
        keys = [RatingKey(p.ladder, scope, p.player_id, result.ruleset) for p in parts]
        before = [current.get(k, fresh) for k in keys]
        offsets = None
        if logits is not None:
            mean = sum(x or 0.0 for x in logits) / len(logits)
            c = math.sqrt(sum(r.sigma * r.sigma + _BETA2 for r in before))
            offsets = [c * ((x or 0.0) - mean) for x in logits]
        new.update(zip(keys, rate(before, won, offsets), strict=True))
    history = []
    for p, k in zip(parts, keys, strict=True):  # keys: the all-time ones
        b, a = current.get(k, fresh), new[k]
        entry = {"match_id": result.match_id, "ruleset": result.ruleset, "season": result.season,
                 "at_ms": int(result.finished_at * 1000), "seat": p.seat,
                 "players": result.players, "identity": p.identity, "won": p.won, "bot": p.bot,
                 "before": b.score, "after": a.score, "mu": a.mu, "sigma": a.sigma}  # fmt: skip
        history.append((p.ladder, p.player_id, entry))
    cells = [(f"{result.players}:{p.identity}", p.won) for p in parts if p.identity]
    return Update(new, history, cells)


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a leaderboard."""

    rank: int
    player_id: str
    name: str
    bot: bool
    rating: Rating

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "player_id": self.player_id, "name": self.name, "bot": self.bot,
                **self.rating.to_dict()}  # fmt: skip


# ---------------------------------------------------------------------------------- memory


class MemoryLadder:
    """The ladder in a dict: for the arena, benchmarks and tests. Same rule as Redis."""

    def __init__(self, *, correction: bool = False) -> None:
        self.ratings: dict[RatingKey, Rating] = {}
        self.names: dict[str, tuple[str, bool]] = {}
        #: (ruleset, ladder, player id) -> entries, newest first
        self.history: dict[tuple[str, str, str], deque[dict[str, Any]]] = {}
        self.correction = correction
        #: ruleset -> what its finished matches taught
        self._learned: dict[str, Correction] = {}
        self.done: set[str] = set()

    def record(self, result: MatchResult) -> bool:
        """Rate a finished match once; false (nothing changed) if it was rated before."""
        if result.match_id in self.done:
            return False
        ratings = self.ratings
        current = {k: ratings[k] for k in keys_of(result) if k in ratings}
        learned = self._learned.setdefault(result.ruleset, Correction())
        update = plan_update(result, current, learned if self.correction else None)
        self.ratings.update(update.ratings)
        for ladder, pid, entry in update.history:
            h = self.history.get((result.ruleset, ladder, pid))
            if h is None:
                h = self.history[(result.ruleset, ladder, pid)] = deque(maxlen=HISTORY_LEN)
            h.appendleft(entry)
        for cell, won in update.correction:
            learned.add(cell, won)
        for p in result.participants:
            self.names[p.player_id] = (p.name, p.bot)
        self.done.add(result.match_id)
        return True

    def rating(self, ladder: str, player_id: str, scope: str = ALL_TIME, ruleset: str = DEFAULT_RULESET) -> Rating:
        return self.ratings.get(RatingKey(ladder, scope, player_id, ruleset), Rating())

    def leaderboard(self, ladder: str, scope: str = ALL_TIME, limit: int = 100,
                    ruleset: str = DEFAULT_RULESET) -> list[Standing]:  # fmt: skip
        rows = [(k.player_id, r) for k, r in self.ratings.items()
                if k.ladder == ladder and k.scope == scope and k.ruleset == ruleset]  # fmt: skip
        rows.sort(key=lambda x: (-x[1].score, x[0]))
        return [
            Standing(i + 1, pid, self.names.get(pid, (pid, ladder == BOT))[0], ladder == BOT, r)
            for i, (pid, r) in enumerate(rows[:limit])
        ]


# ----------------------------------------------------------------------------------- Redis
#
# Every ladder key carries the hash tag {rk}, so one transaction may touch many players'
# ratings on Redis Cluster too (ladder writes are a few per finished match).
#
# Every ruleset's keys carry its id after the family letter (``rk:{rk}:r:classic:human:all:p``,
# ``rk:{rk}:return:corr``). (No clash: a ladder is ``human`` or ``bot``, never a ruleset id.)


def _ruleset_part(ruleset: str) -> str:
    """The ruleset's part of a key: ``return:``, ``classic:`` …"""
    return f"{ruleset}:"


def rating_key(k: RatingKey) -> str:
    return f"rk:{{rk}}:r:{_ruleset_part(k.ruleset)}{k.ladder}:{k.scope}:{k.player_id}"


def board_key(ladder: str, scope: str, ruleset: str = DEFAULT_RULESET) -> str:
    return f"rk:{{rk}}:lb:{_ruleset_part(ruleset)}{ladder}:{scope}"


def history_key(ladder: str, player_id: str, ruleset: str = DEFAULT_RULESET) -> str:
    return f"rk:{{rk}}:h:{_ruleset_part(ruleset)}{ladder}:{player_id}"


def correction_key(ruleset: str = DEFAULT_RULESET) -> str:
    return f"rk:{{rk}}:{_ruleset_part(ruleset)}corr"


def seasons_key(ruleset: str = DEFAULT_RULESET) -> str:
    return f"rk:{{rk}}:{_ruleset_part(ruleset)}seasons"


def done_key(match_id: str) -> str:
    return f"rk:{{rk}}:done:{match_id}"


NAMES_KEY = "rk:{rk}:names"


def _rating_of(raw: dict[bytes, bytes]) -> Rating | None:
    if not raw:
        return None
    return Rating(float(raw[b"mu"]), float(raw[b"sigma"]), int(raw.get(b"games", 0)), int(raw.get(b"wins", 0)))


def _correction_of(raw: dict[bytes, bytes]) -> Correction:
    counts: dict[str, tuple[int, int]] = {}
    for field_name, value in raw.items():
        cell, _, what = field_name.decode().rpartition(":")
        games, wins = counts.get(cell, (0, 0))
        counts[cell] = (int(value), wins) if what == "g" else (games, int(value))
    return Correction(counts)


class RedisLadder:
    """The ladder in Redis (sync redis-py: it runs in Celery tasks and the CLI).

    :meth:`record` is exactly once per match id: it WATCHes the match's done marker and
    every rating it reads, and writes the marker, the ratings, the leaderboards and the
    histories in one MULTI/EXEC; a concurrent update of the same players retries, a second
    update of the same match finds the marker and changes nothing.
    """

    def __init__(self, redis: Any, *, correction: bool | None = None) -> None:
        self.redis = redis
        if correction is None:
            correction = os.environ.get("FENGSHENG_LADDER_CORRECTION", "") not in ("", "0", "false")
        self.correction = correction

    def record(self, result: MatchResult, audit: MatchFacts | None = None) -> bool:
        """Rate a finished match once (false: it was rated before); ``audit``: the match's
        collusion-audit facts, stored in the same transaction (services/ranked/audit_store.py)."""
        import redis.exceptions

        from services.ranked import audit_store

        keys = keys_of(result)
        for _attempt in range(50):
            with self.redis.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(done_key(result.match_id), *(rating_key(k) for k in keys))
                    # read everything in one round trip (WATCH guards it whatever connection reads)
                    reads = self.redis.pipeline(transaction=False)
                    reads.exists(done_key(result.match_id))
                    for k in keys:
                        reads.hgetall(rating_key(k))
                    reads.hgetall(correction_key(result.ruleset))
                    done, *raws, corr_raw = reads.execute()
                    if done:
                        return False
                    current = {}
                    for k, raw in zip(keys, raws, strict=True):
                        r = _rating_of(raw)
                        if r is not None:
                            current[k] = r
                    corr = _correction_of(corr_raw) if self.correction else None
                    update = plan_update(result, current, corr)
                    pipe.multi()
                    pipe.set(done_key(result.match_id), json.dumps({"at": time.time()}))
                    for k, r in update.ratings.items():
                        pipe.hset(rating_key(k), mapping={"mu": r.mu, "sigma": r.sigma, "games": r.games,
                                                          "wins": r.wins})  # fmt: skip
                        pipe.zadd(board_key(k.ladder, k.scope, k.ruleset), {k.player_id: r.score})
                    for ladder, pid, entry in update.history:
                        pipe.lpush(history_key(ladder, pid, result.ruleset), json.dumps(entry))
                        pipe.ltrim(history_key(ladder, pid, result.ruleset), 0, HISTORY_LEN - 1)
                    corr_key = correction_key(result.ruleset)
                    for cell, won in update.correction:
                        pipe.hincrby(corr_key, f"{cell}:g", 1)
                        if won:
                            pipe.hincrby(corr_key, f"{cell}:w", 1)
                    for p in result.participants:
                        pipe.hset(NAMES_KEY, f"{p.ladder}:{p.player_id}", p.name)
                    pipe.sadd(seasons_key(result.ruleset), result.season)
                    if audit is not None:
                        audit_store.add(pipe, audit)
                    pipe.execute()
                    return True
                except redis.exceptions.WatchError:
                    continue
        raise RuntimeError(f"ladder update of {result.match_id} kept conflicting")

    def rated(self, match_id: str) -> bool:
        return bool(self.redis.exists(done_key(match_id)))

    def rating(self, ladder: str, player_id: str, scope: str = ALL_TIME, ruleset: str = DEFAULT_RULESET) -> Rating:
        return _rating_of(self.redis.hgetall(rating_key(RatingKey(ladder, scope, player_id, ruleset)))) or Rating()

    def leaderboard(self, ladder: str, scope: str = ALL_TIME, limit: int = 100, offset: int = 0,
                    ruleset: str = DEFAULT_RULESET) -> list[Standing]:  # fmt: skip
        board = board_key(ladder, scope, ruleset)
        ids = [x.decode() for x in self.redis.zrevrange(board, offset, offset + limit - 1)]
        if not ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for pid in ids:
            pipe.hgetall(rating_key(RatingKey(ladder, scope, pid, ruleset)))
        raws = pipe.execute()
        names = self.redis.hmget(NAMES_KEY, [f"{ladder}:{pid}" for pid in ids])
        return [
            Standing(offset + i + 1, pid, (n or pid.encode()).decode(), ladder == BOT, _rating_of(raw) or Rating())
            for i, (pid, raw, n) in enumerate(zip(ids, raws, names, strict=True))
        ]

    def history(self, ladder: str, player_id: str, limit: int = 50, ruleset: str | None = None) -> list[dict[str, Any]]:
        """A player's rated matches, newest first: of one ruleset, or (``None``) of every
        ruleset merged by time. Each entry names its ``ruleset``."""
        rulesets = RULESET_IDS if ruleset is None else (ruleset,)
        pipe = self.redis.pipeline(transaction=False)
        for r in rulesets:
            pipe.lrange(history_key(ladder, player_id, r), 0, limit - 1)
        entries: list[dict[str, Any]] = []
        for raws in pipe.execute():
            entries.extend(json.loads(raw) for raw in raws)
        if len(rulesets) > 1:
            entries.sort(key=lambda e: -int(e.get("at_ms", 0)))
        return entries[:limit]

    def seasons(self, ruleset: str = DEFAULT_RULESET) -> list[str]:
        return sorted(x.decode() for x in self.redis.smembers(seasons_key(ruleset)))


def standings_table(rows: Iterable[Standing]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in rows]
