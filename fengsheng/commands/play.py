"""``fengsheng play``: play one seat against bots in the terminal, through the gateway.

It creates a guest and a match of ``--ruleset`` (``--bots`` bots + you) over REST, then follows your seat's
WebSocket: every event is printed as it happens; when a decision is yours it shows the
table (every seat's intel, characters and hand size, your hand and identity, the intel in
transit, the response chain) and the legal actions as a numbered menu. Answer with a
number, or type an action in notation (docs/notation.md); ``q`` quits. Choices are read
line by line from standard input, so a script or a test can drive it through a pipe.

As on the web: characters are dealt unless ``--no-characters`` (or the ruleset has none); a
decision with one possible answer (a forced pass) is answered by itself and said in one line,
unless ``--ask-forced``; the table is drawn again only when something on it changed; cards
are named (function, colour, mode) wherever a number would stand, characters and skills by
their printed names.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

COLOR_STYLE = {
    "red": "bold red",
    "blue": "bold blue",
    "black": "bright_black",
    "red_blue": "bold magenta",
    "red+blue": "bold magenta",
    "red+black": "red",
    "blue+black": "blue",
}
#: card colours as GET /api/cards spells them (谍战篇's two-colour cards with ``+``)
COLOR_ZH = {
    "red": "红",
    "blue": "蓝",
    "black": "黑",
    "red_blue": "红蓝",
    "red+blue": "红蓝",
    "red+black": "红黑",
    "blue+black": "蓝黑",
}
#: send modes, and 谍战篇's printed arrows
MODE_ZH = {"secret": "密电", "direct": "直达", "text": "文本", "any": "任意", "left": "←", "right": "→", "up": "↑"}
#: the proto's Identity names (one vocabulary for every ruleset: game.proto)
#: words of the notation followed by a card number (docs/notation.md)
CARD_BEFORE = (["play"], ["send"], ["on"], ["choose"])
IDENTITY_ZH = {
    "MILITARY": "军情",
    "LATENT": "潜伏",
    "AGENT": "特工",
    "BYSTANDER": "打酱油",
    "SPECIAL_SERVICE": "特工机关",
    "MYSTERY": "神秘人",
}
#: decision kinds (engine/kinds.py PromptKind) in Chinese, as the web client names them
KIND_ZH = {
    "main": "出牌阶段",
    "send": "传出情报",
    "arrive": "情报到达",
    "respond": "响应",
    "returned": "情报退回",
    "discard": "弃牌",
    "choose": "选择",
    "trigger": "触发",
    "turn_start": "回合开始",
    "character": "选择角色",
    "priority": "优先权",
    "receive": "是否接收情报",
    "contest": "争夺阶段",
    "rescue": "濒死结算",
    "handoff": "死亡交牌",
}
#: the client's own words (headers, menus, verdicts) in each ``--lang``: key -> (en, zh)
WORDS: dict[str, tuple[str, str]] = {
    "title": ("turn {turn} — {seat} is the turn player", "第{turn}回合 — {seat}的回合"),
    "seat": ("seat", "座位"),
    "alive": ("alive", "存活"),
    "identity": ("identity", "身份"),
    "character": ("character", "角色"),
    "hand": ("hand", "手牌"),
    "intel": ("intel", "情报"),
    "counts": ("counts", "统计"),
    "yes": ("yes", "是"),
    "dead": ("dead", "死亡"),
    "revealed": (" (revealed)", "（已翻开）"),
    "face_up": (" (face up)", "（正面）"),
    "locked": (" locked", " 被锁定"),
    "your_hand": ("your hand: ", "你的手牌："),
    "transit": ("intel in transit: ", "传递中的情报："),
    "transit_way": (
        " {mode} {way}{target}, from {sender}, now at {holder}{receiver}",
        " {mode} {way}{target}，来自{sender}，现在{holder}面前{receiver}",
    ),
    "left": ("left", "向左"),
    "right": ("right", "向右"),
    "to": (" to {seat}", " 传给{seat}"),
    "received": (", received by {seat}", "，{seat}接收"),
    "chain": ("response chain (bottom first):", "响应链（自下而上）："),
    "negated": (" (negated)", "（被识破）"),
    "code": (" code {code}", " 暗号 {code}"),
    "on": (" on {card}", " 对 {card}"),
    "pile": ("pile {pile}  discard {discard}", "牌堆 {pile}  弃牌堆 {discard}"),
    "decision": ("your decision {n} ({kind}):", "你的决定 {n}（{kind}）："),
    "choose": ("choose 1-{n}, or type an action; q quits:", "选择 1-{n}，或输入行动；q 退出："),
    "no_choice": ("no such choice", "没有这个选项"),
    "only": ("  (decision {n}: {action}, the only answer)", "  （决定 {n}：{action}，唯一的选择）"),
    "you": ("you", "你"),
    "seat_n": ("seat {n}", "座位{n}"),
    "match": (
        "match {match} (ruleset {ruleset}): you are seat {seat} of {players}",
        "对局 {match}（规则 {ruleset}）：你是 {players} 人中的座位 {seat}",
    ),
    "your_identity": ("your identity: {identity}", "你的身份：{identity}"),
    "not_dealt": ("not dealt yet", "尚未发放"),
    "your_character": (", character {name}", "，角色 {name}"),
    "over": ("the match is over: winners {winners}", "对局已结束：获胜者 {winners}"),
    "game_over": (
        "game over ({reason}): winners {winners} — {verdict}",
        "游戏结束（{reason}）：获胜者 {winners} — {verdict}",
    ),
    "nobody": ("nobody", "无人"),
    "win": ("you win!", "你赢了！"),
    "lose": ("you lose.", "你输了。"),
    "bye": ("bye", "再见"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from engine.rulesets import RULESET_IDS  # the registry (no ruleset is loaded for this)

    parser.add_argument(
        "--ruleset",
        default=RULESET_IDS[0],
        choices=RULESET_IDS,
        help=f"rules edition (default {RULESET_IDS[0]}); its player counts bound --bots",
    )
    parser.add_argument(
        "--bots", type=int, default=4, help="number of bot opponents: the ruleset's player counts less you (default 4)"
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="gateway URL (default http://127.0.0.1:8000)")
    parser.add_argument(
        "--bot",
        default="heuristic",
        choices=("easy", "normal", "hard", "heuristic", "random", "v2", "search"),
        help="bot level (easy = random, normal = heuristic v2, hard = search, played as v2 until "
        "the search bot lands) or policy",
    )
    parser.add_argument("--name", default="you", help="your display name")
    parser.add_argument("--seed", type=int, default=0, help="match seed (0 = random)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds before each bot move (default 0.3)")
    parser.add_argument("--turn-timeout", type=float, default=0.0, help="your decision timer; 0 = none")
    parser.add_argument(
        "--characters",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="deal characters when the ruleset has them (default: on; --no-characters: off)",
    )
    parser.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask even when a decision has one possible answer (default: it is answered by itself)",
    )
    parser.add_argument(
        "--lang",
        default="en",
        choices=("en", "zh"),
        help="language of the table, menus, log lines and prompts (default en)",
    )
    parser.add_argument("--match", default="", help="join this existing match instead of creating one")
    parser.add_argument("--width", type=int, default=0, help="output width (default: the terminal's, else 120)")


class Client:
    """The few gateway calls the terminal client needs."""

    def __init__(self, url: str) -> None:
        import httpx

        self.url = url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, timeout=15)
        self.token = ""
        #: the ruleset's text table (GET /api/cards: template key -> zh/en templates)
        self.texts: dict[str, dict[str, str]] = {}

    def _check(self, reply: Any) -> Any:
        if reply.status_code >= 400:
            try:
                error = reply.json()["error"]
            except Exception:
                error = {"status": reply.status_code, "code": "http_error", "message": reply.text}
            raise GatewayError(error)
        return reply.json()

    def guest(self, name: str) -> str:
        return str(self._check(self.http.post("/api/guests", json={"name": name}))["token"])

    def create(self, player: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {player}"}
        result: dict[str, Any] = self._check(self.http.post("/api/matches", json=body, headers=headers))
        return result

    def join(self, player: str, match_id: str) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {player}"}
        result: dict[str, Any] = self._check(self.http.post(f"/api/matches/{match_id}/join", headers=headers))
        return result

    def observation(self, match_id: str) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.token}"}
        result: dict[str, Any] = self._check(self.http.get(f"/api/matches/{match_id}/observation", headers=headers))
        return result

    def cards(self, ruleset: str) -> dict[int, dict[str, Any]]:
        """The printed deck of the match's ruleset ({} when the gateway does not serve it)."""
        try:
            data = self._check(self.http.get("/api/cards", params={"ruleset": ruleset}))
        except Exception:
            return {}
        self.texts = dict(data.get("texts", {}))
        return {int(k): v for k, v in data.get("cards", {}).items()}

    def rulesets(self) -> dict[str, dict[str, Any]]:
        """GET /api/rulesets by id ({} when the gateway does not answer)."""
        try:
            data = self._check(self.http.get("/api/rulesets"))
        except Exception:
            return {}
        return {r["id"]: r for r in data.get("rulesets", [])}

    def ws_url(self, match_id: str) -> str:
        base = self.url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        return f"{base}/ws/matches/{match_id}?token={self.token}"


class GatewayError(Exception):
    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", "error"))
        self.error = error


class View:
    """Renders observations, events and menus with rich."""

    def __init__(
        self,
        console: Any,
        cards: dict[int, dict[str, Any]],
        seat: int,
        kinds: list[str],
        ruleset: dict[str, Any] | None = None,
        *,
        texts: dict[str, dict[str, str]] | None = None,
        lang: str = "en",
    ) -> None:
        self.console = console
        #: the ruleset's text table and the language its templates are shown in
        self.texts = texts or {}
        self.lang = lang
        self.cards = cards
        self.seat = seat
        self.kinds = kinds
        #: character and skill ids -> printed names (GET /api/rulesets)
        self.names: dict[str, str] = {}
        for c in (ruleset or {}).get("character_table", []):
            self.names[c["id"]] = c["zh"]
            for skill in c.get("skills", []):
                if skill.get("zh"):
                    self.names[skill["id"]] = skill["zh"]
        #: what the table showed last (it is drawn again only when this changes)
        self.shown = ""

    def t(self, key: str, **args: object) -> str:
        """One of the client's own lines (:data:`WORDS`) in the chosen language."""
        en, zh = WORDS[key]
        return (zh if self.lang == "zh" else en).format(**args)

    def identity(self, value: str, *, unknown: str) -> str:
        """An identity (the proto's enum name) in the chosen language; ``unknown`` when the
        seat's identity is hidden or not dealt yet."""
        if value not in IDENTITY_ZH:
            return unknown
        return IDENTITY_ZH[value] if self.lang == "zh" else value.lower().replace("_", " ")

    def reason(self, reason: str) -> str:
        """A game-over reason in the chosen language."""
        from fengsheng.text_render import reason_text

        return reason_text(reason, lang=self.lang, name=self.name)

    def kind(self, kind: str) -> str:
        """A decision kind in the chosen language (the web's names in Chinese)."""
        return KIND_ZH.get(kind, kind) if self.lang == "zh" else kind

    def name(self, ident: str) -> str:
        """A character or skill id by its printed name (the id itself when unknown)."""
        return self.names.get(ident, ident)

    def card_name(self, number: int) -> str:
        info = self.cards.get(number)
        if not info:
            return f"#{number}"
        color = COLOR_ZH.get(info["color"], info["color"])
        return f"{info['function_zh']}·{color}·{MODE_ZH.get(info['transmission'], '')}#{number}"

    def shaped(self, key: str, args: dict[str, Any]) -> str | None:
        """A template of the text table filled with its arguments (None: unknown key)."""
        from fengsheng.text_render import render

        row = self.texts.get(key)
        if not row:
            return None
        seat = self.who if self.lang == "en" else (lambda s: self.t("you") if s == self.seat else f"座位{s}")
        return render(row[self.lang], args, lang=self.lang, card=self.card_name, name=self.name, seat=seat)

    def prompt_text(self, prompt: dict[str, Any]) -> str:
        """A prompt from the template it carries (the engine sets one wherever its text
        table has the line, engine/text.py), else its words."""
        carried = self.shaped(str(prompt.get("template", "")), dict(prompt.get("args", {})))
        return carried or " ".join(self.name(w) for w in str(prompt["prompt"]).split(" "))

    def event_line(self, event: dict[str, Any]) -> str:
        """An event's log line from its template and typed arguments, else its words with
        cards named after it and ids by their names."""
        from fengsheng.text_render import event_args

        shaped = self.shaped(str(event.get("template", "")), event_args(list(event.get("args", []))))
        if shaped:
            return shaped
        text = " ".join(self.name(w) for w in str(event["text"]).split(" "))
        cards = [n for n in event.get("cards", []) if n > 0]
        return text + (f"  [{', '.join(self.card_name(n) for n in cards)}]" if cards else "")

    def card(self, number: int) -> Any:
        from rich.text import Text

        if number <= 0:
            return Text("??", style="dim")
        info = self.cards.get(number)
        if not info:
            return Text(f"#{number}")
        color = info["color"]
        label = f"#{number} {info['function_zh']}·{COLOR_ZH.get(color, color)}·{MODE_ZH.get(info['transmission'], '')}"
        return Text(label, style=COLOR_STYLE.get(color, ""))

    def cards_text(self, numbers: list[int]) -> Any:
        from rich.text import Text

        text = Text()
        for i, n in enumerate(numbers):
            if i:
                text.append("  ")
            text.append_text(self.card(n))
        return text if numbers else Text("—", style="dim")

    def who(self, seat: int) -> str:
        if seat < 0:
            return "—"
        kind = self.kinds[seat] if seat < len(self.kinds) else ""
        if seat == self.seat:
            return self.t("you")
        if not kind or kind == "human":
            return self.t("seat_n", n=seat)
        return self.t("seat_n", n=seat) + (" (机器人)" if self.lang == "zh" else f" ({kind})")

    def intel_colors(self, numbers: list[int]) -> str:
        counts: dict[str, int] = {}
        for n in numbers:
            color = self.cards.get(n, {}).get("color", "?")
            counts[color] = counts.get(color, 0) + 1
        return " ".join(f"{COLOR_ZH.get(c, c)}{k}" for c, k in sorted(counts.items()))

    def table_if_changed(self, obs: dict[str, Any]) -> None:
        """The table, unless it looks exactly as when it was last drawn (a compact redraw)."""
        import json

        visible = {k: obs.get(k) for k in ("seats", "transit", "has_transit", "chain", "turn", "turn_number")}
        key = json.dumps(visible, sort_keys=True, default=str)
        if key != self.shown:
            self.table(obs)

    def table(self, obs: dict[str, Any]) -> None:
        import json

        from rich import box
        from rich.table import Table

        keys = ("seats", "transit", "has_transit", "chain", "turn", "turn_number")
        self.shown = json.dumps({k: obs.get(k) for k in keys}, sort_keys=True, default=str)
        title = self.t("title", turn=obs["turn_number"], seat=self.who(obs["turn"]))
        table = Table(title=title, expand=False, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
        for column in ("seat", "alive", "identity", "character", "hand", "intel", "counts"):
            table.add_column(self.t(column))
        for s in obs["seats"]:
            identity = self.identity(s["identity"], unknown="?")
            if s["identity_revealed"]:
                identity += self.t("revealed")
            character = self.name(s["character"]) if s["character"] else "—"
            if s["character"] and s["exposed"]:
                character += self.t("face_up")
            flags = self.t("locked") if s["locked"] else ""
            table.add_row(
                self.who(s["seat"]) + flags,
                self.t("yes") if s["alive"] else self.t("dead"),
                identity,
                character,
                str(s["hand_count"]),
                self.cards_text(list(s["intel"])),
                self.intel_colors(list(s["intel"])),
            )
        self.console.print(table)
        me = obs["seats"][self.seat]
        self.console.print(self.t("your_hand"), self.cards_text(list(me["hand"])))
        if obs["has_transit"]:
            t = obs["transit"]
            mode = t["mode"].lower()
            way = self.t({1: "right", -1: "left"}[t["direction"]]) if t["direction"] in (1, -1) else ""
            target = self.t("to", seat=self.who(t["target"])) if t["target"] >= 0 else ""
            receiver = self.t("received", seat=self.who(t["receiver"])) if t["receiver"] >= 0 else ""
            where = self.t(
                "transit_way",
                mode=MODE_ZH.get(mode, mode),
                way=way,
                target=target,
                sender=self.who(t["sender"]),
                holder=self.who(t["holder"]),
                receiver=receiver,
            )
            self.console.print(self.t("transit"), self.card(t["card"]), where)
        if obs["chain"]:
            self.console.print(self.t("chain"))
            for item in obs["chain"]:
                parts = [f"  {self.who(item['user'])}: {self.name(item['kind'])}"]
                if item["card"]:
                    parts.append(f" {self.card(item['card'])}")
                if item["target"] >= 0:
                    parts.append(f" → {self.who(item['target'])}")
                if item["on"]:
                    parts.append(self.t("on", card=self.card(item["on"])))
                if item["code"]:
                    parts.append(self.t("code", code=item["code"]))
                if item["negated"]:
                    parts.append(self.t("negated"))
                self.console.print("".join(parts))
        self.console.print(self.t("pile", pile=obs["pile_count"], discard=len(obs["discard"])))

    def annotate(self, action: str) -> str:
        """The action in notation, with the cards, characters and skills it names by name."""
        words = action.split()
        notes: list[str] = []
        card_list = False  # inside "cards N N N"
        for i, word in enumerate(words):
            if word in self.names:
                notes.append(self.names[word])
            elif word.isdigit() and int(word) in self.cards and (card_list or words[i - 1 : i] in CARD_BEFORE):
                notes.append(self.card_name(int(word)))
            card_list = word == "cards" or (card_list and word.isdigit())
        return f"{action}   [{', '.join(notes)}]" if notes else action

    def menu(self, prompt: dict[str, Any]) -> None:
        text = self.prompt_text(prompt)
        self.console.print(
            f"[bold]{self.t('decision', n=prompt['decision'], kind=self.kind(prompt['kind']))}[/bold] {text}"
        )
        for i, action in enumerate(prompt["legal_actions"], start=1):
            self.console.print(f"  {i:>3}. {self.annotate(action)}", markup=False, highlight=False)
        self.ask(prompt)

    def ask(self, prompt: dict[str, Any]) -> None:
        self.console.print(self.t("choose", n=len(prompt["legal_actions"])), markup=False, highlight=False)

    def choose(self, prompt: dict[str, Any]) -> str | None:
        """Read choices until one names an action (None: quit)."""
        action = _read_choice(prompt)
        while action == "":
            self.console.print(self.t("no_choice"), markup=False)
            self.ask(prompt)
            action = _read_choice(prompt)
        return action


def _read_choice(prompt: dict[str, Any]) -> str | None:
    """A line from stdin as an action: a menu number, an action in notation; None to quit."""
    line = sys.stdin.readline()
    if not line:
        return None
    text = line.strip()
    if text.lower() in ("q", "quit", "exit"):
        return None
    if text.isdigit():
        index = int(text) - 1
        if 0 <= index < len(prompt["legal_actions"]):
            return str(prompt["legal_actions"][index])
        return ""
    return text


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from websockets.exceptions import ConnectionClosed

    console = Console(width=args.width or (None if sys.stdout.isatty() else 120), highlight=False)
    client = Client(args.url)
    try:
        player = client.guest(args.name)
        rulesets = client.rulesets()
        if args.match:
            joined = client.join(player, args.match)
            match_id, seat = joined["match_id"], joined["seat"]
            client.token = joined["seat_token"]
            kinds: list[str] = []
        else:
            counts = _player_counts(args.ruleset)
            if args.bots + 1 not in counts:
                bots = ", ".join(str(n - 1) for n in counts)
                console.print(f"play: ruleset {args.ruleset} is played with {bots} bots (--bots)", markup=False)
                return 2
            created = client.create(
                player,
                {
                    "ruleset": args.ruleset,
                    "players": args.bots + 1,
                    "humans": 1,
                    "bot": args.bot,
                    "seed": args.seed,
                    "turn_timeout_s": args.turn_timeout,
                    "bot_delay_s": args.bot_delay,
                    # on by default as on the web, where the ruleset has characters at all
                    "characters": bool(args.characters and rulesets.get(args.ruleset, {}).get("characters", True)),
                },
            )
            match_id, seat = created["match_id"], created["seat"]
            client.token = created["seat_token"]
            kinds = [s["kind"] for s in created["seats"]]
    except GatewayError as exc:
        console.print(f"play: the gateway said {exc.error.get('status')} {exc.error.get('code')}: {exc}")
        return 1
    except Exception as exc:  # connection refused and friends
        console.print(f"play: cannot reach the gateway at {args.url}: {exc}")
        return 1

    obs = client.observation(match_id)
    deck = client.cards(obs["ruleset"])
    view = View(console, deck, seat, kinds, rulesets.get(obs["ruleset"]), texts=client.texts, lang=args.lang)
    console.print(
        view.t("match", match=match_id, ruleset=obs["ruleset"], seat=seat, players=obs["players"]), markup=False
    )
    me = obs["seats"][seat]
    console.print(
        view.t("your_identity", identity=view.identity(me["identity"], unknown=view.t("not_dealt")))
        + (view.t("your_character", name=view.name(me["character"])) if me["character"] else ""),
        markup=False,
    )
    if obs["outcome"]["over"]:
        winners = ", ".join(view.who(w) for w in obs["outcome"]["winners"]) or view.t("nobody")
        console.print(view.t("over", winners=winners), markup=False)
        return 0

    try:
        return _follow(console, client, view, match_id, seat, ask_forced=args.ask_forced)
    except ConnectionClosed as exc:
        console.print(f"play: the gateway closed the connection ({exc})", markup=False)
        return 1


def _player_counts(ruleset: str) -> list[int]:
    """The player counts of a ruleset: the keys of its identity table (engine registry)."""
    from engine.rulesets import get_ruleset

    return sorted(get_ruleset(ruleset).identity_table)


def _follow(console: Any, client: Client, view: View, match_id: str, seat: int, *, ask_forced: bool = False) -> int:
    """Print the seat's events and answer its prompts until the game is over; a prompt with
    one legal action is answered by itself unless ``ask_forced``."""
    import json

    from websockets.sync.client import connect

    with connect(client.ws_url(match_id), open_timeout=15, max_size=None) as ws:
        open_prompt: dict[str, Any] | None = None
        while True:
            message = json.loads(ws.recv())
            kind = message.get("type")
            if kind == "event":
                event = message["event"]
                if event["text"]:
                    console.print(f"  · {view.event_line(event)}", markup=False)
            elif kind == "prompt":
                open_prompt = message
                legal = message["legal_actions"]
                if len(legal) == 1 and not ask_forced:
                    only = view.annotate(legal[0])
                    console.print(view.t("only", n=message["decision"], action=only), markup=False)
                    ws.send(json.dumps({"decision": message["decision"], "action": legal[0]}))
                    continue
                view.table_if_changed(client.observation(match_id))
                view.menu(message)
                action = view.choose(message)
                if action is None:
                    console.print(view.t("bye"), markup=False)
                    return 0
                ws.send(json.dumps({"decision": message["decision"], "action": action}))
            elif kind == "result":
                open_prompt = None
            elif kind == "error":
                error = message["error"]
                console.print(f"! {error.get('code')}: {error.get('message')}", markup=False)
                if open_prompt is not None and error.get("status") in (400, 422):
                    if error.get("legal_actions"):
                        open_prompt["legal_actions"] = error["legal_actions"]
                    view.menu(open_prompt)
                    action = view.choose(open_prompt)
                    if action is None:
                        console.print(view.t("bye"), markup=False)
                        return 0
                    ws.send(json.dumps({"decision": open_prompt["decision"], "action": action}))
            elif kind == "game_over":
                outcome = message["outcome"]
                view.table(client.observation(match_id))
                winners = ", ".join(view.who(w) for w in outcome["winners"]) or view.t("nobody")
                verdict = view.t("win") if seat in outcome["winners"] else view.t("lose")
                console.print(
                    view.t("game_over", reason=view.reason(str(outcome["reason"])), winners=winners, verdict=verdict),
                    markup=False,
                )
                return 0
