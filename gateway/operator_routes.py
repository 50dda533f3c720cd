"""Operator pages of the gateway: the ranked collusion audit (docs/ranked.md, "The collusion
audit"; issue 26 point 3).

Only operators: every route needs ``Authorization: Bearer <operator token>``, the token of
``FENGSHENG_OPERATOR_TOKEN`` (or the 0600 file of ``FENGSHENG_OPERATOR_TOKEN_FILE``; never a
command line, services/config.py). No token or a wrong one: 401 (player, seat and bot tokens
are wrong ones); no operator token configured: 403 for everyone. Never a ``?token=``
query (it would end up in access logs and browser history).

- ``GET /api/ops/audit`` the audit as JSON (``RankedService.Audit``);
- ``GET /ops/audit`` the same as an HTML table, for a browser that sends the header (e.g.
  through a header-adding proxy or extension) or ``curl``.
"""

from __future__ import annotations

import hmac
import html
import json
from typing import Any, cast

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse

from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
from gateway import errors
from gateway.ranked_routes import _settings_checked
from services.channels import engine_aio_channel

TAGS: list[str | Any] = ["operators"]


def check_operator(headers: Any, token: str) -> None:
    """401 unless the request carries the operator token; 403 when none is configured."""
    if not token:
        raise errors.forbidden("no operator token is configured on this gateway (FENGSHENG_OPERATOR_TOKEN)")
    auth = str(headers.get("authorization", ""))
    given = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    if not given or not hmac.compare_digest(given.encode(), token.encode()):
        raise errors.ApiError(401, "unauthenticated", "operators only: send `Authorization: Bearer <operator token>`",
                              headers={"www-authenticate": "Bearer"})  # fmt: skip


def install_operator(app: FastAPI, engine_address: str, token: str) -> None:
    """Add the operator routes; ``token`` is the operator token (``""``: the routes answer 403)."""
    stubs: dict[str, Any] = {}

    def ranked() -> bs_grpc.RankedServiceStub:
        if "ranked" not in stubs:  # made inside the event loop (grpc.aio); sends the service credential
            stubs["ranked"] = bs_grpc.RankedServiceStub(engine_aio_channel(engine_address))
        return cast("bs_grpc.RankedServiceStub", stubs["ranked"])

    async def audit(request: Request, ruleset: str, matches: int, everyone: bool, limit: int,
                    z: float) -> dict[str, Any]:  # fmt: skip
        check_operator(request.headers, token)
        request_pb = bs.AuditRequest(ruleset=ruleset, matches=matches, all=everyone, limit=limit, z=z)
        reply = await _settings_checked(ranked().Audit(request_pb))  # an unknown ruleset: 422
        return cast("dict[str, Any]", json.loads(reply.json))

    @app.get("/api/ops/audit", tags=TAGS)
    async def audit_json(
        request: Request,
        ruleset: str = Query("", max_length=32, pattern=r"^([a-z][a-z0-9_]*)?$"),
        matches: int = Query(0, ge=0),
        all: bool = False,
        limit: int = Query(100, ge=1, le=1000),
        z: float = Query(0.0, ge=0.0, le=100.0),
    ) -> dict[str, Any]:
        """The collusion audit (operators only: `Authorization: Bearer <operator token>`):
        flagged pairs (`all=true`: every pair seated together) with each signal's evidence."""
        return await audit(request, ruleset, matches, all, limit, z)

    @app.get("/ops/audit", tags=TAGS, response_class=HTMLResponse)
    async def audit_page(
        request: Request,
        ruleset: str = Query("", max_length=32, pattern=r"^([a-z][a-z0-9_]*)?$"),
        all: bool = False,
    ) -> HTMLResponse:
        """The collusion audit as a page (operators only, like `/api/ops/audit`)."""
        body = await audit(request, ruleset, 0, all, 200, 0.0)
        return HTMLResponse(page(body), headers={"cache-control": "no-store"})


def _cell(sig: dict[str, Any]) -> str:
    few = "" if sig["counted"] else " <small>(too few)</small>"
    return (f"{sig['observed']:g} vs {sig['expected']:.1f} (n {sig['count']})<br>"
            f"z {sig['z']:.1f}, p {sig['p']:.2g}{few}")  # fmt: skip


def page(body: dict[str, Any]) -> str:
    """The audit report as an HTML page (every account name escaped)."""
    th = body["thresholds"]
    rows = "".join(
        f"<tr><td><bdi>{html.escape(r['a'])}</bdi><br><bdi>{html.escape(r['b'])}</bdi></td>"
        f"<td>{html.escape(', '.join(r['flags']) or '-')}</td><td>{_cell(r['seated'])}</td>"
        f"<td>{_cell(r['coqueue'])}</td><td>{_cell(r['soft'])}</td><td>{r['lethal']}</td></tr>"
        for r in body["rows"]
    )
    empty = "" if body["rows"] else "<p>No pair above the threshold.</p>"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ranked audit · fengsheng</title>
<style>body{{font-family:sans-serif;margin:2em}}td,th{{border:1px solid #ccc;padding:.3em .6em;vertical-align:top}}
table{{border-collapse:collapse}}</style></head><body>
<h1>Ranked collusion audit</h1>
<p>{body["matches"]} rated matches ({body["without_soft_play"]} without soft-play facts), {body["pairs"]} pairs
seated together, <strong>{body["flagged"]} flagged</strong> (a signal at z &ge; {th["z"]:g}; joins within
{th["close_s"]:g} s count as together). Definitions: docs/ranked.md, "The collusion audit".</p>
{empty}<table><thead><tr><th>pair</th><th>flags</th><th>seated together</th><th>joins together</th>
<th>soft play (intel score)</th><th>lethal</th></tr></thead><tbody>{rows}</tbody></table>
</body></html>
"""
