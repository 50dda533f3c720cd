"""The compose half of ``./dev deploy-check``: ``deploy/docker-compose.yml`` with podman-compose.

The secrets are podman secrets made from 0600 files (``deploy/compose.podman.yml``:
podman-compose would put every environment value on podman's command line); the env file
podman-compose reads holds only placeholders, the local images and loopback ports.
"""

from __future__ import annotations

import re
import secrets
import shutil
import sys
import time
from pathlib import Path

import httpx
from check_lib import (
    DEPLOY,
    IMAGE,
    PROMETHEUS_IMAGE,
    REDIS_IMAGE,
    CheckFailed,
    Played,
    exec_metrics,
    free_port,
    metric_sum,
    play_matches,
    podman,
    run,
    say,
    secret_file,
    show_logs,
    step,
    wait_healthy,
    wait_http,
)

PROJECT = "fengsheng-check"
#: the podman secrets deploy/compose.podman.yml expects, and the variable each one fills
SECRETS = {
    "fengsheng_redis_password": "FENGSHENG_REDIS_PASSWORD",
    "fengsheng_service_token": "FENGSHENG_SERVICE_TOKEN",
    "fengsheng_secret": "FENGSHENG_SECRET",
    "fengsheng_flower_basic_auth": "FLOWER_BASIC_AUTH",
}
PLACEHOLDER = "set-by-a-podman-secret"
#: documented series a service registers only when first used, so neither scraped nor declared
#: after bot matches alone
LAZY = {"fengsheng_gateway_rate_limited_total": "registered at the gateway's first 429 (gateway/ratelimit.py)"}


def compose_cmd(env_file: Path) -> list[str]:
    exe = shutil.which("podman-compose", path=str(Path(sys.executable).parent)) or "podman-compose"
    return [exe, "-p", PROJECT, "--env-file", str(env_file), "-f", "docker-compose.yml", "-f", "compose.podman.yml"]


def containers() -> list[str]:
    out = podman("ps", "-a", "--filter", f"label=io.podman.compose.project={PROJECT}", "--format", "{{.Names}}")
    return out.stdout.split()


def documented_series() -> list[str]:
    """The series docs/operations.md (*Observe*) lists for the engine, gateway and workers."""
    text = (DEPLOY.parent / "docs/operations.md").read_text()
    table = text[text.index("## Observe") : text.index("Worth alerting on")]
    return sorted(set(re.findall(r"`(fengsheng_[a-z_]+)", table)))


def check_prometheus(port: int, declared: str, timeout: float = 90) -> None:
    """Every target of deploy/prometheus.yml is up and every documented series is in
    Prometheus (a histogram as its ``_count``). A labelled series that nothing has touched
    yet has no sample to scrape (bot matches open no WebSocket and send no human action):
    such a one must at least be declared (``# HELP``) in ``declared``, the services' own
    /metrics text."""
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    documented = documented_series()
    missing: list[str] = []
    down: list[str] = []
    while time.monotonic() < deadline:
        targets = httpx.get(f"{base}/api/v1/targets", timeout=10).json()["data"]["activeTargets"]
        down = [
            f"{t['labels']['job']}/{t['labels']['instance']}: {t['health']}" for t in targets if t["health"] != "up"
        ]
        names = set(httpx.get(f"{base}/api/v1/label/__name__/values", timeout=10).json()["data"])
        absent = [s for s in documented if s not in names and f"{s}_count" not in names]
        missing = [s for s in absent if f"# HELP {s} " not in declared and s not in LAZY]
        if not down and not missing:
            say(
                f"   Prometheus: {len(targets)} targets up; {len(documented) - len(absent)} of the {len(documented)} "
                f"documented series scraped; with no sample yet: {', '.join(absent)} "
                f"({'; '.join(f'{k}: {v}' for k, v in LAZY.items() if k in absent)}; the others declared)"
            )
            return
        time.sleep(3)
    raise CheckFailed(f"Prometheus after {timeout:.0f} s: targets not up {down}; series missing {missing}")


def run_compose(tmp: Path, per_ruleset: int, timings: dict[str, float]) -> Played:
    tmp.mkdir(mode=0o700)
    ports = {name: free_port() for name in ("HTTP", "BOT_PORT_1", "BOT_PORT_2", "FLOWER", "PROMETHEUS")}
    values = {
        "fengsheng_redis_password": secrets.token_hex(32),
        "fengsheng_service_token": secrets.token_urlsafe(32),
        "fengsheng_secret": secrets.token_urlsafe(32),
        "fengsheng_flower_basic_auth": "admin:" + secrets.token_hex(16),
    }
    env_file = tmp / "env"
    env_file.write_text(
        "".join(f"{var}={PLACEHOLDER}\n" for var in SECRETS.values())
        + f"FENGSHENG_IMAGE={IMAGE}\nFENGSHENG_REDIS_IMAGE={REDIS_IMAGE}\n"
        + f"FENGSHENG_PROMETHEUS_IMAGE={PROMETHEUS_IMAGE}\n"
        + "FENGSHENG_PUBLISH_IP=127.0.0.1\nFENGSHENG_PUBLIC_HOST=127.0.0.1\n"
        + f"FENGSHENG_HTTP_PORT={ports['HTTP']}\nFENGSHENG_BOT_PORT_1={ports['BOT_PORT_1']}\n"
        + f"FENGSHENG_BOT_PORT_2={ports['BOT_PORT_2']}\nFENGSHENG_FLOWER_PORT={ports['FLOWER']}\n"
        + f"FENGSHENG_PROMETHEUS_PORT={ports['PROMETHEUS']}\n"
    )
    cmd = compose_cmd(env_file)
    url = f"http://127.0.0.1:{ports['HTTP']}"
    try:
        with step("compose: podman secrets from 0600 files, podman-compose up -d", timings):
            for name, value in values.items():
                podman("secret", "rm", name, check=False)
                podman("secret", "create", name, str(secret_file(tmp, name, value)))
            run([*cmd, "up", "-d"], cwd=DEPLOY, timeout=300)
            say(f"   {len(containers())} containers: {' '.join(containers())}")
        with step("compose: every health check passes (podman healthcheck run), gateway /healthz", timings):
            wait_healthy(lambda: [c for c in containers() if "prometheus" not in c], timeout=240)
            wait_http(f"{url}/healthz", 60, "gateway", lambda r: r.status_code == 200)
            for name, var in (("gateway", "FENGSHENG_SECRET"), ("redis", "FENGSHENG_REDIS_PASSWORD")):
                # the podman secret, not the placeholder on podman-compose's `-e`, is what it got
                probe = f'test "${var}" != {PLACEHOLDER} && test -n "${var}"'
                if podman("exec", f"{PROJECT}_{name}_1", "sh", "-c", probe, check=False).returncode != 0:
                    raise CheckFailed(f"{name}: {var} is not the podman secret's value", f"{PROJECT}_{name}_1")
        with step(f"compose: {per_ruleset} bot matches per ruleset, engine-1 killed mid-match", timings):
            engine_1, engine_2 = f"{PROJECT}_engine-1_1", f"{PROJECT}_engine-2_1"

            def kill() -> str:
                podman("kill", engine_1)
                return "engine-1 (podman kill: SIGKILL)"

            played = play_matches(
                url,
                per_ruleset=per_ruleset,
                kill=kill,
                survivor=lambda: metric_sum(exec_metrics(engine_2, 9100), "fengsheng_actions_total"),
            )
            gateway_metrics = httpx.get(f"{url}/metrics", timeout=10).text
            failovers = metric_sum(gateway_metrics, "fengsheng_gateway_engine_failovers_total")
            say(f"   gateway: {failovers:.0f} calls failed over to the other replica")
        with step(
            "compose: engine-1 started again, Prometheus scrapes every target and the documented series", timings
        ):
            podman("start", engine_1)
            wait_healthy(lambda: [engine_1], timeout=120)
            declared = gateway_metrics + exec_metrics(engine_2, 9100) + exec_metrics(f"{PROJECT}_worker-bots_1", 9101)
            check_prometheus(ports["PROMETHEUS"], declared)
        return played
    except CheckFailed as exc:
        show_logs(list(exc.args[1:]) or containers())
        raise
    finally:
        with step("compose: podman-compose down -v, secrets removed", timings):
            run([*cmd, "down", "-v", "-t", "5"], cwd=DEPLOY, timeout=180, check=False)
            left = containers()
            if left:
                podman("rm", "-f", "-t", "0", *left, check=False)
            for volume in podman(
                "volume", "ls", "-q", "--filter", f"label=io.podman.compose.project={PROJECT}"
            ).stdout.split():
                podman("volume", "rm", "-f", volume, check=False)
            podman("network", "rm", "-f", f"{PROJECT}_default", check=False)
            for name in values:
                podman("secret", "rm", name, check=False)
