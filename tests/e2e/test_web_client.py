"""The web client in a real headless Chromium (issue 6, acceptance 1-3).

1. From the lobby, create a match against 4 bots and play the human seat by clicking only
   (any enabled legal-action button each time) to the end; the result screen shows the
   winners, the reason and every identity.
2. A spectator page in a second browser context never shows a hidden card: neither in its
   DOM (no hand, no face-down intel, no card that is in some hand) nor in the WebSocket
   frames and REST answers it receives.
3. Screenshots of the table at desktop (1280x800) and phone (390x844) widths are saved
   under test-output/screenshots/.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from helpers.processes import ServiceProcess
from helpers.web_lobby import click_until_result

from engine.rulesets import RULESET_IDS
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from services.channels import engine_channel

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: every answer of the page waits this long after its prompt (docs/web-client.md); short here
HOLD_MS = 60


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(f"localStorage.setItem('fs.hold_ms', '{HOLD_MS}'); localStorage.setItem('fs.lang', 'zh');")
    yield ctx
    ctx.close()


@pytest.fixture(scope="module")
def stub(engine: ServiceProcess) -> Iterator[es_grpc.EngineServiceStub]:
    with engine_channel(engine.address) as channel:
        yield es_grpc.EngineServiceStub(channel)


def _watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    return errors


def test_play_a_match_against_four_bots_by_clicking(context: Any, base_url: str, screenshots: Path) -> None:
    page = context.new_page()
    errors = _watch_errors(page)
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#play-now")
    page.fill("#name", "e2e")
    page.select_option("#players", "5")
    page.select_option("#bot", "heuristic")
    page.check("#characters")
    page.fill("#bot-delay", "0.05")
    page.fill("#turn-timeout", "300")
    page.screenshot(path=str(screenshots / "lobby-desktop.png"))
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    page.click("#play-now")
    page.wait_for_selector("#table.player")
    assert re.search(r"#/table/[0-9a-f]+$", page.url)
    page.wait_for_selector("#my-identity")
    # auto-pass, on by default: decisions whose only legal action is pass are answered by the
    # engine (or, when its auto-pass is off as in these tests' engines, by the page)
    assert page.is_checked("#autopass")
    page.wait_for_selector("#actions button.action", timeout=60_000)
    assert re.search(r"\d+s", page.inner_text("#prompt .timer")), "the turn timer is shown"

    selections = 0
    shots = False

    def before_click(actions: list[str], clicks: int) -> bool:
        nonlocal selections, shots
        # select a hand card first now and then: the actions using it are highlighted
        if clicks % 5 == 2 and page.query_selector("#hand button.card"):
            with contextlib.suppress(Exception):  # the hand may change under the click
                page.locator("#hand button.card").first.click(timeout=1000)
                if page.query_selector("#hand button.card.selected"):
                    selections += 1
        if clicks >= 6 and not shots and len(actions) >= 2 and page.query_selector(".seat .intel-row .card"):
            _table_screenshots(page, screenshots, "table")  # the table with an open prompt
            shots = True
            return True  # the screenshots took time: read the prompt again
        return False

    clicks = click_until_result(page, random.Random(6), deadline_s=150, before_click=before_click, pause_ms=30)

    assert clicks > 0
    assert selections > 0, "hand cards were selected now and then"
    answers = [m for m in sent if "action" in m]
    auto = [m for m in answers if m["action"] == "pass"]
    assert len(answers) > clicks and auto, (len(answers), clicks)  # some answers were auto-passes
    if not shots:
        _table_screenshots(page, screenshots, "table")
    result = page.locator("#result")
    result.wait_for()
    page.wait_for_function("document.querySelectorAll('#result table.reveal tr').length >= 6")
    text = result.inner_text()
    assert "胜者" in text and "原因" in text
    reason = page.inner_text("#result .reason")
    assert not re.search(r"[A-Za-z]{3,}", reason), f"the reason is not in Chinese: {reason}"
    identities = page.eval_on_selector_all("#result table.reveal .identity", "els => els.map(e => e.textContent)")
    assert len(identities) == 5
    assert all(i in ("军情", "潜伏", "特工") for i in identities), identities
    # after the game the board is the final state only (issue 16 §6): no chain left over, and
    # every seat's character named as the result table names it
    assert page.query_selector("#chain li") is None and page.query_selector("#transit .card") is None
    page.wait_for_function("!document.querySelector('#seats').innerText.includes('角色背面')")
    board = page.eval_on_selector_all("#seats .seat .char", "els => els.map(e => e.dataset.character)")
    assert all(board), board
    # cards in the log by name and colour, not bare numbers (issue 16 §1): "0 draws 11 5"
    named = page.eval_on_selector_all("#log .cardname, #notices .cardname", "els => els.map(e => e.textContent)")
    assert named and all(re.fullmatch(r"[\u4e00-\u9fff]+#\d+", n) for n in named), named[:10]
    assert not re.search(r"draws( \d+)+$", page.inner_text("#notices"), re.M), "a draw listed bare numbers"
    # your character card: its skills and its secret mission, in Chinese (issue 16 §3)
    mission = page.inner_text("#my-mission")
    assert mission.startswith("机密任务") and not re.search(r"[A-Za-z]{3,}", mission), mission
    assert page.inner_text("#my-character .skills").startswith("技能")
    _table_screenshots(page, screenshots, "result", full_page=True)

    # English names with the toggle
    page.click("#lang")
    page.wait_for_selector("#result")
    page.wait_for_function(
        "document.querySelector('#result') && /Winners/.test(document.querySelector('#result').innerText)"
    )
    assert re.search(r"Military|Latent|Agent", page.locator("#result").inner_text())

    # the replay viewer, from the result screen, everything revealed
    page.locator("#result a[href^='#/replay/']").click()
    page.wait_for_selector("#replay .seat")
    page.click("#replay-prev")
    page.fill("#replay-step", "40")
    page.dispatch_event("#replay-step", "input")
    assert "40/" in page.inner_text("#step-label")
    # everything revealed after the game: at step 40 other seats' hands show too (not checked at
    # the last step, where every living seat may have played out its hand)
    page.wait_for_function("document.querySelectorAll('#replay .seat-hand').length >= 2")
    _table_screenshots(page, screenshots, "replay")
    page.select_option("#replay-view", "0")
    page.wait_for_function("document.querySelectorAll('#replay .seat-hand').length <= 1")
    assert not errors, errors


def _table_screenshots(page: Any, screenshots: Path, name: str, *, full_page: bool = False) -> None:
    page.screenshot(path=str(screenshots / f"{name}-desktop.png"), full_page=full_page)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    page.screenshot(path=str(screenshots / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(50)


def _hidden_now(stub: es_grpc.EngineServiceStub, match_id: str, players: int) -> tuple[set[int], bool]:
    """Every card in some hand or face down in transit or in the chain, and whether the game is over."""
    spectator = stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=-1))
    hidden: set[int] = set()
    for seat in range(players):
        view = stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=seat))
        hidden.update(view.seats[seat].hand)
        if view.has_transit and view.transit.card and not spectator.transit.card:
            hidden.add(view.transit.card)
        for i, item in enumerate(view.chain):
            if item.card and i < len(spectator.chain) and not spectator.chain[i].card:
                hidden.add(item.card)
    return hidden, spectator.outcome.over


def _cards_on_page(page: Any) -> set[int]:
    """Card numbers the page shows: card tiles (`data-card`) and any `#N` in the board."""
    tiles = page.eval_on_selector_all("#table [data-card]", "els => els.map(e => e.dataset.card)")
    text = page.inner_text("#table .board") + page.inner_text("#table .center")
    return {int(n) for n in tiles} | {int(n) for n in re.findall(r"#(\d+)", text)}


def _check_public_observation(obs: dict[str, Any], where: str) -> None:
    for seat in obs["seats"]:
        assert seat["hand"] == [], f"{where}: seat {seat['seat']} hand {seat['hand']}"
        assert seat["character_options"] == [], where
        # 致命香水's 绝密任务 character is revealed to everyone at her death or victory (rulebook p.12)
        assert not seat["secret_character"] or not seat["alive"] or obs["outcome"]["over"], where
        if not seat["identity_revealed"]:
            assert seat["identity"] == "IDENTITY_UNSPECIFIED", f"{where}: seat {seat['seat']} identity"
    if obs.get("has_transit") and not obs["transit"]["face_up"]:
        assert obs["transit"]["card"] == 0, f"{where}: face-down transit card {obs['transit']['card']}"
    assert obs["legal_actions"] == [], where


def test_spectator_sees_no_hidden_card(
    browser: Any, base_url: str, stub: es_grpc.EngineServiceStub, screenshots: Path
) -> None:
    created = httpx.post(
        f"{base_url}/api/matches",
        json={"players": 5, "humans": 0, "bot": "heuristic", "characters": True, "bot_delay_ms": 50},
        timeout=10,
    ).json()
    match_id = created["match_id"]
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors = _watch_errors(page)
    frames: list[dict[str, Any]] = []
    sockets: list[str] = []
    answers: list[tuple[str, Any]] = []

    def on_socket(ws: Any) -> None:
        sockets.append(ws.url)
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    def on_response(response: Any) -> None:
        if "/api/" in response.url and response.request.method == "GET":
            with contextlib.suppress(Exception):
                answers.append((response.url, response.json()))

    page.on("websocket", on_socket)
    page.on("response", on_response)
    page.goto(f"{base_url}/#/spectate/{match_id}")
    page.wait_for_selector("#table.spectator .seat")

    checks = 0
    shot = False
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        before, over = _hidden_now(stub, match_id, 5)
        shown = _cards_on_page(page)
        after, _ = _hidden_now(stub, match_id, 5)
        suspects = shown & before & after
        if suspects:
            # The page draws the state of a moment ago: a card that was public then (an intel
            # taken into a hand by 搜取, say) may still be drawn. A leak stays on the page
            # while the card stays hidden; a late drawing goes with the next refresh.
            page.wait_for_timeout(1500)
            hidden, _ = _hidden_now(stub, match_id, 5)
            leaked = suspects & hidden & _cards_on_page(page)
            assert not leaked, f"spectator page shows hidden cards {sorted(leaked)}"
        assert page.query_selector("#table .seat-hand") is None
        assert page.query_selector("#hand") is None and page.query_selector("#actions") is None
        checks += 1
        if not shot and page.query_selector("#table .seat .intel-row .card"):
            _table_screenshots(page, screenshots, "spectator")
            shot = True
        if over:
            break
        page.wait_for_timeout(150)
    assert checks >= 5, "the match ended before the spectator page was checked a few times"
    page.wait_for_selector("#result", timeout=20_000)

    # what the page received: only the spectator socket, public events and views
    assert sockets and all(urlsplit(url).path == f"/ws/matches/{match_id}/spectate" for url in sockets), sockets
    assert frames, "no WebSocket frame received"
    kinds = {f["type"] for f in frames}
    assert "prompt" not in kinds and "result" not in kinds, kinds
    for frame in frames:
        if frame["type"] == "observation":
            _check_public_observation(frame["observation"], "ws observation")
        if frame["type"] == "event":
            audience = frame["event"]["audience"]
            assert not audience or -1 in audience, f"private event sent to a spectator: {frame['event']}"
    for url, body in answers:
        assert "/observation" not in url and "/legal-actions" not in url, url
        if isinstance(body, dict) and "observation" in body and url.endswith(match_id):
            _check_public_observation(body["observation"], url)
    assert not errors, errors
    ctx.close()


def test_ranked_queue_match_and_profile(context: Any, base_url: str, screenshots: Path, proc_logs: Path) -> None:
    """Queue from the lobby, get matched (house bots fill the seats), play by clicking, then
    find the rated match in the profile and the player on the leaderboard."""
    page = context.new_page()
    errors = _watch_errors(page)
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#ranked-join")
    page.fill("#name", "ranked-e2e")
    page.select_option("#ranked-min", "3")
    page.select_option("#ranked-max", "3")
    page.click("#ranked-join")
    page.wait_for_function("/queued|排队中|matched|已匹配/.test(document.querySelector('#ranked-status').innerText)")
    page.wait_for_selector("#table.player", timeout=30_000)
    match_id = page.url.rsplit("/", 1)[1]
    assert match_id.startswith("rk-")
    page.wait_for_selector("#prompt .timer", timeout=30_000)  # ranked matches have a turn timer
    assert "机器人" in page.inner_text("#seats")  # house bots, labelled
    click_until_result(page, random.Random(5), deadline_s=90, pause_ms=30, what="the ranked match")
    page.wait_for_selector("#result table.reveal")

    guest = page.evaluate("JSON.parse(localStorage.getItem('fs.guest'))")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the ladder task rates the match once it is over
        page.goto(f"{base_url}/#/profile")
        page.wait_for_selector("#profile")
        page.wait_for_timeout(500)
        if match_id in page.inner_text("#ranked-history"):
            break
        page.wait_for_timeout(1000)
    else:  # say what the worker did with the match and what the page met, to tell load from a bug
        found = [line.strip() for log in proc_logs.glob("worker-*.log") for line in log.read_text().splitlines()
                 if match_id in line][-8:]  # fmt: skip
        shown = page.query_selector("#ranked-history")
        history = shown.inner_text()[:300] if shown else None
        pytest.fail(f"the rated match never appeared in the profile: {history=!r} page errors {errors[-5:]} "
                    f"worker log {found}")  # fmt: skip
    assert "μ" in page.inner_text("#rating")
    assert page.input_value("#profile-ruleset") == "return"  # the rating and history of one ruleset
    page.screenshot(path=str(screenshots / "profile-desktop.png"))
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_function(f"document.querySelector('#leaderboard')?.innerText.includes({json.dumps(guest['name'])})")
    # each ruleset has its own leaderboard: the select lists the server's rulesets
    options = page.eval_on_selector_all("#board-ruleset option", "els => els.map((e) => e.value)")
    assert options == list(RULESET_IDS) and page.input_value("#board-ruleset") == "return"
    link = page.get_attribute(f"#leaderboard a:has-text({json.dumps(guest['name'])})", "href")
    assert link is not None and "ruleset=return" in link
    page.screenshot(path=str(screenshots / "lobby-ranked-desktop.png"), full_page=True)
    assert not errors, errors
