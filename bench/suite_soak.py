"""The soak tier at full count: every test marked ``soak`` (tests/helpers/soak.py) with
``FENGSHENG_SOAK=full``: the 2,000 and 1,000 invariant-checked random games, the 70 classic
games, the determinization property runs over 500 / 600 positions per ruleset, the 2,000-match
ranking check and the fuzzers at 250 examples per property. ``./dev test`` runs the same tests
at their small CI count. Prints one JSON object (tests passed / failed, seconds, the slowest
tests) and exits non-zero if any test failed.

Usage: ``python bench/suite_soak.py [-n 2] [--unit-only] [-- extra pytest args]``
(pytest's output goes to stderr as it runs, so a long run shows its progress).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--workers", default="2", help="pytest-xdist workers (default 2; 0: one process)")
    parser.add_argument("--unit-only", action="store_true", help="only tests/unit (no Redis, no services)")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args()
    paths = ["tests/unit"] if args.unit_only else ["tests/unit", "tests/integration"]
    env = dict(os.environ, FENGSHENG_SOAK="full")
    cmd = [sys.executable, "-m", "pytest", "-m", "soak", "-n", args.workers, "-p", "no:cacheprovider",
           "--timeout", "0", "--durations=12", "-q", *paths, *args.pytest_args]  # fmt: skip
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        sys.stderr.write(line)
        lines.append(line)
    code = proc.wait()
    seconds = time.monotonic() - t0
    out = "".join(lines)
    tail = out.strip().splitlines()[-1] if out.strip() else ""
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|errors?|deselected)", tail)}
    slowest = [{"seconds": float(s), "test": t}
               for s, t in re.findall(r"^([\d.]+)s call\s+(\S+)", out, flags=re.M)]  # fmt: skip
    result = {
        "tier": "soak",
        "level": "full",
        "command": " ".join(cmd[1:]),
        "seconds": round(seconds, 1),
        "passed": counts.get("passed", 0),
        "failed": counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0),
        "failures": re.findall(r"^(?:FAILED|ERROR) (\S+)", out, flags=re.M),
        "slowest": slowest,
        "exit_code": code,
    }
    print(json.dumps(result, indent=2))
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
