"""What every ruleset's scenario positions share (docs/scenarios.md, the shared scenario
format): card lists, the zones a position places (pile top, discard pile, removed cards; the
rest of the deck below the pile top, ascending), whose turn it is and the step to start at.
Each ruleset's ``setup.position_state`` builds its own seats and state around these.
Also the count of every card's zones, which the core checks for every ruleset
(:func:`zone_counts`, ``Game.check_zones``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine.errors import SetupError
from engine.state import Seat, State


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
