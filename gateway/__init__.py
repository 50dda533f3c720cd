"""The HTTP + WebSocket gateway: guests, seat tokens, REST and WebSockets over the engine's gRPC API.

It never imports :mod:`engine`; every game question goes to the engine service over gRPC.
"""

from __future__ import annotations

from gateway.app import create_app

__all__ = ["create_app"]
