"""The service layer: plain async functions over a match store, an engine and a scheduler.

:class:`MatchService` is what the gRPC servicer (and anything else) calls. It holds no
truth: Redis does. Its cache maps a match id to the last :class:`engine.Game` this process
saw with the version it was stored under; writes compare-and-set on that version, so any
number of replicas can serve the same match.

Act, in order (docs/protocol.md, "Errors"):

1. unknown match -> :class:`MatchNotFound`;
2. malformed request (seat out of range, empty/oversized action) -> :class:`BadRequest`;
3. decision number not the open one -> :class:`StaleDecision` (``stale``, ``duplicate``,
   ``future`` or ``over``);
4. seat not the one to act -> :class:`OutOfTurn`;
5. the engine rejects the action -> :class:`IllegalActionError` with the legal list;
6. compare-and-set; on conflict reload and go back to 3.

A rejection decided on a cached game is first re-checked on a fresh load, so a replica
with a stale cache never gives a wrong answer.

Time controls and away seats (docs/bots.md, "Time controls"; :mod:`services.engine.clock`):
a timed decision's timer runs for the clock plus what is left of the seat's bank; a seat whose
timer ran out ``away_after`` times in a row (``FENGSHENG_AWAY_AFTER``, default 3) is *away* for
the rest of the match: its decisions are answered at once by the house policy (``bots.move``
with origin ``away``) and its own actions are refused (kind ``away``). A late answer (a stale
action) changes nothing; an answer in time clears the count. The counts live in Redis, so
every replica sees them; a match whose seats are all away plays to its end at bot speed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from engine import Game, IllegalAction
from engine.determinize import determinize
from engine.errors import NotationError, SetupError, SnapshotFormatError
from engine.game import Pending
from engine.notation import parse
from engine.observation import action_message
from fengsheng.redis_errors import STORE_UNAVAILABLE
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import game_pb2
from services.bot_levels import policy_of_kind
from services.config import ms_env
from services.engine import answer_window, metrics, sweepers
from services.engine.answer_window import AnswerWindow
from services.engine.clock import MAX_BANK_MS, SeatClock, SeatClocks, away_after_default
from services.engine.notifier import Notifier
from services.engine.rulesets import DEFAULT_RULESET, check_settings
from services.engine.scheduler import NullScheduler, Scheduler, bot_countdown
from services.engine.store import (
    HistoryEntry,
    MatchStore,
    StoredEvent,
    history_key,
    outbox_member,
)
from services.engine.stream_view import WatchItem, parse_cursor, seat_events, seat_items
from services.errors import (
    BadRequest,
    Conflict,
    IllegalActionError,
    MatchExists,
    MatchNotFound,
    OutOfTurn,
    ServiceError,
    StaleDecision,
    UnsupportedFormat,
)
from services.limits import MAX_BOT_DELAY_S, MAX_TURN_TIMEOUT_S

log = logging.getLogger(__name__)

MATCH_ID_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
MAX_ACTION_LEN = 200
CAS_ATTEMPTS = 8
#: origins of actions the platform takes for a seat (house bots, the turn timer, an away
#: seat's stand-in, an auto-pass): none of them means the seat's own player is there
HOUSE_ORIGINS = frozenset({"bot", "timer", "away", "auto"})
#: seat kinds whose answers are held to the answer window (services/engine/answer_window.py):
#: people's and outside bots' (the house bots keep their own pace, services/bot_timing.py)
WINDOWED = frozenset({es.HUMAN, es.BOT_EXTERNAL})
#: seat kinds whose single-action decisions the engine answers (an outside bot is asked every
#: decision, as the bot protocol says; its quick passes are held like anyone's)
AUTO_PASSED = frozenset({es.HUMAN})
#: the house policy that answers for an away seat
AWAY_POLICY = "v2"


@dataclass
class CachedMatch:
    """A game as this process last saw it, with the stored version it came from."""

    match_id: str
    version: int
    game: Game
    settings: es.MatchSettings
    last: str  # the last history entry, encoded
    #: history entries applied since the stored checkpoint
    since_snapshot: int = 0
    #: this match's lock (see ``MatchService._lock``), held here so that it lives as long as
    #: the cached match instead of being rebuilt for every action
    lock: asyncio.Lock | None = None


@dataclass(frozen=True, slots=True)
class ActResult:
    version: int
    pending: game_pb2.Decision
    outcome: game_pb2.Outcome | None
    applied: list[str]
    #: the next seat's legal actions, when asked for (``want_next_legal``)
    next_legal: es.LegalActions | None = None
    #: the next house bot turn, played by the caller (``play_next_bot``)
    next_bot: es.BotTurn | None = None
    #: the acting seat's view after the action (``want_observation``)
    observation: game_pb2.Observation | None = None


def decision_proto(game: Game) -> game_pb2.Decision:
    p = game.pending
    if p is None:
        return game_pb2.Decision(seat=-1, kind="over", number=game.decision_number, prompt="the game is over")
    return game_pb2.Decision(seat=p.seat, kind=p.kind, number=p.number, prompt=p.prompt)


def _same_action(game: Game, a: str, b: str) -> bool:
    """Whether two action lines name the same action (read with the notation and the
    ruleset's code words); a line that is no action is the same as none."""
    aliases = game.ruleset.code_aliases
    try:
        return parse(a, aliases) == parse(b, aliases)
    except NotationError:
        return False


@dataclass
class MatchService:
    store: MatchStore
    scheduler: Scheduler = field(default_factory=NullScheduler)
    cache_size: int = 2048
    #: write a snapshot checkpoint every this many actions (and at game over)
    snapshot_every: int = 32
    #: how long a watcher waits for a notification before re-reading the stream anyway
    watch_poll_s: float = 2.0
    #: seconds (beyond its countdown) a sent task has to answer its decision before the
    #: sweeper sends it again (``FENGSHENG_TASK_LEASE_MS``; see ``services.engine.store.LEASES_PREFIX``)
    task_lease_s: float = field(default_factory=lambda: ms_env("FENGSHENG_TASK_LEASE_MS", 30000,
                                                                 was="FENGSHENG_TASK_LEASE_S") / 1000)
    #: consecutive turn timeouts after which a seat is away (see the module docstring)
    away_after: int = field(default_factory=away_after_default)
    #: the answer window of people's seats and auto-pass (services/engine/answer_window.py)
    window: AnswerWindow = field(default_factory=AnswerWindow.from_env)
    _auto_tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _cache: OrderedDict[str, CachedMatch] = field(default_factory=OrderedDict)
    _locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    _notifier: Notifier | None = None

    # ------------------------------------------------------------------ loading
    def _lock(self, match_id: str) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    def _remember(self, m: CachedMatch) -> None:
        self._cache[m.match_id] = m
        self._cache.move_to_end(m.match_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def _load(self, match_id: str) -> CachedMatch:
        stored = await self.store.load(match_id)
        if stored is None:
            self._cache.pop(match_id, None)
            raise MatchNotFound(f"no match {match_id!r}")
        settings = es.MatchSettings.FromString(stored.settings)
        game = _rebuild(match_id, stored.snapshot, stored.tail)
        m = CachedMatch(match_id, stored.version, game, settings, stored.last, len(stored.tail))
        self._remember(m)
        metrics.CACHE.labels("load").inc()
        return m

    async def _get(self, match_id: str, *, check: bool = True) -> tuple[CachedMatch, bool]:
        """The cached match, checked against the stored version when ``check``; returns
        (match, fresh) where fresh means it was just verified or loaded."""
        if not MATCH_ID_RE.match(match_id):
            raise BadRequest(f"malformed match id {match_id!r}")
        m = self._cache.get(match_id)
        if m is None:
            return await self._load(match_id), True
        if not check:
            return m, False
        version = await self.store.version(match_id)
        if version is None:
            self._cache.pop(match_id, None)
            raise MatchNotFound(f"no match {match_id!r}")
        if version != m.version:
            return await self._load(match_id), True
        metrics.CACHE.labels("hit").inc()
        return m, True

    def _check_seat(self, m: CachedMatch, seat: int, *, spectator: bool) -> None:
        low = -1 if spectator else 0
        if not low <= seat < m.game.players:
            raise BadRequest(f"seat {seat} out of range {low}..{m.game.players - 1}")

    # ------------------------------------------------------------------ create
    async def create_match(self, settings: es.MatchSettings, match_id: str = "") -> tuple[str, game_pb2.Decision]:
        s = es.MatchSettings()
        s.CopyFrom(settings)
        s.ruleset = s.ruleset or DEFAULT_RULESET
        s.players = s.players or len(s.seats) or 5
        check_settings(s.ruleset, s.players)  # a registered ruleset, a count of its identity table
        if not s.seed:  # 0 = the server deals: a seed from the OS CSPRNG, never guessable
            s.seed = secrets.randbits(63) or 1
        if s.seats and len(s.seats) != s.players:
            raise BadRequest(f"{len(s.seats)} seat kinds for {s.players} players")
        if not s.seats:
            s.seats.extend([es.HUMAN] * s.players)
        if not 0 <= s.turn_timeout_ms <= MAX_TURN_TIMEOUT_S * 1000:
            raise BadRequest(f"turn_timeout_ms must be 0..{MAX_TURN_TIMEOUT_S * 1000:.0f}")
        if not 0 <= s.time_bank_ms <= MAX_BANK_MS:
            raise BadRequest(f"time_bank_ms must be 0..{MAX_BANK_MS}")
        if not 0 <= s.bot_delay_ms <= MAX_BOT_DELAY_S * 1000:
            raise BadRequest(f"bot_delay_ms must be 0..{MAX_BOT_DELAY_S * 1000:.0f} milliseconds")
        match_id = match_id or secrets.token_hex(8)
        if not MATCH_ID_RE.match(match_id):
            raise BadRequest(f"malformed match id {match_id!r} (letters, digits, _ . -; at most 64)")
        try:
            game = Game.new(
                ruleset=s.ruleset,
                players=s.players,
                seed=s.seed,
                tutorial=s.tutorial,
                characters=s.characters,
            )
        except (SetupError, ValueError) as exc:
            raise BadRequest(str(exc)) from exc
        outcome = game.outcome
        pending = decision_proto(game)
        res = await self.store.create(
            match_id,
            snapshot=game.snapshot(),
            settings=s.SerializeToString(),
            decision=game.decision_number,
            seat=pending.seat,
            over=game.is_over,
            created_ms=int(time.time() * 1000),
            pending=pending.SerializeToString(),
            outcome=outcome.to_proto().SerializeToString() if outcome else b"",
            events=[StoredEvent(e.index, e.audience, e.to_proto().SerializeToString()) for e in game.events],
            outbox=self._outbox(match_id, game, s),
        )
        if not res.ok:
            raise MatchExists(f"match {match_id!r} already exists")
        m = CachedMatch(match_id, res.version, game, s, "")
        del game.events[:]
        self._remember(m)
        metrics.MATCHES.inc()
        await self._schedule(m, outbox=True)
        return match_id, pending

    # ------------------------------------------------------------------ reads
    async def observation(self, match_id: str, seat: int, *, include_events: bool = False) -> game_pb2.Observation:
        m, _ = await self._get(match_id)
        self._check_seat(m, seat, spectator=True)
        obs: game_pb2.Observation = m.game.observation(seat)
        if await self._auto_answered(m, seat):
            obs.ClearField("legal_actions")
        if include_events:  # the cached game holds no event log: the stream does
            after = ""
            while True:
                writes = await self.store.read_writes(match_id, after=after, count=2048)
                for w in writes:
                    after = w.stream_id
                    obs.events.extend(seat_events(w, seat))
                if len(writes) < 2048:
                    break
        return obs

    async def determinized(self, match_id: str, seat: int, seed: int) -> es.DeterminizeResponse:
        """A game consistent with everything ``seat`` has seen, the rest resampled from its
        view (engine/determinize.py), for the search bot in the Celery workers. The seat's
        private knowledge (a hand it looked at …) comes from its events in the stream."""
        obs = await self.observation(match_id, seat, include_events=True)
        if not 0 <= seat < obs.players:
            raise BadRequest(f"seat {seat} is not a player's seat")
        m, _ = await self._get(match_id)
        world = determinize(m.game, seat, random.Random(seed), observation=obs, events=list(obs.events))
        return es.DeterminizeResponse(snapshot=world.snapshot(), decision=m.game.decision_number)

    async def legal_actions(self, match_id: str, seat: int) -> es.LegalActions:
        m, _ = await self._get(match_id)
        self._check_seat(m, seat, spectator=True)
        legal = _legal(m.game, seat)
        if await self._auto_answered(m, seat):
            legal.ClearField("actions")
            legal.ClearField("default_action")
        return legal

    async def replay(self, match_id: str) -> es.Replay:
        if not MATCH_ID_RE.match(match_id):
            raise BadRequest(f"malformed match id {match_id!r}")
        stored = await self.store.load(match_id)
        if stored is None:
            raise MatchNotFound(f"no match {match_id!r}")
        game = _rebuild(match_id, stored.snapshot, stored.tail)
        # the history is append-only: its first N entries are exactly those in this state
        history = await self.store.history(match_id, upto=stored.snap_hist + len(stored.tail))
        out = es.Replay(
            settings=es.MatchSettings.FromString(stored.settings),
            actions=[es.ReplayAction(seat=h.seat, action=h.action, decision=h.decision) for h in history],
            final_snapshot=game.snapshot(),
        )
        outcome = game.outcome
        if outcome is not None:
            out.outcome.CopyFrom(outcome.to_proto())
        return out

    # ------------------------------------------------------------------ act
    def _validate(self, m: CachedMatch, seat: int, decision: int, action: str) -> None:
        game = m.game
        self._check_seat(m, seat, spectator=False)
        current = game.decision_number
        p = game.pending
        to_act = p.seat if p else -1
        if p is None:
            raise StaleDecision("the match is over", kind="over", decision=current, seat_to_act=-1)
        if decision != current:
            kind = "future" if decision > current else "stale"
            if m.last and kind == "stale":
                last = HistoryEntry.decode(m.last)
                if last.decision == decision and last.seat == seat and _same_action(game, last.action, action):
                    kind = "duplicate"
            raise StaleDecision(
                f"decision {decision} is {kind}: the open decision is {current} (seat {to_act})",
                kind=kind,
                decision=current,
                seat_to_act=to_act,
            )
        if seat != to_act:
            raise OutOfTurn(
                f"seat {seat} is not to act: seat {to_act} must answer decision {current} ({p.kind})",
                decision=current,
                seat_to_act=to_act,
            )

    async def act(
        self,
        match_id: str,
        seat: int,
        decision: int,
        action: str,
        *,
        origin: str = "",
        use_default: bool = False,
        want_next_legal: bool = False,
        play_next_bot: bool = False,
        want_observation: bool = False,
    ) -> ActResult:
        """Apply ``action`` for ``seat`` answering ``decision`` (the order of checks: see the
        module docstring). ``play_next_bot`` (a house bot's worker, ``origin="bot"``): when
        the decision opened next is another house bot seat's with no think delay, queue no
        task for it but lease it to the caller and return its turn (:func:`bot_turn`)."""
        if use_default and action.strip():
            raise BadRequest("use_default with a non-empty action")
        if origin not in HOUSE_ORIGINS:  # a person's answer: not before its window ends
            await self._hold(match_id, seat, decision)
        lock = self._lock(match_id)
        async with lock:
            m, fresh = await self._get(match_id, check=False)
            m.lock = lock
            own = origin not in HOUSE_ORIGINS and self._timed(m)
            clock: SeatClock | None = None  # the seat's clock as its own player acts
            if own:
                self._check_seat(m, seat, spectator=False)
                clock = await self.clocks.read(match_id, seat)
                if clock.away and not m.game.is_over:
                    raise StaleDecision(f"seat {seat} is away: the house policy plays it to the end of the match",
                                        kind="away", decision=m.game.decision_number, seat_to_act=seat)  # fmt: skip
            for _attempt in range(CAS_ATTEMPTS):
                game = m.game
                try:
                    self._validate(m, seat, decision, action)
                    if use_default:
                        action = str(game.default_action(seat))
                    if not action.strip() or len(action) > MAX_ACTION_LEN or not action.isprintable():
                        raise BadRequest(
                            f"malformed action {action[:MAX_ACTION_LEN]!r}",
                            decision=decision,
                            seat_to_act=seat,
                            legal=list(game.legal_texts(seat)),
                        )
                    n_hist, n_events = len(game.history), len(game.events)
                    try:
                        game.apply(seat, action)
                    except IllegalAction as exc:
                        raise IllegalActionError(
                            str(exc),
                            decision=decision,
                            seat_to_act=seat,
                            legal=[str(a) for a in exc.legal] or list(game.legal_texts(seat)),
                        ) from exc
                    except Exception:  # an engine bug: the game may be half-changed
                        self._cache.pop(match_id, None)
                        raise
                except ServiceError as exc:
                    if not fresh:  # decided on a cached game: re-check on the stored state
                        m, fresh = await self._get(match_id)
                        continue
                    # A duplicate (a resend of the action that closed the decision) queues
                    # nothing: the write that applied it queued the next decision's task,
                    # and the outbox and lease sweepers re-send a lost one. Queuing here let
                    # anyone multiply a match's tasks by resending (issue 11, finding 3).
                    metrics.REJECTED.labels(exc.kind).inc()
                    raise
                # a timeout is counted before the write that applies it is seen by anyone (a
                # watcher telling the bot whether its seat is away reads the count after it)
                timed_out = origin == "timer" and not game.is_over
                if timed_out:
                    bank_before = await self.clocks.defaulted(match_id, seat)
                if clock is not None:  # answered in time (a late one was stale): the count restarts,
                    # the bank pays any overrun, before anyone sees the write (the next deadline reads it)
                    await self.clocks.answered(match_id, seat, decision, int(time.time() * 1000), m.settings, clock)
                    clock = None
                # The game object is now ahead of the stored version: persist or drop it.
                chained = play_next_bot and origin == "bot" and self._chainable(game, m.settings)
                lease_ms = int((time.time() + self.task_lease_s) * 1000) if chained else 0
                try:
                    pending = decision_proto(game)
                    res = await self._commit(m, decision, origin, n_hist, n_events, pending, lease_ms)
                except BaseException:
                    self._cache.pop(match_id, None)
                    if timed_out:
                        await self.clocks.undo_default(match_id, seat, bank_before)
                    raise
                if res is None:  # CAS conflict: another replica moved on; reload, re-check
                    if timed_out:
                        await self.clocks.undo_default(match_id, seat, bank_before)
                    metrics.CONFLICTS.inc()
                    m, fresh = await self._load(match_id), True
                    continue
                _counter(metrics.ACTIONS, origin or "unknown").inc()
                if not chained:  # a chained decision is leased to the caller by the write
                    await self._schedule(m, outbox=True)
                if game.is_over:
                    await self._game_over(match_id)
                outcome = game.outcome
                return ActResult(
                    version=m.version,
                    pending=pending,
                    outcome=outcome.to_proto() if outcome else None,
                    applied=[str(a) for _, a in game.history[n_hist:]],
                    next_legal=_legal(game, game.pending.seat if game.pending else -1) if want_next_legal else None,
                    next_bot=bot_turn(game, m.settings) if chained else None,
                    observation=game.observation(seat) if want_observation else None,
                )
            raise Conflict(f"match {match_id!r}: too many concurrent writers, retry")

    async def _commit(
        self,
        m: CachedMatch,
        decision: int,
        origin: str,
        n_hist: int,
        n_events: int,
        pending: game_pb2.Decision,
        lease_until_ms: int = 0,
    ) -> CachedMatch | None:
        """Write the actions ``game.history[n_hist:]`` answering ``decision``, with the
        decision now open (``pending``, built once: the caller answers with it too);
        ``lease_until_ms``: that decision is leased to the caller (``MatchStore.commit``)."""
        game = m.game
        entries = [HistoryEntry(decision + i, s, origin, str(a)) for i, (s, a) in enumerate(game.history[n_hist:])]
        outcome = game.outcome
        now_ms = int(time.time() * 1000)
        since = m.since_snapshot + len(entries)
        checkpoint = game.is_over or since >= self.snapshot_every
        res = await self.store.commit(
            m.match_id,
            expected_version=m.version,
            snapshot=game.snapshot() if checkpoint else b"",
            decision=game.decision_number,
            seat=pending.seat,
            over=game.is_over,
            entries=entries,
            pending=pending.SerializeToString(),
            outcome=outcome.to_proto().SerializeToString() if outcome else b"",
            events=[StoredEvent(e.index, e.audience, e.to_proto().SerializeToString()) for e in game.events[n_events:]],
            outbox=self._outbox(m.match_id, game, m.settings),
            now_ms=now_ms,
            lease_until_ms=lease_until_ms,
        )
        if res.missing:
            self._cache.pop(m.match_id, None)
            raise MatchNotFound(f"no match {m.match_id!r}")
        if not res.ok:
            self._cache.pop(m.match_id, None)
            return None
        m.version = res.version
        m.since_snapshot = 0 if checkpoint else since
        m.last = entries[-1].encode() if entries else m.last
        # Restored games start with an empty event list; keep memory flat.
        del game.events[:]
        return m

    # ------------------------------------------------------------------ away seats
    def _timed(self, m: CachedMatch) -> bool:
        """Whether the match has turn timers (only then can a seat go away)."""
        return m.settings.turn_timeout_ms > 0 and not isinstance(self.scheduler, NullScheduler)

    @property
    def clocks(self) -> SeatClocks:
        """The seat clocks and away counts (:mod:`services.engine.clock`)."""
        return SeatClocks(self.store.redis, self.away_after)

    async def is_away(self, match_id: str, seat: int) -> bool:
        """Whether ``seat`` is away (answered at once by the house policy to the match's end)."""
        return await self.clocks.is_away(match_id, seat)

    async def time_control(self, match_id: str) -> tuple[int, int]:
        """The match's per-decision clock and each seat's starting bank, ms (0, 0: untimed)."""
        m, _ = await self._get(match_id, check=False)
        if not self._timed(m):
            return 0, 0
        return m.settings.turn_timeout_ms, m.settings.time_bank_ms

    async def deadline_ms(self, match_id: str, seat: int, opened_ms: int) -> tuple[int, int]:
        """(the deadline of ``seat``'s decision opened at ``opened_ms``: its clock plus what is
        left of its bank, 0 when untimed; that bank left, ms)."""
        m, _ = await self._get(match_id, check=False)
        if not self._timed(m):
            return 0, 0
        bank = await self.clocks.bank_ms(match_id, seat, m.settings)
        return opened_ms + m.settings.turn_timeout_ms + bank, bank

    def _task_for(self, game: Game, settings: es.MatchSettings) -> str | None:
        """``bot:POLICY``, ``auto`` (a person's decision with one legal action, answered by the engine
        service unless its player asks to be asked: :meth:`_schedule`), ``timer`` or None:
        what the open decision needs."""
        p = game.pending
        if p is None or isinstance(self.scheduler, NullScheduler):
            return None
        kind = settings.seats[p.seat] if p.seat < len(settings.seats) else es.HUMAN
        policy = policy_of_kind(kind)
        if policy is not None:
            return f"bot:{policy}"
        person = self.window.auto_pass and self._person(settings, p.seat, kinds=AUTO_PASSED)
        if person and AnswerWindow.only_answer(game.legal_actions(p.seat)) is not None:
            return "auto"
        if settings.turn_timeout_ms > 0:
            return "timer"
        return None

    def _chainable(self, game: Game, settings: es.MatchSettings) -> bool:
        """Whether the open decision is a house bot seat's with no think delay: a worker that
        just moved for a bot may play it at once (its delay, if any, is a task countdown)."""
        task = self._task_for(game, settings)
        return task is not None and task.startswith("bot:") and bot_countdown(settings.bot_delay_ms / 1000) == 0

    def _outbox(self, match_id: str, game: Game, settings: es.MatchSettings) -> str:
        if self._task_for(game, settings) is None:
            return ""
        return outbox_member(match_id, game.decision_number)

    async def _schedule(self, m: CachedMatch, *, outbox: bool = False) -> None:
        """Queue the task the open decision needs: a bot move or a turn timer; then clear
        its outbox entry (``outbox``) if the write made one."""
        task = self._task_for(m.game, m.settings)
        p = m.game.pending
        if p is None:
            return
        release = await self._open_window(m, p)
        if task == "auto":
            task = await self._auto_pass(m, p, release)
            if task != "timer":  # auto: answered by this process at the window's end; None:
                # asked, untimed (the lease's re-send reads the setting again)
                await self._lease(m, p, outbox, max(0.0, release / 1000 - time.time()))
                return
        if task is None:
            return
        s = m.settings
        countdown = s.turn_timeout_ms / 1000
        if task == "timer":
            away, countdown = await self.clocks.opened(m.match_id, p.seat, p.number, int(time.time() * 1000), s)
            if away:
                task = f"away:{AWAY_POLICY}"
        try:
            if task.startswith("bot:"):
                await self.scheduler.bot_move(m.match_id, p.seat, p.number, policy=task[4:],
                                              delay_s=s.bot_delay_ms / 1000, clock_ms=s.turn_timeout_ms)  # fmt: skip
            elif task.startswith("away:"):  # the house policy answers at once
                await self.scheduler.bot_move(m.match_id, p.seat, p.number, policy=task[5:], delay_s=0.0,
                                              origin="away", clock_ms=s.turn_timeout_ms)  # fmt: skip
            else:
                await self.scheduler.turn_timer(m.match_id, p.number, countdown_s=countdown)
        except Exception:
            # The action is stored; its outbox entry stays, and the sweeper re-sends it.
            log.warning("could not queue %s for %s@%s; the outbox sweeper will", task, m.match_id, p.number,
                        exc_info=True)  # fmt: skip
            return
        if task.startswith("bot:"):
            countdown = bot_countdown(s.bot_delay_ms / 1000)
        elif task.startswith("away:"):
            countdown = 0.0
        await self._lease(m, p, outbox, countdown)

    async def _lease(self, m: CachedMatch, p: Pending, outbox: bool, countdown: float) -> None:
        """The open decision's task is sent (due in ``countdown`` seconds): clear its outbox
        entry (``outbox``) and lease it, so the sweeper sends it again if it is lost."""
        lease_ms = int((time.time() + countdown + self.task_lease_s) * 1000)
        try:
            await self.store.task_sent(outbox_member(m.match_id, p.number), outbox=outbox, lease_until_ms=lease_ms)
        except STORE_UNAVAILABLE:
            # Redis went away after the write: the action is stored and its task sent; the
            # outbox entry stays and the sweeper sends the task once more (tasks are
            # idempotent), rather than failing an action that was applied.
            log.warning("could not lease the task of %s@%s", m.match_id, p.number, exc_info=True)

    # ------------------------------------------------------------------ answer window
    def _person(self, settings: es.MatchSettings, seat: int, *, kinds: frozenset[int] = WINDOWED) -> bool:
        """Whether ``seat`` is answered from outside the platform (seat kind ``HUMAN``, or
        ``BOT_EXTERNAL`` unless ``kinds`` says otherwise) on a service that answers for seats
        (not the ``NullScheduler`` of benchmarks, where clients act for every seat)."""
        kind = settings.seats[seat] if 0 <= seat < len(settings.seats) else es.HUMAN
        # (the in-memory store of unit tests has no Redis: no windows, like its away counts)
        return kind in kinds and not isinstance(self.scheduler, NullScheduler) and self.store.redis is not None

    async def _open_window(self, m: CachedMatch, p: Pending) -> int:
        """Open the window of a person's decision (services/engine/answer_window.py): the
        epoch ms at which it ends; 0 for any other seat."""
        if not self._person(m.settings, p.seat):
            return 0
        if not self.window.holds:  # no window: nothing to record, the decision ends at once
            return int(time.time() * 1000)
        try:
            return await self.window.open(self.store.redis, m.match_id, p.number, m.settings.turn_timeout_ms)
        except Exception:  # the action is already stored: never fail it here (a Redis fault,
            # a slot on the move); answers are not held this once, an auto-pass still waits
            log.warning("could not open the answer window of %s@%s", m.match_id, p.number, exc_info=True)
            return int(time.time() * 1000 + self.window.draw_ms(m.settings.turn_timeout_ms))

    async def _hold(self, match_id: str, seat: int, decision: int) -> None:
        """Hold a person's answer to ``decision`` until the decision's window ends."""
        try:
            m, _ = await self._get(match_id, check=False)
        except ServiceError:
            return  # act() refuses it with the same error
        if self.window.holds and self._person(m.settings, seat):
            with contextlib.suppress(*STORE_UNAVAILABLE):
                await answer_window.hold(self.store.redis, match_id, decision)

    async def _asks(self, match_id: str, seat: int) -> bool:
        """Whether ``seat``'s player turned auto-pass off (when unsure: asked, nothing is
        answered for a person unseen)."""
        try:
            return await answer_window.asks(self.store.redis, match_id, seat)
        except STORE_UNAVAILABLE:
            return True

    async def _auto_answered(self, m: CachedMatch, seat: int) -> bool:
        """Whether the open decision is ``seat``'s and the engine service answers it (a
        person's single-action decision, auto-pass on): its view then shows no legal actions."""
        p = m.game.pending
        if p is None or p.seat != seat or self._task_for(m.game, m.settings) != "auto":
            return False
        return not await self._asks(m.match_id, seat)

    async def _auto_pass(self, m: CachedMatch, p: Pending, release: int) -> str | None:
        """Answer a person's single-action decision with that action at the end of its window
        (``release``, epoch ms) and return ``auto``; when its player asks to be asked, the
        task the decision needs instead (``timer`` or None)."""
        if await self._asks(m.match_id, p.seat):
            return "timer" if m.settings.turn_timeout_ms > 0 else None
        delay = max(0.0, release / 1000 - time.time())
        asyncio.get_running_loop().call_later(delay, self._spawn_auto, m.match_id, p.seat, p.number)
        return "auto"

    def _spawn_auto(self, match_id: str, seat: int, decision: int) -> None:
        task = asyncio.get_running_loop().create_task(self._auto_act(match_id, seat, decision))
        self._auto_tasks.add(task)
        task.add_done_callback(self._auto_tasks.discard)

    async def _auto_act(self, match_id: str, seat: int, decision: int) -> None:
        """The auto-answer of ``decision`` (origin ``auto``): its one legal action, read from
        the game now, unless it was answered meanwhile or its player turned auto-pass off."""
        try:
            if not await self._asks(match_id, seat):
                m, _ = await self._get(match_id)
                p = m.game.pending
                only = AnswerWindow.only_answer(m.game.legal_actions(seat)) if p and p.number == decision else None
                if only is not None:
                    await self.act(match_id, seat, decision, str(only), origin="auto")
        except (StaleDecision, OutOfTurn, MatchNotFound):
            pass
        except Exception:  # its lease runs out and the sweeper schedules it again
            log.warning("auto-pass of %s@%s failed", match_id, decision, exc_info=True)

    async def set_seat_options(self, match_id: str, seat: int, *, ask: bool) -> bool:
        """``seat``'s player turns auto-pass off (``ask``: every decision is asked) or on; an
        open single-action decision of the seat is scheduled again under the new setting."""
        m, _ = await self._get(match_id)
        self._check_seat(m, seat, spectator=False)
        await answer_window.set_asks(self.store.redis, match_id, seat, ask)
        async with self._lock(match_id):
            m, _ = await self._get(match_id)
            p = m.game.pending
            if p is not None and p.seat == seat and self._task_for(m.game, m.settings) == "auto":
                await self._schedule(m)
        return ask

    async def answer_of(self, match_id: str, decision: int) -> HistoryEntry | None:
        """The history entry that answered ``decision`` (who answered: its ``origin``), if any.
        Entries are numbered consecutively, so this is one read at the right index."""
        first = await self.store.redis.lindex(history_key(match_id), 0)
        if first is None:
            return None
        index = decision - HistoryEntry.decode(_text(first)).decision
        raw = await self.store.redis.lindex(history_key(match_id), index) if index >= 0 else None
        entry = HistoryEntry.decode(_text(raw)) if raw is not None else None
        return entry if entry is not None and entry.decision == decision else None

    async def _game_over(self, match_id: str) -> None:
        """Tell the scheduler a match ended (ranked matches get their ladder update; the
        matchmaking sweep catches a lost one)."""
        hook = getattr(self.scheduler, "game_over", None)
        if hook is not None:
            try:
                await hook(match_id)
            except Exception:
                log.warning("could not queue the game-over task of %s", match_id, exc_info=True)

    async def _resend(self, member: str) -> int:
        """Queue again the task of ``MATCH_ID\tDECISION`` if that decision is still open;
        1 when it was sent, else 0 (used by :mod:`services.engine.sweepers`)."""
        match_id, _, decision = member.partition("\t")
        try:
            async with self._lock(match_id):
                m, _ = await self._get(match_id)
                if m.game.decision_number == int(decision) and not m.game.is_over:
                    await self._schedule(m)
                    return 1
        except MatchNotFound:
            pass
        return 0

    async def sweep_outbox(self, grace_s: float = 3.0) -> int:
        """:func:`services.engine.sweepers.sweep_outbox` over this service."""
        return await sweepers.sweep_outbox(self, grace_s)

    async def sweep_leases(self) -> int:
        """:func:`services.engine.sweepers.sweep_leases` over this service."""
        return await sweepers.sweep_leases(self)

    async def run_sweeper(self, every_s: float = 1.0, grace_s: float = 3.0) -> None:
        """:func:`services.engine.sweepers.run` over this service (a background task of every engine server)."""
        await sweepers.run(self, every_s, grace_s)

    # ------------------------------------------------------------------ watch
    async def watch(
        self, match_id: str, seat: int, from_event_id: str = "", *, with_observation: bool = False
    ) -> AsyncIterator[WatchItem]:
        """The events ``seat`` may see (spectators: public ones), from the cursor
        ``from_event_id`` on, until the game is over: per write, one item per event the
        seat may see, or one item without an event (the new decision) when it may see
        none; ids and cursors as in services/engine/stream_view.py, which carry nothing of
        the events the seat does not see.

        ``with_observation`` (push, not pull): the last item of the newest write read so
        far also carries ``seat``'s observation of the stored state (its legal actions
        included when it must act), so the watcher needs no request per event. Older
        writes read in the same batch carry none (the newer view supersedes them)."""
        m, _ = await self._get(match_id, check=False)
        self._check_seat(m, seat, spectator=True)
        if self._notifier is None:
            self._notifier = Notifier(self.store)
        # a cursor inside a write (``MS-SEQ.K``): that write again, less the K items sent
        after, skip = parse_cursor(from_event_id)
        with self._notifier.listen(match_id) as wake:
            while True:
                wake.clear()
                writes = await self.store.read_writes(match_id, after=after, including=skip > 0)
                for k, w in enumerate(writes):
                    items = seat_items(w, seat)
                    if skip and w.stream_id == after:
                        items = items[skip:]
                    skip, after = 0, w.stream_id
                    for j, item in enumerate(items):
                        if with_observation and k == len(writes) - 1 and j == len(items) - 1:
                            item = await self._with_observation(match_id, seat, item)
                        yield item
                    if w.outcome:
                        return
                if not writes:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), self.watch_poll_s)
                    if not wake.is_set() and await self.store.version(match_id) is None:
                        self._cache.pop(match_id, None)  # expired while watched (idle lifetime)
                        raise MatchNotFound(f"no match {match_id!r}")

    async def _with_observation(self, match_id: str, seat: int, item: WatchItem) -> WatchItem:
        """``item`` with ``seat``'s observation of the stored state (the cache, checked
        against the stored version: one read)."""
        m, _ = await self._get(match_id)
        obs = m.game.observation(seat)
        if await self._auto_answered(m, seat):
            obs.ClearField("legal_actions")
        return WatchItem(item.event_id, item.event, item.pending, item.outcome, obs)

    async def close(self) -> None:
        if self._notifier is not None:
            await self._notifier.close()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def restore_stored(match_id: str, snapshot: bytes) -> Game:
    """The match a stored snapshot holds; a snapshot of another format (stored by an older
    or newer engine) is :class:`UnsupportedFormat`, refused by its number, never upgraded."""
    try:
        return Game.restore(snapshot)
    except SnapshotFormatError as exc:
        raise UnsupportedFormat(f"match {match_id!r} cannot be played or watched: engine {exc}") from exc


def _rebuild(match_id: str, snapshot: bytes, tail: list[HistoryEntry]) -> Game:
    """The checkpoint with the history after it re-applied (events already stored)."""
    game = restore_stored(match_id, snapshot)
    for h in tail:
        game.apply(h.seat, h.action)
    del game.events[:]
    return game


_CHILDREN: dict[tuple[int, str], Any] = {}


def _counter(metric: Any, label: str) -> Any:
    """``metric.labels(label)``, looked up once per label (prometheus-client's ``labels``
    costs a lock and a tuple per call; this is on every action)."""
    child = _CHILDREN.get((id(metric), label))
    if child is None:
        child = metric.labels(label)
        if len(_CHILDREN) < 1024:  # labels come from callers: keep the cache bounded
            _CHILDREN[(id(metric), label)] = child
    return child


def bot_turn(game: Game, settings: es.MatchSettings) -> es.BotTurn | None:
    """The open decision of a house bot seat, for the worker that plays it: the seat, the
    decision number, the policy of the seat's kind and the seat's own observation (its
    legal actions included), nothing of any other seat's hidden state."""
    p = game.pending
    if p is None or p.seat >= len(settings.seats):
        return None
    policy = policy_of_kind(settings.seats[p.seat])
    if policy is None:
        return None
    return es.BotTurn(seat=p.seat, decision=p.number, policy=policy, observation=game.observation(p.seat))


def _legal(game: Game, seat: int) -> es.LegalActions:
    p = game.pending
    out = es.LegalActions(decision=game.decision_number, seat_to_act=p.seat if p else -1)
    if p is not None and seat == p.seat:
        out.actions.extend(game.legal_texts(seat))
        out.legal.extend(action_message(a) for a in game.legal_actions(seat))
        out.default_action = str(game.default_action(seat))
    return out
