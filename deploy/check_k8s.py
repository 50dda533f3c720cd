"""The Kubernetes half of ``./dev deploy-check``: ``deploy/k8s/base``, rendered with kustomize
(``kubectl kustomize``), run as pods with ``podman kube play``.

podman runs Pods (and one-replica Deployments), ConfigMaps and PersistentVolumeClaims; what
it lacks, this file does the nearest way, as a kubelet and kube-proxy would (each point is in
docs/operations.md, *Tried for real*):

- every replica of a Deployment or StatefulSet becomes a Pod ``NAME-0``, ``NAME-1`` … (podman
  plays one replica); the check runs two engines and one of everything else (2 cores);
- a Service is a DNS name on the pods' podman network: each pod gets the names of the Services
  that select it as network aliases, so a name answers with every selected pod (like the
  headless Service; a ClusterIP Service would be one virtual IP);
- the Secret becomes a podman secret made from a 0600 file (``secretKeyRef`` reads it), with
  random values instead of the manifest's placeholders;
- ``$(VAR)`` in command and args is expanded from the container's environment (the kubelet
  does this; podman does not);
- a volumeClaimTemplate becomes a PersistentVolumeClaim (a podman volume);
- only the gateway's port is published, on 127.0.0.1 (where a cluster has a LoadBalancer or
  an Ingress): podman 4.3 would publish every containerPort on the host.

Not checked here: NetworkPolicy (podman enforces none), HorizontalPodAutoscaler,
PodDisruptionBudget, readiness gating of Service endpoints, resource requests (scheduling).
"""

from __future__ import annotations

import base64
import copy
import json
import re
import secrets
import time
from pathlib import Path
from typing import Any

import httpx
import yaml
from check_lib import (
    DEPLOY,
    IMAGE,
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

NETWORK = "fengsheng-check-k8s"
#: replicas run here (2 cores shared): two engines for the kill, one of everything else
REPLICAS = {"fengsheng-engine": 2}
#: the order pods start in (what each one needs is up before it)
ORDER = [
    "fengsheng-redis",
    "fengsheng-engine",
    "fengsheng-gateway",
    "fengsheng-worker-bots",
    "fengsheng-worker-timers",
    "fengsheng-worker-matchmaking",
    "fengsheng-worker-ladder",
    "fengsheng-beat",
    "fengsheng-flower",
]
IMAGES = {"fengsheng:latest": IMAGE, "redis:7-alpine": REDIS_IMAGE}


def render() -> list[dict[str, Any]]:
    out = run(["kubectl", "kustomize", str(DEPLOY / "k8s/base")], timeout=120)
    return [d for d in yaml.safe_load_all(out.stdout) if d]


def _expand(text: str, env: dict[str, str]) -> str:
    """``$(VAR)`` replaced by its value when ``VAR`` is known, as the kubelet does."""
    return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env.get(m.group(1), m.group(0)), text)


def _unpublish(container: dict[str, Any], gateway_port: int | None) -> None:
    """podman 4.3 publishes every containerPort on the host's every interface (the same port
    number when there is no hostPort): keep only the gateway's, on 127.0.0.1 at
    ``gateway_port``."""
    kept = [p for p in container.get("ports", []) if gateway_port and p["containerPort"] == 8000]
    for p in kept:
        p.update(hostPort=gateway_port, hostIP="127.0.0.1")
    container["ports"] = kept


def probe_command(container: dict[str, Any]) -> list[str] | None:
    """The container's readiness probe (else its liveness probe) as a command to run inside it.
    podman 4.3 turns httpGet into ``curl`` and tcpSocket into ``nc`` health checks, neither of
    which is in the images, and then restarts the container when they fail: the check takes
    the probes out of the pods and runs them itself, as the kubelet would."""
    probe = container.get("readinessProbe") or container.get("livenessProbe")
    if not probe:
        return None
    named = {p["name"]: p["containerPort"] for p in container.get("ports", []) if "name" in p}
    if "exec" in probe:
        return [str(a) for a in probe["exec"]["command"]]
    handler = next(h for h in ("httpGet", "tcpSocket", "grpc") if h in probe)
    port = probe[handler]["port"]
    port = named.get(port, port)
    if handler == "httpGet":
        return ["python", "-m", "services.healthcheck", "http", f"http://127.0.0.1:{port}{probe['httpGet']['path']}"]
    if handler == "grpc":
        return ["python", "-m", "services.healthcheck", "grpc", f"127.0.0.1:{port}"]
    return ["python3", "-c", f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=5)"]


def wait_probes(probes: dict[str, list[str]], timeout: float) -> None:
    """Each container's probe passes (``podman exec``), before ``timeout``."""
    deadline = time.monotonic() + timeout
    waiting = dict(probes)
    while waiting:
        for name, cmd in sorted(waiting.items()):
            if podman("exec", name, *cmd, check=False, timeout=30).returncode == 0:
                del waiting[name]
        if waiting and time.monotonic() > deadline:
            raise CheckFailed(f"probes failing after {timeout:.0f} s: {', '.join(sorted(waiting))}", *waiting)
        if waiting:
            time.sleep(2)


def pods(
    docs: list[dict[str, Any]], gateway_port: int, probes: dict[str, list[str]]
) -> list[tuple[str, list[dict[str, Any]], list[str]]]:
    """(pod name, the YAML documents to play for it, its network aliases), in start order;
    each container's probe goes into ``probes`` (container name: command)."""
    config = next(d for d in docs if d["kind"] == "ConfigMap")
    services = [d for d in docs if d["kind"] == "Service"]
    workloads = {d["metadata"]["name"]: d for d in docs if d["kind"] in ("Deployment", "StatefulSet")}
    if set(workloads) != set(ORDER):
        raise CheckFailed(f"the manifests' workloads changed: {sorted(workloads)}; update ORDER in deploy/check_k8s.py")
    out: list[tuple[str, list[dict[str, Any]], list[str]]] = []
    for name in ORDER:
        workload = workloads[name]
        template = workload["spec"]["template"]
        labels = template["metadata"].get("labels", {})
        aliases = [
            s["metadata"]["name"]
            for s in services
            if s["spec"].get("selector") and all(labels.get(k) == v for k, v in s["spec"]["selector"].items())
        ]
        for i in range(REPLICAS.get(name, 1)):
            pod_name = f"{name}-{i}"
            spec = copy.deepcopy(template["spec"])
            extra: list[dict[str, Any]] = []
            for claim in workload["spec"].get("volumeClaimTemplates", []):
                claim_name = f"{claim['metadata']['name']}-{pod_name}"
                extra.append(
                    {
                        "apiVersion": "v1",
                        "kind": "PersistentVolumeClaim",
                        "metadata": {"name": claim_name},
                        "spec": claim["spec"],
                    }
                )
                spec.setdefault("volumes", []).append(
                    {"name": claim["metadata"]["name"], "persistentVolumeClaim": {"claimName": claim_name}}
                )
            for c in spec["containers"]:
                command = probe_command(c)
                if command:
                    probes[f"{pod_name}-{c['name']}"] = command
                for key in ("readinessProbe", "livenessProbe", "startupProbe"):
                    c.pop(key, None)
                c["image"] = IMAGES.get(c["image"], c["image"])
                env = dict(config["data"])
                env.update({e["name"]: e["value"] for e in c.get("env", []) if "value" in e})
                for e in c.get("env", []):
                    if e.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") == "metadata.name":
                        env[e["name"]] = pod_name
                for key in ("command", "args"):
                    if key in c:
                        c[key] = [_expand(str(a), env) for a in c[key]]
                _unpublish(c, gateway_port if name == "fengsheng-gateway" else None)
            pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": pod_name, "labels": labels}, "spec": spec}
            out.append((pod_name, [config, *extra, pod], aliases))
    return out


def secret_values(docs: list[dict[str, Any]]) -> dict[str, str]:
    """The Secret's keys, each with a new random value (the manifest holds placeholders)."""
    secret = next(d for d in docs if d["kind"] == "Secret")
    values = {key: secrets.token_urlsafe(32) for key in secret["stringData"]}
    values["FLOWER_BASIC_AUTH"] = "admin:" + secrets.token_hex(16)
    return values


def pod_containers(names: list[str]) -> list[str]:
    out: list[str] = []
    for pod in names:
        listed = podman("ps", "-a", "--filter", f"pod={pod}", "--format", "{{.Names}}", check=False).stdout.split()
        out += [c for c in listed if not c.endswith("-infra")]
    return out


def run_k8s(tmp: Path, per_ruleset: int, timings: dict[str, float]) -> Played:
    tmp.mkdir(mode=0o700)
    gateway_port = free_port()
    url = f"http://127.0.0.1:{gateway_port}"
    started: list[str] = []
    volumes: list[str] = []
    secret_name = "fengsheng-secret"
    probes: dict[str, list[str]] = {}
    try:
        with step("kubernetes: kubectl kustomize deploy/k8s/base, podman kube play each pod", timings):
            docs = render()
            kinds = sorted({d["kind"] for d in docs})
            say(f"   rendered {len(docs)} objects: {', '.join(kinds)}")
            values = secret_values(docs)
            data = {k: base64.b64encode(v.encode()).decode() for k, v in values.items()}
            podman("secret", "rm", secret_name, check=False)
            podman("secret", "create", secret_name, str(secret_file(tmp, "secret.json", json.dumps(data))))
            podman("network", "rm", "-f", NETWORK, check=False)
            podman("network", "create", NETWORK)
            for pod_name, pod_docs, aliases in pods(docs, gateway_port, probes):
                path = tmp / f"{pod_name}.yaml"
                path.write_text(yaml.safe_dump_all(pod_docs, sort_keys=False))
                volumes += [d["metadata"]["name"] for d in pod_docs if d["kind"] == "PersistentVolumeClaim"]
                podman("kube", "play", "--start=false", "--network", NETWORK, str(path), timeout=120)
                started.append(pod_name)
                infra = podman("pod", "inspect", pod_name, "--format", "{{.InfraContainerID}}").stdout.strip()
                # the Services that select this pod: DNS names on the network (see the docstring)
                podman("network", "disconnect", NETWORK, infra)
                podman("network", "connect", *[f"--alias={a}" for a in [pod_name, *aliases]], NETWORK, infra)
                podman("pod", "start", pod_name, timeout=120)
                say(f"   {pod_name}: started (DNS: {', '.join([pod_name, *aliases])})")
        with step("kubernetes: every container running and its probe passing, gateway /healthz", timings):
            wait_healthy(lambda: pod_containers(started), timeout=240)
            wait_probes(probes, timeout=240)
            wait_http(f"{url}/healthz", 120, "gateway", lambda r: r.status_code == 200)
        with step(
            f"kubernetes: {per_ruleset} bot matches per ruleset through the gateway, an engine pod killed", timings
        ):

            def kill() -> str:
                podman("pod", "kill", "fengsheng-engine-0")
                return "pod fengsheng-engine-0 (podman pod kill: SIGKILL)"

            played = play_matches(
                url,
                per_ruleset=per_ruleset,
                kill=kill,
                survivor=lambda: metric_sum(exec_metrics("fengsheng-engine-1-engine", 9100), "fengsheng_actions_total"),
            )
            failovers = metric_sum(
                httpx.get(f"{url}/metrics", timeout=10).text, "fengsheng_gateway_engine_failovers_total"
            )
            say(f"   gateway: {failovers:.0f} calls failed over to the other engine pod")
        return played
    except CheckFailed as exc:
        show_logs(list(exc.args[1:]) or pod_containers(started))
        raise
    finally:
        with step("kubernetes: pods, volumes, network and secret removed", timings):
            for pod_name in reversed(started):
                podman("pod", "rm", "-f", "-t", "2", pod_name, check=False, timeout=120)
            for volume in volumes:
                podman("volume", "rm", "-f", volume, check=False)
            podman("network", "rm", "-f", NETWORK, check=False)
            podman("secret", "rm", secret_name, check=False)
        time.sleep(0)
