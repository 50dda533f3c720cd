"""Setting a match up: a seeded deal (rulebook p.4 游戏准备; digest §1, §3) or a scenario
position (shared/spec/scenario-format.md), with the invariants checked."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine import deck, rng, ruledata
from engine.errors import SetupError
from engine.state import Frame, Seat, State

IDENTITY_TABLE = ruledata.IDENTITY_TABLE
START_HAND = ruledata.START_HAND


def new_state(ruleset: str, players: int, seed: int, *, tutorial: bool = False) -> State:
    if players not in IDENTITY_TABLE:
        raise SetupError(f"players must be 3 to 7, got {players}")
    if tutorial and players > 5:
        raise SetupError("tutorial mode allows at most 5 players (rulebook p.1 新手教学模式 ①)")
    state = rng.seed_state(seed)
    latent, military, agent = IDENTITY_TABLE[players]
    identities = [0] * latent + [1] * military + [2] * agent
    state = rng.shuffle(state, identities)
    names = [deck.IDENTITIES[(1, 0, 2)[i]] for i in identities[:players]]
    pile = list(deck.ALL_CARDS)
    state = rng.shuffle(state, pile)
    seats = [Seat(identity=name) for name in names]
    for _ in range(START_HAND):
        for s in seats:
            s.hand.append(pile.pop())
    state, first = rng.below(state, players)
    st = State(ruleset=ruleset, players=players, seed=seed, tutorial=tutorial, characters=False,
               rng=state, seats=seats, pile=pile)
    st.stack.append(Frame("turn", seat=first))
    return st


def _cards(value: Any, where: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in value):
        raise SetupError(f"{where}: expected a list of card numbers, got {value!r}")
    for c in value:
        if not 1 <= c <= deck.N_CARDS:
            raise SetupError(f"{where}: card {c} is outside 1..{deck.N_CARDS}")
    return list(value)


def position_state(pos: dict[str, Any]) -> State:
    """A state from a scenario's set-up keys; raises SetupError naming the problem."""
    ruleset = pos.get("ruleset", "return")
    if ruleset != "return":
        raise SetupError(f"unknown ruleset {ruleset!r}")
    seats_in = pos.get("seats")
    if not isinstance(seats_in, list) or not 3 <= len(seats_in) <= 7:
        raise SetupError("seats: a list of 3 to 7 seats is required")
    n = len(seats_in)
    seats: list[Seat] = []
    for i, raw in enumerate(seats_in):
        if not isinstance(raw, dict):
            raise SetupError(f"seat {i}: expected a mapping")
        identity = raw.get("identity")
        if identity not in deck.IDENTITIES:
            raise SetupError(f"seat {i}: identity must be one of {', '.join(deck.IDENTITIES)}, got {identity!r}")
        if raw.get("character"):
            raise SetupError(f"seat {i}: characters are not implemented yet (issue 3)")
        alive = bool(raw.get("alive", True))
        seat = Seat(identity=identity, hand=_cards(raw.get("hand"), f"seat {i} hand"),
                    intel=_cards(raw.get("intel"), f"seat {i} intel"), alive=alive,
                    identity_revealed=bool(raw.get("identity_revealed", not alive)),
                    exposed=bool(raw.get("exposed", True)))
        if not alive and (seat.hand or seat.intel):
            raise SetupError(f"seat {i}: a dead seat cannot hold cards")
        seats.append(seat)
    counts = Counter(s.identity for s in seats)
    latent, military, agent = IDENTITY_TABLE[n]
    if counts["latent"] > latent or counts["military"] > military or counts["agent"] > agent:
        raise SetupError(f"{n} players use at most {latent} latent, {military} military and {agent} agent "
                         f"identity cards; got {dict(counts)}")
    pile_top = _cards(pos.get("pile"), "pile")
    discard = _cards(pos.get("discard"), "discard")
    removed = _cards(pos.get("removed"), "removed")
    placed = pile_top + discard + removed + [c for s in seats for c in s.hand + s.intel]
    dup = sorted(c for c, k in Counter(placed).items() if k > 1)
    if dup:
        raise SetupError(f"cards placed twice: {dup}")
    rest = sorted(set(deck.ALL_CARDS) - set(placed))
    # Internal pile: top = last element; the scenario lists the top first, rest below ascending.
    pile = list(reversed(pile_top + rest))
    turn = pos.get("turn", 0)
    if not isinstance(turn, int) or not 0 <= turn < n or not seats[turn].alive:
        raise SetupError(f"turn: {turn!r} is not a living seat")
    if sum(1 for s in seats if s.alive) < 2:
        raise SetupError("at least two seats must be alive")
    step = pos.get("step", "main")
    seed = int(pos.get("seed", 0))
    st = State(ruleset="return", players=n, seed=seed, tutorial=bool(pos.get("tutorial", False)),
               characters=False, rng=rng.seed_state(seed), seats=seats, pile=pile, discard=discard,
               removed=removed, turn=turn, pile_exhausted_once=bool(pos.get("pile_exhausted_once", False)))
    if step == "start":
        st.stack.append(Frame("turn", seat=turn))
    elif step == "main":
        st.turn_number = 1
        st.stack.append(Frame("turn", seat=turn, stage=3))
        st.stack.append(Frame("main", seat=turn))
    else:
        raise SetupError(f"step must be 'start' or 'main', got {step!r}")
    return st


def zone_counts(st: State) -> Counter[int]:
    """How many zones each card is in (must be exactly one each)."""
    counts: Counter[int] = Counter(st.pile)
    counts.update(st.discard)
    counts.update(st.removed)
    for s in st.seats:
        counts.update(s.hand)
        counts.update(s.intel)
    if st.transit is not None:
        counts[st.transit.card] += 1
    for item in st.chain:
        if item.card:
            counts[item.card] += 1
    return counts
