"""The ``fengsheng`` command line.

Each subcommand is a module of :mod:`fengsheng.commands` exposing
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported only when their
subcommand runs, so ``fengsheng scenario`` never loads gRPC or Redis.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: (subcommand, module under fengsheng.commands, one-line help)
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("scenario", "scenario", "run rule scenario files (YAML) against the engine"),
    ("simulate", "simulate", "play random seeded games, optionally checking invariants"),
    ("up", "up", "start the whole platform on this machine (embedded Redis by default)"),
    ("engine-server", "engine_server", "run the engine gRPC service"),
    ("worker", "worker", "run a Celery worker (bots, timers)"),
    ("gateway", "gateway", "run the HTTP + WebSocket gateway"),
    ("play", "play", "play one seat against bots in the terminal, through the gateway"),
    ("arena", "arena", "ranked matches among bot policies, then the bot leaderboard"),
    ("ladder", "ladder", "ranked ladder tools for operators: audit (collusion signals)"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fengsheng", description="风声 (The Message) platform")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, help_text in COMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        try:
            mod = importlib.import_module(f"fengsheng.commands.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"fengsheng.commands.{module}":
                raise
            p.set_defaults(_missing=True)
            continue
        mod.add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    if getattr(args, "_missing", False):
        print(f"fengsheng {args.command}: not available in this build", file=sys.stderr)
        return 2
    if getattr(args, "redis_url", None):  # every subcommand's --redis-url: no password on argv
        from services.config import SecretError, command_line_redis_url

        try:
            args.redis_url = command_line_redis_url(args.redis_url)
        except SecretError as exc:
            parser.error(f"{args.command}: {exc}")
    mod = importlib.import_module(f"fengsheng.commands.{args._module}")
    result: int = mod.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
