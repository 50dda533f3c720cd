"""Structured text for the terminal client (issue 16 §1): an event's or a prompt's template
(``GET /api/cards``: ``texts``) filled with its arguments (engine/text.py), in Chinese or
English; the web client's counterpart is gateway/static/js/text.js.

Arguments are typed by the prefix of their name: ``seat``/``seats`` are seats, ``card``/
``cards`` card numbers (``?`` face down), ``id`` ids named by the caller, ``zh`` printed
names, ``n`` counts, ``text``/``reason`` shown as they are, ``action`` in notation (what a
player types, in every language) with its ``seat N`` named. A template only ever
shows its arguments, which are pieces of the line the seat received.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

PLACEHOLDER = re.compile(r"\{([a-z]+)(\d*)\}")

#: ids the engine writes that are words, not names (modes, directions, colours, timings)
WORDS_ZH = {
    "secret": "密电", "direct": "直达", "text": "文本", "any": "任意", "left": "向左", "right": "向右",
    "red": "红", "blue": "蓝", "black": "黑", "dual": "双色", "military": "军情", "latent": "潜伏",
    "agent": "特工", "bystander": "打酱油", "burned": "情报被烧毁时", "discarded": "弃牌时", "dying": "濒死时",
    "received": "接收情报时", "targeted": "成为目标时", "send": "传出情报时", "burn": "烧毁", "discard": "弃牌",
    "identity": "查看身份", "declare": "宣言传递情报", "receive": "接收情报", "up": "向上", "lock": "锁定",
    "special_service": "特工机关", "mystery": "神秘人",
}  # fmt: skip


def render(
    template: str,
    args: Mapping[str, str],
    *,
    lang: str,
    card: Callable[[int], str],
    name: Callable[[str], str],
    seat: Callable[[int], str] | None = None,
) -> str:
    """``template`` with every placeholder replaced by its argument, named for ``lang``."""

    def seat_word(value: str) -> str:
        if seat is not None:
            return seat(int(value))
        return f"座位{value}" if lang == "zh" else f"seat {value}"

    def one(kind: str, value: str) -> str:
        if kind == "seat":
            return seat_word(value)
        if kind == "seats":
            if value in ("", "-"):
                return "无人" if lang == "zh" else "nobody"
            return ("、" if lang == "zh" else ", ").join(seat_word(v) for v in re.split(r"[ ,]+", value) if v)
        if kind == "card":
            if not value.isdigit():
                return "一张背面的牌" if lang == "zh" else "a face-down card"
            return card(int(value))
        if kind == "cards":
            return " ".join(one("card", v) for v in re.split(r"[ ,]+", value) if v)
        if kind == "ids":
            return ("、" if lang == "zh" else ", ").join(one("id", v) for v in value.split(",") if v)
        if kind == "id":
            named = name(value)
            if named != value:
                return named
            return WORDS_ZH.get(value, value) if lang == "zh" else value
        if kind == "action":
            # an action stays in notation (what the player types), its seats named
            return re.sub(r"\bseat (-?\d+)", lambda m: seat_word(m.group(1)), value)
        return value

    return PLACEHOLDER.sub(lambda m: one(m.group(1), str(args.get(m.group(1) + m.group(2), ""))), template)
