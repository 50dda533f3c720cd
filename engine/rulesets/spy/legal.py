"""The legal actions of an open decision (docs/notation.md, spy section): ``main``,
``send``, ``arrive``, ``contest``, ``rescue`` and ``handoff`` are computed from the hand and
the table, as :class:`engine.action.Action` values (skills' too);
``choose``/``trigger``/``character`` list their options on the prompt (values as well)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import ACCEPT, DECLINE, PASS, Action, choose, play, send
from engine.state import Prompt

from . import deck, skills
from .cards import mislead_targets
from .marks import Barred, Jailed
from .nodes import forced

if TYPE_CHECKING:
    from engine.game import Game

BARRED = Barred.tag
JAILED = Jailed.tag


def legal_for(g: Game, prompt: Prompt) -> Sequence[Action]:
    kind = prompt.kind
    seat = prompt.seat
    if kind == "main":
        return main_actions(g, seat)
    if kind == "send":
        return send_actions(g, seat)
    if kind == "arrive":
        return arrive_actions(g, seat)
    if kind == "contest":
        return contest_actions(g, seat)
    if kind == "rescue":
        return rescue_actions(g, seat)
    if kind == "handoff":
        return handoff_actions(g, seat)
    return list(prompt.options)


def usable(g: Game, seat: int, function: str) -> bool:
    """Hand cards of ``function`` may be used (强令 bars names; 禁闭 bars all hand cards).
    Reads the mark records directly: this runs for every listed card."""
    for m in g.state.marks:
        if m.tag == BARRED and m.words[0] == function:
            return False
        if m.tag == JAILED and m.seats[0] == seat:
            return False
    return True


def hand_by_function(g: Game, seat: int) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for c in sorted(g.state.seats[seat].hand):
        out.setdefault(deck.FUNCTION[c], []).append(c)
    return out


def main_actions(g: Game, seat: int) -> list[Action]:
    st = g.state
    out: list[Action] = [PASS]
    others = [s for s in g.living() if s != seat]
    black_intel = sorted(c for s in g.living() for c in st.seats[s].intel if deck.IS_BLACK[c])
    for function, cards in hand_by_function(g, seat).items():
        if not usable(g, seat, function):
            continue
        for c in cards:
            if function in ("probe", "balance", "threaten"):
                out += [play(c, s) for s in others]
            elif function == "bribe":
                out += [play(c, s) for s in g.living()]
            elif function == "clarify":
                out += [play(c, on=m) for m in black_intel]
    if st.characters:
        out += skills.active_actions(g, seat, "main")
    return out


def send_actions(g: Game, seat: int) -> list[Action]:
    """``send N`` (← →), ``send N to S`` (↑), ``… lock L`` for lock cards; 联络 adds the
    other arrows."""
    others = [s for s in g.living() if s != seat]
    any_arrow = skills.any_arrow(g, seat)
    out: list[Action] = []
    for c in sorted(g.state.seats[seat].hand):
        arrow = deck.DIRECTION[c]
        forms: list[tuple[tuple[int, ...], str]] = []  # (target, arrow written)
        if arrow != "up":
            forms.append(((), ""))
        if any_arrow:
            forms += [((), w) for w in ("left", "right") if w != arrow]
        if arrow == "up" or any_arrow:
            forms += [((s,), "") for s in others]
        out += [send(c, "", to, w) for to, w in forms]
        if deck.LOCK[c]:
            out += [send(c, "", to, w, L) for to, w in forms for L in others]
    return out


def arrive_actions(g: Game, seat: int) -> list[Action]:
    out = [ACCEPT]
    if not forced(g, seat):
        out.append(DECLINE)
    if usable(g, seat, "decrypt"):
        out += [play(c) for c in hand_by_function(g, seat).get("decrypt", [])]
    return out


def contest_actions(g: Game, seat: int) -> list[Action]:
    out: list[Action] = [PASS]
    by = hand_by_function(g, seat)
    if usable(g, seat, "intercept"):
        out += [play(c) for c in by.get("intercept", [])]
    if usable(g, seat, "swap"):
        out += [play(c) for c in by.get("swap", [])]
    targets = mislead_targets(g)
    if usable(g, seat, "mislead"):
        out += [play(c, s) for c in by.get("mislead", []) for s in targets]
    if g.state.characters:
        # a card used as another (应变: 截获 as 误导); 强令: the function it is used as
        # counts (barring 误导 stops 应变, barring 截获 does not; §9)
        for function, cards in sorted(by.items()):
            for alt in skills.usable_as(g, seat, function):
                if alt == "mislead" and usable(g, seat, alt):
                    out += [play(c, s, alt=alt) for c in cards for s in targets]
        out += skills.active_actions(g, seat, "contest")
    return out


def rescue_actions(g: Game, seat: int) -> list[Action]:
    st = g.state
    dying = st.stack[-1].seat
    out: list[Action] = [PASS]
    if usable(g, seat, "clarify"):
        blacks = sorted(c for c in st.seats[dying].intel if deck.IS_BLACK[c])
        out += [play(c, on=m) for c in hand_by_function(g, seat).get("clarify", []) for m in blacks]
    if st.characters:
        out += skills.active_actions(g, seat, "rescue")
    return out


def handoff_actions(g: Game, seat: int) -> list[Action]:
    hand = sorted(g.state.seats[seat].hand)
    out = [PASS]
    living = g.living()
    for k in (1, 2, 3):
        for combo in combinations(hand, k):
            out += [choose(*combo, to=s) for s in living]
    return out
