"""Legal actions: every answer the seat to act may give, as :class:`engine.action.Action`
values (docs/notation.md), by decision kind: the play phase, response points, arrivals,
sends, prompts, and what skills add. Cards, sends and skills' uses are built as values
(:func:`engine.action.play`, :func:`engine.action.send`, :func:`engine.action.use_skill`,
shared between decisions); a prompt's options are values too (:mod:`.choices`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import ACCEPT, DECLARE, DECLINE, PASS, Action, choose, send
from engine.state import Prompt

from . import deck, marks
from .cards.base import FUNCTIONS, code_matches
from .choices import listed
from .hooks import extra_card_plays
from .records import match_ext
from .skills import SKILLS, skills_of, usable
from .triggers import trigger_legal

if TYPE_CHECKING:
    from engine.game import Game


def legal_for(g: Game, p: Prompt) -> list[Action]:
    """All legal actions for the open decision, as values."""
    kind = p.kind
    if kind in ("choose", "character"):
        return listed(p)
    if kind == "discard":
        return [choose(c) for c in sorted(set(g.state.seats[p.seat].hand))]
    if kind == "main":
        return [*card_plays(g, p.seat, "main"), *skill_plays(g, p.seat, "main"), DECLARE]
    if kind == "respond":
        return [PASS, *card_plays(g, p.seat, "respond"), *skill_plays(g, p.seat, "respond")]
    if kind == "returned":
        return [PASS, *card_plays(g, p.seat, "returned"), *skill_plays(g, p.seat, "returned")]
    if kind == "arrive":
        return arrive_actions(g, p.seat)
    if kind == "send":
        return send_actions(g, p.seat)
    if kind == "turn_start":
        return [PASS, *skill_plays(g, p.seat, "turn_start")]
    if kind == "trigger":
        may_pass, options = trigger_legal(g, p.seat, g.state.stack[-1])
        return [PASS, *options] if may_pass else list(options)
    raise AssertionError(f"unknown decision kind {kind}")


def card_plays(g: Game, seat: int, ctx: str) -> list[Action]:
    """``play`` actions: each hand card's function (cards drawn during this chain by an
    effect cannot join it), plus what skills add (就计, 拷问, 紧急下达 …)."""
    st = g.state
    out: list[Action] = []
    fresh = st.fresh
    function = deck.FUNCTION
    for card in sorted(set(st.seats[seat].hand)):
        if fresh and card in fresh:
            continue
        out += FUNCTIONS[function[card]].plays(g, seat, card, ctx)
    if st.characters:
        out.extend(extra_card_plays(g, seat, ctx))
    return out


def skill_plays(g: Game, seat: int, ctx: str) -> list[Action]:
    """``skill`` actions the seat may take now in ``ctx`` (each skill's offers, values)."""
    st = g.state
    if not st.characters or not st.seats[seat].alive:
        return []
    out: list[Action] = []
    for sid in skills_of(g, seat):
        if usable(g, seat, sid):
            out.extend(SKILLS[sid].actions(g, seat, ctx))
    return out


def arrive_actions(g: Game, seat: int) -> list[Action]:
    st = g.state
    t = st.transit
    assert t is not None
    out: list[Action] = [ACCEPT]
    if not (t.forced or seat == t.sender or seat in st.locked):
        out.append(DECLINE)
    out.extend(card_plays(g, seat, "arrive"))
    out.extend(skill_plays(g, seat, "arrive"))
    return out


def send_actions(g: Game, seat: int) -> list[Action]:
    st = g.state
    hand = st.seats[seat].hand
    others = [s for s in g.living() if s != seat]
    out: list[Action] = []
    if hand:
        cards = sorted(set(hand))
        if match_ext(st).send_code:
            match = [c for c in cards if code_matches(match_ext(st).send_code, c)]
            if match:
                cards = match
        for c in cards:
            out.extend(send(c, mode, to, arrow) for mode, to, arrow in routes(g, c, others))
    elif st.pile:
        out.extend(send(0, mode, to, arrow, pile=True) for mode, to, arrow in routes(g, st.pile[-1], others))
    return out


def routes(g: Game, card: int, others: list[int]) -> list[tuple[str, tuple[int, ...], str]]:
    """How ``card`` may be sent: (mode, target seats, direction) of each way."""
    mode = deck.MODE[card]
    if marks.has(g.state, marks.SendAnyMode()):
        mode = "any"  # 单枪匹马: every send this turn may use any mode (p.15 ③)
    modes = deck.MODES if mode == "any" else (mode,)
    turnable = deck.DIRECTION_ANY[card] and not g.state.tutorial
    out: list[tuple[str, tuple[int, ...], str]] = []
    for m in modes:
        if m == "direct":
            out.extend((m, (o,), "") for o in others)
        elif turnable:
            out.append((m, (), "left"))
            out.append((m, (), "right"))
        else:
            out.append((m, (), ""))
    return out
