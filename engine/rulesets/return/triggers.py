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

Who is asked and in which order, and the cover of face-down seats, are the core's
(:mod:`engine.windows`); the ``trigger`` frame asking them one by one is 再临's.
The response chain itself is the core's (:mod:`engine.chain`); this module gives it 再临's
rules: :class:`ResponsePoll` (each other seat is asked once after every item, in
:func:`poll_order`) and :class:`Resolution` (what a chain item does), and how a ``play`` or
``skill`` action becomes an item (:func:`use_action`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

from engine import chain, windows
from engine.action import Action
from engine.state import Frame, Item
from engine.text import ArgValue

from . import deck, marks
from .cards.base import FUNCTIONS, PSEUDO, Effect, note_skill
from .kinds import Window
from .skills import SKILLS, mark_used, passive_skills, skills_of, usable

if TYPE_CHECKING:
    from engine.game import Game

#: Skill ids listening to each window name (the registry is fixed once loaded).
_LISTENERS = windows.Listeners(lambda: ((s.id, s.windows) for s in SKILLS.values()))

#: Windows where a face-down character's 【暴露】 skill may fire: ask every face-down seat.
HIDDEN_WINDOWS = frozenset({"received", "turn_end"})


def open_window(
    g: Game,
    name: Window,
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
    if order is None:
        order = windows.seats_from(st, subject if name == "dying" else st.turn)
    hidden = name in HIDDEN_WINDOWS
    listening = _LISTENERS(name)
    asked = [s for s in order if st.seats[s].alive and (
        any(k in listening for k in skills_of(g, s)) or (hidden and windows.face_down(st.seats[s])))]
    if not asked:
        return
    st.window += 1
    g.push(Frame("trigger", seat=subject, stage=st.window, index=0, card=card, order=asked,
                 cards=list(cards), text=name))
    if index >= 0:
        st.stack[-1].cards = [index, *st.stack[-1].cards]


def trigger_options(g: Game, seat: int, ev: Frame) -> list[Action]:
    """The ``skill …`` actions ``seat`` may take at window ``ev``."""
    return trigger_legal(g, seat, ev)[1]


def trigger_legal(g: Game, seat: int, ev: Frame) -> tuple[bool, list[Action]]:
    """(may pass, skill actions) at window ``ev``: a forced skill with options takes away
    ``pass``."""
    out: list[Action] = []
    may_pass = True
    for sid in skills_of(g, seat):
        skill = SKILLS[sid]
        if ev.text in skill.windows and usable(g, seat, sid, ev.stage):
            found = skill.offers(g, seat, ev)
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
        action, fr.answer = fr.answer, None
        seat = fr.order[fr.index]
        if action.kind == "pass":
            fr.index += 1
            return
        item = make_skill_item(g, seat, action)
        mark_used(g, seat, item.kind, fr.stage)
        depth = len(st.stack)
        SKILLS[item.kind].on_use(g, item)
        g.log("skill.uses_id", seat, {"seat": seat, "id": item.kind})
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
        if p.alive and (trigger_options(g, seat, fr) or (fr.text in HIDDEN_WINDOWS and windows.face_down(p))):
            g.ask(seat, "trigger", f"prompt.trigger.window.{fr.text}", args={"seat": fr.seat})
            return
        fr.index += 1
    st.stack.pop()


def run_skill_item(g: Game, item: Item) -> None:
    """Resolve a triggered skill now (inside a chain) or open a chain with it."""
    if chain_active(g):
        chain.resolve_now(g, item)
    else:
        start_chain(g, item, "trigger")


def make_skill_item(g: Game, seat: int, action: Action) -> Item:
    """The chain item of ``skill ID [to S…] [cards N,…] [on M] [choose X]``."""
    item = Item(action.skill, seat)
    if action.to:
        item.target = action.to[0]
        item.targets = list(action.to[1:])
    item.cards = list(action.cards)
    item.on = action.on
    if action.options:
        item.code = ",".join(action.options)
    return item


# ---------------------------------------------------------------------- the response chain
def use_action(g: Game, seat: int, action: Action) -> Item:
    """The chain item of a ``play …`` or ``skill …`` action, its cost paid."""
    st = g.state
    if st.characters and seat == st.turn and not marks.has(st, marks.Acted(seat)):
        # The turn player's first card or skill use this turn (声东击西: "出牌前" only).
        marks.add(st, marks.Acted(seat))
    if action.kind == "skill":
        return use_skill(g, seat, action)
    return use_card(g, seat, action)


def use_skill(g: Game, seat: int, action: Action) -> Item:
    item = make_skill_item(g, seat, action)
    mark_used(g, seat, item.kind)
    g.log("skill.uses_id", seat, {"seat": seat, "id": item.kind})
    SKILLS[item.kind].on_use(g, item)
    return item


def use_card(g: Game, seat: int, action: Action) -> Item:
    """Take the card of a ``play`` action out of the hand (or, for 就计, the intel area)
    and make its chain item."""
    card = action.card
    st = g.state
    p = st.seats[seat]
    from_intel = card not in p.hand
    if from_intel:
        p.intel.remove(card)
    else:
        p.hand.remove(card)
    item = Item(deck.FUNCTION[card], seat, card)
    if action.to:
        item.target = action.to[0]
        item.targets = list(action.to[1:])
    item.on = action.on
    item.code = action.code
    if action.alt:
        item.alt = action.alt
        item.kind = action.alt
    effect_of(item.kind).on_use(g, item)  # type: ignore[attr-defined]
    if st.characters:
        note_card_skills(g, item, from_intel)
    return item


def note_card_skills(g: Game, item: Item, from_intel: bool) -> None:
    """Log the skills that made this card use possible (counted as their use): 就计 for an
    intel played, 拷问/紧急下达 for an alternative function, 核燃机体 for a second
    危险情报 target (each answers :meth:`Skill.credited_for_use`)."""
    for sk in passive_skills(g, item.user):
        if sk.credited_for_use(g, item, from_intel):
            note_skill(g, item.user, sk.id)


def effect_of(kind: str) -> Effect:
    """The card function, alternative function (拷问 …), skill or pseudo-item ``kind``."""
    found = PSEUDO.get(kind) or FUNCTIONS.get(kind)
    if found is None:
        found = SKILLS[kind]
    return found


def start_chain(g: Game, item: Item, timing: str) -> None:
    """Open a response chain with ``item`` and poll for responses (p.4 ②③)."""
    chain.open_chain(g.state, item, timing)
    g.push(Frame("chain", seat=item.user, order=poll_order(g, item)))
    announce_use(g, item)


def announce_use(g: Game, item: Item) -> None:
    """The 'when a card is used' window (反侦, 杀意, 窃于无形 …)."""
    if item.card and g.state.characters:
        open_window(g, "card_used", item.user, card=item.card, index=len(g.state.chain) - 1)


def poll_order(g: Game, item: Item) -> list[int]:
    """Every other seat, in turn order from the user's right-hand neighbour; for a
    receive, in the intel's direction of travel after the receiver (直达: turn order)
    (p.5 ②; digest §5.4)."""
    n = g.state.players
    step = 1
    t = g.state.transit
    if item.kind == "receive" and t is not None and t.direction:
        step = t.direction
    return [(item.user + step * i) % n for i in range(1, n)]


class ResponsePoll:
    """The response poll of 再临 (p.4 ②③; :func:`engine.chain.poll_each_once`): after
    each item every other seat is asked once (``respond``: ``pass``, ``play …`` or
    ``skill …``), in :func:`poll_order`."""

    decision: Final = "respond"
    passing: Final = frozenset({"pass"})

    def prompt(self, g: Game, fr: Frame) -> tuple[str, dict[str, ArgValue]]:
        top = g.state.chain[-1]
        return "prompt.respond.respond_seat_id_or_pass", {"seat": top.user, "id": top.kind}

    def use(self, g: Game, seat: int, action: Action) -> Item:
        return use_action(g, seat, action)

    def joined(self, g: Game, item: Item) -> None:
        announce_use(g, item)

    def order(self, g: Game, item: Item) -> list[int]:
        return poll_order(g, item)


class Resolution:
    """How a 再临 chain item resolves (p.4 ⑤): a negated (识破) or void item has no
    effect; otherwise its card function, skill or pseudo-item resolves, keeping its own
    progress in the frame; then the card goes where its effect says and any cards the
    item held go to the discard pile."""

    def takes_effect(self, g: Game, item: Item, fr: Frame) -> bool:
        if not (item.negated or item.void):
            return True
        if fr.stage == 0 and item.card:
            g.log("no_effect.id_has_no_effect", item.user, {"seat": item.user, "id": item.kind}, cards=(item.card,))
        return False

    def effect(self, g: Game, item: Item, fr: Frame) -> bool:
        return effect_of(item.kind).resolve(g, item, fr)

    def dispose(self, g: Game, item: Item) -> None:
        if item.card:
            effect_of(item.kind).dispose(g, item)
        if item.held:
            g.state.discard.extend(item.held)
            item.held.clear()


RESPONSE_POLL = ResponsePoll()
RESOLUTION = Resolution()


def h_chain(g: Game, fr: Frame) -> None:
    """Poll for responses to the last item; when all pass, resolve last-in-first-out."""
    if fr.stage == 0 and not chain.poll_each_once(g, fr, RESPONSE_POLL):
        return
    chain.resolve_next(g, fr)


def h_resolve(g: Game, fr: Frame) -> None:
    """Resolve one chain item (its ``resolve`` frame)."""
    chain.resolve_item(g, fr, RESOLUTION)


def describe(item: Item) -> str:
    return f"seat {item.user}'s {item.kind}"


def h_cost(g: Game, fr: Frame) -> None:
    """A skill's cost chosen by prompts before the responses (单枪匹马's "discard any
    number of hand cards": listing every subset as an action would not scale). The skill's
    ``on_use`` pushes ``Frame("cost", seat=user, text=skill id)``; the frame runs once the
    item is on the chain, before the poll (play phase, response points, triggers), and
    calls the skill's ``pay(g, item, fr)`` until it returns True (it may ask ``choose``
    decisions, answered in ``fr.answer``, or push windows such as ``discarded``)."""
    st = g.state
    item = next((it for it in reversed(st.chain) if it.kind == fr.text and it.user == fr.seat), None)
    pay: Callable[[Game, Item, Frame], bool] | None = getattr(SKILLS[fr.text], "pay", None)
    if item is None or pay is None or pay(g, item, fr):
        chain.remove_frame(st, fr)
