"""A 风声 (The Message) starter bot in Python, on the standalone SDK ``fengsheng-bot``
(docs/bots-python.md).

Online (a casual table of this bot and house bots per match, on any ruleset)::

    pip install ./sdk/python
    FENGSHENG_BOT_TOKEN=fsb_... python examples/bots/python/bot.py --url http://127.0.0.1:8000 --ruleset spy

Offline, in the local arena, as a program speaking /ws/bots JSON one message a line::

    fengsheng arena --bot-cmd "python examples/bots/python/bot.py --stdio" --matches 20

(or its ``decide`` alone: ``fengsheng arena --bot examples/bots/python/bot.py:decide``).

``decide`` reads only values: each legal action's ``kind``, ``card``, ``to`` and ``on``
(:class:`fengsheng_bot.Action`), each event's ``kind``, ``seat`` and ``action``
(:class:`fengsheng_bot.Event`), the seat's intel and the intel in transit from the
observation, and the colour and function of a card from the platform's card data
(``GET /api/cards?ruleset=R``), never from what a card number might mean. Without card data
(offline) it plays colour-blind.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import urllib.request
from typing import Any

from fengsheng_bot import Action, Event, Observation, run_bot
from fengsheng_bot.values import legal_values

log = logging.getLogger("starter")

#: the intel colour each identity wins with (proto Identity names); the others (再临's
#: AGENT, classic's BYSTANDER, 谍战篇's MYSTERY) want no colour of their own
FACTION_COLOUR = {"LATENT": "red", "MILITARY": "blue", "SPECIAL_SERVICE": "blue"}

#: the gateway whose card data ``decide`` reads ("": none, play colour-blind)
CARDS_URL = ""
_cards: dict[str, dict[int, dict[str, Any]] | None] = {}


def card_data(ruleset: str) -> dict[int, dict[str, Any]] | None:
    """Each card's printed data (``color``, ``function`` …) by number, from the gateway's
    ``/api/cards``; None when there is no gateway to ask."""
    if ruleset not in _cards:
        _cards[ruleset] = None
        if CARDS_URL:
            try:
                with urllib.request.urlopen(f"{CARDS_URL.rstrip('/')}/api/cards?ruleset={ruleset}", timeout=10) as r:
                    _cards[ruleset] = {int(n): c for n, c in json.load(r)["cards"].items()}
            except OSError as exc:
                log.warning("no card data for %s (%s): playing colour-blind", ruleset, exc)
    return _cards[ruleset]


def colour(cards: dict[int, dict[str, Any]] | None, card: int) -> str:
    """The colour words of ``card`` (``black``, ``red``, ``blue-black`` …), "" when unknown."""
    return str(cards[card]["color"]) if cards and card in cards else ""


def blacks(observation: Observation, cards: dict[int, dict[str, Any]] | None, seat: int) -> int:
    """How many black intel cards lie in front of ``seat`` (three kill it)."""
    return sum("black" in colour(cards, n) for n in observation.seats[seat].intel)


def hostility(events: list[Event], me: int) -> dict[int, int]:
    """Who acted against my seat so far: each seat whose played cards named me (an ``action``
    event my seat saw in full carries the action as a value)."""
    against: dict[int, int] = {}
    for e in events:
        played = e.action if e.kind == "action" and e.action is not None and e.action.kind == "play" else None
        if played is not None and e.seat != me and me in played.to:
            against[e.seat] = against.get(e.seat, 0) + 1
    return against


def decide(observation: Observation, legal_actions: list[Action]) -> Action:
    """Take intel unless it may be my third black; send my colour towards seats that never
    acted against me and black towards those that did; burn a black intel in front of me
    when a card lets me; otherwise pass (or the first legal action, a choice's first option)."""
    from fengsheng.v1 import game_pb2

    cards = card_data(observation.ruleset)
    me = observation.viewer
    mine = FACTION_COLOUR.get(game_pb2.Identity.Name(observation.seats[me].identity), "")
    by_kind: dict[str, list[Action]] = {}
    for a in legal_actions:
        by_kind.setdefault(a.kind, []).append(a)
    my_blacks = blacks(observation, cards, me)

    if "accept" in by_kind:  # intel reaches me
        accept = by_kind["accept"][0]
        refusals = by_kind.get("decline") or by_kind.get("pass") or []
        refuse = refusals[0] if refusals else None
        c = colour(cards, observation.transit.card if observation.has_transit else 0)
        if refuse is None:
            return accept
        if not c:  # face down: only while it cannot hurt much
            return accept if my_blacks == 0 else refuse
        if "black" in c and my_blacks >= 2:
            return refuse
        if mine and mine in c:
            return accept
        return refuse if "black" in c else accept

    if "send" in by_kind:
        against = hostility(observation.events, me)

        def score(a: Action) -> float:
            c = colour(cards, a.card)
            s = 0.0
            if "black" in c:
                aimed = a.target not in (-1, me)
                s += 2 * against.get(a.target, 0) + blacks(observation, cards, a.target) if aimed else -1
            elif mine and mine in c:
                s += 3 - against.get(a.target, 0) if a.target >= 0 else 1
            return s + random.random() * 0.5  # ties broken at random

        return max(by_kind["send"], key=score)

    intel = set(observation.seats[me].intel)
    for a in by_kind.get("play", []):  # 烧毁 on a black intel of mine
        burns = bool(cards) and cards.get(a.card, {}).get("function") == "burn"  # type: ignore[union-attr]
        if burns and a.on in intel and "black" in colour(cards, a.on):
            return a
    return (by_kind.get("pass") or legal_actions)[0]


def describe(identities: list[str], winners: list[int], end_reason: str, tasks: list[str]) -> str:
    """The outcome in one line: winners, every seat's identity, why it ended."""
    who = " ".join(f"{seat}:{identity}" for seat, identity in enumerate(identities))
    extra = f" tasks={tasks}" if any(tasks) else ""
    return f"winners={winners} end_reason={end_reason} identities={who}{extra}"


def play_online(args: argparse.Namespace) -> int:
    """``--matches`` casual tables of this bot and house bots, through the SDK's ``run_bot``."""
    token = os.environ.get("FENGSHENG_BOT_TOKEN", "")
    if not token:
        print("set FENGSHENG_BOT_TOKEN to the bot's API token (never put it on the command line)", file=sys.stderr)
        return 2
    card_data(args.ruleset)  # read once before the first decision, whose clock may be 1 s
    games = run_bot(decide, token=token, url=args.url, matches=args.matches, ruleset=args.ruleset,
                    casual=True, min_players=args.players)  # fmt: skip
    for g in games:
        log.info("match %s: %s after %d decisions (%d defaulted); %s", g.match_id, "won" if g.won else "lost",
                 g.decisions, g.defaults, describe(g.identities, g.winners, g.end_reason, g.tasks))  # fmt: skip
    summary = {"matches": len(games), "decisions": sum(g.decisions for g in games),
               "defaulted": sum(g.defaults for g in games), "won": sum(g.won for g in games),
               "match_ids": [g.match_id for g in games]}  # fmt: skip
    print(json.dumps({"summary": summary}))  # one JSON line a caller can read
    return 0


def play_stdio() -> int:
    """The arena's protocol (fengsheng arena --bot-cmd): /ws/bots JSON messages one a line
    on stdin, answers on stdout; the same ``decide`` as online."""
    from google.protobuf import json_format

    from fengsheng.v1 import bot_service_pb2 as bs
    from fengsheng.v1 import game_pb2

    seen: dict[tuple[str, int], dict[int, game_pb2.Event]] = {}
    typed: dict[tuple[str, int], dict[int, Event]] = {}
    stats = {"matches": 0, "decisions": 0, "illegal": 0, "defaulted": 0, "won": 0}

    def record(match_id: str, seat: int, events: Any) -> None:
        for e in events:
            seen.setdefault((match_id, seat), {})[e.index] = e

    def send(message: dict[str, Any]) -> None:
        print(json.dumps(message), flush=True)

    for line in sys.stdin:
        if not line.strip():
            continue
        raw = json.loads(line)
        if "decision" in raw:  # its events were pushed live already: read only new ones (parsing JSON is slow)
            d_raw = raw["decision"]
            known = seen.get((d_raw["match_id"], d_raw["seat"]), {})
            obs = d_raw["observation"]
            obs["events"] = [e for e in obs.get("events", []) if e["index"] not in known]
        msg = json_format.ParseDict(raw, bs.ServerMessage(), ignore_unknown_fields=True)
        kind = msg.WhichOneof("kind")
        if kind == "match_start":
            for seat in msg.match_start.seats:
                record(msg.match_start.match_id, seat, msg.match_start.events)
        elif kind == "event":
            record(msg.event.match_id, msg.event.seat, [msg.event.event])
        elif kind == "decision":
            d = msg.decision
            key = (d.match_id, d.seat)
            record(d.match_id, d.seat, d.observation.events)
            history = [seen[key][i] for i in sorted(seen[key])]
            values = typed.setdefault(key, {})
            for e in history:
                if e.index not in values:
                    values[e.index] = Event.from_proto(e)  # each event converted once
            observation = game_pb2.Observation()
            observation.CopyFrom(d.observation)
            del observation.events[:]
            observation.events.extend(history)
            view = Observation(observation, [values[e.index] for e in history])
            action = decide(view, legal_values(observation, list(d.legal_actions)))
            stats["decisions"] += 1
            send({"action": {"match_id": d.match_id, "seat": d.seat, "decision": d.decision, "action": action.text}})
        elif kind == "error":
            log.warning("refused: %s %s: %s", msg.error.code, msg.error.kind, msg.error.message)
            if msg.error.kind == "illegal":
                stats["illegal"] += 1
                err = msg.error
                send({"action": {"match_id": err.match_id, "seat": err.seat, "decision": err.decision,
                                 "use_default": True}})  # fmt: skip
        elif kind == "defaulted":
            stats["defaulted"] += 1
        elif kind == "match_end":
            end = msg.match_end
            o = end.outcome
            stats["matches"] += 1
            stats["won"] += any(s in o.winners for s in end.seats)
            log.info("match %s over; %s", end.match_id,
                     describe([game_pb2.Identity.Name(i) for i in o.identities], list(o.winners),
                              game_pb2.EndReason.Name(o.end_reason), list(o.tasks)))  # fmt: skip
            for seat in end.seats:
                seen.pop((end.match_id, seat), None)
                typed.pop((end.match_id, seat), None)
    print(json.dumps({"summary": stats}), file=sys.stderr)  # stdout is the protocol
    return 0


def main(argv: list[str] | None = None) -> int:
    global CARDS_URL
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--url", default=os.environ.get("FENGSHENG_URL", "http://127.0.0.1:8000"),
                        help="the gateway (default $FENGSHENG_URL or http://127.0.0.1:8000)")  # fmt: skip
    parser.add_argument("--ruleset", default="return", help="return (风声再临), classic or spy (谍战篇)")
    parser.add_argument("--players", type=int, default=5, help="seats at each table (default 5)")
    parser.add_argument("--matches", type=int, default=1, help="casual tables to play, one after another")
    parser.add_argument("--stdio", action="store_true", help="speak /ws/bots JSON over stdin/stdout (the arena)")
    parser.add_argument("--cards-url", default="", help="--stdio: a gateway to read card data from (default none)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="[bot] %(message)s")
    CARDS_URL = args.cards_url if args.stdio else args.url
    return play_stdio() if args.stdio else play_online(args)


if __name__ == "__main__":
    sys.exit(main())
