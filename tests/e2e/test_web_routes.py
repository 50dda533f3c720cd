"""The gateway routes the web client needs, without a browser: the page and its static files,
the list of matches, and the replay viewer's per-step views."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.rulesets import RULESET_IDS, get_ruleset

pytestmark = [pytest.mark.e2e, pytest.mark.integration]


def _wait_over(http: httpx.Client, match_id: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info: dict[str, Any] = http.get(f"/api/matches/{match_id}").json()
        if info["observation"]["outcome"]["over"]:
            return info
        time.sleep(0.2)
    raise TimeoutError(match_id)


def _steps(http: httpx.Client, match_id: str, view: str) -> dict[str, Any]:
    """Every step of ``view``, page after page (``next_step`` until null)."""
    out: dict[str, Any] | None = None
    start: int | None = 0
    while start is not None:
        reply = http.get(f"/api/matches/{match_id}/replay/steps", params={"view": view, "from": start})
        assert reply.status_code == 200, reply.text
        page = reply.json()
        if out is None:
            out = page
        else:
            for key in ("steps", "observations", "events"):
                out[key].extend(page[key])
        start = page["next_step"]
    assert out is not None
    return out


def test_page_static_files_and_api_stay_apart(base_url: str) -> None:
    with httpx.Client(base_url=base_url, timeout=10) as http:
        page = http.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert '<script type="module" src="/static/js/app.js">' in page.text
        for path in ("/static/js/app.js", "/static/js/table.js", "/static/js/i18n.js", "/static/css/app.css"):
            reply = http.get(path)
            assert reply.status_code == 200, path
        assert "javascript" in http.get("/static/js/app.js").headers["content-type"]
        assert http.get("/static/nope.js").status_code == 404
        assert http.get("/docs").status_code == 200
        missing = http.get("/api/matches/nope/replay/steps")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_match_list_and_replay_steps(base_url: str) -> None:
    with httpx.Client(base_url=base_url, timeout=60) as http:
        created = http.post(
            "/api/matches",
            json={"players": 4, "humans": 0, "bot": "heuristic", "characters": True, "bot_delay_ms": 20},
        ).json()
        match_id = created["match_id"]
        listed = http.get("/api/matches", params={"live": "true"}).json()["matches"]
        assert match_id in [m["match_id"] for m in listed]
        early = http.get(f"/api/matches/{match_id}/replay/steps")
        assert early.status_code == 409  # it would reveal hidden cards
        assert http.get(f"/api/matches/{match_id}/replay/steps", params={"view": "1"}).status_code == 409
        watching = http.get(f"/api/matches/{match_id}/replay/steps", params={"view": "-1"}).json()
        assert watching["settings"]["seed"] == 0  # the spectator's steps so far: public only
        assert all(seat["hand"] == [] for obs in watching["observations"] for seat in obs["seats"])

        info = _wait_over(http, match_id)
        assert match_id not in [m["match_id"] for m in http.get("/api/matches?live=true").json()["matches"]]
        mine = [m for m in http.get("/api/matches").json()["matches"] if m["match_id"] == match_id]
        assert mine and mine[0]["over"] and mine[0]["winners"] == info["observation"]["outcome"]["winners"]

        replay = http.get(f"/api/matches/{match_id}/replay").json()
        everything = _steps(http, match_id, "all")
        assert len(everything["steps"]) == len(replay["actions"]) + 1
        assert len(everything["observations"]) == len(everything["steps"])
        assert [s["action"] for s in everything["steps"][1:]] == [a["action"] for a in replay["actions"]]
        final = everything["observations"][-1]
        assert final["outcome"]["over"]
        assert all(seat["identity"] != "IDENTITY_UNSPECIFIED" for seat in final["seats"])
        # the replayed game ends where the real one did
        real = info["observation"]
        assert [s["intel"] for s in final["seats"]] == [s["intel"] for s in real["seats"]]
        assert [s["alive"] for s in final["seats"]] == [s["alive"] for s in real["seats"]]

        spectator = _steps(http, match_id, "-1")
        for obs in spectator["observations"]:
            assert all(seat["hand"] == [] for seat in obs["seats"])
        assert all(not e["audience"] or -1 in e["audience"] for e in spectator["events"])
        seat1 = _steps(http, match_id, "1")
        assert all(not e["audience"] or 1 in e["audience"] or -1 in e["audience"] for e in seat1["events"])
        assert any(obs["seats"][1]["hand"] for obs in seat1["observations"])
        assert all(obs["seats"][0]["hand"] == [] for obs in seat1["observations"])
        steps = [e["step"] for e in everything["events"]]
        assert steps == sorted(steps) and steps[-1] <= len(everything["steps"]) - 1
        assert http.get(f"/api/matches/{match_id}/replay/steps", params={"view": "9"}).status_code == 422
        last = http.get(f"/api/matches/{match_id}/replay/steps", params={"view": "all", "last": "true"}).json()
        assert last["observations"] == everything["observations"][-1:] and last["steps"] == everything["steps"][-1:]


def test_names_cover_every_card_character_and_skill() -> None:
    """The client's dictionary (gateway/static/js/i18n.js) names every card function of every
    registered ruleset's deck and every character and skill of docs/notation.md, with the
    printed Chinese names (the page learns Chinese names from the gateway too; the English
    ones are the dictionary's)."""
    root = Path(__file__).resolve().parents[2]
    source = (root / "gateway" / "static" / "js" / "i18n.js").read_text(encoding="utf-8")
    names = dict(re.findall(r'^\s*([a-z_]+): \["([^"]+)", "[^"]+"\]', source, flags=re.MULTILINE))
    notation = (root / "docs" / "notation.md").read_text(encoding="utf-8")
    cjk = "[\u4e00-\u9fff]+"
    rows = re.findall(rf"^\| ([a-z_]+) ({cjk}) \| ((?:[a-z_]+ {cjk}(?:, )?)+) \|$", notation, flags=re.MULTILINE)
    assert len(rows) >= 25
    for char_id, char_zh, skills in rows:
        assert names.get(char_id) == char_zh, char_id
        for skill_id, skill_zh in re.findall(rf"([a-z_]+) ({cjk})", skills):
            assert names.get(skill_id) == skill_zh, skill_id
    # every card function of every registered ruleset has its printed name and an English one
    for ruleset_id in RULESET_IDS:
        table = get_ruleset(ruleset_id).cards
        for number in table.all_cards:
            assert names.get(table.function[number]) == table.function_zh[number], (ruleset_id, number)
