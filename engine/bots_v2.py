"""heuristic v2: a bot that plays its identity, from its own seat's observation only.

Same contract as :mod:`engine.bots`: ``(observation, legal, rng) -> action`` with
``observation`` the bot's own seat's view. It keeps no memory between decisions (the
service calls it with a fresh observation each time), so everything it knows is on the
table: its hand and identity, every received intel, revealed identities, who is locked, the
intel in transit when it may see it, and the chain.

How it plays (rules digest §6, §7 of each edition):

- **It does not kill itself.** Three black (fake) intel kill (§6). It never accepts an intel
  that may be black when it holds two black ones and may decline; it sends a black card
  only when that card coming back to it (every other seat declines, so the sender must
  take it, §4) cannot kill it; it burns (烧毁) its own black intel and passes a dangerous
  intel on with 转移 when it can.
- **It plays its identity.** Every candidate send is scored by where the intel may end up:
  each seat on its route accepts it with an estimated probability, and a card is worth
  something to the bot by its colour and by whether the receiver is itself, an ally (an
  identity revealed as its own), an enemy (revealed as another) or unknown (weighted by
  how many allies are left among the unknown seats). Its own colour (its faction's, from
  the ruleset's ``factions``: 潜伏 red, 军情 and 特工机关 blue; an agent: any true
  intel) is sent to come back or reach allies; black is sent at enemies, best when 锁定
  makes them take it.
- **Interrupts with purpose.** 识破 answers a card aimed at itself; 截获 takes an intel it
  knows it wants; 调虎离山 stops an enemy receiving a known intel that helps the enemy's
  side; 危险情报 hits an enemy's or a likely enemy's hand; 增援 and 机密文件 draw when
  they would.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.action import ACCEPT, DECLARE, DECLINE, PASS, Action
from engine.ruleset import CardTable
from engine.rulesets import get_ruleset
from engine.view import View
from fengsheng.v1 import game_pb2

#: What the bot reads: the protobuf view, or the same fields as plain values (engine.view).
Observed = game_pb2.Observation | View

#: Worth of a hand card by function when discarding or taking (higher: keep).
_KEEP = {"burn": 5, "transfer": 5, "see_through": 4, "lock": 4, "lure_away": 3, "intercept": 3,
         "danger": 3, "reinforce": 2, "decrypt": 1, "swap": 2, "sow_discord": 2, "probe": 1,
         "secret_order": 1, "public_text": 1, "classified": 2}
#: Chain items that hurt their target (answered with 识破 when aimed at the bot).
_HOSTILE = frozenset({"danger", "probe", "lock", "public_text", "secret_order", "transfer"})
_WIN = 6.0  # worth of a win for the bot's side (or a loss, negated)


@dataclass(slots=True)
class _Table:
    """What the bot reads off its observation for one decision."""

    cards: CardTable
    me: int
    identity: int
    blacks: list[int]
    reds: list[int]
    blues: list[int]
    trues: list[int]
    alive: list[bool]
    revealed: dict[int, int]
    ally_share: float
    players: int
    factions: dict[int, str]
    """The ruleset's faction identities (they win together) and their colour, ``red`` / ``blue``."""
    kinds: tuple[int, ...]
    """The identities whose progress the bot weighs: the factions, then the agent where the
    ruleset has one."""

    def side(self, seat: int) -> float:
        """1: the bot or a known ally, 0: a known enemy, else the chance an unknown seat is an
        ally (agents have no allies)."""
        if seat == self.me:
            return 1.0
        if seat in self.revealed:
            same = self.revealed[seat] == self.identity and self.identity in self.factions
            return 1.0 if same else 0.0
        return self.ally_share

    def wants(self, identity: int, card: int) -> bool:
        """Whether ``card`` received counts toward the faction win of ``identity``."""
        c = self.cards
        colour = self.factions.get(identity)
        if colour is not None:
            return (c.is_red if colour == "red" else c.is_blue)[card]
        if identity == game_pb2.AGENT:
            return c.is_true[card]
        return False

    def progress(self, seat: int, identity: int) -> int:
        colour = self.factions.get(identity)
        if colour is not None:
            return (self.reds if colour == "red" else self.blues)[seat]
        if identity == game_pb2.AGENT:
            return self.trues[seat] - 3  # six true intel (再临 §7): three more than a faction needs
        return -9


def _table(obs: Observed) -> _Table:
    rules = get_ruleset(obs.ruleset or "return")
    cards = rules.cards
    n = obs.players or len(obs.seats)
    blacks, reds, blues, trues, alive = [0] * n, [0] * n, [0] * n, [0] * n, [True] * n
    revealed: dict[int, int] = {}
    identity: int = game_pb2.IDENTITY_UNSPECIFIED
    for view in obs.seats:
        s = view.seat
        alive[s] = view.alive
        for c in view.intel:
            if 0 < c <= cards.count:
                blacks[s] += cards.is_black[c]
                reds[s] += cards.is_red[c]
                blues[s] += cards.is_blue[c]
                trues[s] += cards.is_true[c]
        if s == obs.viewer:
            identity = view.identity
        elif view.identity:
            revealed[s] = view.identity
    # allies left among the unknown seats, by the identity table (§1)
    counts = dict(zip((_ENUM.get(i, 0) for i in rules.identities), rules.identity_table.get(n, ()), strict=False))
    mine_left = counts.get(identity, 0) - 1 - sum(1 for i in revealed.values() if i == identity)
    unknown = sum(1 for s in range(n) if s != obs.viewer and s not in revealed)
    factions, kinds = _sides(rules.id)
    share = 0.0
    if identity in factions and unknown:
        share = max(0.0, min(1.0, mine_left / unknown))
    return _Table(cards, obs.viewer, identity, blacks, reds, blues, trues, alive, revealed, share, n, factions, kinds)


_ENUM = {name.lower(): number for name, number in game_pb2.Identity.items()}
_SIDES: dict[str, tuple[dict[int, str], tuple[int, ...]]] = {}


def _sides(ruleset: str) -> tuple[dict[int, str], tuple[int, ...]]:
    """A ruleset's factions by identity enum value, and the identities the bot weighs
    (:attr:`_Table.kinds`); built once per ruleset."""
    found = _SIDES.get(ruleset)
    if found is None:
        rules = get_ruleset(ruleset)
        factions = {_ENUM[i]: colour for i, colour in rules.factions.items()}
        agent = (game_pb2.AGENT,) if "agent" in rules.identities else ()
        found = _SIDES[ruleset] = (factions, (*factions, *agent))
    return found


def _card(action: Action) -> int:
    """The card played or sent, or the one number a ``choose`` picks; 0 if none."""
    if action.kind in ("play", "send"):
        return action.card
    return action.picks[0] if len(action.picks) == 1 else 0


def _target(action: Action) -> int:
    """The one target seat, -1 if none (or several)."""
    return action.to[0] if len(action.to) == 1 else -1


def _fn(t: _Table, card: int) -> str:
    return t.cards.function[card] if 0 < card <= t.cards.count else ""


def _value_at(t: _Table, card: int, seat: int) -> float:
    """How much the bot likes ``card`` being received by ``seat`` (from its own point of view)."""
    c = t.cards
    ally = t.side(seat)
    v = 0.0
    if c.is_black[card]:
        hurt = _WIN if t.blacks[seat] >= 2 else 1.0 + t.blacks[seat]
        if seat == t.me:
            return -hurt * 1.5
        v -= hurt * ally
        v += hurt * (1.0 - ally) * 0.6  # killing an unknown may also end in "last alive"
        return v
    # true intel: the bot's own colour helps its side; the other colour may help an enemy
    for ident in t.kinds:
        if not t.wants(ident, card):
            continue
        near = t.progress(seat, ident) >= 2
        gain = _WIN if near else 1.0
        if seat == t.me:
            if ident == t.identity:
                v += gain
            continue
        if ident == t.identity and ident in t.factions:
            v += gain * ally
        elif ident != t.identity:
            # the chance this seat holds ``ident``: known, or a rough share of the unknown
            if seat in t.revealed:
                p = 1.0 if t.revealed[seat] == ident else 0.0
            else:
                p = (1.0 - ally) * (0.2 if ident == game_pb2.AGENT else 0.45)
            v -= gain * p
    return v


def _accept_chance(t: _Table, seat: int, card: int, face_up: bool, locked: set[int]) -> float:
    """A guess of whether ``seat`` takes ``card`` when it reaches it (others play like v2)."""
    if seat in locked:
        return 1.0
    if face_up:
        return 0.0 if t.cards.is_black[card] else 0.9
    return (0.45, 0.12, 0.0)[min(t.blacks[seat], 2)]


def _route(t: _Table, start: int, step: int) -> list[int]:
    out, s = [], start
    for _ in range(t.players):
        s = (s + step) % t.players
        if s == t.me:
            break
        if t.alive[s]:
            out.append(s)
    return out


def _send_value(t: _Table, action: Action, locked: set[int]) -> float:
    card = _card(action)
    if not card:
        return 0.0
    mode = action.mode or "secret"
    route = [_target(action)] if mode == "direct" else _route(t, t.me, -1 if action.arrow == "left" else 1)
    face_up = mode == "text"
    reach, total = 1.0, 0.0
    for s in route:
        p = _accept_chance(t, s, card, face_up, locked)
        total += reach * p * _value_at(t, card, s)
        reach *= 1.0 - p
    total += reach * _value_at(t, card, t.me)  # back at the sender, who must take it
    return total


def _hand_worth(t: _Table, card: int) -> float:
    keep = float(_KEEP.get(_fn(t, card), 0))
    if t.wants(t.identity, card):
        keep += 1.5
    if t.cards.is_black[card] and t.blacks[t.me] >= 2:
        keep -= 1.0  # a black card it cannot safely send
    return keep


def _best(actions: list[Action], score: dict[Action, float], rng: random.Random) -> Action:
    top = max(score[a] for a in actions)
    return rng.choice([a for a in actions if score[a] >= top - 1e-9])


def heuristic_v2_bot(observation: Observed, actions: Sequence[Action], rng: random.Random) -> Action:
    """heuristic v2 (module docstring): survives, sends for its side, interrupts with purpose."""
    if not actions:
        raise ValueError("no legal action to choose from")
    legal = list(actions)
    if len(legal) == 1:
        return legal[0]
    t = _table(observation)
    kind = observation.pending.kind
    locked = {v.seat for v in observation.seats if v.locked}
    if kind == "send":
        return _send(t, legal, locked, rng)
    if kind in ("arrive", "receive") and (ACCEPT in legal or DECLINE in legal):
        return _arrive(t, observation, legal, rng)
    if kind in ("main", "priority", "respond", "returned"):
        return _play(t, observation, legal, kind, rng)
    if kind == "discard":
        chooses = [a for a in legal if a.kind == "choose"]
        if chooses:
            return min(chooses, key=lambda a: (_hand_worth(t, _card(a)), rng.random()))
    if kind == "choose":
        return _choose(t, observation, legal, rng)
    if kind in ("trigger", "turn_start") and PASS in legal:
        skills = [a for a in legal if a != PASS]
        return rng.choice(skills) if skills and rng.random() < 0.5 else PASS
    return rng.choice(legal)


def _send(t: _Table, legal: list[Action], locked: set[int], rng: random.Random) -> Action:
    sends = [a for a in legal if a.kind == "send"]
    if not sends:
        return rng.choice(legal)
    score = {a: _send_value(t, a, locked) + rng.random() * 0.05 for a in sends}
    return max(sends, key=lambda a: score[a])


def _arrive(t: _Table, obs: Observed, legal: list[Action], rng: random.Random) -> Action:
    tr = obs.transit
    card = tr.card if obs.has_transit else 0
    mine = t.blacks[t.me]
    # 转移: pass an intel that may kill it (or is black) to a likely enemy, who must take it
    transfers = [a for a in legal if a.kind == "play" and _fn(t, _card(a)) == "transfer" and _target(a) >= 0]
    if transfers and DECLINE not in legal and (card == 0 or t.cards.is_black[card]) and mine >= 1:
        return min(transfers, key=lambda a: (t.side(_target(a)), -t.blacks[_target(a)], rng.random()))
    if card:
        good = _value_at(t, card, t.me) >= 0 and not t.cards.is_black[card]
        if t.cards.is_black[card] and transfers and mine >= 1:
            return min(transfers, key=lambda a: (t.side(_target(a)), -t.blacks[_target(a)], rng.random()))
        if ACCEPT in legal and (good or DECLINE not in legal):
            return ACCEPT
        return DECLINE if DECLINE in legal else rng.choice(legal)
    if DECLINE not in legal:
        if transfers and mine >= 2:
            return min(transfers, key=lambda a: (t.side(_target(a)), rng.random()))
        return ACCEPT if ACCEPT in legal else rng.choice(legal)
    sender = tr.sender if obs.has_transit else -1
    trust = t.side(sender) if sender >= 0 else t.ally_share
    if mine >= 2:
        return DECLINE
    # a face-down intel: black about half the time, less from an ally, more from an enemy
    p_accept = (0.5, 0.15)[mine] * (0.4 + 1.2 * trust)
    if t.progress(t.me, t.identity) >= 2:
        p_accept += 0.15  # one more of its colour wins
    return ACCEPT if rng.random() < p_accept else DECLINE


def _play(t: _Table, obs: Observed, legal: list[Action], kind: str, rng: random.Random) -> Action:
    plays = [a for a in legal if a.kind == "play"]
    me = t.me
    chain = obs.chain
    last = chain[-1] if chain else None
    # 识破 an item aimed at the bot by someone else
    if last is not None and last.target == me and last.user != me and last.kind in _HOSTILE:
        counters = [a for a in plays if _fn(t, _card(a)) == "see_through"]
        if counters:
            return rng.choice(counters)
    # burn its own black intel (survival first), else an ally's near death
    burns = [a for a in plays if _fn(t, _card(a)) == "burn"]
    if burns:
        own = {c for v in obs.seats if v.seat == me for c in v.intel}
        for a in burns:
            on = a.on or -1
            if on in own and t.blacks[me] >= 1:
                return a
    # interrupts at a receive: take a known intel it wants, stop an enemy's winning one
    if obs.has_transit and obs.transit.card and last is not None and kind in ("respond", "priority"):
        card = obs.transit.card
        receiver = obs.transit.receiver if obs.transit.receiver >= 0 else obs.transit.holder
        if receiver != me and receiver >= 0:
            worth_there = _value_at(t, card, receiver)
            worth_here = _value_at(t, card, me)
            if worth_here > 0.5 and worth_here > worth_there:
                grab = [a for a in plays if _fn(t, _card(a)) == "intercept"]
                if grab:
                    return rng.choice(grab)
            if worth_there <= -1.0:
                stop = [a for a in plays if _fn(t, _card(a)) == "lure_away"]
                if stop:
                    return rng.choice(stop)
    if kind in ("respond", "returned") or (kind == "priority" and chain):
        return PASS if PASS in legal else rng.choice(legal)
    # the turn player's play phase (or an empty classic window)
    own_turn = obs.turn == me
    useful: list[tuple[float, Action]] = []
    for a in plays:
        fn = _fn(t, _card(a))
        target = _target(a)
        if fn == "reinforce" and own_turn:
            useful.append((1.0 + t.blacks[me], a))
        elif fn == "classified" and own_turn and sum(t.trues) > 4:
            useful.append((1.5, a))
        elif fn == "danger" and target >= 0 and target != me and own_turn:
            useful.append((1.2 - 1.5 * t.side(target), a))
        elif fn == "lock" and target >= 0 and target != me and own_turn:
            blacks_in_hand = [c for c in obs.seats[me].hand if t.cards.is_black[c]]
            if blacks_in_hand and not any(v.locked for v in obs.seats) and t.blacks[me] <= 1:
                useful.append((0.8 + t.blacks[target] - 2.0 * t.side(target), a))
    useful = [u for u in useful if u[0] > 0.3]
    if useful and rng.random() < 0.85:
        return max(useful, key=lambda u: (u[0], rng.random()))[1]
    if DECLARE in legal:
        return DECLARE
    return PASS if PASS in legal else rng.choice(legal)


def _choose(t: _Table, obs: Observed, legal: list[Action], rng: random.Random) -> Action:
    chooses = [a for a in legal if a.kind == "choose"]
    if not chooses:
        return rng.choice(legal)
    hand = set(obs.seats[t.me].hand) if 0 <= t.me < len(obs.seats) else set()
    if all(len(a.picks) == 1 for a in chooses):
        nums = [a.pick for a in chooses]
        if all(n in hand for n in nums):  # its own card to give up: the least worth
            return min(chooses, key=lambda a: (_hand_worth(t, _card(a)), rng.random()))
        if all(0 <= n < t.players for n in nums):
            # a seat (离间's new target …): someone it would rather hurt
            return min(chooses, key=lambda a: (t.side(_card(a)), rng.random()))
        # someone else's card (危险情报): take away the best one
        return max(chooses, key=lambda a: (_KEEP.get(_fn(t, _card(a)), 0), rng.random()))
    return rng.choice(chooses)
