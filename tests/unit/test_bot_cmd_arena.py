"""Issue 29 §4: ``fengsheng arena --bot-cmd`` plays a bot *program* over stdin/stdout JSON lines.

The program here is a small Python script speaking the ``/ws/bots`` messages (no SDK, no
import of this repository): it checks the order of what it is sent (``welcome`` first, a
``match_start`` before each match's decisions, a ``result`` for each accepted action), answers
each match's first decision with an illegal action first (the arena answers with an
``illegal`` error listing the legal actions, as online, and it answers again), and records
what it saw in a file named on its command line. It also refuses to run with a
``FENGSHENG_*`` variable in its environment: the arena passes the program no secrets.
20 matches of 3 players against the random house bot: ~3 s.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fengsheng.cli import main

BOT = r'''
import json, os, sys
if any(k.startswith("FENGSHENG") for k in os.environ):
    sys.exit("the arena passed me a FENGSHENG_* variable")
seen = {"welcome": 0, "match_start": 0, "decision": 0, "result": 0, "illegal": 0, "match_end": 0, "order": []}
started, first = set(), set()
def send(msg):
    print(json.dumps(msg), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    (kind,) = [k for k in msg if k != "server_ms"]  # every message: its kind and server_ms
    seen[kind] = seen.get(kind, 0) + 1
    body = msg[kind]
    if kind == "welcome" and seen["match_start"]:
        seen["order"].append("welcome after a match")
    if kind == "match_start":
        started.add(body["match_id"])
    elif kind == "decision":
        if body["match_id"] not in started or body["observation"]["viewer"] != body["seat"]:
            seen["order"].append("decision outside its match or for another seat")
        where = {k: body[k] for k in ("match_id", "seat", "decision")}
        if body["match_id"] not in first:
            first.add(body["match_id"])
            send({"action": {**where, "action": "not an action at all"}})
        else:
            send({"action": {**where, "action": body["legal_actions"][0]}})
    elif kind == "error" and body["kind"] == "illegal":
        seen["illegal"] += 1
        send({"action": {k: body[k] for k in ("match_id", "seat", "decision")} | {"action": body["legal_actions"][-1]}})
    elif kind == "match_end":
        if set(body["outcome"]) < {"winners", "identities"}:
            seen["order"].append("match_end without an outcome")
with open(sys.argv[1], "w") as out:
    json.dump(seen, out)
'''


def test_a_bot_program_plays_20_matches_over_stdin_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setenv("FENGSHENG_BOT_TOKEN", "fsb_not_for_the_program")
    script, record = tmp_path / "mybot.py", tmp_path / "seen.json"
    script.write_text(BOT)
    cmd = shlex.join([sys.executable, str(script), str(record)])
    code = main(["arena", "--bot-cmd", cmd, "--bots", "random", "--matches", "20", "--players", "3", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    report = json.loads(out.out)
    assert report["total"]["games"] == 20
    assert sum(t["games"] for t in report["by_identity"].values()) == 20
    assert report["defaults"] == 0 and report["illegal"] == 20  # the first answer of each match
    seen = json.loads(record.read_text())
    assert seen["order"] == []
    assert seen["welcome"] == 1 and seen["match_start"] == seen["match_end"] == 20
    assert seen["illegal"] == 20
    assert seen["decision"] == seen["result"] == report["decisions"] > 20


@pytest.mark.parametrize(
    ("program", "says"),
    [
        ("print('hello, arena')", "is not JSON (line 1 of its stdout: 'hello, arena')"),
        ("print('{\"move\": 1}')", "not a bot message"),
        ("import sys; sys.exit(3)", "exited (status 3)"),
    ],
)
def test_a_broken_program_stops_the_arena_with_a_clear_error(program: str, says: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    cmd = shlex.join([sys.executable, "-u", "-c", f"import sys\nsys.stdin.readline()\n{program}\nsys.stdin.read()"])
    code = main(["arena", "--bot-cmd", cmd, "--bots", "random", "--matches", "3", "--players", "3"])
    err = capsys.readouterr().err
    assert code == 2
    assert "fengsheng arena: stopped in match 1 of 3" in err and says in err, err


def test_a_program_that_never_answers_is_defaulted_then_stopped(capsys: pytest.CaptureFixture[str]) -> None:
    cmd = shlex.join([sys.executable, "-c", "import sys\nsys.stdin.read()"])
    code = main(["arena", "--bot-cmd", cmd, "--move-timeout-ms", "100", "--matches", "2", "--players", "3"])
    err = capsys.readouterr().err
    assert code == 2 and "answered none of its last 3 decisions within 100 ms" in err, err


def test_the_command_line_is_not_run_by_a_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "shell-ran"
    code = main(["arena", "--bot-cmd", f"true; touch {marker}", "--matches", "1", "--players", "3"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot start the bot program 'true;'" in err, err
    assert not marker.exists()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_docs_node_bot_plays_20_matches_as_written(tmp_path: Path) -> None:
    """docs/bots.md's plain-Node ``mybot.js`` and its ``fengsheng arena --bot-cmd "node
    mybot.js"`` line, run as written (20 matches against the heuristic bot, 5 players: ~5 s)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    (js,) = re.findall(r"```js\n(// mybot\.js.*?)```", doc, re.S)
    (tmp_path / "mybot.js").write_text(js)
    (line,) = [ln for ln in doc.splitlines() if ln.startswith('fengsheng arena --bot-cmd "node mybot.js"')]
    argv = shlex.split(line.split("#", 1)[0])
    exe = Path(sys.executable).with_name("fengsheng")
    out = subprocess.run([str(exe), *argv[1:], "--json"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    assert report["matches"] == report["total"]["games"] == 20
    assert report["decisions"] > 0 and report["defaults"] == report["illegal"] == 0
