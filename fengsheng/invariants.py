"""Invariant checks run after every decision of random play (``fengsheng simulate
--check`` and the random-play tests):

1. each card of the ruleset's deck (its CardTable) is in exactly one zone;
2. ``Game.restore(game.snapshot())`` continues identically: at random decisions a restored
   copy shadows the game, taking the same actions, and must produce identical snapshots;
3. no observation holds another seat's hand card or unrevealed identity, and the
   face-down intel in transmission or a face-down card on the chain is shown only to a
   seat that was shown it by an event (its sender, a 破译 user, the 试探 target …); a
   face-down card of the discard pile (classic D12) only to the seat that discarded it;
4. no free text a viewer reads names what that viewer may not know (:class:`TextCheck`):
   the open decision's prompt, the outcome's reason and every event text each seat and a
   spectator receive are checked for card numbers, identities and characters against
   what the viewer's structured observations have shown it so far.
"""

from __future__ import annotations

import random

from engine import Game
from engine.notation import parse
from engine.state import State
from fengsheng.text_leaks import TextCheck, mentions
from fengsheng.v1 import game_pb2


class Checker:
    """Callable ``(game, decisions)`` for :func:`fengsheng.simulate.play_random`."""

    def __init__(self, seed: int, *, restore_every: int = 40, shadow_steps: int = 6,
                 observe_all: bool = True) -> None:
        self.rng = random.Random(seed * 7919 + 1)
        self.restore_every = restore_every
        self.shadow_steps = shadow_steps
        self.observe_all = observe_all
        self.shadow: Game | None = None
        self.shadow_left = 0
        self.restores = 0
        self.text: TextCheck | None = None

    def __call__(self, game: Game, decisions: int) -> None:
        game.check_zones()
        self._check_restore(game)
        self._check_observations(game)
        self._check_public_choices(game)
        p = game.state.prompt
        # a decision whose numbered options all name seats (风度's ``choose S`` at 8–9 players;
        # 谍战篇 毒计's ``choose take`` / ``choose S``): words such as ``pass`` do not count
        numbered = [o.to[-1] if o.to else o.picks[0] for o in (p.options if p is not None else [])
                    if o.kind == "choose" and not o.face and (o.to or len(o.picks) == 1)]
        self._seat_choice = bool(numbered) and all(n < game.players for n in numbered)

    # -------------------------------------------------------------- public log
    _seen_events = 0
    _public_before: frozenset[int] = frozenset()
    _seat_choice = False

    def _check_public_choices(self, game: Game) -> None:
        """A card named by a public ``choose N`` must lie in a public zone (discard pile, an
        intel area, face up in transit or on the chain) when it was chosen (the state of the
        previous check) or now; otherwise the log told everyone a hidden card (e.g. the card
        given to another player). Numbers below 7 may be seats and are not checked, nor a
        number below the player count when the decision listed only such numbers."""
        events = game.events
        start = self._seen_events
        self._seen_events = len(events)
        now = public_cards(game)
        # A card a public event of this step lists was shown to all, even if it has left the
        # public zones since (a discarded card reshuffled into the pile by 真伪莫辨 resolving
        # in the same chain).
        shown = {c for e in events[start:] if e.visible_to(-1) for c in e.cards}
        for e in events[start:]:
            if e.kind != "action" or not e.visible_to(-1):
                continue
            line = e.args.get("action")  # the public variant of a hidden action names no act
            if not isinstance(line, str):
                continue
            act = parse(line)
            if act.kind != "choose" or len(act.picks) != 1 or act.face or act.to or act.pick < 7:
                continue
            if self._seat_choice and act.pick < game.players:
                continue  # a seat (the previous decision listed seats only)
            card = act.pick
            if card not in self._public_before and card not in now and card not in shown:
                raise AssertionError(f"public log shows {e.text!r} but card {card} was never in a public zone")
        self._public_before = now

    # -------------------------------------------------------------- snapshots
    def _check_restore(self, game: Game) -> None:
        if self.shadow is not None:
            seat, action = game.history[-1]
            self.shadow.apply(seat, action)
            self.shadow_left -= 1
            if self.shadow_left == 0 or game.is_over:
                mine, theirs = game.snapshot(), self.shadow.snapshot()
                if mine != theirs:
                    raise AssertionError(f"restored game diverged after {self.shadow_steps} actions "
                                         f"(decision {game.decision_number})")
                self.shadow = None
        elif not game.is_over and self.rng.randrange(self.restore_every) == 0:
            data = game.snapshot()
            clone = Game.restore(data)
            if clone.snapshot() != data:
                raise AssertionError("snapshot does not round-trip byte for byte")
            self.shadow = clone
            self.shadow_left = self.shadow_steps
            self.restores += 1

    # -------------------------------------------------------------- hidden information
    def _check_observations(self, game: Game) -> None:
        st = game.state
        p = st.prompt
        viewers = range(-1, st.players) if self.observe_all else sorted({-1, p.seat if p else -1})
        if self.text is None:
            self.text = TextCheck(st.players)
        self.text.begin(game)
        for viewer in viewers:
            obs = game.observation(viewer)
            check_observation(game, st, viewer, obs)
            if self.observe_all or viewer == -1:  # a seat's knowledge needs every decision
                self.text.check(game, viewer, obs)
        self.text.end(game)


def public_cards(game: Game) -> frozenset[int]:
    """Cards everyone can see now."""
    st = game.state
    cards = set(st.discard) - {card for card, _ in st.ext.face_down_discards()}
    for p in st.seats:
        cards.update(p.intel)
    if st.transit is not None and st.transit.face_up:
        cards.add(st.transit.card)
    hidden = game.ruleset.face_down_kinds
    cards.update(i.card for i in st.chain if i.card and i.kind not in hidden)
    return frozenset(cards)


def seen_by(game: Game, viewer: int, card: int, since: int) -> bool:
    """Whether an event from index ``since`` on showed ``card`` to ``viewer``."""
    for e in reversed(game.events):
        if e.index < since:
            return False
        if card in e.cards and e.visible_to(viewer) and e.audience:
            return True
    return False


def check_observation(game: Game, st: State, viewer: int, obs: game_pb2.Observation) -> None:
    seats = st.seats
    for j, sv in enumerate(obs.seats):
        if j == viewer:
            if sorted(sv.hand) != sorted(seats[j].hand):
                raise AssertionError(f"seat {viewer}'s own hand is wrong in its observation")
            continue
        if sv.hand:
            raise AssertionError(f"observation of {viewer} shows seat {j}'s hand")
        if sv.identity and not seats[j].identity_revealed:
            raise AssertionError(f"observation of {viewer} shows seat {j}'s hidden identity")
        if viewer == -1 and (sv.hand_count != len(seats[j].hand) or list(sv.intel) != seats[j].intel):
            raise AssertionError(f"the public view of seat {j}'s zones is wrong")
    check_discard(st, viewer, obs)
    t = st.transit
    if t is not None and not t.face_up and obs.transit.card:
        entered = _entered_transit(game, t.card)
        if not seen_by(game, viewer, t.card, entered):
            raise AssertionError(f"observation of {viewer} shows the face-down intel {t.card} unseen")
    for item, shown in zip(st.chain, obs.chain, strict=True):
        if item.kind in game.ruleset.face_down_kinds and shown.card and viewer not in (item.user, item.target):
            raise AssertionError(f"observation of {viewer} shows a face-down {item.kind}")
    if viewer != (st.prompt.seat if st.prompt else None) and len(obs.legal_actions):
        raise AssertionError(f"observation of {viewer} lists another seat's legal actions")
    if obs.outcome.identities and not st.over:
        raise AssertionError(f"observation of {viewer} names every identity before the game is over")


def check_discard(st: State, viewer: int, obs: game_pb2.Observation) -> None:
    """The discard pile as ``viewer`` sees it: every face-up card by number, in order; a
    face-down one (classic §12 D12) as 0 unless ``viewer`` discarded it."""
    if len(obs.discard) != len(st.discard):
        raise AssertionError(f"observation of {viewer} has {len(obs.discard)} discards, not {len(st.discard)}")
    owner = dict(reversed(st.ext.face_down_discards()))  # the first record of a card counts
    face_down = [i for i, c in enumerate(st.discard) if c in owner]
    if list(obs.discard_face_down) != face_down:
        raise AssertionError(f"observation of {viewer} marks discards {list(obs.discard_face_down)} face down, "
                             f"not {face_down}")
    for i, (card, shown) in enumerate(zip(st.discard, obs.discard, strict=True)):
        if card not in owner:
            if shown != card:
                raise AssertionError(f"observation of {viewer} shows face-up discard {card} as {shown}")
        elif shown and owner[card] != viewer:
            raise AssertionError(f"observation of {viewer} shows seat {owner[card]}'s face-down discard "
                                 f"{card} (position {i})")
        elif owner[card] == viewer and shown != card:
            raise AssertionError(f"observation of {viewer} hides its own face-down discard {card}")


def _entered_transit(game: Game, card: int) -> int:
    """Index of the latest event that put ``card`` in transit (send / swap)."""
    for e in reversed(game.events):
        if e.kind in ("send", "pile_send", "swap") and card in e.cards:
            return e.index
    return 0


class MatchMirror:
    """A served match replayed from its settings and action history with every invariant
    checked at each decision (a :class:`Checker`), to check what a server returned to a
    viewer: the fuzz tests sync it from Redis and hand it each observation the gateway or
    the engine service answered (:meth:`check_view`)."""

    def __init__(self, *, ruleset: str, players: int, seed: int, tutorial: bool, characters: bool) -> None:
        self.game = Game.new(ruleset=ruleset or "return", players=players, seed=seed, tutorial=tutorial,
                             characters=characters)
        self.checker = Checker(seed)
        self.checker(self.game, 0)  # what every viewer sees before anyone acts

    def advance(self, history: list[tuple[int, int, str]]) -> None:
        """Apply the history entries (decision, seat, action) not applied yet."""
        for decision, seat, action in history[len(self.game.history):]:
            if decision != self.game.decision_number:
                raise AssertionError(f"history entry for decision {decision} at decision {self.game.decision_number}")
            self.game.apply(seat, action)
            self.checker(self.game, len(self.game.history))

    def check_view(self, viewer: int, obs: game_pb2.Observation) -> None:
        """``obs`` (served to ``viewer``, -1 a spectator, at a decision not after the
        mirror's) shows no card, identity or character the viewer was not shown, and its
        texts name none; its events are the engine's, as that viewer receives them."""
        text = self.checker.text
        assert text is not None  # the first check ran in __init__
        if viewer not in text.known and viewer >= 0:
            raise AssertionError(f"no knowledge recorded for seat {viewer}")
        k = text.knowledge(viewer)
        who = "a spectator" if viewer < 0 else f"seat {viewer}"
        shown = {c for c in obs.discard if c}  # 0: a face-down discard (classic D12)
        if obs.transit.card:
            shown.add(obs.transit.card)
        shown.update(item.card for item in obs.chain if item.card)
        for j, sv in enumerate(obs.seats):
            shown.update(sv.intel)
            if j != viewer:
                if sv.hand:
                    raise AssertionError(f"{who} was served seat {j}'s hand {list(sv.hand)}")
                if sv.identity and not k.knows_identity(j):
                    raise AssertionError(f"{who} was served seat {j}'s hidden identity")
                if sv.character and not k.knows_character(j):
                    raise AssertionError(f"{who} was served seat {j}'s face-down character")
            else:
                shown.update(sv.hand)
        events = self.game.events
        for e in obs.events:
            mine = events[e.index] if 0 <= e.index < len(events) else None
            if mine is None or not mine.visible_to(viewer) or mine.text != e.text:
                raise AssertionError(f"{who} was served event {e.index} {e.text!r}, not the engine's line for it")
            shown.update(e.cards)
        unseen = sorted(c for c in shown if not k.knows_card(c))
        if unseen:
            raise AssertionError(f"{who} was served cards {unseen} it was never shown")
        players = len(obs.seats)
        for what, line in (("prompt", obs.pending.prompt), ("outcome", obs.outcome.reason)):
            if line:
                m = mentions(line, players, subject=tuple(obs.outcome.winners) if what == "outcome" else (),
                             ruleset=self.game.state.ruleset)
                leak = text.leak(self.game, k, viewer, m)
                if leak:
                    raise AssertionError(f"the {what} {line!r} served to {who} names {leak}")
