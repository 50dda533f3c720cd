"""``python -m fengsheng.bot --bot heuristic --token T [--url URL | --address HOST:PORT] [--matches N]``."""

from __future__ import annotations

import argparse
import logging
import os

from fengsheng.bot import run_bot
from fengsheng.bot.examples import EXAMPLES


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m fengsheng.bot", description=__doc__)
    parser.add_argument("--bot", choices=sorted(EXAMPLES), default="heuristic")
    parser.add_argument("--token", default=os.environ.get("FENGSHENG_BOT_TOKEN", ""))
    parser.add_argument("--url", default=os.environ.get("FENGSHENG_URL", "http://127.0.0.1:8000"))
    parser.add_argument(
        "--address", default="", help="the engine's bot listener HOST:PORT (default: $FENGSHENG_BOT_ADDR, or --url's)"
    )
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    summaries = run_bot(EXAMPLES[args.bot], token=args.token, url=args.url, address=args.address,
                        matches=args.matches, min_players=args.players)  # fmt: skip
    for s in summaries:
        print(f"{s.match_id}: {'won' if s.won else 'lost'} ({s.decisions} decisions, {s.defaults} defaults)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
