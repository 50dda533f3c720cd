"""The draw bug (issue 27 §2, §5): a card drawn face down is known to its drawer only.

Seeded random games of every ruleset (every player count its identity table allows, with and
without characters): for each draw from the pile, the observation every other seat and a
spectator receive (with events, as the services serve it) holds the public variant of the
draw, typed as a count (``EventArg.count``), and no argument or ``cards`` field of any event
it holds for that draw names a card. The drawer's
own observation names the cards (the test would pass trivially if nobody saw them).

The same holds for every other private event that has a public variant (a look at the pile
top or bottom, a card swapped in from the pile, a card given, a hand shown to one seat, a
face-down send …, every event kind of every ruleset that random play reaches): a seat
outside its audience, and a spectator, is served the public variant only, and that names
none of the private event's cards.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine import Game
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.simulate import play_random
from fengsheng.v1 import game_pb2

SEEDS = 12  # per ruleset and setting: ~2 s each


def _card_ids(event: game_pb2.Event) -> set[int]:
    """Every card id an event names: its ``cards`` field and its card arguments."""
    out = set(event.cards)
    for arg in event.args:
        which = arg.WhichOneof("value")
        if which == "card" and arg.card:
            out.add(arg.card)
        elif which == "cards":
            out.update(c for c in arg.cards.values if c)
    return out


def _check(game: Game) -> int:
    draws = [e for e in game.events if e.kind == "draw" and e.audience and -1 not in e.audience]
    checked = 0
    for viewer in (-1, *range(game.state.players)):
        served = {e.index: e for e in game.observation(viewer, include_events=True).events}
        for draw in draws:
            drawer = draw.seat
            drawn = set(draw.cards)
            if viewer == drawer:
                assert drawn <= _card_ids(served[draw.index]), "the drawer does not see its cards"
                continue
            assert draw.index not in served, f"viewer {viewer} was served seat {drawer}'s private draw"
            twin = served[draw.index + 1]
            assert twin.kind == "draw" and twin.seat == drawer, twin
            kinds = {a.name: a.WhichOneof("value") for a in twin.args}
            assert kinds == {"seat": "seat", "n": "count"}, (viewer, twin)
            count = next(a.count for a in twin.args if a.name == "n")
            assert count == len(drawn)
            assert not _card_ids(twin), (viewer, twin)
            checked += 1
    return checked


def _check_private(game: Game) -> set[str]:
    """Every private event with a public variant: outsiders get the variant only, naming none
    of its cards. Returns the event kinds checked."""
    events = game.events
    pairs = [(e, t) for e, t in pairwise(events)
             if e.audience and -1 not in e.audience and t.index == e.index + 1 and -1 in t.audience]
    kinds: set[str] = set()
    for viewer in (-1, *range(game.state.players)):
        served = {e.index: e for e in game.observation(viewer, include_events=True).events}
        for private, public in pairs:
            if viewer in private.audience:
                assert private.index in served and public.index not in served, (viewer, private.key)
                continue
            assert private.index not in served, f"viewer {viewer} was served {private.key} of seat {private.seat}"
            twin = served[public.index]
            assert twin.template == public.key, (viewer, twin)
            named = _card_ids(twin) & set(private.cards)
            assert not named, f"viewer {viewer} sees cards {named} of the private {private.key} in {twin.template}"
            kinds.add(private.kind)
    return kinds


@pytest.mark.parametrize("characters", [False, True], ids=["no-characters", "characters"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_outsider_is_served_the_cards_of_a_private_event(ruleset_id: str, characters: bool) -> None:
    rules = get_ruleset(ruleset_id)
    if characters and not rules.characters:
        pytest.skip(f"{ruleset_id} has no characters")
    counts = sorted(rules.identity_table)
    kinds: set[str] = set()
    for seed in range(SEEDS):
        game = play_random(seed, counts[seed % len(counts)], characters=characters, ruleset=ruleset_id).game
        kinds |= _check_private(game)
    # draws, face-down sends and hidden actions at least (the test would pass on nothing)
    assert {"draw", "send", "action"} <= kinds, kinds


def test_the_check_catches_a_card_in_a_public_variant() -> None:
    """The net can fail: a pile look whose public variant names the card is caught."""
    game = Game.new(ruleset="return", players=5, seed=4)
    seat = game.state.prompt.seat if game.state.prompt else 0
    card = game.state.pile[-1]
    game.log("pile_bottom.looks_at_pile_bottom_card", seat, {"seat": seat, "card": card}, audience=(seat,),
             cards=(card,), public="pile_bottom.looks_at_pile_bottom_card")
    with pytest.raises(AssertionError):
        _check_private(game)


@pytest.mark.parametrize("characters", [False, True], ids=["no-characters", "characters"])
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_no_other_seat_or_spectator_is_served_a_face_down_drawn_card(ruleset_id: str, characters: bool) -> None:
    rules = get_ruleset(ruleset_id)
    if characters and not rules.characters:
        pytest.skip(f"{ruleset_id} has no characters")
    counts = sorted(rules.identity_table)
    checked = 0
    for seed in range(SEEDS):
        game = play_random(seed, counts[seed % len(counts)], characters=characters, ruleset=ruleset_id).game
        checked += _check(game)
    assert checked > 100, f"only {checked} draws seen by others: the test would pass on nothing"


def test_the_check_catches_a_card_in_a_public_draw() -> None:
    """The net can fail: a draw logged with its cards in public is caught."""
    game = Game.new(ruleset="return", players=5, seed=4)
    seat = game.state.prompt.seat if game.state.prompt else 0
    card = game.state.pile[-1]
    game.log("draw.draws_cards", seat, {"seat": seat, "cards": (card,)}, audience=(seat,), cards=(card,),
             public="draw.draws_cards")
    with pytest.raises(AssertionError):
        _check(game)
