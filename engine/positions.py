"""The one scenario position parser (docs/scenarios.md, the shared scenario format):
:func:`parse_position` reads the seats (identity, character, hand, intel, alive, lost …),
the zones a position places (pile top, discard pile, removed cards; the rest of the deck
below the pile top, ascending), whose turn it is, the step to start at and the deaths
before the position, and builds the state. A ruleset describes its edition with a
:class:`PositionRules` (its seat counts, identities, characters, steps) and reads its own
keys through its hooks (``seat_keys`` + ``read_seat``, ``relations``) and gives the frames
that start the match at each step (``frames``).
Also the count of every card's zones, which the core checks for every ruleset
(:func:`zone_counts`, ``Game.check_zones``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import marks, rng
from engine.errors import SetupError
from engine.state import Frame, Kill, MatchExt, Seat, SeatExt, State

#: The seat keys every ruleset reads (shared/spec/scenario-format.md); a ruleset adds its own
#: (:attr:`PositionRules.seat_keys`). Any other key is an error, so a typo (``intell: [5]``)
#: cannot silently leave a seat empty.
SEAT_KEYS = frozenset({"identity", "character", "exposed", "hand", "intel", "alive", "identity_revealed"})


@dataclass(frozen=True, slots=True)
class PositionRules:
    """What a ruleset's positions may hold: the core's parser checks a position against it."""

    ruleset: str
    seats: tuple[int, int]
    """The fewest and most seats a position may have."""
    identities: Sequence[str]
    characters: Container[str]
    """Every character of the ruleset's table."""
    cards: Sequence[int]
    """Every card number of the deck."""
    steps: Sequence[str]
    """The steps a position may start at (``step:``; default ``main``, the turn player's
    play phase with the intel not yet sent)."""
    frames: Callable[[State, str, int], list[Frame]]
    """The frames that start the match at ``step`` of ``turn``'s turn, bottom first (raises
    SetupError for a step the position cannot start at)."""
    seat_record: Callable[[], SeatExt] = SeatExt
    match_record: Callable[[], MatchExt] = MatchExt
    seat_keys: frozenset[str] = frozenset()
    """The seat keys of this edition beyond :data:`SEAT_KEYS` (read by :attr:`read_seat`)."""
    lost: bool = False
    """A seat may be written ``lost: true``: out of the game without dying
    (:class:`engine.marks.Lost`)."""
    revealed_when_dead: bool = True
    """A dead seat's identity is revealed unless the position says otherwise."""
    tutorial: bool = False
    """A position may set ``tutorial: true``."""
    playable: Callable[[str], str] | None = None
    """Why a character of the table cannot be played yet ("" when it can)."""
    read_seat: Callable[[int, dict[str, Any], Seat], None] | None = None
    """Reads the edition's own keys of seat ``i`` into its seat (its record); raises
    SetupError."""
    check_seats: Callable[[list[Seat]], None] | None = None
    """Checks the seats together (identity counts); raises SetupError."""
    relations: Callable[[dict[str, Any], list[Seat]], None] | None = None
    """Reads the position's ``relations:`` into the seats; None: the edition has none."""
    unplaced_steps: frozenset[str] = frozenset()
    """Steps at which the characters are not placed yet (the rest start with them placed:
    :class:`engine.marks.Placed`)."""


def parse_position(pos: dict[str, Any], rules: PositionRules) -> State:
    """A state from a scenario's set-up keys, started at its step; SetupError names the
    problem."""
    ruleset = pos.get("ruleset", rules.ruleset)
    if ruleset != rules.ruleset:
        raise SetupError(f"unknown ruleset {ruleset!r}")
    seats_in = pos.get("seats")
    low, high = rules.seats
    if not isinstance(seats_in, list) or not low <= len(seats_in) <= high:
        raise SetupError(f"seats: a list of {low} to {high} seats is required")
    known = SEAT_KEYS | rules.seat_keys | ({"lost"} if rules.lost else set())
    seats: list[Seat] = []
    lost: list[int] = []
    for i, raw in enumerate(seats_in):
        seat = _seat(i, raw, rules, known)
        if rules.lost and raw.get("lost"):
            lost.append(i)
        seats.append(seat)
    if rules.check_seats is not None:
        rules.check_seats(seats)
    n_cards = len(rules.cards)
    pile, discard, removed = zones(pos, seats, rules.cards, n_cards)
    turn, step = turn_and_step(pos, seats, rules.steps)
    relations = pos.get("relations")
    if rules.relations is not None:
        rules.relations(relations or {}, seats)
    elif relations:
        raise SetupError(f"relations: the {rules.ruleset} ruleset has none")
    seed = int(pos.get("seed", 0))
    st = State(ruleset=rules.ruleset, players=len(seats), seed=seed,
               tutorial=bool(pos.get("tutorial", False)) if rules.tutorial else False,
               characters=any(s.character for s in seats), rng=rng.seed_state(seed), seats=seats, pile=pile,
               discard=discard, removed=removed, turn=turn,
               pile_exhausted_once=bool(pos.get("pile_exhausted_once", False)), ext=rules.match_record())
    for i in lost:
        marks.add(st, marks.Lost(i))
    st.kills = position_deaths(pos, seats, lost)
    if st.characters and step not in rules.unplaced_steps:
        marks.add(st, marks.Placed())
    if step == "main":
        st.turn_number = 1
    st.stack.extend(rules.frames(st, step, turn))
    return st


def _seat(i: int, raw: Any, rules: PositionRules, known: frozenset[str] | set[str]) -> Seat:
    """Seat ``i`` of a position, its edition's keys read by the ruleset's hook."""
    if not isinstance(raw, dict):
        raise SetupError(f"seat {i}: expected a mapping")
    unknown = sorted(str(k) for k in set(raw) - known)
    if unknown:
        raise SetupError(f"seat {i}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    identity = raw.get("identity")
    if identity not in rules.identities:
        raise SetupError(f"seat {i}: identity must be one of {', '.join(rules.identities)}, got {identity!r}")
    character = raw.get("character") or ""
    if character and character not in rules.characters:
        raise SetupError(f"seat {i}: unknown character {character!r}")
    if character and rules.playable is not None and rules.playable(character):
        raise SetupError(f"seat {i}: character {character!r} {rules.playable(character)}")
    alive = bool(raw.get("alive", True)) and not (rules.lost and raw.get("lost", False))
    n_cards = len(rules.cards)
    seat = Seat(identity=str(identity), hand=card_list(raw.get("hand"), f"seat {i} hand", n_cards),
                intel=card_list(raw.get("intel"), f"seat {i} intel", n_cards), alive=alive,
                identity_revealed=bool(raw.get("identity_revealed", rules.revealed_when_dead and not alive)),
                exposed=bool(raw.get("exposed", True)), character=character, ext=rules.seat_record())
    if not alive and (seat.hand or seat.intel):
        raise SetupError(f"seat {i}: a dead seat cannot hold cards")
    if rules.read_seat is not None:
        rules.read_seat(i, raw, seat)
    return seat


def card_list(value: Any, where: str, n_cards: int) -> list[int]:
    """The card numbers (1..``n_cards``) listed at ``where`` of a position; none if absent."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in value):
        raise SetupError(f"{where}: expected a list of card numbers, got {value!r}")
    for c in value:
        if not 1 <= c <= n_cards:
            raise SetupError(f"{where}: card {c} is outside 1..{n_cards}")
    return list(value)


def zones(pos: dict[str, Any], seats: Sequence[Seat], all_cards: Iterable[int],
          n_cards: int) -> tuple[list[int], list[int], list[int]]:
    """The position's pile (internal order: top = last), discard pile and removed cards. Every
    card not placed anywhere (hands, intel, the listed pile top, discard, removed) goes below
    the listed pile top in ascending order; a card placed twice is a set-up error."""
    pile_top = card_list(pos.get("pile"), "pile", n_cards)
    discard = card_list(pos.get("discard"), "discard", n_cards)
    removed = card_list(pos.get("removed"), "removed", n_cards)
    placed = pile_top + discard + removed + [c for s in seats for c in s.hand + s.intel]
    dup = sorted(c for c, k in Counter(placed).items() if k > 1)
    if dup:
        raise SetupError(f"cards placed twice: {dup}")
    rest = sorted(set(all_cards) - set(placed))
    # Internal pile: top = last element; the scenario lists the top first, rest below ascending.
    return list(reversed(pile_top + rest)), discard, removed


def turn_and_step(pos: dict[str, Any], seats: Sequence[Seat], steps: Sequence[str]) -> tuple[int, str]:
    """Whose turn it is (a living seat; at least two seats alive) and the step to start at
    (one of the ruleset's ``steps``, default ``main``)."""
    turn = pos.get("turn", 0)
    if not isinstance(turn, int) or not 0 <= turn < len(seats) or not seats[turn].alive:
        raise SetupError(f"turn: {turn!r} is not a living seat")
    if sum(1 for s in seats if s.alive) < 2:
        raise SetupError("at least two seats must be alive")
    step = pos.get("step", "main")
    if step not in steps:
        raise SetupError(f"step must be one of {', '.join(steps)}, got {step!r}")
    return turn, str(step)


def zone_counts(st: State) -> Counter[int]:
    """How many zones each card is in (``Game.check_zones``: exactly one each). The zones are
    the core's, the same in every ruleset: the pile, the discard pile, removed cards, hands,
    intel areas, the intel in transmission (card 0: none, while an effect has taken it away
    and not yet put another in its place) and the cards of the response chain (played or
    held by an item)."""
    counts: Counter[int] = Counter(st.pile)
    counts.update(st.discard)
    counts.update(st.removed)
    for s in st.seats:
        counts.update(s.hand)
        counts.update(s.intel)
    if st.transit is not None and st.transit.card:
        counts[st.transit.card] += 1
    for item in st.chain:
        if item.card:
            counts[item.card] += 1
        counts.update(item.held)
    return counts


def position_deaths(pos: dict[str, Any], seats: Sequence[Seat], lost: Collection[int] = ()) -> list[Kill]:
    """The deaths before the position (``State.kills``, in the order they happened): every
    seat written ``alive: false`` that did not lose (``lost``) died. ``deaths:`` lists them
    first died first, each a seat number or ``{seat: S, killers: [..], true_intel: N,
    cause: ID}`` (who is credited with the kill, the true intel the seat held, the card
    function or skill that killed); dead seats it leaves out follow in seat order, credited
    to nobody (docs/scenarios.md; docs/rule-decisions.md, 31). Missions counting
    deaths ("the second to die", "nobody died", "kill a player with no true intel") read
    these records."""
    raw = pos.get("deaths")
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise SetupError(f"deaths: expected a list of seats (first died first), got {raw!r}")
    dead = [i for i, s in enumerate(seats) if not s.alive and i not in lost]
    kills: list[Kill] = []
    for entry in raw:
        spec: dict[str, Any] = entry if isinstance(entry, dict) else {"seat": entry}
        unknown = sorted(str(k) for k in set(spec) - {"seat", "killers", "true_intel", "cause"})
        if unknown:
            raise SetupError(f"deaths: unknown keys {', '.join(unknown)} (known: cause, killers, seat, true_intel)")
        seat = spec.get("seat")
        if not _is_int(seat) or seat not in dead:
            raise SetupError(f"deaths: {seat!r} is not a dead seat (alive: false, not lost); dead seats: {dead}")
        if any(k.dead == seat for k in kills):
            raise SetupError(f"deaths: seat {seat} is listed twice")
        killers = spec.get("killers", [])
        if not isinstance(killers, list) or not all(_is_int(k) and 0 <= k < len(seats) for k in killers):
            raise SetupError(f"deaths: killers of seat {seat} must be a list of seats, got {killers!r}")
        true_intel = spec.get("true_intel", 0)
        if not _is_int(true_intel) or true_intel < 0:
            raise SetupError(f"deaths: true_intel of seat {seat} must be a count, got {true_intel!r}")
        kills.append(Kill(dead=seat, killers=sorted(set(killers)), cause=str(spec.get("cause", "")),
                          true_intel=true_intel, identity=seats[seat].identity))
    listed = {k.dead for k in kills}
    kills += [Kill(dead=i, identity=seats[i].identity) for i in dead if i not in listed]
    return kills


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
