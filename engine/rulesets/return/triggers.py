"""Trigger windows: moments the engine announces so that triggered skills may fire
(触发式技能, rulebook p.4 ②).

A window is a ``trigger`` frame naming the event (``text``), its subject seat and card,
and the seats to ask. Each seat that has a skill which could fire is asked (``trigger``
decision: ``pass`` or ``skill ID …``). At windows where a face-down character's 【暴露】
skill could fire, every living seat with a face-down character is asked too, whether or
not its character has such a skill, so the prompt order never reveals a hidden character
(design.md, "prompt order must not leak hands").

A triggered skill used while a chain is being built or resolved resolves at once, with no
response window (no new card may join a resolving chain, p.4 ②; cards drawn this way
cannot join the current chain, rulebook notes to 杀意 and 窃于无形). Outside a chain its
use opens a chain like any skill.

Windows (``ev.text``): ``game_start``, ``turn_start`` (decision of the turn player only),
``card_used`` (subject: user; ``ev.card``: the card; ``ev.index``: chain index),
``targeted`` (subject: the new target of a retargeted card), ``send`` (subject: sender),
``receive_chosen`` (subject: the player who just chose to receive; the receive chain is
open, its poll not started),
``pre_received`` and ``received`` (subject: receiver; ``ev.card``; ``ev.cards``: all cards
received at once), ``burned`` (subject: owner; ``ev.card``), ``discarded`` (subject:
discarder; ``ev.cards``), ``turn_end`` (subject: turn player), ``dying`` (subject: the
dying seat).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine.state import Frame, Item

if TYPE_CHECKING:
    from engine.game import Game

#: Skill ids listening to each window name (the registry is fixed once loaded).
_LISTENERS: dict[str, frozenset[str]] = {}

#: Windows where a face-down character's 【暴露】 skill may fire: ask every face-down seat.
HIDDEN_WINDOWS = frozenset({"received", "turn_end"})


def open_window(
    g: Game,
    name: str,
    subject: int,
    *,
    card: int = 0,
    cards: Iterable[int] = (),
    index: int = -1,
    order: list[int] | None = None,
) -> None:
    """Announce an event; a no-op when characters are off or nobody could react."""
    st = g.state
    if not st.characters or st.over:
        return
    from .characters import SKILLS, skills_of

    if order is None:
        start = subject if name == "dying" else st.turn
        order = [(start + i) % st.players for i in range(st.players)]
    hidden = name in HIDDEN_WINDOWS
    listening = _LISTENERS.get(name)
    if listening is None:
        listening = _LISTENERS[name] = frozenset(s.id for s in SKILLS.values() if name in s.windows)
    asked = [s for s in order if st.seats[s].alive and (
        any(k in listening for k in skills_of(g, s)) or (hidden and not st.seats[s].exposed))]
    if not asked:
        return
    st.window += 1
    g.push(Frame("trigger", seat=subject, stage=st.window, index=0, card=card, order=asked,
                 cards=list(cards), text=name, answer=""))
    if index >= 0:
        st.stack[-1].cards = [index, *st.stack[-1].cards]


def trigger_options(g: Game, seat: int, ev: Frame) -> list[str]:
    """The ``skill …`` actions ``seat`` may take at window ``ev``."""
    return trigger_legal(g, seat, ev)[1]


def trigger_legal(g: Game, seat: int, ev: Frame) -> tuple[bool, list[str]]:
    """(may pass, skill actions) at window ``ev``: a forced skill with options takes away
    ``pass``."""
    from .characters import SKILLS, skills_of, usable

    out: list[str] = []
    may_pass = True
    for sid in skills_of(g, seat):
        skill = SKILLS[sid]
        if ev.text in skill.windows and usable(g, seat, sid, ev.stage):
            found = [f"skill {sid}{suffix}" for suffix in skill.trigger_plays(g, seat, ev)]
            if found and skill.forced_at(g, seat, ev):
                may_pass = False
            out.extend(found)
    return may_pass, out


def chain_active(g: Game) -> bool:
    """A chain is being built or resolved right now."""
    return any(f.kind in ("chain", "resolve") for f in g.state.stack)


def h_trigger(g: Game, fr: Frame) -> None:
    """Ask each listed seat in turn whether to use a triggered skill."""
    st = g.state
    if st.over:
        st.stack.pop()
        return
    if fr.answer:
        action, fr.answer = fr.answer, ""
        seat = fr.order[fr.index]
        if action == "pass":
            fr.index += 1
            return
        from .characters import mark_used

        item = make_skill_item(g, seat, action)
        mark_used(g, seat, item.kind, fr.stage)
        from .characters import SKILLS

        depth = len(st.stack)
        SKILLS[item.kind].on_use(g, item)
        g.log("skill", seat, f"seat {seat} uses {item.kind}")
        # Windows the cost opened (a discard's 线索) come first, as for a skill used at a
        # response point: keep them above the chain (or resolve frame) the use opens.
        opened = st.stack[depth:]
        del st.stack[depth:]
        run_skill_item(g, item)
        st.stack.extend(opened)
        return
    while fr.index < len(fr.order):
        seat = fr.order[fr.index]
        p = st.seats[seat]
        if p.alive and (trigger_options(g, seat, fr) or (fr.text in HIDDEN_WINDOWS and not p.exposed)):
            g.ask(seat, "trigger", f"{fr.text}: use a skill or pass")
            return
        fr.index += 1
    st.stack.pop()


def run_skill_item(g: Game, item: Item) -> None:
    """Resolve a triggered skill now (inside a chain) or open a chain with it."""
    from .flow import start_chain

    st = g.state
    if chain_active(g):
        st.chain.append(item)
        g.push(Frame("resolve", seat=item.user, index=len(st.chain) - 1))
    else:
        start_chain(g, item, "trigger")


def make_skill_item(g: Game, seat: int, action: str) -> Item:
    """Parse ``skill ID [to S…] [cards N,…] [on M] [choose X]`` into a chain item."""
    words = action.split()
    item = Item(words[1], seat)
    i = 2
    while i + 1 < len(words):
        key, val = words[i], words[i + 1]
        if key == "to":
            seats = [int(x) for x in val.split(",")]
            item.target = seats[0]
            item.targets = seats[1:]
        elif key == "cards":
            item.cards = [int(x) for x in val.split(",")]
        elif key == "on":
            item.on = int(val)
        elif key in ("code", "as", "choose"):
            item.code = val
        i += 2
    return item
