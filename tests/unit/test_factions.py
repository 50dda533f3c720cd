"""Each ruleset's ``factions`` table (engine/ruleset.py), which the bots read their side
and colour from, agrees with its rules: 再临 digest §7 and classic §8 (潜伏 red, 军情 blue),
谍战篇 §7.1 (潜伏战线 red, 特工机关 blue). Whenever a whole faction wins in play, one of its
players holds three intel of the table's colour; and heuristic v2 reads the table: a
revealed 特工机关 player is an ally of a 特工机关 bot, and blue intel is what it wants."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.bots import POLICIES
from engine.bots_v2 import _table
from engine.game import Game
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.v1 import game_pb2


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_whole_faction_wins_by_three_intel_of_its_colour(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    assert set(rules.factions) <= set(rules.identities)
    assert set(rules.factions.values()) == {"red", "blue"}
    colour = {"red": rules.cards.is_red, "blue": rules.cards.is_blue}
    wins: Counter[str] = Counter()
    v2 = POLICIES["v2"]
    for deal in range(60):
        g = Game.new(ruleset=ruleset, players=5, seed=deal)
        rngs = [random.Random(f"{deal}:{s}") for s in range(5)]
        while (p := g.pending) is not None:
            g.apply(p.seat, v2(g.observation(p.seat), g.legal_actions(p.seat), rngs[p.seat]))
        st = g.state
        for ident, c in rules.factions.items():
            members = [i for i, s in enumerate(st.seats) if s.identity == ident]
            if len(members) > 1 and set(members) <= set(st.winners):
                held = max(sum(1 for card in st.seats[i].intel if colour[c][card]) for i in members)
                assert held >= 3, f"deal {deal}: {ident} won together holding {held} {c} intel ({st.reason})"
                wins[ident] += 1
    assert set(wins) == set(rules.factions), f"{ruleset}: faction wins seen {dict(wins)}"


def test_v2_plays_the_spy_blue_faction_as_a_faction() -> None:
    """谍战篇's 特工机关 (§7.1) is a side: v2 counts a revealed 特工机关 as an ally and wants
    blue intel (before the table it treated the seat as a lone player wanting nothing)."""
    for deal in range(20):
        g = Game.new(ruleset="spy", players=6, seed=deal)
        seats = [i for i, s in enumerate(g.state.seats) if s.identity == "special_service"]
        if len(seats) >= 2:
            break
    else:
        pytest.fail("no 6-player 谍战篇 deal with two 特工机关 players")
    me, mate = seats[:2]
    hidden = _table(g.observation(me))
    assert hidden.side(mate) == pytest.approx(1 / 5)  # one 特工机关 left among five unknown seats
    g = Game.new(ruleset="spy", players=6, seed=deal)  # the same deal, the mate revealed
    g.state.seats[mate].identity_revealed = True
    t = _table(g.observation(me))
    assert t.identity == game_pb2.SPECIAL_SERVICE
    assert t.side(mate) == 1.0
    blue = next(c for c in g.ruleset.cards.all_cards if g.ruleset.cards.is_blue[c] and not g.ruleset.cards.is_red[c])
    red = next(c for c in g.ruleset.cards.all_cards if g.ruleset.cards.is_red[c] and not g.ruleset.cards.is_blue[c])
    assert t.wants(game_pb2.SPECIAL_SERVICE, blue)
    assert not t.wants(game_pb2.SPECIAL_SERVICE, red)
