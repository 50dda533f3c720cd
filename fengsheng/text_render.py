"""Structured text for the terminal client (issue 16 §1): an event's or a prompt's template
(``GET /api/cards``: ``texts``) filled with its arguments (engine/text.py), in Chinese or
English; the web client's counterpart is gateway/static/js/text.js.

Arguments are typed by the prefix of their name: ``seat``/``seats`` are seats, ``card``/
``cards`` card numbers (0 face down), ``id`` ids named by the caller, ``zh`` printed
names, ``n`` counts, ``text`` shown as it is, ``reason`` a game-over reason
(:func:`reason_text`), ``action`` in notation (what a player types, in every language) with
its ``seat N`` named. An event's arguments arrive typed (:func:`event_args`: a count is a
count, never a card); a prompt's still as pieces of its line (strings).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

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


def event_args(args: list[dict[str, Any]]) -> dict[str, Any]:
    """The typed arguments of an event as the gateway's JSON carries them (proto
    ``EventArg``: ``name`` and one of seat, seats, card, cards, count, id, ids, text), by
    name: ints, lists of ints or of ids, and strings."""
    out: dict[str, Any] = {}
    for arg in args:
        for field in ("seat", "card", "count", "id", "text"):
            if field in arg:
                out[arg["name"]] = arg[field]
                break
        else:
            for field in ("seats", "cards", "ids"):
                if field in arg:
                    out[arg["name"]] = list(arg[field].get("values", []))
                    break
    return out


def _items(value: Any) -> list[str]:
    """A list argument's items: typed (a list) or a prompt line's piece (``1 2``, ``a,b``)."""
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return [v for v in re.split(r"[ ,]+", str(value)) if v and v != "-"]


def render(
    template: str,
    args: Mapping[str, Any],
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

    def one(kind: str, raw: Any) -> str:
        value = str(raw)
        if kind == "seat":
            return seat_word(value)
        if kind == "seats":
            seats = _items(raw)
            if not seats:
                return "无人" if lang == "zh" else "nobody"
            return ("、" if lang == "zh" else ", ").join(seat_word(v) for v in seats)
        if kind == "card":
            if not value.isdigit() or value == "0":
                return "一张背面的牌" if lang == "zh" else "a face-down card"
            return card(int(value))
        if kind == "cards":
            return " ".join(one("card", v) for v in _items(raw))
        if kind == "ids":
            return ("、" if lang == "zh" else ", ").join(one("id", v) for v in _items(raw))
        if kind == "id":
            named = name(value)
            if named != value:
                return named
            return WORDS_ZH.get(value, value) if lang == "zh" else value
        if kind == "reason":
            return reason_text(value, lang=lang, name=name)
        if kind == "action":
            # an action stays in notation (what the player types), its seats named
            return re.sub(r"\bseat (-?\d+)", lambda m: seat_word(m.group(1)), value)
        return value

    return PLACEHOLDER.sub(lambda m: one(m.group(1), args.get(m.group(1) + m.group(2), "")), template)


#: 谍战篇's 神秘人 cards (secret_task: shared/rules/spy-edition.md §7.2) by their printed names
SECRET_TASKS_ZH = {
    "zhen_ya_zhe": "镇压者", "cuan_duo_zhe": "篡夺者", "shuang_mian_jian_die": "双面间谍", "you_bian_zhe": "诱变者",
    "xian_xing_zhe": "先行者", "jiao_ju_zhe": "搅局者", "qing_dao_fu": "清道夫",
}  # fmt: skip

#: the engine's game-over reasons (engine/rulesets/*: rules.py, victory.py, flow.py) in
#: Chinese, one pattern each; the web client's counterpart is i18n.js ``REASONS``
REASONS_ZH: list[tuple[re.Pattern[str], Callable[[re.Match[str], Callable[[str], str]], str]]] = [
    (re.compile(r"intel collected"), lambda m, name: "集齐情报"),
    (re.compile(r"a death"), lambda m, name: "玩家死亡"),
    (re.compile(r"(?:the )?last player (?:alive|standing)"), lambda m, name: "最后存活的玩家"),
    (re.compile(r"(\w+) at the turn end"), lambda m, name: f"{SECRET_TASKS_ZH.get(m[1], m[1])}于回合结束时获胜"),
    (re.compile(r"nobody is left"), lambda m, name: "无人存活"),
    (re.compile(r"agent completes a victory condition"), lambda m, name: "特工完成胜利条件"),
    (re.compile(r"agent mission on another's declaration"), lambda m, name: "他人宣胜时特工完成任务"),
    (re.compile(r"secret mission completed"), lambda m, name: "完成机密任务"),
    (re.compile(r"secret mission completed at death"), lambda m, name: "死亡时完成机密任务"),
    (re.compile(r"(military|latent) holds 3 (red|blue) intel"),
     lambda m, name: f"{WORDS_ZH[m[1]]}集齐3张{'红色' if m[2] == 'red' else '蓝色'}情报"),
    (re.compile(r"(\w+) faction: three intel of its colour"),
     lambda m, name: f"{WORDS_ZH.get(m[1], m[1])}阵营集齐3张本色情报"),
    (re.compile(r"mission of (\w+): the declaration of seat (\d+) fails"),
     lambda m, name: f"{name(m[1])}完成机密任务：座位{m[2]}的宣胜失败"),
    (re.compile(r"mission of (\w+)"), lambda m, name: f"{name(m[1])}完成机密任务"),
]  # fmt: skip


def reason_text(reason: str, *, lang: str, name: Callable[[str], str]) -> str:
    """A game-over reason (several joined by ``; ``) in ``lang``: English as the engine
    words it, Chinese from :data:`REASONS_ZH` (a part no pattern knows stays as it is)."""
    if lang != "zh":
        return reason
    parts = []
    for part in reason.split("; "):
        for pattern, make in REASONS_ZH:
            m = pattern.fullmatch(part)
            if m:
                parts.append(make(m, name))
                break
        else:
            parts.append(part)
    return "；".join(parts)
