"""A rated ladder with one colluding pair among honest bots, played in-process on the engine:
what the collusion audit's test (tests/unit/test_ranked_audit_sim.py) and benchmark
(bench/collusion.py) run.

Every account is heuristic v2 (:mod:`engine.bots_v2`, the "normal" house level) deciding
from its own seat's observation. The two colluders share their observations out of band:
at a table with its partner, a colluder reads the partner's observation too (its identity,
its hand, the intel it sent face down) and, when the two are on opposite sides, spares and
helps it (:func:`colluding_decision`). They also queue together: each joins the queue
within two seconds of the other once both are free, so they tend to share tables. Honest
accounts rest a random while between matches and join on their own.

Tables form first come, first served from one queue (the platform's matchmaking without
ratings): the oldest ``players`` tickets make a table. Only the ``return`` ruleset (its
card functions and send modes are read here, from the actions' typed fields).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import Action, Game
from engine.action import ACCEPT, DECLINE
from engine.bots_v2 import heuristic_v2_bot
from engine.rulesets import get_ruleset
from fengsheng.v1 import game_pb2
from services.ranked.audit import DeedRecorder, IntelDeed, MatchFacts, SeatFact, intel_score, team_of

RULESET = "return"
#: hand-card functions aimed at a seat that hurt it (a colluder never aims them at its partner)
_HOSTILE = frozenset({"danger", "probe", "lock", "public_text", "secret_order", "transfer", "sow_discord"})
_IDENTITY = {number: name.lower() for name, number in game_pb2.Identity.items()}


def _first_receiver(action: Action, me: int, alive: list[bool]) -> int:
    """The first seat a ``send`` reaches (direct: its target; else the next living seat in
    its direction, right by default: 再临 flow, ``left`` = -1)."""
    if action.mode == "direct":
        return action.target
    step = -1 if action.arrow == "left" else 1
    n = len(alive)
    s = me
    for _ in range(n):
        s = (s + step) % n
        if alive[s] and s != me:
            return s
    return -1


def _v2(obs: game_pb2.Observation, legal: list[Action], rng: random.Random) -> Action:
    """Heuristic v2 on these legal actions."""
    return heuristic_v2_bot(obs, legal, rng)


def colluding_decision(obs: game_pb2.Observation, partner: game_pb2.Observation, legal: list[Action],
                       rng: random.Random) -> Action:  # fmt: skip
    """Heuristic v2, except towards its partner (whose own observation ``partner`` it was
    handed out of band) when they are on opposite sides: it sends the partner intel the
    partner wants and never a black one, takes the partner's face-down intel only when it
    knows it helps itself and never a black one, and aims no hostile card at the partner
    (a card aimed at the partner alone: ``to`` names just that seat)."""
    me, mate = obs.viewer, partner.viewer
    rules = get_ruleset(RULESET)
    cards = rules.cards
    mine = _IDENTITY.get(obs.seats[me].identity, "")
    theirs = _IDENTITY.get(partner.seats[mate].identity, "")
    alive = [v.alive for v in obs.seats]
    if not alive[mate] or (mine == theirs and mine in rules.factions):
        return _v2(obs, legal, rng)
    kind = obs.pending.kind
    if kind == "send":
        sends = [a for a in legal if a.kind == "send"]
        to_mate = [a for a in sends if _first_receiver(a, me, alive) == mate]
        kind_ones = [a for a in to_mate if a.card and intel_score(RULESET, theirs, a.card) > 0]
        if kind_ones:
            direct = [a for a in kind_ones if a.mode == "direct"]
            return rng.choice(direct or kind_ones)
        safe = [a for a in legal if a not in to_mate or not (a.card and cards.is_black[a.card])]
        return _v2(obs, safe or legal, rng)
    if kind in ("arrive", "receive") and partner.has_transit and partner.transit.sender == mate:
        card = partner.transit.card  # the sender saw its own face-down intel
        if card and cards.is_black[card] and DECLINE in legal:
            return DECLINE
        if card and intel_score(RULESET, mine, card) > 0 and ACCEPT in legal:
            return ACCEPT

    def hostile(a: Action) -> bool:
        return a.kind == "play" and a.to == (mate,) and bool(a.card) and cards.function[a.card] in _HOSTILE

    calm = [a for a in legal if not hostile(a)]
    return _v2(obs, calm or legal, rng)


def play_table(
    accounts: list[str], seed: int, colluders: frozenset[str]
) -> tuple[tuple[str, ...], tuple[IntelDeed, ...], Game]:
    """Play one ``return`` match with ``accounts[seat]`` at each seat; colluders at the table
    together read each other's observation. ``(identities, deeds, game)``."""
    game = Game.new(ruleset=RULESET, players=len(accounts), seed=seed)
    rng = random.Random(seed)
    mates = [s for s, a in enumerate(accounts) if a in colluders]
    partner_of = {mates[0]: mates[1], mates[1]: mates[0]} if len(mates) == 2 else {}
    rec = DeedRecorder()
    while not game.is_over:
        p = game.pending
        assert p is not None
        legal = game.legal_actions(p.seat)
        obs = game.observation(p.seat)
        if p.seat in partner_of and len(legal) > 1:
            action = colluding_decision(obs, game.observation(partner_of[p.seat]), legal, rng)
        else:
            action = heuristic_v2_bot(obs, legal, rng)
        rec.before(game)
        game.apply(p.seat, action)
        rec.after(game)
    outcome = game.outcome
    assert outcome is not None
    return outcome.identities, rec.deeds(RULESET, outcome.identities), game


@dataclass(frozen=True, slots=True)
class Simulation:
    """What :func:`simulate` played: every match's audit facts and who colluded."""

    matches: list[MatchFacts]
    colluders: tuple[str, str]
    accounts: tuple[str, ...]


def simulate(matches: int, *, honest: int = 8, players: int = 5, seed: int = 1, co_queue: bool = True,
             progress: Callable[[int], None] | None = None) -> Simulation:  # fmt: skip
    """``matches`` rated matches among ``honest`` honest accounts and two colluders (who
    queue together unless ``co_queue`` is false: then each queues like an honest account)."""
    rng = random.Random(seed)
    accounts = tuple([f"bot:honest-{i + 1}" for i in range(honest)] + ["bot:colluder-a", "bot:colluder-b"])
    colluders = frozenset(accounts[-2:])
    together = colluders if co_queue else frozenset()  # the accounts that queue as a pair
    # (time, account) of the next queue join; tables form first come first served
    joins: list[tuple[float, str]] = []
    for a in accounts:
        if a not in together:
            heapq.heappush(joins, (rng.expovariate(1 / 30.0), a))
    if together:
        start = rng.expovariate(1 / 30.0)
        heapq.heappush(joins, (start, accounts[-2]))
        heapq.heappush(joins, (start + rng.uniform(0, 2), accounts[-1]))
    queue: list[tuple[float, str]] = []
    free_at: dict[str, float] = {}
    waiting: set[str] = set()  # colluders done with their match, waiting for the other
    out: list[MatchFacts] = []
    while len(out) < matches:
        t, who = heapq.heappop(joins)
        queue.append((t, who))
        if len(queue) < players:
            continue
        table, queue = queue[:players], queue[players:]
        rng.shuffle(table)
        names = [a for _, a in table]
        identities, deeds, _game = play_table(names, rng.randrange(1, 2**62), colluders)
        seats = tuple(
            SeatFact(s, a, team_of(RULESET, identities[s]), int(tj * 1000)) for s, (tj, a) in enumerate(table)
        )
        out.append(MatchFacts(f"sim-{seed}-{len(out)}", RULESET, t, seats, deeds))
        end = t + rng.uniform(300, 900)  # the match's length
        for a in names:
            free_at[a] = end
            if a not in together:
                heapq.heappush(joins, (end + rng.expovariate(1 / 30.0), a))
        waiting.update(a for a in together if a in names)
        if together and waiting == together:  # both free: they queue together once the later one is done
            when = max(free_at[a] for a in together) + rng.expovariate(1 / 10.0)
            for i, a in enumerate(sorted(together)):
                heapq.heappush(joins, (when + (rng.uniform(0, 2) if i else 0.0), a))
            waiting.clear()
        if progress is not None:
            progress(len(out))
    return Simulation(out, (accounts[-2], accounts[-1]), accounts)
