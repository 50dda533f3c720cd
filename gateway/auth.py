"""Guest and seat tokens, signed with the server secret (stdlib ``hmac``, SHA-256).

A token is ``base64url(json payload) + "." + base64url(HMAC-SHA256(secret, payload))``.
It is verified without any lookup, so every gateway replica sharing the secret accepts it.

- A *player* token (``typ = "player"``) names a guest account: ``pid`` and ``name``.
- A *seat* token (``typ = "seat"``) binds one seat of one match: ``mid``, ``seat`` and the
  ``pid`` of the player who claimed it. Every per-seat route takes the seat from the token
  only, so a token for one seat can never act or see for another.

``itsdangerous`` is not a dependency of the project, so the few lines it would save are
written here with :mod:`hmac` and :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any


class TokenError(Exception):
    """A token is missing, malformed, forged or of the wrong kind (HTTP 401)."""


@dataclass(frozen=True)
class Player:
    """A guest account, as named by a player token."""

    pid: str
    name: str


@dataclass(frozen=True)
class SeatGrant:
    """The right to see and act for one seat of one match, as named by a seat token."""

    match_id: str
    seat: int
    pid: str
    name: str


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Signs and verifies the gateway's tokens with one server secret."""

    def __init__(self, secret: str) -> None:
        if not secret:
            raise ValueError("the gateway secret must not be empty")
        self._key = hashlib.sha256(b"fengsheng-gateway:" + secret.encode("utf-8")).digest()

    def _sign(self, payload: dict[str, Any]) -> str:
        body = _b64encode(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode("utf-8"))
        mac = hmac.new(self._key, body.encode("ascii"), hashlib.sha256).digest()
        return f"{body}.{_b64encode(mac)}"

    def _verify(self, token: str, typ: str) -> dict[str, Any]:
        try:
            body, mac_text = token.split(".", 1)
            mac = _b64decode(mac_text)
            expected = hmac.new(self._key, body.encode("ascii"), hashlib.sha256).digest()
        except ValueError as exc:  # binascii.Error and UnicodeError are ValueErrors
            raise TokenError("malformed token") from exc
        if not hmac.compare_digest(mac, expected):
            raise TokenError("bad token signature")
        try:
            payload = json.loads(_b64decode(body))
        except ValueError as exc:
            raise TokenError("malformed token") from exc
        if not isinstance(payload, dict) or payload.get("typ") != typ:
            raise TokenError(f"not a {typ} token")
        return payload

    def new_player(self, name: str) -> tuple[Player, str]:
        """Create a guest account (a fresh id) and its token."""
        player = Player(pid="g_" + secrets.token_hex(8), name=name)
        token = self._sign({"typ": "player", "pid": player.pid, "name": name, "iat": int(time.time())})
        return player, token

    def player(self, token: str) -> Player:
        payload = self._verify(token, "player")
        return Player(pid=str(payload["pid"]), name=str(payload["name"]))

    def new_seat(self, match_id: str, seat: int, player: Player) -> str:
        return self._sign({"typ": "seat", "mid": match_id, "seat": seat, "pid": player.pid, "name": player.name})

    def seat(self, token: str) -> SeatGrant:
        payload = self._verify(token, "seat")
        try:
            return SeatGrant(
                match_id=str(payload["mid"]),
                seat=int(payload["seat"]),
                pid=str(payload["pid"]),
                name=str(payload["name"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TokenError("malformed token") from exc
