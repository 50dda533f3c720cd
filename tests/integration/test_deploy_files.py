"""``deploy/`` checked with what runs here (no Docker engine): every YAML parses; the compose
services' commands parse with the real CLIs (``fengsheng`` and ``celery``), their healthchecks
are real probes that pass against a real engine and gateway, and the names and ports they
point at exist; the Dockerfile is multi-stage, non-root and copies files that exist; the
Kubernetes manifests build with kustomize (``kubectl kustomize``), validate against the
Kubernetes JSON schemas (``kubernetes-validate``, when installed) and hold together (probes,
resource requests, HPAs, Services and config references), and the production overlay merges
as intended.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers.processes import ROOT, ServiceProcess

from fengsheng.cli import build_parser

pytestmark = pytest.mark.integration

DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "docker-compose.yml"
K8S = DEPLOY / "k8s"
QUEUES = {"fengsheng", "bots", "timers", "matchmaking", "ladder"}
#: the keys of the fengsheng-secret Secret (deploy/k8s/overlays/production/secret.env.example)
OVERLAY_SECRET_KEYS = ("FENGSHENG_SECRET", "FENGSHENG_SERVICE_TOKEN", "FENGSHENG_REDIS_PASSWORD", "FLOWER_BASIC_AUTH")


def load_all(path: Path) -> list[Any]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d is not None]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return doc


def _fengsheng_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n: s for n, s in compose["services"].items() if str(s.get("image", "")).startswith("${FENGSHENG_IMAGE")}


def _celery_help(*sub: str) -> str:
    celery = shutil.which("celery", path=str(Path(sys.executable).parent)) or "celery"
    out = subprocess.run(
        [celery, "-A", "services.workers.celery_app", *sub, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "FENGSHENG_TASK_ROUTES": "1"},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


# ---------------------------------------------------------------------------- every YAML
def test_every_yaml_file_parses() -> None:
    files = sorted(DEPLOY.rglob("*.yml")) + sorted(DEPLOY.rglob("*.yaml"))
    assert len(files) >= 10
    for path in files:
        assert load_all(path), f"{path} is empty"


# ---------------------------------------------------------------------------- compose
def test_compose_has_every_service(compose: dict[str, Any]) -> None:
    services = compose["services"]
    expected = {
        "redis",
        "engine-1",
        "engine-2",
        "gateway",
        "worker-bots",
        "worker-timers",
        "worker-matchmaking",
        "worker-ladder",
        "beat",
        "flower",
        "prometheus",
    }
    assert expected <= set(services)
    redis_cmd = " ".join(services["redis"]["command"])
    assert "'appendonly yes'" in redis_cmd and "'appendfsync always'" in redis_cmd
    assert any(v.startswith("redis-data:") for v in services["redis"]["volumes"])
    for name, svc in _fengsheng_services(compose).items():
        env = svc["environment"]
        assert env["FENGSHENG_REDIS_URL"].startswith("redis://redis:6379"), name
        assert "healthcheck" in svc, f"{name} has no healthcheck"
        assert svc["build"]["dockerfile"] == "deploy/Dockerfile"


def test_compose_fengsheng_commands_parse_with_the_real_cli(compose: dict[str, Any]) -> None:
    parser = build_parser()
    seen = set()
    for _name, svc in _fengsheng_services(compose).items():
        if svc.get("entrypoint", ["fengsheng"])[0] != "fengsheng":
            continue
        command = [str(x) for x in svc["command"]]
        # the subcommand exists (`fengsheng <cmd> --help` works) ...
        help_run = subprocess.run(
            [sys.executable, "-m", "fengsheng.cli", command[0], "--help"], cwd=ROOT, capture_output=True, text=True
        )
        assert help_run.returncode == 0, help_run.stderr
        # ... and the whole command line parses with the real parser
        args = parser.parse_args(command)
        assert args.command == command[0]
        seen.add(args.command)
        if args.command == "engine-server":
            assert args.host == "0.0.0.0" and args.port == 50051 and args.metrics_port == 9100
        if args.command == "gateway":
            engines = args.engine.split(",")
            assert sorted(engines) == ["engine-1:50051", "engine-2:50051"]
            for address in engines:
                assert address.split(":")[0] in compose["services"]
            assert not args.redis_url  # from FENGSHENG_REDIS_URL (+ the password) in its environment
            assert svc["environment"]["FENGSHENG_REDIS_URL"].startswith("redis://redis:")
    assert seen == {"engine-server", "gateway"}


def test_compose_celery_commands_parse_and_cover_every_queue(compose: dict[str, Any]) -> None:
    consumed: set[str] = set()
    helps: dict[str, str] = {}
    for name, svc in _fengsheng_services(compose).items():
        if svc.get("entrypoint", ["fengsheng"])[0] != "celery":
            continue
        command = [str(x) for x in svc["command"]]
        assert command[:2] == ["-A", "services.workers.celery_app"], name
        sub = command[2]
        if sub == "flower" and not _has_module("flower"):
            continue  # flower is installed in the image only (deploy/Dockerfile)
        text = helps.setdefault(sub, _celery_help(sub))
        for option in (c for c in command[3:] if c.startswith("-")):
            assert option.split("=")[0] in text, f"{name}: celery {sub} has no {option}"
        if sub == "worker":
            queues = command[command.index("-Q") + 1].split(",")
            consumed.update(queues)
            assert "--pool" in command and "threads" in command  # the worker metrics need tasks in-process
    assert consumed == QUEUES
    # every task the app knows is routed to a queue some worker consumes
    code = (
        "import os; os.environ['FENGSHENG_TASK_ROUTES']='1'\n"
        "from services.workers.celery_app import make_app; import services.workers.tasks\n"
        "import importlib, contextlib\n"
        "with contextlib.suppress(ImportError): importlib.import_module('services.ranked.tasks')\n"
        "app = make_app(); from services.workers.celery_app import app as main\n"
        "import fnmatch\n"
        "for t in sorted(n for n in main.tasks if not n.startswith('celery.')):\n"
        "    q = next((r['queue'] for p, r in app.conf.task_routes.items() if fnmatch.fnmatch(t, p)), "
        "app.conf.task_default_queue)\n"
        "    print(t, q)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    routes = dict(line.split() for line in out.stdout.strip().splitlines())
    assert routes.get("bots.move") == "bots" and routes.get("timers.expire") == "timers"
    for task, queue in routes.items():
        assert queue in consumed, f"{task} goes to {queue}, which no worker consumes"


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def test_compose_healthchecks_are_real_probes(compose: dict[str, Any]) -> None:
    from services import healthcheck

    for name, svc in _fengsheng_services(compose).items():
        test = svc["healthcheck"]["test"]
        assert test[0] == "CMD" and test[1:4] == ["python", "-m", "services.healthcheck"], name
        kind, target = test[4], (test[5] if len(test) > 5 else "")
        assert kind in ("grpc", "http", "redis")
        port = re.search(r":(\d+)", target.split("//")[-1])
        command = " ".join(str(x) for x in svc["command"])
        if kind == "grpc":
            assert port and f"--port {port.group(1)}" in command, name
        if kind == "http" and name == "gateway":
            assert port and f"--port {port.group(1)}" in command and target.endswith("/healthz")
        if kind == "http" and name.startswith("worker-"):
            assert port and svc["environment"]["FENGSHENG_WORKER_METRICS_PORT"] == port.group(1)
        with pytest.raises(SystemExit) as info:
            healthcheck.main([*test[4:], "--help"])
        assert info.value.code == 0


def test_healthcheck_probes_pass_against_real_services(engine: ServiceProcess, redis_url: str) -> None:
    def probe(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "services.healthcheck", *args], cwd=ROOT, capture_output=True, text=True, timeout=30
        )

    ok = probe("grpc", engine.address)
    assert ok.returncode == 0, ok.stdout
    assert probe("redis", redis_url).returncode == 0
    down = probe("grpc", "127.0.0.1:1", "--timeout", "1")
    assert down.returncode == 1 and "unhealthy" in down.stdout
    assert probe("http", "http://127.0.0.1:1/healthz", "--timeout", "1").returncode == 1


def test_prometheus_scrapes_every_service(compose: dict[str, Any]) -> None:
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    targets = {t for job in config["scrape_configs"] for sc in job["static_configs"] for t in sc["targets"]}
    services = compose["services"]
    for target in targets:
        host, _port = target.rsplit(":", 1)
        assert host == "localhost" or host in services, target
    fengsheng = _fengsheng_services(compose)
    for name, svc in fengsheng.items():
        if name in ("beat",):
            continue  # beat only enqueues; nothing to scrape
        if name.startswith("engine"):
            assert f"{name}:9100" in targets
        elif name.startswith("worker"):
            assert f"{name}:{svc['environment']['FENGSHENG_WORKER_METRICS_PORT']}" in targets
        elif name == "gateway":
            assert "gateway:8000" in targets
        elif name == "flower":
            assert "flower:5555" in targets
    assert "./prometheus.yml:/etc/prometheus/prometheus.yml:ro" in services["prometheus"]["volumes"]


# ---------------------------------------------------------------------------- Dockerfile
def _dockerfile() -> list[tuple[str, str]]:
    """``[(INSTRUCTION, rest)]`` with continuation lines joined and heredocs skipped."""
    lines = (DEPLOY / "Dockerfile").read_text().splitlines()
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line.startswith("#"):
            continue
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + " " + lines[i].strip()
            i += 1
        m = re.match(r"(\w+)\s+(.*)", line)
        assert m, f"unparsable Dockerfile line: {line}"
        out.append((m.group(1).upper(), m.group(2)))
        heredoc = re.search(r"<<-?'?(\w+)'?", m.group(2))
        if heredoc:
            while i < len(lines) and lines[i].strip() != heredoc.group(1):
                i += 1
            i += 1
    return out


def test_dockerfile_is_multistage_non_root_and_copies_real_files() -> None:
    known = {"FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME", "USER",
             "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"}  # fmt: skip
    instructions = _dockerfile()
    assert {k for k, _ in instructions} <= known
    stages = [rest for k, rest in instructions if k == "FROM"]
    assert len(stages) >= 2 and all(re.search(r"\sAS\s+\w+", s, re.I) for s in stages)
    final = instructions[max(i for i, (k, _) in enumerate(instructions) if k == "FROM") :]
    users = [rest for k, rest in final if k == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert any(k == "COPY" and rest.startswith("--from=build") for k, rest in final)
    entry = [rest for k, rest in final if k == "ENTRYPOINT"]
    assert entry == ['["fengsheng"]']
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert "fengsheng" in scripts
    for k, rest in instructions:
        if k == "COPY" and not rest.startswith("--from"):
            for source in shlex.split(rest)[:-1]:
                assert (ROOT / source).exists(), f"COPY {source}: no such file"
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text()
    for source in ("engine", "services", "gateway", "fengsheng", "proto", "pyproject.toml"):
        assert f"!{source}" in ignore


def test_dockerfile_base_is_a_build_argument_defaulting_to_the_official_python_image(compose: dict[str, Any]) -> None:
    """Users build on python:3.11-slim; ./dev deploy-check on deploy/local-base.sh's Debian
    base: the same Dockerfile, only BASE_IMAGE differs. No RUN heredoc: podman 4.3 (Debian 12)
    cannot build one."""
    instructions = _dockerfile()
    args = [rest for k, rest in instructions if k == "ARG"]
    assert "BASE_IMAGE=python:${PYTHON_VERSION}-slim" in args and "PYTHON_VERSION=3.11" in args
    stages = [rest for k, rest in instructions if k == "FROM"]
    assert stages and all(s.startswith("${BASE_IMAGE} AS ") for s in stages)
    assert not any("<<" in rest for k, rest in instructions if k == "RUN")
    assert compose["x-fengsheng"]["build"]["args"] == {"BASE_IMAGE": "${FENGSHENG_BASE_IMAGE:-python:3.11-slim}"}
    script = (DEPLOY / "local-base.sh").read_text()
    assert "localhost/fengsheng-base:bookworm" in script and "debootstrap --variant=minbase" in script
    assert os.access(DEPLOY / "local-base.sh", os.X_OK)
    assert subprocess.run(["bash", "-n", str(DEPLOY / "local-base.sh")]).returncode == 0
    # the third-party images are variables too, defaulting to the official ones
    services = compose["services"]
    assert services["redis"]["image"] == "${FENGSHENG_REDIS_IMAGE:-redis:7-alpine}"
    assert services["prometheus"]["image"].startswith("${FENGSHENG_PROMETHEUS_IMAGE:-prom/prometheus:v")


def test_dockerfile_parses_with_the_official_parser() -> None:
    dockerfile = pytest.importorskip("dockerfile")
    commands = dockerfile.parse_file(str(DEPLOY / "Dockerfile"))
    assert [c.cmd for c in commands if c.cmd == "FROM"] == ["FROM", "FROM"]
    assert any(c.cmd == "USER" and c.value[0].startswith("10001") for c in commands)


# ---------------------------------------------------------------------------- Kubernetes
def _kustomize(directory: Path) -> list[dict[str, Any]]:
    kubectl = shutil.which("kubectl")
    kustomize = shutil.which("kustomize")
    if kustomize:
        cmd = [kustomize, "build", str(directory)]
    elif kubectl:
        cmd = [kubectl, "kustomize", str(directory)]
    else:
        pytest.skip("neither kustomize nor kubectl is installed")
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [d for d in yaml.safe_load_all(out.stdout) if d]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[dict[str, Any]]]]:
    work = tmp_path_factory.mktemp("k8s") / "k8s"
    shutil.copytree(K8S, work)
    (work / "overlays/production/secret.env").write_text(
        "".join(f"{key}=from-the-overlay\n" for key in OVERLAY_SECRET_KEYS)
    )
    yield {"base": _kustomize(work / "base"), "production": _kustomize(work / "overlays/production")}


def _by_kind(docs: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


def _pod_templates(docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d["spec"]["template"] for d in docs if d["kind"] in ("Deployment", "StatefulSet")}


def test_base_files_are_listed_in_the_kustomization() -> None:
    kustomization = yaml.safe_load((K8S / "base/kustomization.yaml").read_text())
    listed = set(kustomization["resources"])
    present = {p.name for p in (K8S / "base").glob("*.yaml") if p.name != "kustomization.yaml"}
    assert listed == present


@pytest.mark.parametrize("variant", ["base", "production"])
def test_manifests_validate_against_the_kubernetes_schemas(
    built: dict[str, list[dict[str, Any]]], variant: str
) -> None:
    kv = pytest.importorskip("kubernetes_validate")
    for doc in built[variant]:
        kv.validate(doc, "1.30.0", strict=True)


@pytest.mark.parametrize("variant", ["base", "production"])
def test_manifests_hold_together(built: dict[str, list[dict[str, Any]]], variant: str) -> None:
    docs = built[variant]
    deployments = _by_kind(docs, "Deployment")
    templates = _pod_templates(docs)
    config = _by_kind(docs, "ConfigMap")
    secrets = _by_kind(docs, "Secret")
    assert {
        "fengsheng-engine",
        "fengsheng-gateway",
        "fengsheng-worker-bots",
        "fengsheng-worker-timers",
        "fengsheng-worker-matchmaking",
        "fengsheng-worker-ladder",
        "fengsheng-beat",
        "fengsheng-flower",
    } <= set(deployments)
    parser = build_parser()
    (cm,) = config.values()
    env = cm["data"]
    assert env["FENGSHENG_REDIS_URL"].startswith("redis://fengsheng-redis:6379")
    for name, template in templates.items():
        spec = template["spec"]
        if name != "fengsheng-redis":
            assert spec["securityContext"]["runAsNonRoot"] is True, name
        for c in spec["containers"]:
            assert c["resources"]["requests"]["cpu"] and c["resources"]["requests"]["memory"], name
            assert "livenessProbe" in c, f"{name}: no liveness probe"
            if name != "fengsheng-beat":
                assert "readinessProbe" in c, f"{name}: no readiness probe"
            for ref in c.get("envFrom", []):
                if "configMapRef" in ref:
                    assert ref["configMapRef"]["name"] in config
                if "secretRef" in ref:
                    assert ref["secretRef"]["name"] in secrets
            if c["image"].split(":")[0].endswith("fengsheng") and "command" not in c:
                args = [re.sub(r"\$\((\w+)\)", lambda m: env[m.group(1)], a) for a in c["args"]]
                parsed = parser.parse_args(args)
                assert parsed.command in ("engine-server", "gateway")
            if c.get("command") == ["celery"]:
                assert c["args"][:2] == ["-A", "services.workers.celery_app"]
    engine = templates["fengsheng-engine"]["spec"]["containers"][0]
    assert engine["readinessProbe"]["grpc"]["port"] == 50051 and engine["livenessProbe"]["grpc"]["port"] == 50051
    gateway = templates["fengsheng-gateway"]["spec"]["containers"][0]
    assert gateway["readinessProbe"]["httpGet"]["path"] == "/healthz"
    assert "FENGSHENG_SECRET" in _secret_env(gateway)
    queues: set[str] = set()
    for template in templates.values():
        c = template["spec"]["containers"][0]
        if "worker" in c.get("args", []):
            queues.update(c["args"][c["args"].index("-Q") + 1].split(","))
    assert queues == QUEUES
    hpas = _by_kind(docs, "HorizontalPodAutoscaler")
    targets = {h["spec"]["scaleTargetRef"]["name"] for h in hpas.values()}
    assert {"fengsheng-engine", "fengsheng-worker-bots"} <= targets <= set(deployments)
    # every Service selects some pods
    labels = [t["metadata"]["labels"] for t in templates.values()]
    for name, svc in _by_kind(docs, "Service").items():
        selector = svc["spec"]["selector"]
        assert any(selector.items() <= lab.items() for lab in labels), f"Service {name} selects nothing"
    headless = _by_kind(docs, "Service")["fengsheng-engine-headless"]
    assert headless["spec"]["clusterIP"] == "None"
    assert env["FENGSHENG_ENGINE_ADDR"] == "dns:///fengsheng-engine-headless:50051"
    redis = _by_kind(docs, "StatefulSet")["fengsheng-redis"]["spec"]["template"]["spec"]["containers"][0]
    assert "'appendonly yes'" in redis["args"][0] and "'appendfsync always'" in redis["args"][0]


def test_production_overlay_merges(built: dict[str, list[dict[str, Any]]]) -> None:
    base, prod = built["base"], built["production"]
    assert len(prod) == len(base) + 1  # + the Namespace
    for doc in prod:
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == "fengsheng", doc["metadata"]["name"]
    deployments = _by_kind(prod, "Deployment")
    assert deployments["fengsheng-gateway"]["spec"]["replicas"] == 3
    assert deployments["fengsheng-engine"]["spec"]["replicas"] == 3
    engine = deployments["fengsheng-engine"]["spec"]["template"]["spec"]["containers"][0]
    assert engine["resources"]["requests"]["cpu"] == "1"
    assert engine["readinessProbe"]["grpc"]["port"] == 50051  # the patch kept the rest
    for template in _pod_templates(prod).values():
        for c in template["spec"]["containers"]:
            if "redis" not in c["image"]:
                assert c["image"] == "registry.example.com/fengsheng:0.1.0"
    (cm,) = _by_kind(prod, "ConfigMap").values()
    assert cm["data"]["FENGSHENG_RATE_LIMIT"] == "20"
    assert cm["data"]["FENGSHENG_REDIS_URL"].startswith("redis://")  # merged, not replaced
    (secret,) = _by_kind(prod, "Secret").values()
    import base64

    for key in OVERLAY_SECRET_KEYS:
        assert base64.b64decode(secret["data"][key]).decode() == "from-the-overlay", key
    # generated names are hashed, and every reference follows them
    for template in _pod_templates(prod).values():
        for c in template["spec"]["containers"]:
            for ref in c.get("envFrom", []):
                name = (ref.get("configMapRef") or ref.get("secretRef"))["name"]
                assert name in (cm["metadata"]["name"], secret["metadata"]["name"])
            for var in c.get("env", []):
                ref = var.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    assert ref["name"] == secret["metadata"]["name"] and ref["key"] in secret["data"], var
    hpa = _by_kind(prod, "HorizontalPodAutoscaler")["fengsheng-engine"]
    assert hpa["spec"]["minReplicas"] == 3 and hpa["spec"]["maxReplicas"] == 20


# ---------------------------------------------------------------------------- secrets and exposure
#: ports that only the platform itself may reach: engine gRPC, Redis, every /metrics, Flower
INTERNAL_PORTS = {50051, 6379, 9100, 9101, 5555, 9090}
#: (service name prefix, container port) published to everyone: the gateway, the bot listeners
PUBLIC = {("gateway", 8000), ("engine-", 50052)}
SECRET_VARS = ("FENGSHENG_SECRET", "FENGSHENG_SERVICE_TOKEN", "FENGSHENG_REDIS_PASSWORD", "FLOWER_BASIC_AUTH")


def _defaults(text: str) -> str:
    """``text`` with each ``${VAR:-default}`` replaced by its default (no deploy/.env)."""
    return re.sub(r"\$\{[A-Z0-9_]+:-([^}]*)\}", r"\1", text)


def _published(spec: str) -> tuple[str, int, int]:
    """``[HOST_IP:]HOST_PORT:CONTAINER_PORT`` (``${VAR:-default}`` at their defaults) ->
    (host ip, host port, container port)."""
    parts = _defaults(str(spec)).split(":")
    ip = parts[0] if len(parts) == 3 else "0.0.0.0"
    return ip, int(parts[-2]), int(parts[-1].split("/")[0])


def test_compose_publishes_only_the_gateway_and_the_bot_listeners(compose: dict[str, Any]) -> None:
    public: set[tuple[str, int]] = set()
    for name, svc in compose["services"].items():
        for spec in svc.get("ports", []):
            ip, _host_port, port = _published(spec)
            if ip == "127.0.0.1":
                continue  # the Docker host's loopback: operators only (ssh -L)
            assert ip == "0.0.0.0" and port not in INTERNAL_PORTS, f"{name} publishes {spec}"
            assert any(name.startswith(prefix) and port == p for prefix, p in PUBLIC), f"{name} publishes {spec}"
            public.add((name, port))
    assert public == {("gateway", 8000), ("engine-1", 50052), ("engine-2", 50052)}
    assert _published(compose["services"]["flower"]["ports"][0])[0] == "127.0.0.1"
    assert _published(compose["services"]["prometheus"]["ports"][0])[0] == "127.0.0.1"
    # deploy/.env may move the public ones (./dev deploy-check: 127.0.0.1, free ports), never the
    # loopback-only ones off the loopback
    for name in ("flower", "prometheus"):
        assert all(str(p).startswith("127.0.0.1:") for p in compose["services"][name]["ports"]), name


def _command_text(svc: dict[str, Any]) -> str:
    parts = [*svc.get("entrypoint", []), *svc.get("command", []), *svc.get("healthcheck", {}).get("test", [])]
    return " ".join(str(p) for p in parts)


def test_compose_gives_each_redis_role_its_own_url_from_deploy_env(compose: dict[str, Any]) -> None:
    """Each Redis role's URL (services/config.py, ROLE_VARS) comes from deploy/.env, where it
    may carry a password; unset, it is empty and the role uses FENGSHENG_REDIS_URL."""
    from services import config

    for name, svc in _fengsheng_services(compose).items():
        env = svc["environment"]
        for var in config.ROLE_VARS.values():
            assert env.get(var) == f"${{{var}:-}}", (name, var)
    example = (ROOT / "deploy/env.example").read_text()
    assert all(f"#{var}=" in example for var in config.ROLE_VARS.values())
    assert "FENGSHENG_MATCH_REDIS_URL" in (ROOT / "deploy/k8s/base/config.yaml").read_text()


def test_compose_secrets_come_from_the_environment_never_a_command_line(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for name, svc in _fengsheng_services(compose).items():
        env = svc["environment"]
        for var in ("FENGSHENG_SERVICE_TOKEN", "FENGSHENG_REDIS_PASSWORD"):
            assert env[var] == f"${{{var}:?set {var} in deploy/.env}}", (name, var)  # from deploy/.env
        assert ("FENGSHENG_SECRET" in env) == (name == "gateway"), name  # the token secret: gateway only
        assert ("FLOWER_BASIC_AUTH" in env) == (name == "flower"), name
        assert "@" not in env["FENGSHENG_REDIS_URL"], name
    for name, svc in services.items():
        text = _command_text(svc)
        assert "--secret" not in text and "--redis-url" not in text and "redis://" not in text, name
        assert "basic_auth" not in text and "requirepass" not in text.replace('requirepass \\"$$', ""), name
        for var in SECRET_VARS:  # a secret appears in a command only as a reference the shell expands
            assert text.count(var) == text.count(f"$${var}"), (name, var)
    _podman_secrets_match_the_environment(compose)
    redis_env = services["redis"]["environment"]
    assert redis_env == {
        "FENGSHENG_REDIS_PASSWORD": "${FENGSHENG_REDIS_PASSWORD:?set FENGSHENG_REDIS_PASSWORD in deploy/.env}"
    }
    assert "REDISCLI_AUTH=" in " ".join(services["redis"]["healthcheck"]["test"])


def _podman_secrets_match_the_environment(compose: dict[str, Any]) -> None:
    """deploy/compose.podman.yml gives each service, as podman secrets of type env, exactly the
    secret variables its docker-compose.yml environment has (podman-compose would otherwise
    put their values on podman's command line)."""
    override = yaml.safe_load((DEPLOY / "compose.podman.yml").read_text())
    declared = override["secrets"]
    assert all(v == {"external": True} for v in declared.values())
    for name, svc in compose["services"].items():
        want = {var for var in SECRET_VARS if var in svc.get("environment", {})}
        got = override["services"].get(name, {}).get("secrets", [])
        assert all(s["type"] == "env" and s["source"] in declared for s in got), name
        assert {s["target"] for s in got} == want, name
    assert set(override["services"]) <= set(compose["services"])


def _redis_script_requires_auth(script: str, tmp_path: Path, conf_path: str) -> None:
    """Run the config-writing part of a deploy file's Redis start script with a real shell,
    start the real redis-server on that config (on loopback, in ``tmp_path``) and check that
    it refuses a client without the password and serves one with it."""
    import redis

    from services.redis_server import free_port, redis_executable

    head = script.split("\nchown")[0].split("\nexec")[0]
    conf = tmp_path / "redis.conf"
    head = head.replace(conf_path, str(conf))
    out = subprocess.run(["sh", "-c", head], env={**os.environ, "FENGSHENG_REDIS_PASSWORD": "pw from the secret"})
    assert out.returncode == 0
    assert stat.S_IMODE(conf.stat().st_mode) == 0o600
    text = conf.read_text()
    assert 'requirepass "pw from the secret"' in text and "protected-mode yes" in text
    port = free_port()
    data = tmp_path / "data"
    data.mkdir()
    conf.write_text(text.replace("dir /data", f"dir {data}") + f"\nbind 127.0.0.1\nport {port}\n")
    server = subprocess.Popen([redis_executable(), str(conf)], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        owner = redis.Redis(port=port, password="pw from the secret", socket_timeout=2)
        while True:
            try:
                assert owner.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        with pytest.raises((redis.AuthenticationError, redis.ResponseError)):
            redis.Redis(port=port, socket_timeout=2).get("fs:m:any")
        assert owner.config_get("appendfsync") == {"appendfsync": "always"}
    finally:
        server.terminate()
        server.wait(10)


def test_compose_redis_requires_its_password(compose: dict[str, Any], tmp_path: Path) -> None:
    redis = compose["services"]["redis"]
    script = redis["command"][0].replace("$$", "$")
    # as the image's redis user (uid 999 in the official image and in deploy/local/redis.Containerfile)
    assert redis["user"] == "999" and "USER 999" in (DEPLOY / "local/redis.Containerfile").read_text()
    assert script.rstrip().endswith("exec redis-server /tmp/redis.conf")
    _redis_script_requires_auth(script, tmp_path, "/tmp/redis.conf")


def _secret_env(container: dict[str, Any]) -> dict[str, str]:
    """The container's variables taken from a Secret: name -> key."""
    return {
        v["name"]: v["valueFrom"]["secretKeyRef"]["key"]
        for v in container.get("env", [])
        if "secretKeyRef" in v.get("valueFrom", {})
    }


@pytest.mark.parametrize("variant", ["base", "production"])
def test_manifests_keep_secrets_in_the_secret_and_internal_ports_internal(
    built: dict[str, list[dict[str, Any]]], variant: str, tmp_path: Path
) -> None:
    docs = built[variant]
    (secret,) = _by_kind(docs, "Secret").values()
    (cm,) = _by_kind(docs, "ConfigMap").values()
    assert not set(SECRET_VARS) & set(cm["data"]) and "@" not in cm["data"]["FENGSHENG_REDIS_URL"]
    keys = set(secret.get("data") or secret.get("stringData") or {})
    assert set(SECRET_VARS) <= keys
    for name, template in _pod_templates(docs).items():
        for c in template["spec"]["containers"]:
            text = " ".join([*c.get("command", []), *c.get("args", [])])
            assert "--secret" not in text and "--redis-url" not in text, name
            for var in SECRET_VARS:  # $(VAR) would be expanded by the kubelet onto the command line
                assert f"$({var})" not in text, (name, var)
            assert not any("secretRef" in ref for ref in c.get("envFrom", [])), f"{name}: take only the keys needed"
            secret_env = _secret_env(c)
            assert all(k in keys for k in secret_env.values()), name
            if c["image"].split(":")[0].endswith("fengsheng"):  # every service gets the credential
                assert {"FENGSHENG_SERVICE_TOKEN", "FENGSHENG_REDIS_PASSWORD"} <= set(secret_env), name
                assert ("FENGSHENG_SECRET" in secret_env) == (name == "fengsheng-gateway"), name
            if name == "fengsheng-redis":
                assert secret_env == {
                    "FENGSHENG_REDIS_PASSWORD": "FENGSHENG_REDIS_PASSWORD",
                    "REDISCLI_AUTH": "FENGSHENG_REDIS_PASSWORD",
                }
                script = c["args"][0]
                assert c["command"] == ["sh", "-c"] and script.rstrip().endswith("redis-server /run/redis/redis.conf")
                if variant == "base":
                    _redis_script_requires_auth(script, tmp_path, "/run/redis/redis.conf")
    services = _by_kind(docs, "Service")
    for name, svc in services.items():
        ports = {p["port"] for p in svc["spec"]["ports"]}
        assert svc["spec"].get("type", "ClusterIP") == "ClusterIP", name  # exposure is the ingress's job
        if name == "fengsheng-bots":
            assert ports == {50052}
        elif 50052 in ports:
            raise AssertionError(f"{name} mixes the bot listener with other ports")
    policies = _by_kind(docs, "NetworkPolicy")
    engine = policies["fengsheng-engine"]["spec"]["ingress"]
    open_to_all = {p["port"] for rule in engine if "from" not in rule for p in rule["ports"]}
    assert open_to_all == {50052}
    redis_rules = policies["fengsheng-redis"]["spec"]["ingress"]
    assert all("from" in rule for rule in redis_rules)
    templates = _pod_templates(docs)
    labels = [t["metadata"]["labels"] for t in templates.values()]
    for name, policy in policies.items():  # each policy selects pods that exist
        selector = policy["spec"]["podSelector"]
        wanted = selector.get("matchLabels", {})
        values = set()
        for expr in selector.get("matchExpressions", []):
            values |= set(expr["values"])
        assert any(wanted.items() <= lab.items() and (not values or lab["app.kubernetes.io/name"] in values)
                   for lab in labels), name  # fmt: skip


def test_deploy_check_plays_the_base_manifests_as_podman_pods(built: dict[str, list[dict[str, Any]]]) -> None:
    """deploy/check_k8s.py (``./dev deploy-check``) turns the rendered base into what podman
    kube play runs: a Pod per replica, each Service a DNS alias of the pods it selects, $(VAR)
    expanded, the probes run by the check, only the gateway published and on loopback only,
    the Secret never in a played file."""
    sys.path.insert(0, str(DEPLOY))
    import check_k8s

    docs = built["base"]
    probes: dict[str, list[str]] = {}
    played = check_k8s.pods(docs, 18000, probes)
    names = [name for name, _, _ in played]
    assert names[:3] == ["fengsheng-redis-0", "fengsheng-engine-0", "fengsheng-engine-1"] and len(names) == 10
    config = next(d for d in docs if d["kind"] == "ConfigMap")["data"]
    engine_host = config["FENGSHENG_ENGINE_ADDR"].removeprefix("dns:///").rsplit(":", 1)[0]
    redis_host = config["FENGSHENG_REDIS_URL"].split("//")[1].split(":")[0]
    aliases = {name: a for name, _, a in played}
    assert engine_host in aliases["fengsheng-engine-0"] and engine_host in aliases["fengsheng-engine-1"]
    assert redis_host in aliases["fengsheng-redis-0"] and "fengsheng-gateway" in aliases["fengsheng-gateway-0"]
    for name, pod_docs, _ in played:
        assert {d["kind"] for d in pod_docs} <= {"ConfigMap", "Pod", "PersistentVolumeClaim"}, name
        pod = pod_docs[-1]
        for c in pod["spec"]["containers"]:
            assert not any(k.endswith("Probe") for k in c), name
            assert "$(" not in " ".join(c.get("args", []) + c.get("command", [])), name
            assert probes[f"{name}-{c['name']}"], name
            for p in c["ports"]:
                assert name == "fengsheng-gateway-0" and p == {**p, "hostIP": "127.0.0.1", "hostPort": 18000}
    assert probes["fengsheng-engine-0-engine"][-2:] == ["grpc", "127.0.0.1:50051"]
    redis_docs = dict((n, d) for n, d, _ in played)["fengsheng-redis-0"]
    assert any(d["kind"] == "PersistentVolumeClaim" for d in redis_docs)
