"""Names cannot reorder the text around them (issue 26 §5), in a real headless Chromium.

The server refuses bidi controls in names now (fengsheng/display_text.py), so the client is
the second wall: a name from anywhere (an old token, a future path) is shown in a ``<bdi>``.
The page renders a chat line and a seat label whose name starts with U+202E RIGHT-TO-LEFT
OVERRIDE (the chat answer is stubbed in the browser), and the test measures where the text
after the name is drawn: to the right of the name, in reading order. Unisolated, the
override turned the rest of the line around (``2 · live: hello`` drawn as ``2 · olleh :live``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

RLO_NAME = "\u202eevil"
MATCH = "rk-rlo-probe"


def _chat(channel: str) -> dict[str, Any]:
    seat, mid = (2, 1) if channel == "table" else (-1, 2)
    line = {"id": mid, "channel": channel, "seat": seat, "pid": f"g_{channel}", "name": RLO_NAME,
            "text": "hello", "phrase": "", "at": 0}  # fmt: skip
    return {"match_id": MATCH, "channel": channel, "over": True, "messages": [line]}


@pytest.fixture()
def page(browser: Any, base_url: str) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("localStorage.setItem('fs.lang', 'en');")
    page = ctx.new_page()

    def stub_chat(route: Any) -> None:
        channel = "spectators" if "channel=spectators" in route.request.url else "table"
        route.fulfill(status=200, content_type="application/json", body=json.dumps(_chat(channel)))

    page.route(f"**/api/matches/{MATCH}/chat**", stub_chat)
    page.goto(f"{base_url}/#/lobby")
    page.wait_for_selector("#name")
    yield page
    ctx.close()


#: for every probe: the rightmost edge of what comes before the text that follows the name,
#: and the left edge of that text (LTR reading order: the first must not pass the second)
_MEASURE = """async ([name, match]) => {
  const { chatPanel } = await import("/static/js/chat.js");
  const { seatName } = await import("/static/js/render.js");
  const panel = chatPanel({ matchId: match, replay: true });
  document.body.prepend(panel.node);
  const seat = document.createElement("p");
  seat.id = "seat-probe";
  const label = seatName({ player: name, kind: "human", bot: false }, 3);
  const after = document.createElement("span");
  after.textContent = " after";
  seat.append(label, after);
  document.body.prepend(seat);
  for (let i = 0; i < 100 && document.querySelectorAll(".chat-line").length < 2; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const right = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return Math.max(...[...range.getClientRects()].map((r) => r.right));
  };
  const out = {};
  for (const li of document.querySelectorAll(".chat-line")) {
    const who = li.querySelector(".who");
    out[li.dataset.seat === "-1" ? "spectator" : "table"] = {
      before: right(who),
      after: li.querySelector(".said").getBoundingClientRect().left,
      isolated: !!who.querySelector("bdi"),
    };
  }
  out.seat = { before: right(seat.firstChild), after: after.getBoundingClientRect().left,
               isolated: !!seat.querySelector("bdi") };
  return out;
}"""


def test_a_right_to_left_override_in_a_name_stays_inside_it(page: Any) -> None:
    found = page.evaluate(_MEASURE, [RLO_NAME, MATCH])
    assert set(found) == {"table", "spectator", "seat"}, found
    for where, probe in found.items():
        assert probe["before"] <= probe["after"] + 0.5, f"{where}: the text after the name moved before it: {found}"
        assert probe["isolated"], f"{where}: the name is not in a <bdi>: {found}"
