"""Legal actions: every answer the seat to act may give, in canonical notation
(docs/notation.md), by decision kind: the play phase, response points, arrivals, sends,
prompts, and what skills add."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.state import Prompt

from . import deck, marks
from .cards.base import FUNCTIONS, code_matches
from .hooks import extra_card_plays
from .skills import SKILLS, skills_of, usable
from .triggers import trigger_legal

if TYPE_CHECKING:
    from engine.game import Game


def legal_for(g: Game, p: Prompt) -> list[str]:
    """All legal actions for the open decision, in canonical notation."""
    kind = p.kind
    if kind in ("choose", "character"):
        return list(p.options)
    if kind == "discard":
        return [f"choose {c}" for c in sorted(set(g.state.seats[p.seat].hand))]
    if kind == "main":
        return [*card_plays(g, p.seat, "main"), *skill_plays(g, p.seat, "main"), "declare"]
    if kind == "respond":
        return ["pass", *card_plays(g, p.seat, "respond"), *skill_plays(g, p.seat, "respond")]
    if kind == "returned":
        return ["pass", *card_plays(g, p.seat, "returned"), *skill_plays(g, p.seat, "returned")]
    if kind == "arrive":
        return arrive_actions(g, p.seat)
    if kind == "send":
        return send_actions(g, p.seat)
    if kind == "turn_start":
        return ["pass", *skill_plays(g, p.seat, "turn_start")]
    if kind == "trigger":
        may_pass, options = trigger_legal(g, p.seat, g.state.stack[-1])
        return ["pass", *options] if may_pass else options
    raise AssertionError(f"unknown decision kind {kind}")


def card_plays(g: Game, seat: int, ctx: str) -> list[str]:
    """``play`` actions: each hand card's function (cards drawn during this chain by an
    effect cannot join it), plus what skills add (就计, 拷问, 紧急下达 …)."""
    st = g.state
    out: list[str] = []
    fresh = st.fresh
    for card in sorted(set(st.seats[seat].hand)):
        if fresh and card in fresh:
            continue
        for suffix in FUNCTIONS[deck.FUNCTION[card]].plays(g, seat, card, ctx):
            out.append(f"play {card}{suffix}")
    if st.characters:
        out.extend(extra_card_plays(g, seat, ctx))
    return out


def skill_plays(g: Game, seat: int, ctx: str) -> list[str]:
    """``skill`` actions the seat may take now in ``ctx``."""
    st = g.state
    if not st.characters or not st.seats[seat].alive:
        return []
    out: list[str] = []
    for sid in skills_of(g, seat):
        if usable(g, seat, sid):
            out.extend(f"skill {sid}{suffix}" for suffix in SKILLS[sid].plays(g, seat, ctx))
    return out


def arrive_actions(g: Game, seat: int) -> list[str]:
    st = g.state
    t = st.transit
    assert t is not None
    out = ["accept"]
    if not (t.forced or seat == t.sender or seat in st.locked):
        out.append("decline")
    out.extend(card_plays(g, seat, "arrive"))
    out.extend(skill_plays(g, seat, "arrive"))
    return out


def send_actions(g: Game, seat: int) -> list[str]:
    st = g.state
    hand = st.seats[seat].hand
    others = [s for s in g.living() if s != seat]
    out: list[str] = []
    if hand:
        cards = sorted(set(hand))
        if st.send_code:
            match = [c for c in cards if code_matches(st.send_code, c)]
            if match:
                cards = match
        for c in cards:
            out.extend(f"send {c} {rest}" for rest in routes(g, c, others))
    elif st.pile:
        out.extend(f"send pile {rest}" for rest in routes(g, st.pile[-1], others))
    return out


def routes(g: Game, card: int, others: list[int]) -> list[str]:
    mode = deck.MODE[card]
    if marks.has(g.state, marks.SendAnyMode()):
        mode = "any"  # 单枪匹马: every send this turn may use any mode (p.15 ③)
    modes = deck.MODES if mode == "any" else (mode,)
    turnable = deck.DIRECTION_ANY[card] and not g.state.tutorial
    out: list[str] = []
    for m in modes:
        if m == "direct":
            out.extend(f"direct to {o}" for o in others)
        elif turnable:
            out.append(f"{m} left")
            out.append(f"{m} right")
        else:
            out.append(m)
    return out
