"""``./dev deploy-check``: run the deployment for real, with podman, on this machine.

See deploy/check_lib.py (shared pieces), deploy/check_compose.py (docker-compose.yml with
podman-compose) and deploy/check_k8s.py (the Kubernetes manifests with podman kube play);
docs/operations.md, *Tried for real*.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_compose import run_compose
from check_k8s import run_k8s
from check_lib import T0, CheckFailed, Played, build_images, containers_conf, say


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the deployment for real with podman: compose, then Kubernetes.")
    parser.add_argument("--base-image", help="the Dockerfile's BASE_IMAGE (default: build a local Debian one)")
    parser.add_argument("--rebuild-base", action="store_true", help="rebuild the local base images")
    parser.add_argument("--matches", type=int, default=5, help="bot matches per ruleset (default 5)")
    parser.add_argument("--only", choices=("compose", "k8s"), help="run one half only")
    args = parser.parse_args()
    if shutil.which("podman") is None:
        print("deploy-check: podman is not installed (./dev deploy-check installs it with apt-get)", file=sys.stderr)
        return 2

    timings: dict[str, float] = {}
    results: dict[str, Played] = {}
    with tempfile.TemporaryDirectory(prefix="fengsheng-deploy-check.") as tmp_name:
        tmp = Path(tmp_name)
        os.chmod(tmp, 0o700)
        containers_conf(tmp)
        try:
            build_images(args.base_image, args.rebuild_base, timings)
            if args.only in (None, "compose"):
                results["compose"] = run_compose(tmp / "compose", args.matches, timings)
            if args.only in (None, "k8s"):
                results["kubernetes"] = run_k8s(tmp / "k8s", args.matches, timings)
        except CheckFailed as exc:
            say(f"FAILED: {exc.args[0]}")
            return 1
    print("\ndeploy-check passed", flush=True)
    for name, played in results.items():
        n = sum(len(m) for m in played.matches.values())
        print(
            f"  {name:<10} {n} matches over ({', '.join(f'{r} {len(m)}' for r, m in played.matches.items())}), "
            f"{played.decisions} decisions, nothing lost; killed {played.killed} with "
            f"{played.in_progress_at_kill} matches in progress"
        )
    print("  times: " + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items()))
    print(f"  total {time.monotonic() - T0:.0f} s", flush=True)
    print(json.dumps({"timings_s": timings, "total_s": round(time.monotonic() - T0, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
