"""How many decisions of one person's seat reach that person, per ruleset, with auto-pass off
(every decision is a prompt) and on (a decision with exactly one legal action: ``pass``, a
forced ``accept``, a lone ``declare`` or ``choose`` …, is answered by the engine service:
services/engine/answer_window.py, ``AnswerWindow.only_answer``).

Games are played in this process by seeded random players with characters on (the heuristic
bots' game lengths differ a little; the ratio is what matters). For every seat of every
game: its decisions, and how many had more than one legal action. Prints one JSON object:
``{"RULESET": {"games": N, "prompts_off": mean, "prompts_on": mean, "ratio": on/off,
"pass_only_on": mean}}`` (``pass_only_on``: the prompts when only pass-only decisions were
answered, as before single forced actions were).

``--breakdown`` adds, per ruleset, ``"asked"`` and ``"answered"``: the decisions per seat per
game still asked with auto-pass on, and those answered for the seat, by decision kind
(docs/notation.md) and legal-action shape (the distinct action kinds, ``only KIND`` for a
single legal action), e.g. ``{"respond": {"pass+play": 3.4}}``.

Run: ``python bench/prompts_per_game.py [--games 30] [--players 5] [--breakdown]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence

from engine import Game
from engine.action import Action
from engine.errors import SetupError
from services.engine.answer_window import AnswerWindow

RULESETS = ("return", "classic", "spy")


def shape(legal: Sequence[Action]) -> str:
    """The shape of a decision's legal actions: ``only KIND`` for one action, else the
    distinct kinds in order joined by ``+`` (``pass+play``, ``accept+decline``, ``send``)."""
    if AnswerWindow.only_answer(legal) is not None:
        return f"only {legal[0].kind}"
    return "+".join(sorted({a.kind for a in legal}))


class Tally:
    """Counts over a ruleset's games: decisions, prompts with auto-pass on, and (breakdown)
    asked / answered decisions by (decision kind, shape)."""

    def __init__(self) -> None:
        self.every = 0
        self.real = 0
        self.not_pass_only = 0
        self.asked: Counter[tuple[str, str]] = Counter()
        self.answered: Counter[tuple[str, str]] = Counter()

    def add(self, kind: str, legal: Sequence[Action]) -> None:
        """One decision of kind ``kind`` with these legal actions."""
        self.every += 1
        auto = AnswerWindow.only_answer(legal) is not None
        self.real += not auto
        self.not_pass_only += not AnswerWindow.pass_only(legal)
        (self.answered if auto else self.asked)[kind, shape(legal)] += 1


def play(ruleset: str, players: int, seed: int, tally: Tally) -> None:
    """One random game; every seat's decisions go to ``tally``."""
    game = Game.new(ruleset=ruleset, players=players, seed=seed, characters=True)
    rng = random.Random(seed)
    while game.pending is not None:
        seat = game.pending.seat
        legal = game.legal_actions(seat)
        tally.add(game.pending.kind, legal)
        game.apply(seat, rng.choice(legal))


def per_seat(counts: Counter[tuple[str, str]], seats: int) -> dict[str, dict[str, float]]:
    """``{kind: {shape: mean per seat}}``, the largest first."""
    out: dict[str, dict[str, float]] = {}
    for (kind, sh), n in counts.most_common():
        out.setdefault(kind, {})[sh] = round(n / seats, 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per ruleset")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--breakdown", action="store_true", help="asked/answered by decision kind and shape")
    args = parser.parse_args()
    out: dict[str, dict[str, object]] = {}
    for ruleset in RULESETS:
        tally = Tally()
        games = 0
        for seed in range(args.games):
            try:
                play(ruleset, args.players, seed, tally)
            except SetupError:
                continue
            games += 1
            print(f"{ruleset}: {games}/{args.games}", file=sys.stderr, end="\r")
        seats = max(1, games * args.players)
        row: dict[str, object] = {
            "games": games,
            "prompts_off": round(tally.every / seats, 1),
            "prompts_on": round(tally.real / seats, 1),
            "ratio": round(tally.real / max(1, tally.every), 3),
            "pass_only_on": round(tally.not_pass_only / seats, 1),
        }
        if args.breakdown:
            row["asked"] = per_seat(tally.asked, seats)
            row["answered"] = per_seat(tally.answered, seats)
        out[ruleset] = row
    print(file=sys.stderr)
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
