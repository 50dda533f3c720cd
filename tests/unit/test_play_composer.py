"""The terminal client's composer (``fengsheng play``, issue 27 §4): an answer built step by
step from the prompt's structured legal actions, fed line by line as a pipe would.

It must name cards, seats and words in the chosen language and never show the notation
(unless ``--show-notation``), offer only what stays legal, take a multi-card choice as
toggles plus a confirm, and go back / start again on ``b`` / ``c``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

from rich.console import Console

from fengsheng.commands.play import View
from fengsheng.commands.play_compose import Composer

#: a piece of notation: a verb followed by a number or an id, or a lock/to clause
NOTATION = re.compile(r"\b(send|play|choose) (\d+|pile)(?![\d-])|\bskill [a-z_]+|\b(lock|to) \d")

CARDS: dict[int, dict[str, Any]] = {
    57: {"function": "burn", "function_zh": "烧毁", "color": "red", "transmission": "left"},
    81: {"function": "swap", "function_zh": "调包", "color": "blue", "transmission": "up"},
    3: {"function": "probe", "function_zh": "试探", "color": "black", "transmission": "right"},
    5: {"function": "intercept", "function_zh": "截获", "color": "red", "transmission": "left"},
    7: {"function": "lure_away", "function_zh": "调虎离山", "color": "blue", "transmission": "right"},
}


def _value(text: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"text": text, "kind": kind, "card": 0, "pile": False, "skill": "", "to": [], "on": 0, "chain": 0,
            "cards": [], "mode": "", "arrow": "", "code": "", "alt": "", "picks": [], "options": [], "face": "",
            **fields}


SPY_SEND = [
    _value("send 57", "send", card=57),
    _value("send 57 lock 2", "send", card=57, lock=2),
    _value("send 57 lock 0", "send", card=57, lock=0),
    _value("send 81 to 3", "send", card=81, to=[3]),
    _value("send 81 to 3 lock 2", "send", card=81, to=[3], lock=2),
    _value("send 81 to 2", "send", card=81, to=[2]),
]

HANDOFF = [
    _value("pass", "pass"),
    _value("choose 3,5 to 1", "choose", picks=[3, 5], to=[1]),
    _value("choose 3,7 to 1", "choose", picks=[3, 7], to=[1]),
    _value("choose 3,5 to 2", "choose", picks=[3, 5], to=[2]),
    _value("choose 3 to 1", "choose", picks=[3], to=[1]),
]


def _composer(lines: list[str], *, lang: str = "en", show_notation: bool = False) -> tuple[Composer, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, highlight=False)
    view = View(console, CARDS, 0, ["human", "random", "random", "random"], None, lang=lang)
    feed: Iterator[str] = iter([*(line + "\n" for line in lines)])
    return Composer(view, lambda: next(feed, ""), show_notation=show_notation), out


def _menus(text: str) -> list[list[str]]:
    """Each numbered menu shown, as its lines."""
    menus: list[list[str]] = [[]]
    for line in text.splitlines():
        if re.match(r"^ +\d+\. ", line):
            menus[-1].append(line.split(". ", 1)[1])
        elif menus[-1]:
            menus.append([])
    return [m for m in menus if m]


def test_a_spy_send_is_card_then_way_then_lock_named_without_notation() -> None:
    composer, out = _composer(["2", "1", "2"])  # 调包#81, then seat 3, then lock seat 2
    action = composer.compose({"legal": SPY_SEND}, 4, {57, 81})
    assert action == "send 81 to 3 lock 2"
    text = out.getvalue()
    menus = _menus(text)
    assert menus[0] == ["烧毁·红·←#57", "调包·蓝·↑#81"], text
    assert menus[1] == ["seat 3 (random)", "seat 2 (random)"], text  # only the seats 81 may go to
    assert menus[2] == ["no lock", "lock seat 2 (random)"], text  # only the locks legal with seat 3
    assert "direction or target:" in text and "调包·蓝·↑#81 › seat 3 (random) › lock:" in text
    assert not NOTATION.search(text), text


def test_a_choice_that_leaves_one_action_answers_at_once() -> None:
    composer, out = _composer(["2", "2"])  # 调包#81, seat 2: the only action left
    assert composer.compose({"legal": SPY_SEND}, 4, {57, 81}) == "send 81 to 2"
    assert len(_menus(out.getvalue())) == 2


def test_back_and_start_again() -> None:
    composer, out = _composer(["1", "b", "2", "1", "c", "1", "3"])
    assert composer.compose({"legal": SPY_SEND}, 4, {57, 81}) == "send 57 lock 0"
    text = out.getvalue()
    assert text.count("b back, c start again") == 4  # the menus after a first choice
    assert _menus(text)[-1] == ["no lock", "lock seat 2 (random)", "lock you"]


def test_a_multi_card_choice_is_toggles_and_a_confirm() -> None:
    # 1 pass, 2-4 toggles (3, 5, 7), 5 confirm; toggling 7 after 5 is refused (no legal
    # set holds both); a lone 5 is not a legal set; then 3 and 5, confirm, seat 2
    composer, out = _composer(["3", "4", "5", "2", "5", "2"])
    action = composer.compose({"legal": HANDOFF}, 4, {3, 5, 7})
    assert action == "choose 3,5 to 2"
    text = out.getvalue()
    first = _menus(text)[0]
    assert first == ["pass", "[ ] 试探·黑·→#3", "[ ] 截获·红·←#5", "[ ] 调虎离山·蓝·→#7", "confirm the 0 picked"], text
    assert "those picks are not a legal choice" in text
    assert "[x] 截获·红·←#5" in text and "confirm the 2 picked" in text
    assert _menus(text)[-1] == ["seat 1 (random)", "seat 2 (random)"]
    assert not NOTATION.search(text), text


def test_several_numbers_at_once_toggle_them() -> None:
    composer, _ = _composer(["2 4", "5"])  # 3 and 7 in one line, then confirm: one action left
    assert composer.compose({"legal": HANDOFF}, 4, {3, 5, 7}) == "choose 3,7 to 1"


def test_chinese_names_and_no_english() -> None:
    composer, out = _composer(["1", "2"], lang="zh")
    assert composer.compose({"legal": SPY_SEND}, 4, {57, 81}) == "send 57 lock 2"
    text = out.getvalue()
    assert _menus(text)[1] == ["不锁定", "锁定座位2 (机器人)", "锁定你"], text
    assert "选择" in text and not re.search(r"[A-Za-z]{3,}", text.replace("q", "")), text


def test_notation_only_with_the_debug_flag_and_typed_notation_passes() -> None:
    composer, out = _composer(["send 57"], show_notation=True)
    assert composer.compose({"legal": SPY_SEND}, 4, {57, 81}) == "send 57"  # typed: sent as it is
    assert "[send 57 | send 57 lock 2 | send 57 lock 0]" in out.getvalue()
    composer, out = _composer(["9", "q"])
    assert composer.compose({"legal": SPY_SEND}, 4, {57, 81}) is None
    assert "no such choice" in out.getvalue()
