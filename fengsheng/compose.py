"""Composing an answer step by step from the structured legal actions (issue 27 §4), for
the terminal client (``fengsheng play``); the web client's twin is
gateway/static/js/compose.js, with the same questions in the same order.

An answer is built by questions: the card (or skill, or a bare answer such as pass) first,
then whatever the remaining actions still differ in: the function the card is used as, the
mode, the target seats, the card it acts on, the cards it names, the code, the arrow, the
lock, the option words, the face. Each question offers only the values some legal action
still has given the answers so far; a question every remaining action answers alike is
skipped; once one action is left it is the answer. A value naming several elements (cards
of 帽子戏法, a 移交 of several cards, …) is picked as a set.

The legal actions are the gateway's JSON values (docs/protocol.md "Actions as values":
``kind``, ``card``, ``to`` …); their ``text`` is only sent back, never read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The questions, in the order they are asked.
SLOTS = ("head", "alt", "mode", "to", "on", "cards", "code", "arrow", "lock", "options", "face")
BARE = frozenset({"pass", "declare", "accept", "decline"})

ActionValue = Mapping[str, Any]


def slot_value(a: ActionValue, slot: str) -> tuple[str, ...]:
    """The answer ``a`` gives to ``slot``: element keys ``family:value`` (empty: none)."""
    kind = a.get("kind", "")
    if slot == "head":
        if kind in BARE:
            return (f"bare:{kind}",)
        if kind == "play":
            return (f"play:{a['card']}",)
        if kind == "send":
            return ("pile:",) if a.get("pile") else (f"send:{a['card']}",)
        if kind == "skill":
            return (f"skill:{a['skill']}",)
        if kind == "choose":
            if a.get("picks"):
                return tuple(f"pick:{n}" for n in a["picks"])
            return tuple(f"option:{w}" for w in a.get("options", ()))
        return (f"bare:{kind}",)
    if slot == "to":
        # a send's way is one question: an arrow (← →) or a seat (直达 / ↑), none: as printed
        seats = tuple(f"seat:{s}" for s in a.get("to", ()))
        return (f"arrow:{a['arrow']}", *seats) if kind == "send" and a.get("arrow") else seats
    if slot == "arrow" and kind == "send":
        return ()
    if slot == "on":
        if a.get("chain"):
            return (f"chain:{a['chain']}",)
        return (f"card:{a['on']}",) if a.get("on") else ()
    if slot == "cards":
        return tuple(f"card:{n}" for n in a.get("cards", ()))
    if slot == "lock":
        lock = a.get("lock")
        return (f"lock:{lock}",) if lock is not None and lock >= 0 else ()
    if slot == "options":
        return () if kind == "choose" else tuple(f"option:{w}" for w in a.get("options", ()))
    value = a.get(slot, "")
    return (f"{slot}:{value}",) if value else ()


def value_key(elements: Sequence[str]) -> str:
    """A value's key: its elements in order (targets may be ordered: 调虎离山's ``to 2,0``
    is not ``to 0,2``)."""
    return " ".join(elements)


def family(element: str) -> str:
    return element.split(":", 1)[0]


@dataclass
class Choice:
    """One value offered at a step and the actions that stay open when it is chosen."""

    key: str
    elements: tuple[str, ...]
    reach: list[ActionValue] = field(default_factory=list)


@dataclass
class Step:
    """The next question: plain ``choices`` and, for values that are sets, ``sets`` (picked
    with a multi-select over ``elements``); ``done`` when one action is left."""

    slot: str = ""
    choices: list[Choice] = field(default_factory=list)
    sets: list[Choice] = field(default_factory=list)
    elements: list[str] = field(default_factory=list)
    done: ActionValue | None = None


@dataclass
class Chosen:
    slot: str
    key: str
    elements: tuple[str, ...]


def remaining(legal: Sequence[ActionValue], path: Sequence[Chosen]) -> list[ActionValue]:
    """The legal actions still open after the answers ``path``."""
    return [a for a in legal if all(value_key(slot_value(a, c.slot)) == c.key for c in path)]


def next_step(legal: Sequence[ActionValue], path: Sequence[Chosen]) -> Step:
    """The question after ``path`` (see the module's docstring)."""
    open_ = remaining(legal, path)
    if len(open_) <= 1:
        return Step(done=open_[0] if open_ else None)
    asked = {c.slot for c in path}
    for slot in SLOTS:
        if slot in asked or len({value_key(slot_value(a, slot)) for a in open_}) <= 1:
            continue
        multi = {family(v[0]) for a in open_ if len(v := slot_value(a, slot)) > 1}
        step = Step(slot=slot)
        for a in open_:
            v = slot_value(a, slot)
            key = value_key(v)
            group = step.sets if v and family(v[0]) in multi else step.choices
            found = next((c for c in group if c.key == key), None)
            if found is None:
                found = Choice(key, v)
                group.append(found)
            found.reach.append(a)
        for s in step.sets:
            step.elements.extend(e for e in s.elements if e not in step.elements)
        return step
    return Step(done=open_[0])


def can_add(step: Step, picked: Sequence[str], element: str) -> bool:
    """Whether ``element`` may join ``picked``: some legal set holds them all."""
    want = [*picked, element]
    return any(all(e in s.elements for e in want) for s in step.sets)


def set_for(step: Step, picked: Sequence[str]) -> Choice | None:
    """The legal set equal to ``picked`` (in the order picked when the order tells two
    apart), or None."""
    key = value_key(picked)
    exact = next((s for s in step.sets if s.key == key), None)
    if exact is not None:
        return exact
    return next((s for s in step.sets if sorted(s.elements) == sorted(picked)), None)
