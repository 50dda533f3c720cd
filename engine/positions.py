"""What every ruleset's scenario positions share (docs/scenarios.md, the shared scenario
format): card lists, the zones a position places (pile top, discard pile, removed cards; the
rest of the deck below the pile top, ascending), whose turn it is and the step to start at.
Each ruleset's ``setup.position_state`` builds its own seats and state around these.
Also the count of every card's zones, which the core checks for every ruleset
(:func:`zone_counts`, ``Game.check_zones``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from engine.errors import SetupError
from engine.state import Kill, Seat, State


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
    to nobody (docs/scenarios.md; docs/rule-decisions.md classic 31). Missions counting
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
