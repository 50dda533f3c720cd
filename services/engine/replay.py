"""Replay steps: a match step by step, as one view saw it, from the stored history.

:class:`ReplayService` answers ``GetReplaySteps``. It reads the match's settings and action
history from Redis (never writes anything) and replays them through the pure engine in this
process: step 0 is the deal (``Game.new`` with the stored settings and seed), step N is the
state after the N-th history entry. Each step carries the view's observation, the events
that view saw during the step, and the action as that view saw it.

What a view may see (docs/security/replay.md):

- ``VIEW_ALL`` (-2, every seat's own view merged: hands, identities, face-down cards, every
  event) only once the match is over; before that :class:`NotOver`.
- a seat (0..players-1) or the spectator (-1): what that seat or a spectator saw at the
  time. While the match runs the seed is left out of the settings, and an action that named
  a hidden card (a face-down intel, a 试探 …) shows in the redacted form the others saw
  (the ruleset's ``hidden_action``). ``finished_only`` lets the gateway ask for a seat's
  view of a running match only when it holds that seat's token.

Cost per call is bounded (a page of at most :attr:`ReplayService.max_steps` steps):

- per match id, an LRU of :attr:`ReplayService.cache_size` entries keeps the history read
  at one stored version, a keyframe (a snapshot) every :data:`KEYFRAME_EVERY` steps and the
  current state. Keys are match ids only: the view, page or ``last`` never miss the cache.
- a page restores the last keyframe before it and applies at most
  ``KEYFRAME_EVERY + max_steps`` actions; on a cold entry at most ``from_step + max_steps``
  (keyframes are kept on the way), plus at most one checkpoint interval
  (``MatchService.snapshot_every``) to rebuild the current state from the stored checkpoint.
- ``last`` (the result screen) of a finished match is served from that current state (a
  finished match's checkpoint is taken after its last step) and the last step's action
  event read from the match's last stored write: no replay at all.

A match that moves on (a new stored version) keeps its keyframes: the history is
append-only, so only the new entries are read and replayed when a page needs them.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import Counter

from engine import Game
from engine.game import Event
from engine.notation import parse
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import game_pb2
from services.engine.matches import MATCH_ID_RE, restore_stored
from services.engine.store import HistoryEntry, MatchStore
from services.errors import BadRequest, MatchNotFound, NotOver

#: ``GetReplayStepsRequest.view`` for everything revealed (only once the match is over)
VIEW_ALL = -2
#: steps per call at most (``max_steps`` 0 or larger is capped to this)
MAX_STEPS = 100
#: a keyframe (snapshot) is kept every this many steps
KEYFRAME_EVERY = 32
#: matches whose history and keyframes stay cached in this process
CACHE_MATCHES = 64

APPLIES = Counter("fengsheng_replay_applies_total", "Actions re-applied by the engine to answer GetReplaySteps")
LOOKUPS = Counter("fengsheng_replay_cache_total", "GetReplaySteps cache lookups", ["result"])


@dataclass
class _Entry:
    """One match as cached: its history at ``version``, keyframes and current state."""

    version: int
    settings: es.MatchSettings
    history: list[HistoryEntry]
    #: the game after the last stored step (rebuilt from the stored checkpoint)
    current: Game
    #: step -> snapshot of the game after that step (multiples of KEYFRAME_EVERY, > 0)
    keyframes: dict[int, bytes] = field(default_factory=dict)
    #: a finished match's last step's ``action.action`` event, from its last stored write
    #: (the result screen's ``acted``; None while the match runs or when it is not at hand)
    final_acted: game_pb2.Event | None = None

    @property
    def total(self) -> int:
        return len(self.history) + 1


class BadView(BadRequest):
    """A view this match does not have (a seat number past its players)."""

    kind = "bad_view"


def new_game(settings: es.MatchSettings) -> Game:
    """The deal of a match with these settings (step 0, with its events)."""
    return Game.new(
        ruleset=settings.ruleset,
        players=settings.players,
        seed=settings.seed,
        tutorial=settings.tutorial,
        characters=settings.characters,
    )


def reveal(game: Game) -> game_pb2.Observation:
    """Everything at once: the spectator's view with each seat as that seat sees itself, and
    every card some seat sees in the transit, the chain and the discard pile (face-down
    discards, classic D12) (viewer -2, no legal actions)."""
    out: game_pb2.Observation = game.observation(-1)
    out.viewer = VIEW_ALL
    for s in range(game.players):
        view = game.observation(s)
        out.seats[s].CopyFrom(view.seats[s])
        if view.transit.card and not out.transit.card:
            out.transit.card = view.transit.card
        for mine, shown in zip(view.chain, out.chain, strict=False):
            if mine.card and not shown.card:
                shown.card = mine.card
            if mine.code and not shown.code:
                shown.code = mine.code
        for pos in out.discard_face_down:  # a face-down discard, as its discarder sees it
            if view.discard[pos] and not out.discard[pos]:
                out.discard[pos] = view.discard[pos]
    del out.legal_actions[:]
    return out


def _acted(events: list[Event], seat: int, *, full: bool) -> Event | None:
    """The event of a step's action as a view saw it: the ``action.action`` event of
    ``seat`` when the view sees it in full, else the public form logged right after it."""
    for i, e in enumerate(events):
        if e.kind == "action" and e.seat == seat and e.key == "action.action":
            if full or not e.audience:
                return e
            public = events[i + 1] if i + 1 < len(events) else None
            return public if public is not None and public.index == e.index + 1 else None
    return None


def _public_words(event: Event | None) -> str:
    """``ReplayStep.action`` of a public form: the action with its hidden cards as ``?``, or
    (a phrase row) its English words, the row's line after the actor's ``{seat}: `` (every
    ``action`` row starts so); the value is ``ReplayStep.acted``."""
    if event is None:
        return "?"
    return event.shown.canonical if event.shown is not None else event.text.removeprefix(f"{event.seat}: ")


def visible(event: Event, view: int, players: int) -> bool:
    """Whether ``view`` saw ``event`` (``VIEW_ALL``: some seat or a spectator saw it)."""
    if view == VIEW_ALL:
        return any(event.visible_to(v) for v in range(-1, players))
    return event.visible_to(view)


class ReplayService:
    """Pages of replay steps over a :class:`MatchStore`, cached per match id."""

    def __init__(
        self,
        store: MatchStore,
        *,
        cache_size: int = CACHE_MATCHES,
        max_steps: int = MAX_STEPS,
        keyframe_every: int = KEYFRAME_EVERY,
    ) -> None:
        self.store = store
        self.cache_size = cache_size
        self.max_steps = max_steps
        self.keyframe_every = keyframe_every
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def steps(
        self,
        match_id: str,
        view: int,
        from_step: int = 0,
        max_steps: int = 0,
        *,
        last: bool = False,
        finished_only: bool = False,
    ) -> es.ReplaySteps:
        """The steps ``from_step`` .. ``from_step + max_steps - 1`` (capped) as ``view`` saw
        them; ``last``: only the current step, without events."""
        if not MATCH_ID_RE.match(match_id):
            raise BadRequest(f"malformed match id {match_id[:80]!r} (letters, digits, _ . -; at most 64)")
        if from_step < 0 or max_steps < 0:
            raise BadRequest(f"from_step ({from_step}) and max_steps ({max_steps}) must be >= 0")
        count = min(max_steps or self.max_steps, self.max_steps)
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        async with lock:
            entry = await self._entry(match_id)
            game = entry.current
            over = game.is_over
            if not VIEW_ALL <= view < game.players:
                raise BadView(f"view {view} out of range: -2 (everything), -1 (spectator) or 0..{game.players - 1}")
            if not over and (view == VIEW_ALL or finished_only):
                what = "everything" if view == VIEW_ALL else f"seat {view}'s view"
                raise NotOver(f"match {match_id!r} is not over: {what} would reveal hidden cards")
            start = entry.total - 1 if last else from_step
            out = es.ReplaySteps(
                match_id=match_id,
                view=view,
                settings=entry.settings,
                total_steps=entry.total,
                from_step=start,
                players=game.players,
            )
            if not over:
                out.settings.seed = 0  # the seed deals every hidden card
            outcome = game.outcome
            if outcome is not None:
                out.outcome.CopyFrom(outcome.to_proto())
            if last and over:
                out.steps.append(self._final_step(entry, view))
            else:
                out.steps.extend(self._page(entry, view, start, 1 if last else count, redact=not over))
                if last:
                    del out.steps[-1].events[:]
            out.next_step = start + len(out.steps) if out.steps else entry.total
            return out

    # ------------------------------------------------------------------ the cache
    async def _entry(self, match_id: str) -> _Entry:
        """The cached entry at the stored version (re-read when the match moved on)."""
        version = await self.store.version(match_id)
        if version is None:
            self._cache.pop(match_id, None)
            raise MatchNotFound(f"no match {match_id!r}")
        old = self._cache.get(match_id)
        if old is not None and old.version == version:
            self._cache.move_to_end(match_id)
            LOOKUPS.labels("hit").inc()
            return old
        LOOKUPS.labels("load").inc()
        stored = await self.store.load(match_id)
        if stored is None:
            self._cache.pop(match_id, None)
            raise MatchNotFound(f"no match {match_id!r}")
        n = stored.snap_hist + len(stored.tail)
        history = await self.store.history(match_id, upto=n)
        if len(history) != n:  # expired between the two reads
            raise MatchNotFound(f"no match {match_id!r}")
        current = restore_stored(match_id, stored.snapshot)
        for h in stored.tail:
            self._apply(current, h)
        del current.events[:]
        settings = es.MatchSettings.FromString(stored.settings)
        entry = _Entry(stored.version, settings, history, current)
        if current.is_over and history:
            entry.final_acted = await self._final_acted(match_id, stored.version, history[-1].seat)
        if old is not None and old.settings == settings and old.history == history[: len(old.history)]:
            entry.keyframes = old.keyframes  # the history is append-only: they still hold
        self._cache[match_id] = entry
        self._cache.move_to_end(match_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return entry

    async def _final_acted(self, match_id: str, version: int, seat: int) -> game_pb2.Event | None:
        """The ``action.action`` event of the last step (``seat`` acting): the last one in
        the match's last stored write, when that write is the one at ``version``. A write may
        hold several steps (its events in order), so the last such event is the last step's."""
        write = await self.store.last_write(match_id)
        if write is None or write.version != version:
            return None
        for stored in reversed(write.events):
            event = game_pb2.Event.FromString(stored.data)
            if event.kind == "action" and event.template == "action.action":
                return event if event.seat == seat else None
        return None

    # ------------------------------------------------------------------ replaying
    def _apply(self, game: Game, h: HistoryEntry) -> None:
        """Re-apply one stored action (the one place replays call the engine's ``apply``)."""
        APPLIES.inc()
        game.apply(h.seat, h.action)

    def _page(self, entry: _Entry, view: int, start: int, count: int, *, redact: bool) -> list[es.ReplayStep]:
        """Steps ``start`` .. ``start + count - 1`` (those that exist), from the last keyframe
        before ``start``; keyframes met on the way are kept."""
        end = min(entry.total, start + count)
        if start >= end:
            return []
        base = max((k for k in entry.keyframes if k < start), default=0)
        game = new_game(entry.settings) if base == 0 else Game.restore(entry.keyframes[base])
        out: list[es.ReplayStep] = []
        if start == 0:
            out.append(self._step(game, view, 0, None, "", game.events))
        for step in range(base + 1, end):
            h = entry.history[step - 1]
            shown = h.action
            if redact and step >= start and view != h.seat:
                hidden = game.ruleset.hidden_action(game, h.seat, parse(h.action, game.ruleset.code_aliases))
                if hidden is not None and view not in hidden.audience:
                    shown = ""  # the public form: its event (``_acted``) and that event's text
            del game.events[:]
            self._apply(game, h)
            if step % self.keyframe_every == 0 and step not in entry.keyframes:
                entry.keyframes[step] = game.snapshot()
            if step >= start:
                out.append(self._step(game, view, step, h, shown, game.events))
        return out

    def _final_step(self, entry: _Entry, view: int) -> es.ReplayStep:
        """The current step of a finished match, without its events, from its stored
        checkpoint (no replay); its ``acted`` is the last step's stored action event (every
        view sees a finished match's actions in full)."""
        h = entry.history[-1] if entry.history else None
        out = self._step(entry.current, view, entry.total - 1, h, h.action if h else "", ())
        if entry.final_acted is not None:
            out.acted.CopyFrom(entry.final_acted)
        return out

    def _step(
        self, game: Game, view: int, step: int, h: HistoryEntry | None, shown: str, events: Iterable[Event]
    ) -> es.ReplayStep:
        """One step; ``shown`` is the action's text as this view saw it, "" for the public
        form of a hidden action (its event says what the view saw)."""
        pending = game.pending
        events = list(events)
        acted = _acted(events, h.seat, full=bool(shown)) if h else None
        if h and not shown:
            shown = _public_words(acted)
        out = es.ReplayStep(
            step=step,
            seat=h.seat if h else -1,
            action=shown,
            decision=h.decision if h else 0,
            pending=pending.number if pending else game.decision_number,
        )
        if acted is not None:
            out.acted.CopyFrom(acted.to_proto())
        observation: Any = reveal(game) if view == VIEW_ALL else game.observation(view)
        out.observation.CopyFrom(observation)
        out.events.extend(e.to_proto() for e in events if visible(e, view, game.players))
        return out
