"""The legal actions of an open decision in notation (docs/notation.md, classic section):
``priority`` is computed from the hand, the timing and the skills; every other kind
lists its options on the prompt. Also how a priority action is carried out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import IllegalAction
from engine.state import Prompt

from . import deck
from .cards import FUNCTIONS
from .characters import SKILLS
from .characters.base import conversion_skill, fire, skills_of

if TYPE_CHECKING:
    from engine.game import Game


def legal_for(g: Game, prompt: Prompt) -> list[str]:
    if prompt.kind == "priority":
        return priority_actions(g, prompt.seat)
    return list(prompt.options)


def priority_actions(g: Game, seat: int) -> list[str]:
    """``pass``, every usable ``play …`` (conversions as ``play N … as F``) and ``skill …``."""
    st = g.state
    out = ["pass"]
    convs = skills_of(g, seat, "conversion") if st.characters else []
    for card in sorted(set(st.seats[seat].hand)):
        fn = FUNCTIONS[deck.FUNCTION[card]]
        if fn.usable(g, seat):
            out += fn.actions(g, seat, card)
        for sk in convs:
            for f in sk.converts(g, seat, card):
                other = FUNCTIONS[f]
                if f != fn.id and other.usable(g, seat):
                    out += other.actions(g, seat, card, f" as {f}")
    if st.characters:
        for kind in ("flip", "active"):
            for sk in skills_of(g, seat, kind):
                out += sk.actions(g, seat)
    return list(dict.fromkeys(out))


def send_actions(g: Game, seat: int) -> list[str]:
    """``send N secret`` / ``send N text`` / ``send N direct to S`` (§5; 密电/文本 go right)."""
    st = g.state
    out: list[str] = []
    for card in sorted(set(st.seats[seat].hand)):
        mode = deck.MODE[card]
        if mode == "direct":
            out += [f"send {card} direct to {s}" for s in g.living() if s != seat]
        else:
            out.append(f"send {card} {mode}")
    return out


def parse_opts(words: list[str]) -> dict[str, str]:
    opts: dict[str, str] = {}
    i = 0
    while i + 1 < len(words):
        opts[words[i]] = words[i + 1]
        i += 2
    return opts


def apply_priority(g: Game, seat: int, action: str) -> None:
    """Put the card or skill of a legal priority action on the chain (§6.2 ①)."""
    st = g.state
    words = action.split()
    if words[0] == "play":
        card = int(words[1])
        opts = parse_opts(words[2:])
        function = opts.get("as", deck.FUNCTION[card])
        fn = FUNCTIONS[function]
        item = fn.make_item(g, seat, card, opts)
        if "as" in opts:
            item.code = conversion_skill(g, seat, card, function)
            g.log("skill", seat, f"seat {seat} uses {item.code}")
        st.seats[seat].hand.remove(card)
        st.chain.append(item)
        fn.used(g, item)
        fire(g, "card_used", seat, item=item)
        return
    if words[0] == "skill":
        sk = SKILLS[words[1]]
        item = sk.declare(g, seat, parse_opts(words[2:]))
        st.chain.append(item)
        g.log("skill", seat, f"seat {seat} uses {sk.id}")
        return
    raise IllegalAction(f"unknown priority action {action!r}")
