"""A seat's belief over the other seats' identities (issue 14 point 2).

Exact over the identity assignments consistent with what the seat knows: every way of
dealing the ruleset's identity cards (:attr:`Ruleset.identity_table`) to the seats that
gives the seat its own identity, the revealed seats theirs and the seats it was shown in
private (老枪 …) theirs. At most a few hundred assignments (7 players), so the tracker
keeps them all and weighs each by the likelihood of the public actions under a policy
model: ``P(what a seat did | its identity)`` for a few kinds of public act, each named by a
key (:func:`Belief.features`):

- ``send:<colour>:<mode>[:self]``: the intel a seat sent, seen when someone receives it
  (the sender knew the card); ``<mode>`` is ``secret`` / ``direct`` / ``text``, or in
  a ruleset that sends by arrows the way it went, ``left`` / ``right`` / ``up``;
- ``accept|decline:<colour>``: taking or refusing an intel, its colour when face up;
- ``play:<function>[:to]``: a card used, and whether on another seat.

The table (``engine/belief_model.json``) is counted from self-play of the heuristic v2 bot
by ``bench/belief.py --fit`` on deals apart from the ones it reports on; a key the table
lacks weighs nothing. The tracker reads events only (:class:`engine.game.Event`,
``fengsheng.v1.Event`` or the SDK's typed event: the seat's own view), by their kind and
typed arguments, never their text (:func:`typed`), and the seat views of an observation, so
the SDK's bots can use it (:mod:`fengsheng.bot.belief`); :meth:`Belief.prior` feeds
:func:`engine.determinize.determinize`. Ruleset-generic: identities and colours come from
the ruleset.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

from engine.determinize import IDENTITY_ID, IdentityPrior, private_identities
from engine.ruleset import Ruleset
from engine.rulesets import get_ruleset
from fengsheng.v1 import game_pb2

#: The policy model: ruleset -> key -> identity -> log P(key | identity).
MODEL_FILE = Path(__file__).with_name("belief_model.json")
_MODELS: dict[str, dict[str, dict[str, float]]] = {}


def model(ruleset: str) -> dict[str, dict[str, float]]:
    """The fitted policy model of a ruleset (empty when none was fitted)."""
    found = _MODELS.get(ruleset)
    if found is None:
        data = json.loads(MODEL_FILE.read_text(encoding="utf-8")) if MODEL_FILE.exists() else {}
        for rid, table in data.items():
            _MODELS[rid] = table
        found = _MODELS.setdefault(ruleset, {})
    return found

#: Event kinds of an intel received: ``received`` (风声再临, classic), ``receive`` (谍战篇 §4.4).
RECEIVED = frozenset({"received", "receive"})


def typed(e: Any) -> tuple[str, dict[str, Any], Any]:
    """``(kind, args by name, the action as a value or None)`` of an event: the engine's
    :class:`engine.game.Event`, a ``fengsheng.v1.Event`` (its ``EventArg`` list and
    ``action``), or the SDK's typed event (:class:`fengsheng_bot.values.Event`). The action
    is any value with ``kind``, ``card``, ``alt`` and ``to``."""
    if isinstance(e, game_pb2.Event):
        args: dict[str, Any] = {}
        for a in e.args:
            which = a.WhichOneof("value")
            if which is not None:
                value = getattr(a, which)
                args[a.name] = tuple(value.values) if which in ("seats", "cards", "ids") else value
        return e.kind, args, e.action if e.HasField("action") else None
    return e.kind, e.args, e.action


class Belief:
    """Seat ``seat``'s probability over every seat's identity in a match of ``ruleset``
    with ``players`` seats; feed it the events the seat sees (:meth:`update`) and the
    seat's observation (:meth:`observe`) as the game goes."""

    def __init__(self, ruleset: str | Ruleset, players: int, seat: int, *,
                 table: dict[str, dict[str, float]] | None = None, strength: float = 1.0) -> None:
        self.rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.players = players
        self.seat = seat
        #: The policy model (key -> identity -> log-likelihood) and how much to trust it.
        self.table = table if table is not None else model(self.rules.id)
        self.strength = strength
        counts = self.rules.identity_table[players]
        deck = [ident for ident, n in zip(self.rules.identities, counts, strict=True) for _ in range(n)]
        #: Every distinct deal of the identity cards to the seats.
        self.assignments: list[tuple[str, ...]] = sorted(set(permutations(deck)))
        self.logw = [0.0] * len(self.assignments)
        self.alive = [True] * len(self.assignments)
        self._seen = -1
        self._sender = -1
        self._mode = ""
        self._face_up = 0
        self._shown: dict[int, str] = {}
        cards = self.rules.cards
        self._red, self._blue, self._black = cards.is_red, cards.is_blue, cards.is_black
        self._fn = cards.function

    # ------------------------------------------------------------------ facts
    def fix(self, seat: int, identity: str) -> None:
        """``seat``'s identity is known to be ``identity`` (its own, revealed, shown)."""
        for k, a in enumerate(self.assignments):
            if a[seat] != identity:
                self.alive[k] = False

    def observe(self, obs: Any) -> None:
        """Read the identities ``obs`` shows (the seat's own, revealed ones) and its events:
        a ``fengsheng.v1.Observation``, or the SDK's view of one (its ``seats`` read through,
        its ``events`` typed values: :func:`typed`)."""
        for sv in obs.seats:
            ident = IDENTITY_ID.get(sv.identity, "")
            shown = ident in self.rules.identities and (sv.seat == self.seat or sv.identity_revealed)
            if shown and self._shown.get(sv.seat) != ident:
                self._shown[sv.seat] = ident
                self.fix(sv.seat, ident)
        if obs.events:
            self.update(obs.events)

    # ------------------------------------------------------------------ the policy model
    def colour(self, card: int) -> str:
        """A card's colours as one word: ``r``, ``b``, ``k`` (black) in that order, or ``-``."""
        if not 0 < card < len(self._fn):
            return "?"
        return "".join(c for c, on in (("r", self._red[card]), ("b", self._blue[card]), ("k", self._black[card]))
                       if on) or "-"

    def features(self, events: Iterable[Any]) -> list[tuple[int, str]]:
        """The new public acts in ``events`` as ``(seat, key)`` (each event read once), read
        from each event's kind and typed arguments (:func:`typed`), never from its text:

        - a ``send`` event names the sender, and its mode: its ``id`` (密电 / 文本, or an
          arrow ``left`` / ``right`` / ``up``), else ``direct`` when it names the
          target seat (``seat2``); a face-up send (no audience) shows the card;
        - the intel's colour is seen when someone receives it (``received``, or
          ``receive`` where a ruleset names it so): the sender knew the card, so that is the sender's act;
        - an ``action`` event's action (as a value) gives accepts, declines and cards played."""
        out: list[tuple[int, str]] = []
        for e in events:
            if e.index <= self._seen:
                continue
            self._seen = e.index
            kind, args, act = typed(e)
            if kind == "send":
                self._sender = e.seat
                mode = args.get("id")
                self._mode = mode if isinstance(mode, str) else ("direct" if "seat2" in args else "")
                self._face_up = e.cards[0] if e.cards and not e.audience else 0  # a face-up send
            elif kind in RECEIVED and e.cards and self._sender >= 0:
                key = f"send:{self.colour(e.cards[0])}:{self._mode}" + (":self" if e.seat == self._sender else "")
                out.append((self._sender, key))
                self._sender = -1
                self._face_up = 0
            elif kind == "turn_end":
                self._sender = -1
                self._face_up = 0
            elif act is not None:
                who = e.seat
                if act.kind in ("accept", "decline"):
                    out.append((who, f"{act.kind}:{self.colour(self._face_up) if self._face_up else 'hidden'}"))
                elif act.kind == "play":
                    card = act.card
                    fn = act.alt or (self._fn[card] if 0 < card < len(self._fn) else "?")
                    targeted = bool(act.to) and tuple(act.to) != (who,)
                    out.append((who, f"play:{fn}" + (":to" if targeted else "")))
        return out

    def update(self, events: Iterable[Any]) -> None:
        """Read new events (each is read once, by its index) and weigh the assignments."""
        events = list(events)
        known = private_identities([e for e in events if e.index > self._seen], self.seat, self.rules.identities)
        for s, ident in known.items():
            if self._shown.get(s) != ident:
                self._shown[s] = ident
                self.fix(s, ident)
        k = self.strength
        for who, key in self.features(events):
            row = self.table.get(key)
            if row is None or who == self.seat or not 0 <= who < self.players:
                continue
            for i, a in enumerate(self.assignments):
                if self.alive[i]:
                    self.logw[i] += k * row.get(a[who], 0.0)

    # ------------------------------------------------------------------ answers
    def weights(self) -> list[float]:
        """The normalised probability of each assignment (0 for inconsistent ones)."""
        live = [w for w, ok in zip(self.logw, self.alive, strict=True) if ok]
        if not live:  # nothing consistent (a ruleset moving identity cards): uniform
            return [1.0 / len(self.assignments)] * len(self.assignments)
        top = max(live)
        raw = [math.exp(w - top) if ok else 0.0 for w, ok in zip(self.logw, self.alive, strict=True)]
        total = sum(raw)
        return [x / total for x in raw]

    def marginals(self, *, uniform: bool = False) -> list[dict[str, float]]:
        """Per seat: identity -> probability. ``uniform``: the consistent-uniform prior
        (every consistent assignment equally likely), the baseline the bench compares to."""
        if uniform:
            n = sum(self.alive) or len(self.assignments)
            ws = [1.0 / n if ok else 0.0 for ok in self.alive] if any(self.alive) else [1.0 / n] * n
        else:
            ws = self.weights()
        out: list[dict[str, float]] = [dict.fromkeys(self.rules.identities, 0.0) for _ in range(self.players)]
        for a, w in zip(self.assignments, ws, strict=True):
            if w:
                for s, ident in enumerate(a):
                    out[s][ident] += w
        return out

    def same_side(self) -> list[float]:
        """Per seat: the probability it is on this seat's side (the same faction identity,
        ``Ruleset.factions``; an identity with no faction colour, an agent, has no side but
        itself)."""
        ws = self.weights()
        out = [0.0] * self.players
        factions = self.rules.factions
        for a, w in zip(self.assignments, ws, strict=True):
            if w:
                mine = a[self.seat] if 0 <= self.seat < self.players else ""
                for s, ident in enumerate(a):
                    if s == self.seat or (ident == mine and ident in factions):
                        out[s] += w
        return out

    def prior(self, seats: Sequence[int] | None = None) -> IdentityPrior:
        """The belief as a determinization prior over ``seats`` (default: every other seat)."""
        seats = tuple(seats if seats is not None else (s for s in range(self.players) if s != self.seat))
        merged: dict[tuple[str, ...], float] = {}
        for a, w in zip(self.assignments, self.weights(), strict=True):
            if w:
                key = tuple(a[s] for s in seats)
                merged[key] = merged.get(key, 0.0) + w
        keys = list(merged)
        return seats, keys, [merged[k] for k in keys]


__all__ = ["Belief"]
