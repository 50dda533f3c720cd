"""The legal actions of an open decision (docs/notation.md, classic section), as
:class:`engine.action.Action` values: ``priority``, ``send``, ``receive`` and ``trigger``
decisions are computed from the state (the hand, the timing, the skills' actions and
offers); a ``choose`` or ``character`` decision lists its options on the prompt, whose
text is read back here through the notation's reader (the core's prompt options are text).
Also how a priority action joins the chain."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from engine.action import ACCEPT, DECLINE, PASS, Action, send
from engine.errors import IllegalAction
from engine.state import Frame, Item, Prompt
from engine.text import ArgValue

from . import deck
from .cards import FUNCTIONS
from .characters import SKILLS
from .characters.base import conversion_skill, fire, skills_of, trigger_actions
from .kinds import Timing, timing

if TYPE_CHECKING:
    from engine.game import Game

#: The prompt row of each timing of the priority loop (data/classic-text.tsv): it names the
#: seat whose turn it is.
TIMING_PROMPT: dict[Timing, str] = {"start": "prompt.priority.turn_start", "main1": "prompt.priority.first_play_phase",
                                    "main2": "prompt.priority.second_play_phase",
                                    "transmit": "prompt.priority.transmit", "arrive": "prompt.priority.arrive"}


def legal_for(g: Game, prompt: Prompt) -> Sequence[Action]:
    kind = prompt.kind
    if kind == "priority":
        return priority_actions(g, prompt.seat)
    if kind == "send":
        return send_actions(g, prompt.seat)
    if kind == "receive":
        return receive_actions(g)
    if kind == "trigger":
        return trigger_actions(g, prompt.seat)
    fr = g.state.stack[-1] if g.state.stack else None
    if kind == "choose" and fr is not None:
        if fr.kind == "skill_step":
            return SKILLS[fr.text].choices(g, prompt.seat, fr)
        if fr.kind == "card_step":
            return FUNCTIONS[fr.text].choices(g, prompt.seat, fr)
    # the character deal (engine/choosing.py, the core's): the prompt's options
    return prompt.options


def priority_actions(g: Game, seat: int) -> list[Action]:
    """``pass``, every usable ``play …`` (conversions as ``play N … as F``) and ``skill …``."""
    st = g.state
    out: list[Action] = [PASS]
    convs = skills_of(g, seat, "conversion") if st.characters else []
    for card in sorted(set(st.seats[seat].hand)):
        fn = FUNCTIONS[deck.FUNCTION[card]]
        if fn.usable(g, seat):
            out += fn.actions(g, seat, card)
        for sk in convs:
            for f in sk.converts(g, seat, card):
                other = FUNCTIONS[f]
                if f != fn.id and other.usable(g, seat):
                    out += other.actions(g, seat, card, f)
    if st.characters:
        for kind in ("flip", "active"):
            for sk in skills_of(g, seat, kind):
                out += sk.actions(g, seat)
    # Only conversions and skills can list an action twice (each card's own actions are
    # distinct); hashing every value of a plain hand would cost more than listing it.
    return list(dict.fromkeys(out)) if convs or st.characters else out


def send_actions(g: Game, seat: int) -> list[Action]:
    """``send N secret`` / ``send N text`` / ``send N direct to S`` (§5; 密电/文本 go right)."""
    st = g.state
    out: list[Action] = []
    for card in sorted(set(st.seats[seat].hand)):
        mode = deck.MODE[card]
        if mode == "direct":
            out += [send(card, "direct", (s,)) for s in g.living() if s != seat]
        else:
            out.append(send(card, mode))
    return out


def receive_actions(g: Game) -> list[Action]:
    """The holder of the intel in transit takes it or passes it on (§5): ``accept`` only
    when it is locked or its own (it must take it)."""
    st = g.state
    t = st.transit
    assert t is not None
    return [ACCEPT] if t.holder in st.locked or t.holder == t.sender else [ACCEPT, DECLINE]


class Priority:
    """Classic's part in the priority loop (§6.3; :func:`engine.chain.pass_priority`): the
    holder is asked ``priority`` and answers ``pass`` (``declare`` at a play phase passes
    too), ``play …`` or ``skill …``."""

    decision: Final = "priority"
    passing: Final = frozenset({"pass", "declare"})

    def prompt(self, g: Game, fr: Frame) -> tuple[str, dict[str, ArgValue]]:
        return TIMING_PROMPT[timing(fr.text)], {"seat": g.state.turn}

    def use(self, g: Game, seat: int, action: Action) -> Item:
        """The chain item of a legal priority action (§6.2 ①): the card leaves the hand, a
        skill is declared (a flip skill turns its character face up)."""
        if action.kind == "play":
            card = action.card
            function = action.alt or deck.FUNCTION[card]
            item = FUNCTIONS[function].make_item(g, seat, card, action)
            if action.alt:
                item.code = conversion_skill(g, seat, card, function)
                g.log("skill.uses_id", seat, {"seat": seat, "id": item.code})
            g.state.seats[seat].hand.remove(card)
            return item
        if action.kind == "skill":
            return SKILLS[action.skill].declare(g, seat, action)
        raise IllegalAction(f"unknown priority action {action!r}")

    def joined(self, g: Game, item: Item) -> None:
        """A card: its own note, then the "when a card is used" triggers; a skill: the log."""
        if item.kind == "skill":
            g.log("skill.uses_id", item.user, {"seat": item.user, "id": item.code})
            return
        FUNCTIONS[item.kind].used(g, item)
        fire(g, "card_used", item.user, item=item)


PRIORITY = Priority()
