"""The collusion audit's facts and maths (services/ranked/audit.py; docs/ranked.md, "The
collusion audit"): what a rated match leaves, how intel is scored for its receiver, and
each of the three pair signals on hand-made ladders where the answer is known."""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.bots import POLICIES
from engine.rulesets import RULESET_IDS, get_ruleset
from services.ranked.audit import (
    AuditFormatError,
    DeedRecorder,
    IntelDeed,
    MatchFacts,
    SeatFact,
    Thresholds,
    audit,
    facts_from_actions,
    intel_score,
    team_of,
)


def play(ruleset: str, seed: int) -> tuple[Game, DeedRecorder]:
    game = Game.new(ruleset=ruleset, players=5, seed=seed)
    rng = random.Random(seed)
    rec = DeedRecorder()
    while not game.is_over:
        p = game.pending
        assert p is not None
        action = POLICIES["v2"](game.observation(p.seat), game.legal_actions(p.seat), rng)
        rec.before(game)
        game.apply(p.seat, action)
        rec.after(game)
    return game, rec


def card_where(ruleset: str, test: str) -> int:
    cards = get_ruleset(ruleset).cards
    for c in range(1, cards.count + 1):
        red, blue, black = cards.is_red[c], cards.is_blue[c], cards.is_black[c]
        if {"red": red and not black and not blue, "blue": blue and not black and not red,
            "black": black and not red and not blue, "red+black": red and black}[test]:  # fmt: skip
            return c
    raise AssertionError(f"no {test} card in {ruleset}")


def test_intel_is_scored_for_its_receivers_identity() -> None:
    # return digest §6 (three black kill), §7 (三张同色 wins: 潜伏 red, 军情 blue; agent: true intel)
    red, blue, black = (card_where("return", x) for x in ("red", "blue", "black"))
    assert intel_score("return", "latent", red) == 1
    assert intel_score("return", "military", red) == 0
    assert intel_score("return", "military", blue) == 1
    assert intel_score("return", "agent", blue) == 1
    assert intel_score("return", "latent", black) == -1
    assert intel_score("return", "agent", black) == -1
    both = card_where("spy", "red+black")  # 谍战篇 has two-colour cards: the sum
    assert intel_score("spy", "latent", both) == 0
    assert intel_score("spy", "special_service", both) == -1
    assert intel_score("spy", "mystery", card_where("spy", "red")) == 0  # no colour wins for it
    assert team_of("return", "latent") == "latent" and team_of("return", "agent") == "solo"


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_the_replayed_history_gives_the_facts_seen_live(ruleset: str) -> None:
    """What the ladder update computes from the stored actions equals what a recorder saw
    while the match was played; a receiver of a lethal intel is dead."""
    seen = 0
    for seed in (1, 2, 3):
        game, rec = play(ruleset, seed)
        outcome = game.outcome
        assert outcome is not None
        live = rec.deeds(ruleset, outcome.identities)
        fresh = Game.new(**game.settings)
        deeds, identities = facts_from_actions(fresh, game.history)
        assert deeds == live and identities == outcome.identities
        for d in deeds:  # a third black intel kills (digest §6)
            assert not d.lethal or not game.state.seats[d.receiver].alive
        assert all(d.user != d.receiver for d in deeds)
        seen += len(deeds)
    assert seen > 0, f"no intel received from transmission in three {ruleset} matches"


def test_a_history_that_does_not_end_the_match_is_refused() -> None:
    game, _ = play("return", 4)
    with pytest.raises(ValueError, match="does not end the match"):
        facts_from_actions(Game.new(**game.settings), game.history[:5])


def test_facts_round_trip_and_other_versions_are_refused() -> None:
    m = MatchFacts("rk-1", "return", 12.5, (SeatFact(0, "human:p1", "latent", 1000), SeatFact(1, "bot:house-easy-1",
                   "solo", 0, True)), (IntelDeed(0, 1, -1, True),))  # fmt: skip
    assert MatchFacts.from_json(m.to_json()) == m
    unread = MatchFacts("rk-2", "return", 1.0, m.seats, None)
    assert MatchFacts.from_json(unread.to_json()).intel is None
    with pytest.raises(AuditFormatError, match="format 0 is not 1"):
        MatchFacts.from_json(m.to_json().replace('"v":1', '"v":0'))
    with pytest.raises(AuditFormatError, match="not JSON"):
        MatchFacts.from_json("{")


def random_ladder(rng: random.Random, matches: int, accounts: list[str], *, pair: tuple[str, str] | None = None,
                  kind: bool = False, together: bool = False) -> list[MatchFacts]:  # fmt: skip
    """Random 5-seat tables; ``together``: ``pair`` always sits and queues together;
    ``kind``: at every table they share on opposite sides, each sends the other a helpful
    intel, while everyone else's intel scores at random."""
    out = []
    teams = ["latent", "latent", "military", "military", "solo"]
    for i in range(matches):
        table = rng.sample(accounts, 5)
        if together and pair is not None and (pair[0] in table) != (pair[1] in table):
            missing = pair[1] if pair[0] in table else pair[0]
            table[next(i for i, a in enumerate(table) if a not in pair)] = missing
        rng.shuffle(teams)
        t0 = i * 1000_000
        joins = [500 if together and pair and a in pair else rng.randrange(600_000) for a in table]
        seats = tuple(SeatFact(s, a, teams[s], t0 + joins[s]) for s, a in enumerate(table))
        m = MatchFacts(f"m{i}", "return", float(i), seats, ())
        deeds = []
        for _ in range(10):
            u, r = rng.sample(range(5), 2)
            score = rng.choice((-1, -1, 0, 1))
            if kind and pair and {table[u], table[r]} == set(pair) and m.opposed(u, r):
                score = 1
            deeds.append(IntelDeed(u, r, score))
        out.append(MatchFacts(m.match_id, "return", m.at, seats, tuple(deeds)))
    return out


ACCOUNTS = [f"bot:a{i}" for i in range(10)]


def test_honest_random_tables_flag_nobody() -> None:
    evidence = audit(random_ladder(random.Random(7), 400, ACCOUNTS))
    assert len(evidence) == 45
    assert [e for e in evidence if e.flagged] == []
    assert max(abs(e.seated.z) for e in evidence) < 4.0


def test_soft_play_flags_a_kind_pair_even_when_they_never_queue_together() -> None:
    pair = ("bot:a1", "bot:a2")
    evidence = audit(random_ladder(random.Random(8), 400, ACCOUNTS, pair=pair, kind=True))
    top = evidence[0]
    assert (top.a, top.b) == pair and top.flags == ("soft",)
    assert top.soft.observed == top.soft.count  # every intel between them helped
    assert [e for e in evidence[1:] if e.flagged] == []


def test_queueing_and_sitting_together_flags_a_pair_that_plays_fair() -> None:
    pair = ("bot:a3", "bot:a4")
    evidence = audit(random_ladder(random.Random(9), 400, ACCOUNTS, pair=pair, together=True))
    top = evidence[0]
    assert (top.a, top.b) == pair and top.flags == ("queue",)
    assert top.seated.z >= 4 and top.coqueue.observed == top.coqueue.count
    assert [e for e in evidence[1:] if e.flagged] == []


def test_minimum_counts_and_house_bots() -> None:
    pair = ("bot:a1", "bot:a2")
    few = random_ladder(random.Random(10), 30, ACCOUNTS, pair=pair, kind=True)
    strict = Thresholds(min_deeds=10_000, min_together=10_000, min_coqueue=10_000)
    assert [e for e in audit(few, strict) if e.flagged] == []
    houses = [MatchFacts(m.match_id, m.ruleset, m.at, tuple(SeatFact(s.seat, s.account, s.team, s.enq_ms, True)
              for s in m.seats), m.intel) for m in few]  # fmt: skip
    assert audit(houses) == []  # house bots fill seats but are never suspects
