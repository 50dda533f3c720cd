"""The core response chain (engine/chain.py) on a small fake match: the two polling
disciplines ask the right seats in the right order and stop at the right moment, and
both resolve shapes go last-in-first-out, letting pushed work run between steps."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

import pytest

from engine import chain
from engine.action import Action
from engine.kinds import PromptKind
from engine.state import Frame, Item, Prompt, Seat, State
from engine.text import ArgValue


class FakeGame:
    """A match with only what the chain needs, its frame handlers given by the test."""

    def __init__(self, players: int, *, dead: Iterable[int] = ()) -> None:
        seats = [Seat("x", alive=i not in set(dead)) for i in range(players)]
        self.state = State(ruleset="fake", players=players, seed=0, tutorial=False, characters=False, rng=0,
                           seats=seats)
        self.handlers: dict[str, Callable[[FakeGame, Frame], None]] = {}
        self.asked: list[tuple[int, str]] = []
        self.log: list[str] = []

    def push(self, frame: Frame) -> None:
        self.state.stack.append(frame)

    def ask(self, seat: int, kind: PromptKind, text: str, options: Iterable[str] = (), *,
            args: dict[str, ArgValue]) -> None:
        """The fake's prompt keys are their own text (no text table)."""
        st = self.state
        st.decision += 1
        st.prompt = Prompt(seat, kind, st.decision, text)
        self.asked.append((seat, text))

    def next_living(self, seat: int, direction: int = 1) -> int:
        n = self.state.players
        for i in range(1, n + 1):
            s = (seat + direction * i) % n
            if self.state.seats[s].alive:
                return s
        return seat

    def living(self) -> list[int]:
        return [i for i, s in enumerate(self.state.seats) if s.alive]

    def run(self) -> None:
        st = self.state
        while st.prompt is None and st.stack:
            self.handlers[st.stack[-1].kind](self, st.stack[-1])

    def answer(self, action: str) -> None:
        """``pass`` / ``declare``, or ``use NAME``: a use of the item NAME (a skill here)."""
        assert self.state.prompt is not None
        self.state.prompt = None
        word, _, name = action.partition(" ")
        self.state.stack[-1].answer = Action("skill", skill=name) if word == "use" else Action(word)
        self.run()

    def asked_seat(self) -> int:
        assert self.state.prompt is not None
        return self.state.prompt.seat


class Rules:
    """Responses and item rules that note what happens: ``use X`` makes an item of kind X;
    an item of kind ``fail`` fails its check; ``wait`` takes two calls to its effect and
    pushes a ``note`` frame in between; ``trigger`` pushes a ``note`` frame at its check."""

    decision: Final = "respond"
    passing: Final = frozenset({"pass", "declare"})

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def prompt(self, g: FakeGame, fr: Frame) -> tuple[str, dict[str, ArgValue]]:
        return (f"respond to {g.state.chain[-1].kind}" if g.state.chain else "use something"), {}

    def use(self, g: FakeGame, seat: int, action: Action) -> Item:
        return Item(action.skill, seat)

    def joined(self, g: FakeGame, item: Item) -> None:
        self.log.append(f"joined {item.kind}")

    def order(self, g: FakeGame, item: Item) -> list[int]:
        n = g.state.players
        return [(item.user + i) % n for i in range(1, n)]

    def takes_effect(self, g: FakeGame, item: Item, fr: Frame) -> bool:
        self.log.append(f"check {item.kind}")
        if item.kind == "trigger":
            g.push(Frame("note", text=f"triggered by {item.kind}"))
        return item.kind != "fail"

    def effect(self, g: FakeGame, item: Item, fr: Frame) -> bool:
        self.log.append(f"effect {item.kind}")
        if item.kind == "wait" and fr.stage == 0:
            fr.stage = 1
            g.push(Frame("note", text="waited on"))
            return False
        return True

    def dispose(self, g: FakeGame, item: Item) -> None:
        self.log.append(f"dispose {item.kind}")


def h_note(g: FakeGame, fr: Frame) -> None:
    g.log.append(fr.text)
    g.state.stack.pop()


def each_once_game(players: int, *, dead: Iterable[int] = ()) -> tuple[FakeGame, Rules]:
    g = FakeGame(players, dead=dead)
    rules = Rules(g.log)

    def h_chain(g: FakeGame, fr: Frame) -> None:
        if fr.stage == 0 and not chain.poll_each_once(g, fr, rules):
            return
        chain.resolve_next(g, fr)

    def h_resolve(g: FakeGame, fr: Frame) -> None:
        chain.resolve_item(g, fr, rules)

    g.handlers = {"chain": h_chain, "resolve": h_resolve, "note": h_note}
    return g, rules


def test_each_once_asks_every_other_living_seat_once_after_each_item_then_resolves_lifo() -> None:
    g, rules = each_once_game(5, dead=[2])
    first = Item("first", 0)
    chain.open_chain(g.state, first, "main")
    g.push(Frame("chain", seat=0, order=rules.order(g, first)))
    g.run()
    assert g.state.window == 1
    g.answer("pass")                      # seat 1; seat 2 is dead and skipped
    assert g.asked_seat() == 3
    g.answer("use second")                # a response: a new timing, a new round after seat 3
    assert g.state.window == 2
    assert [it.kind for it in g.state.chain] == ["first", "second"]
    for seat in (4, 0, 1):
        assert g.asked_seat() == seat
        assert g.state.prompt is not None and g.state.prompt.text == "respond to second"
        g.answer("pass")
    assert [s for s, _ in g.asked] == [1, 3, 4, 0, 1]
    assert g.log == ["joined second", "check second", "effect second", "dispose second",
                     "check first", "effect first", "dispose first"]
    assert g.state.chain == [] and g.state.stack == [] and g.state.timing == ""


def test_a_waiting_effect_keeps_its_frame_and_only_its_own_frame_goes() -> None:
    g, _ = each_once_game(3)
    chain.open_chain(g.state, Item("wait", 0), "main")
    g.push(Frame("chain", seat=0, order=[1, 2]))
    g.run()
    g.answer("pass")
    g.state.fresh.append(17)
    g.answer("pass")
    assert g.log == ["check wait", "effect wait", "waited on", "check wait", "effect wait", "dispose wait"]
    assert g.state.stack == [] and g.state.fresh == []


def test_resolve_now_joins_and_resolves_without_a_poll() -> None:
    g, _ = each_once_game(3)
    g.state.chain = [Item("below", 1)]
    chain.resolve_now(g, Item("skill", 2))
    assert g.state.stack[-1] == Frame("resolve", seat=2, index=1)
    g.run()
    assert g.asked == [] and [it.kind for it in g.state.chain] == ["below"]
    assert g.log == ["check skill", "effect skill", "dispose skill"]


def priority_game(players: int, *, dead: Iterable[int] = ()) -> tuple[FakeGame, Rules]:
    g = FakeGame(players, dead=dead)
    rules = Rules(g.log)

    def h_window(g: FakeGame, fr: Frame) -> None:
        if fr.stage == 1:
            chain.priority_again(g, fr)
        if not chain.pass_priority(g, fr, rules):
            return
        if g.state.chain:
            fr.stage = 1
            g.push(Frame("resolve"))
            return
        g.state.stack.pop()

    def h_resolve(g: FakeGame, fr: Frame) -> None:
        chain.resolve_chain(g, fr, rules)

    g.handlers = {"window": h_window, "resolve": h_resolve, "note": h_note}
    return g, rules


def test_priority_goes_round_until_every_living_player_passed_in_succession() -> None:
    g, _ = priority_game(4, dead=[2])
    g.state.turn = 1
    g.push(Frame("window", seat=1))
    g.run()
    g.answer("pass")                      # seat 1
    g.answer("use a")                     # seat 3: the count of passes starts over
    g.answer("declare")                   # seat 0: declare passes too
    g.answer("use b")                     # seat 1
    for _ in range(3):                    # seats 3, 0, 1 pass: three living players
        g.answer("pass")
    assert [s for s, _ in g.asked] == [1, 3, 0, 1, 3, 0, 1, 1]
    assert g.log == ["joined a", "joined b", "check b", "effect b", "dispose b", "check a", "effect a", "dispose a"]
    assert g.state.window == 0
    # The chain resolved: the turn player holds priority again (the last seat asked above);
    # all pass: the step ends.
    assert g.asked_seat() == 1 and g.state.chain == []
    for _ in range(3):
        g.answer("pass")
    assert g.state.stack == [] and g.state.prompt is None


def test_priority_skips_a_holder_who_died() -> None:
    g, _ = priority_game(3)
    g.push(Frame("window", seat=0))
    g.run()
    g.state.seats[1].alive = False
    g.answer("pass")
    assert g.asked_seat() == 2


@pytest.mark.parametrize("kinds, expected", [
    (["a", "fail", "trigger"],
     ["check trigger", "triggered by trigger", "effect trigger", "dispose trigger",
      "check fail", "dispose fail", "check a", "effect a", "dispose a"]),
])
def test_staged_resolution_checks_then_effects_then_puts_away_each_item_top_first(
        kinds: list[str], expected: list[str]) -> None:
    g, _ = priority_game(3)
    g.state.chain = [Item(k, 0) for k in kinds]
    g.state.fresh = [5]
    g.push(Frame("resolve"))
    g.run()
    assert g.log == expected
    assert g.state.chain == [] and g.state.stack == [] and g.state.fresh == []


def test_a_failed_check_voids_the_item() -> None:
    g, rules = priority_game(3)
    failing = Item("fail", 0)
    g.state.chain = [failing]
    fr = Frame("resolve")
    g.push(fr)
    chain.resolve_chain(g, fr, rules)
    assert failing.void and fr.stage == 1
