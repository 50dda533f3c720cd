"""``FENGSHENG_BOT_TOKEN=T python -m fengsheng.bot --bot heuristic [--url URL | --address HOST:PORT]
[--ruleset R] [--players N] [--matches N]``.

The bot token comes from ``$FENGSHENG_BOT_TOKEN`` or a 0600 file named by
``$FENGSHENG_BOT_TOKEN_FILE``, never from the command line, where every local user can read
it (``/proc/PID/cmdline``)."""

from __future__ import annotations

import argparse
import logging
import os

from fengsheng.bot.examples import EXAMPLES
from fengsheng_bot import BotError, run_bot
from services.config import SecretError, secret


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fengsheng.bot", description=__doc__)
    parser.add_argument("--bot", choices=sorted(EXAMPLES), default="heuristic")
    parser.add_argument("--token", help=argparse.SUPPRESS)  # refused below: a secret on argv
    parser.add_argument("--url", default=os.environ.get("FENGSHENG_URL", "http://127.0.0.1:8000"))
    parser.add_argument(
        "--address", default="", help="the engine's bot listener HOST:PORT (default: $FENGSHENG_BOT_ADDR, or --url's)"
    )
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument(
        "--ruleset", default="", help="the ruleset to queue for: an id of GET /api/rulesets (default: return)"
    )
    parser.add_argument("--players", type=int, default=5, help="table size: a count the ruleset is played by")
    args = parser.parse_args(argv)
    if args.token is not None:
        parser.error("--token puts the bot token where every local user can read it; "
                     "set FENGSHENG_BOT_TOKEN (or FENGSHENG_BOT_TOKEN_FILE, a 0600 file) instead")
    try:
        token = secret("FENGSHENG_BOT_TOKEN")
    except SecretError as exc:
        parser.error(str(exc))
    if not token:
        parser.error("no bot token: set FENGSHENG_BOT_TOKEN (or FENGSHENG_BOT_TOKEN_FILE); "
                     "POST /api/bots with your player token makes one")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        summaries = run_bot(EXAMPLES[args.bot], token=token, url=args.url, address=args.address,
                            matches=args.matches, min_players=args.players, ruleset=args.ruleset)  # fmt: skip
    except BotError as exc:  # never idle, never end quietly: say why, exit non-zero
        logging.getLogger("fengsheng.bot").error("the bot stopped: %s", exc)
        return 2
    for s in summaries:
        print(f"{s.match_id}: {'won' if s.won else 'lost'} ({s.decisions} decisions, {s.defaults} defaults)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
