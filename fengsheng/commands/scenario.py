"""``fengsheng scenario PATH...``: run rule scenario files; exit 0 only if all pass."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders (searched for *.yaml)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")


def run(args: argparse.Namespace) -> int:
    from fengsheng.scenario import find_files, run_file

    files = find_files(args.paths)
    if not files:
        print("no scenario files found")
        return 2
    counts = {"ok": 0, "FAIL": 0, "ERROR": 0}
    for f in files:
        result = run_file(f)
        counts[result.status] += 1
        if result.status != "ok" or not args.quiet:
            print(result.line(), flush=True)
    print(f"{counts['ok']} passed, {counts['FAIL']} failed, {counts['ERROR']} errors")
    return 0 if counts["ok"] == len(files) else 1
