"""Issue 26 acceptance: "The collusion simulation flags the colluding pair and reports the
false-positive rate". Two colluding heuristic-v2 bots that share their observations out of
band (services/ranked/audit_sim.py) among eight honest v2 bots, 300 rated ``return``
matches of five, played in-process on the engine; the audit (services/ranked/audit.py)
must flag the colluders, on soft play alone as well, and at most
:data:`FALSE_POSITIVE_BOUND` of the honest pairs (docs/ranked.md, "The collusion audit").
bench/collusion.py runs the same at full size and prints JSON."""

from __future__ import annotations

from services.ranked.audit import audit
from services.ranked.audit_sim import simulate

MATCHES = 300
#: the documented bound on the share of honest pairs flagged (docs/ranked.md)
FALSE_POSITIVE_BOUND = 0.05


def test_the_colluding_pair_is_flagged_and_honest_pairs_are_not() -> None:
    sim = simulate(MATCHES, seed=26)
    assert len(sim.matches) == MATCHES
    evidence = audit(sim.matches)
    pair = tuple(sorted(sim.colluders))
    colluders = next(e for e in evidence if (e.a, e.b) == pair)
    honest = [e for e in evidence if (e.a, e.b) != pair]
    false_positives = [e for e in honest if e.flagged]
    rate = len(false_positives) / len(honest)
    print(f"\ncollusion simulation: {MATCHES} matches, colluders flagged {colluders.flags} "
          f"(soft z {colluders.soft.z:.1f}, seated z {colluders.seated.z:.1f}, co-queue z {colluders.coqueue.z:.1f}); "
          f"false-positive rate {rate:.3f} ({len(false_positives)} of {len(honest)} honest pairs)")  # fmt: skip
    assert "soft" in colluders.flags, colluders.to_dict()  # their play gives them away, queueing aside
    assert "queue" in colluders.flags, colluders.to_dict()
    assert evidence[0] is colluders
    assert len(honest) == 44  # every other pair of the ten accounts met
    assert rate <= FALSE_POSITIVE_BOUND, [e.to_dict() for e in false_positives]
