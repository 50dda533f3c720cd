"""Command-line flags that would put a secret on a command line, refused with a pointer to
the environment variable that replaces them (argv is world-readable in ``/proc/PID/cmdline``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any


class _Refused(argparse.Action):
    """Fail the parse: this flag would show a secret to every local user."""

    def __init__(self, option_strings: Sequence[str], dest: str, env: str = "", **kwargs: Any) -> None:
        self.env = env
        super().__init__(option_strings, dest, nargs="?", default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        parser.error(
            f"{option_string} is no longer accepted: a secret on the command line is readable by every "
            f"local user (/proc/PID/cmdline). Set {self.env} in the environment, or {self.env}_FILE "
            "to a file only you can read (chmod 600)."
        )


def refuse_secret_flag(parser: argparse.ArgumentParser, flag: str, env: str) -> None:
    """Make ``flag`` (hidden from ``--help``) fail with a message pointing at ``env``."""
    parser.add_argument(flag, action=_Refused, env=env)
