"""The response chain (响应链) that rulesets with one share: a stack of used cards and
skills (:class:`~engine.state.Item` records in ``State.chain``, the top last) that players
add to when they get the chance and that resolves last-in-first-out.

What is the same in every ruleset with a chain lives here; what the rules of an edition
say lives in its package and reaches this module as a few hooks:

- **The record.** :func:`open_chain` (the item that opens a chain and its timing),
  :func:`push_item` (an item joins; with ``new_timing`` it opens a new timing, which
  ``State.window`` counts: a skill may be used once per timing), :func:`top`,
  :func:`end_chain` (the chain, its timing and the cards drawn during it are done with).
- **Who may add to it: two polling disciplines** over a ruleset's :class:`Responses`
  (the decision kind and its prompt, which answers pass, how an answer becomes an item
  with its cost paid, what follows its joining):

  * :func:`poll_each_once`: after every new item each other
    seat is asked once, in the order the ruleset gives for that item
    (:meth:`EachOnce.order`); a response starts a new round after itself; when every seat
    asked has passed the chain resolves. Frame ``chain``: ``order`` the seats to ask,
    ``index`` the next one, ``stage`` 0 polling / 1 resolving.
  * :func:`pass_priority`: the holder of priority uses something or passes,
    priority goes to the next living player; when every living player has passed in
    succession the chain resolves, then the turn player holds priority again
    (:func:`priority_again`). Frame ``window``: ``seat`` the holder, ``index`` the passes
    in a row, ``stage`` 1 while its chain resolves.

- **Resolving, last in first out**, through a ruleset's :class:`ItemRules` (does the item
  still take effect, its effect, where its cards go), in one of two frame shapes:

  * one ``resolve`` frame per item: :func:`resolve_next` pushes a frame for the
    top item (``index`` its chain position, ``seat`` its user) until the chain is empty;
    :func:`resolve_item` runs the effect, which keeps its own progress in the frame's
    ``stage`` and says when it is done, then takes the item and its frame away;
    :func:`resolve_now` is a triggered skill used while a chain is built or resolved: it
    joins the chain and resolves at once, without a poll.
  * one ``resolve`` frame for the whole chain: :func:`resolve_chain`
    takes the top item through ``stage`` 0 its check (a failed check voids it), 1 its
    effect, 2 putting it away, so that whatever each step pushes (triggers, steps that ask
    decisions) runs before the next step.

Every frame and field is the one the rulesets used before this module existed, so the
snapshots of matches in progress restore and continue unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from engine.action import Action
from engine.kinds import PromptKind
from engine.state import Frame, Item, State
from engine.text import ArgValue


class ChainGame(Protocol):
    """What the chain needs from a match (:class:`engine.game.Game` is one)."""

    state: State

    def push(self, frame: Frame) -> None: ...

    def ask(self, seat: int, kind: PromptKind, key: str, options: Iterable[Action] = ..., *,
            args: dict[str, ArgValue]) -> None: ...

    def next_living(self, seat: int, direction: int = ...) -> int: ...

    def living(self) -> list[int]: ...


G = TypeVar("G", bound=ChainGame)
G_contra = TypeVar("G_contra", bound=ChainGame, contravariant=True)


# ---------------------------------------------------------------------- the record
def open_chain(st: State, item: Item, timing: str) -> None:
    """``item`` opens a new chain at ``timing`` (what opened it: main, declare, receive …),
    a new timing of its own."""
    st.chain = [item]
    st.timing = timing
    st.window += 1


def push_item(st: State, item: Item, *, new_timing: bool = False) -> int:
    """Put ``item`` on top of the chain and give its position; with ``new_timing`` the
    moment after it is a new timing (``State.window``)."""
    st.chain.append(item)
    if new_timing:
        st.window += 1
    return len(st.chain) - 1


def top(st: State) -> Item:
    """The item on top of the chain: the last one used, the next to resolve."""
    return st.chain[-1]


def end_chain(st: State) -> None:
    """The chain is over: no item, no timing, and the cards drawn during it may be used
    again."""
    st.chain.clear()
    st.timing = ""
    st.fresh.clear()


def remove_frame(st: State, fr: Frame) -> None:
    """Take ``fr`` itself off the stack, not whatever its work pushed on top of it."""
    stack = st.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is fr:
            del stack[i]
            return


# ---------------------------------------------------------------------- adding to it
class Responses(Protocol[G_contra]):
    """A ruleset's part in a polling discipline: how its players add to the chain."""

    @property
    def decision(self) -> PromptKind:
        """The decision kind of the question (``respond``, ``priority``)."""

    @property
    def passing(self) -> frozenset[str]:
        """The answers that add nothing (``pass``; ``declare`` at a play phase where a ruleset says so)."""

    def prompt(self, g: G_contra, fr: Frame) -> tuple[str, dict[str, ArgValue]]:
        """What is asked: the key of a prompt row of the ruleset's text table and its
        typed arguments (engine/text.py)."""

    def use(self, g: G_contra, seat: int, action: Action) -> Item:
        """The item of ``seat``'s answer, its card taken from where it was and its cost
        paid; the chain puts it on top."""

    def joined(self, g: G_contra, item: Item) -> None:
        """What follows the item's joining the chain (the 'when a card is used' windows)."""


class EachOnce(Responses[G_contra], Protocol[G_contra]):
    """A ruleset that asks each other seat once after every item (:func:`poll_each_once`)."""

    def order(self, g: G_contra, item: Item) -> list[int]:
        """The seats to ask about ``item``, in order."""


def poll_each_once(g: G, fr: Frame, rules: EachOnce[G]) -> bool:
    """Stage 0 of a ``chain`` frame: ask the seats of ``fr.order`` in turn (dead ones are
    skipped) whether they respond to the top item. A response joins the chain as a new
    timing and the round starts again with the seats :meth:`EachOnce.order` gives for it.
    True once every seat asked has passed (``fr.stage`` is then 1: the chain resolves)."""
    st = g.state
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action.kind in rules.passing:
            fr.index += 1
        else:
            item = rules.use(g, fr.order[fr.index], action)
            push_item(st, item, new_timing=True)
            fr.order = rules.order(g, item)
            fr.index = 0
            rules.joined(g, item)
            return False
    seats = st.seats
    while fr.index < len(fr.order) and not seats[fr.order[fr.index]].alive:
        fr.index += 1
    if fr.index < len(fr.order):
        key, args = rules.prompt(g, fr)
        g.ask(fr.order[fr.index], rules.decision, key, args=args)
        return False
    fr.stage = 1
    return True


def pass_priority(g: G, fr: Frame, rules: Responses[G]) -> bool:
    """A ``window`` frame's priority loop: ``fr.seat`` holds priority and is asked; a use
    joins the chain and a pass counts (``fr.index``, passes in a row); either way priority
    goes to the next living player. True once every living player has passed in
    succession (the chain, if any, resolves; with none the step ends)."""
    st = g.state
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action.kind in rules.passing:
            fr.index += 1
            fr.seat = g.next_living(fr.seat)
        else:
            item = rules.use(g, fr.seat, action)
            push_item(st, item)
            rules.joined(g, item)
            fr.index = 0
            fr.seat = g.next_living(fr.seat)
            return False
    if fr.index >= len(g.living()):
        return True
    if not st.seats[fr.seat].alive:
        fr.seat = g.next_living(fr.seat)
    key, args = rules.prompt(g, fr)
    g.ask(fr.seat, rules.decision, key, args=args)
    return False


def priority_again(g: ChainGame, fr: Frame) -> None:
    """After the chain resolved, the turn player (if dead, the next living player) holds
    priority again and the count of passes starts over (§6.3)."""
    st = g.state
    fr.stage = 0
    fr.index = 0
    fr.seat = st.turn if st.seats[st.turn].alive else g.next_living(st.turn)


# ---------------------------------------------------------------------- resolving it
class ItemRules(Protocol[G_contra]):
    """A ruleset's part in resolving one chain item."""

    def takes_effect(self, g: G_contra, item: Item, fr: Frame) -> bool:
        """Whether the item still takes effect (not 识破'd or voided, its target still
        there); if not, say why in the log."""

    def effect(self, g: G_contra, item: Item, fr: Frame) -> bool:
        """Carry out the effect; False while it waits for work it pushed or a decision it
        asked (it is called again with the same frame)."""

    def dispose(self, g: G_contra, item: Item) -> None:
        """Put the item's card, and the cards it held, where they go."""


def resolve_next(g: ChainGame, fr: Frame) -> None:
    """Everyone passed (one frame per item): push a ``resolve`` frame for the top item; once
    the chain is empty, or the game over, the chain ends and ``fr`` goes."""
    st = g.state
    if not st.chain or st.over:
        end_chain(st)
        st.stack.pop()
        return
    last = len(st.chain) - 1
    g.push(Frame("resolve", seat=st.chain[last].user, index=last))


def resolve_now(g: ChainGame, item: Item) -> None:
    """``item`` joins the chain being built or resolved and resolves at once, with no
    poll (a triggered skill)."""
    index = push_item(g.state, item)
    g.push(Frame("resolve", seat=item.user, index=index))


def resolve_item(g: G, fr: Frame, rules: ItemRules[G]) -> bool:
    """A ``resolve`` frame for the item at ``fr.index``: its effect if it takes effect; once
    done, the item leaves the chain, the frame leaves the stack and the cards are put away.
    True when done."""
    st = g.state
    item = st.chain[fr.index]
    if rules.takes_effect(g, item, fr) and not rules.effect(g, item, fr):
        return False
    del st.chain[fr.index]
    remove_frame(st, fr)
    rules.dispose(g, item)
    return True


def resolve_chain(g: G, fr: Frame, rules: ItemRules[G]) -> bool:
    """A ``resolve`` frame for the whole chain, one step per call on the top item: stage 0
    its check (failing, it is void), 1 its effect (unless void), 2 putting it away. True
    once the chain is empty: it ends and the frame goes."""
    st = g.state
    if not st.chain:
        st.stack.pop()
        end_chain(st)
        return True
    item = top(st)
    if fr.stage == 0:
        fr.stage = 1
        if not rules.takes_effect(g, item, fr):
            item.void = True
        return False
    if fr.stage == 1:
        fr.stage = 2
        if not item.void:
            rules.effect(g, item, fr)
        return False
    fr.stage = 0
    st.chain.pop()
    rules.dispose(g, item)
    return False
