"""The terminal client's decision menu: an answer composed step by step
(fengsheng/compose.py) from the prompt's structured legal actions, each step a numbered
menu named in the player's language: the card (or skill, or pass …), then the target, the
mode, the lock … as the remaining actions differ. A value that is a set of cards is picked
by toggling its elements and confirming. ``b`` goes back one step, ``c`` starts again,
``q`` quits; a line that is not a number or a command is sent as typed notation
(docs/notation.md) for those who know it. The notation is shown only with
``--show-notation``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fengsheng.compose import SLOTS, Chosen, Step, can_add, next_step, set_for, slot_value

#: the composer's words in each ``--lang``: key -> (en, zh)
WORDS: dict[str, tuple[str, str]] = {
    "slot_head": ("choose", "选择"),
    "slot_alt": ("use it as", "当作"),
    "slot_mode": ("how to send it", "传递方式"),
    "slot_to": ("target", "目标"),
    "slot_on": ("acting on", "作用于"),
    "slot_cards": ("cards", "牌"),
    "slot_code": ("code", "暗号"),
    "slot_arrow": ("direction", "方向"),
    "slot_lock": ("lock", "锁定"),
    "slot_options": ("option", "选项"),
    "slot_face": ("face up or down", "正面或背面"),
    "none": ("none", "不选"),
    "none_to": ("no target", "不指定目标"),
    "none_lock": ("no lock", "不锁定"),
    "none_alt": ("as itself", "按原功能使用"),
    "none_arrow": ("the printed direction", "按牌面方向"),
    "slot_way": ("direction or target", "方向或目标"),
    "none_way": ("the printed direction", "按牌面方向"),
    "toggle": ("[{mark}] {label}", "[{mark}] {label}"),
    "confirm": ("confirm the {n} picked", "确定已选的 {n} 项"),
    "picked": ("picked: {items}", "已选：{items}"),
    "not_a_set": ("those picks are not a legal choice", "所选的组合不合规则"),
    "keys": ("b back, c start again", "b 返回，c 重新选择"),
    "pile": ("the top card of the pile", "牌堆顶的牌"),
    "chain_item": ("chain item {k}", "响应链第{k}项"),
    "as": ("as {name}", "当作{name}"),
    "lock_seat": ("lock {seat}", "锁定{seat}"),
    "pass": ("pass", "过"),
    "accept": ("accept", "接收"),
    "decline": ("decline", "不接收"),
    "declare": ("declare the send", "宣言传递情报"),
    "secret": ("secret", "密电"),
    "direct": ("direct", "直达"),
    "text": ("text", "文本"),
    "left": ("← left", "← 向左"),
    "right": ("→ right", "→ 向右"),
    "up": ("↑ up", "↑ 向上"),
    "exposed": ("face up", "正面(暴露)"),
    "hidden": ("face down", "背面(隐藏)"),
}

#: a menu line the player answers (the terminal test drives it by this line)
MENU_LINE = "choose"


class Composer:
    """Composes one answer at the terminal for ``view`` (play.View): its language, its names
    of cards, seats, characters and skills."""

    def __init__(self, view: Any, read: Callable[[], str], *, show_notation: bool = False) -> None:
        self.view = view
        self.read = read
        self.show_notation = show_notation
        #: card function ids -> printed names, from the deck
        self.functions = {c.get("function", ""): c.get("function_zh", "") for c in view.cards.values()}

    def w(self, key: str, **args: object) -> str:
        en, zh = WORDS[key]
        return (zh if self.view.lang == "zh" else en).format(**args)

    def element(self, element: str, players: int, known: set[int]) -> str:
        """One element of a step (``family:value``) named in the player's language."""
        fam, _, v = element.partition(":")
        view = self.view
        if fam in ("play", "send", "card"):
            return str(view.card_name(int(v)))
        if fam == "pick":
            n = int(v)
            if n in known or n >= players:
                return str(view.card_name(n))
            return str(view.who(n))
        if fam == "seat":
            return str(view.who(int(v)))
        if fam == "lock":
            return self.w("lock_seat", seat=view.who(int(v)))
        if fam == "pile":
            return self.w("pile")
        if fam == "skill":
            return str(view.name(v))
        if fam == "alt":
            return self.w("as", name=self.functions.get(v) or v)
        if fam == "chain":
            return self.w("chain_item", k=v)
        if v in WORDS:
            return self.w(v)
        return str(view.name(v))

    def value(self, slot: str, elements: tuple[str, ...], players: int, known: set[int]) -> str:
        if not elements:
            return self.w(f"none_{slot}") if f"none_{slot}" in WORDS else self.w("none")
        sep = "、" if self.view.lang == "zh" else ", "
        return sep.join(self.element(e, players, known) for e in elements)

    def summary(self, action: dict[str, Any], players: int, known: set[int]) -> str:
        """A whole action named: its answers to every question, in order."""
        parts = [self.value(s, v, players, known) for s in SLOTS if (v := slot_value(action, s))]
        out = " · ".join(parts)
        return f"{out}   [{action['text']}]" if self.show_notation else out

    def compose(self, prompt: dict[str, Any], players: int, known: set[int]) -> str | None:
        """Ask step by step until one legal action is chosen: its text (None: quit; a typed
        line that is not a number or a command comes back as it is)."""
        legal: list[dict[str, Any]] = list(prompt.get("legal") or [])
        path: list[Chosen] = []
        names: list[str] = []  # how each answer of ``path`` is named (its slot, or "way")
        picked: list[str] = []
        console = self.view.console
        while True:
            step = next_step(legal, path)
            if step.done is not None:
                return str(step.done["text"])
            # a send's target step is its way: an arrow, a seat, or the printed direction
            reach = [a for c in step.choices + step.sets for a in c.reach]
            sends = step.slot == "to" and all(a.get("kind") == "send" for a in reach)
            named = "way" if sends else step.slot
            options = self.options(step, named, picked, players, known)
            crumbs = " › ".join(self.value(n, c.elements, players, known) for c, n in zip(path, names, strict=True))
            console.print(f"{crumbs + ' › ' if crumbs else ''}{self.w('slot_' + named)}:", markup=False)
            for i, (label, _) in enumerate(options, start=1):
                console.print(f"  {i:>3}. {label}", markup=False, highlight=False)
            if picked:
                items = ", ".join(self.element(e, players, known) for e in picked)
                console.print("  " + self.w("picked", items=items), markup=False)
            console.print(self.view.t("choose", n=len(options)) + (f" ({self.w('keys')})" if path else ""),
                          markup=False, highlight=False)
            line = self.read()
            if not line:
                return None
            text = line.strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                return None
            if low in ("b", "back") and path:
                path.pop()
                names.pop()
                picked = []
                continue
            if low in ("c", "cancel") and path:
                path, names, picked = [], [], []
                continue
            numbers = re.split(r"[\s,]+", text)
            if not text or not all(n.isdigit() for n in numbers):
                return text  # typed notation: the gateway judges it
            chosen = [int(n) - 1 for n in numbers]
            if not all(0 <= i < len(options) for i in chosen) or (len(chosen) > 1 and any(
                    options[i][1][0] != "toggle" for i in chosen)):
                console.print(self.view.t("no_choice"), markup=False)
                continue
            for i in chosen:
                what, arg = options[i][1]
                if what == "choice":
                    choice = step.choices[arg]
                    if len(choice.reach) == 1:
                        return str(choice.reach[0]["text"])
                    path.append(Chosen(step.slot, choice.key, choice.elements))
                    names.append(named)
                    picked = []
                elif what == "toggle":
                    element = step.elements[arg]
                    if element in picked:
                        picked.remove(element)
                    elif can_add(step, picked, element):
                        picked.append(element)
                    else:
                        console.print(self.w("not_a_set"), markup=False)
                else:  # confirm
                    found = set_for(step, picked)
                    if found is None:
                        console.print(self.w("not_a_set"), markup=False)
                    elif len(found.reach) == 1:
                        return str(found.reach[0]["text"])
                    else:
                        path.append(Chosen(step.slot, found.key, found.elements))
                        names.append(named)
                        picked = []

    def options(self, step: Step, named: str, picked: list[str], players: int, known: set[int]
                ) -> list[tuple[str, tuple[str, int]]]:
        """The numbered lines of a step: plain choices, then the set's toggles and confirm."""
        out: list[tuple[str, tuple[str, int]]] = []
        for i, c in enumerate(step.choices):
            label = self.value(named, c.elements, players, known)
            if self.show_notation:
                label += f"   [{' | '.join(str(a['text']) for a in c.reach)}]"
            out.append((label, ("choice", i)))
        for i, e in enumerate(step.elements):
            mark = "x" if e in picked else " "
            out.append((self.w("toggle", mark=mark, label=self.element(e, players, known)), ("toggle", i)))
        if step.elements:
            out.append((self.w("confirm", n=len(picked)), ("confirm", 0)))
        return out
