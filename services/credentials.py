"""The platform's service credential: what the gateway, the workers and the CLI hold and a
bot, a browser or a spectator never does.

The engine server's internal listener (``EngineService``, ``RankedService``) answers only
calls that carry it in the metadata key :data:`METADATA_KEY` (docs/protocol.md); a call
without it, or with anything else (a bot token, a guess), is refused ``UNAUTHENTICATED``
before any game code runs (:class:`services.grpc_guard.RequireServiceToken`).

Where it comes from, in this order (never from a command line, where ``ps`` would show it
to every local user):

1. ``FENGSHENG_SERVICE_TOKEN``: the credential itself;
2. ``FENGSHENG_SERVICE_TOKEN_FILE``: a file holding it (surrounding whitespace ignored),
   readable by its owner only (mode ``0600`` or stricter; a file others can read is refused).

An engine server with neither refuses to start (fail closed): there is no "open" mode.
"""

from __future__ import annotations

import hmac
import os

ENV = "FENGSHENG_SERVICE_TOKEN"
ENV_FILE = "FENGSHENG_SERVICE_TOKEN_FILE"
#: the gRPC metadata key that carries the credential (lower case, as gRPC requires)
METADATA_KEY = "fs-service-token"
#: a shorter credential is refused: it could be guessed (``secrets.token_urlsafe(32)`` is 43)
MIN_LENGTH = 16


class CredentialError(RuntimeError):
    """The service credential is missing or unusable; the message says how to fix it."""


def _checked(value: str, where: str) -> str:
    token = value.strip()
    if len(token) < MIN_LENGTH:
        raise CredentialError(
            f"the service credential in {where} is {len(token)} characters; it needs at least {MIN_LENGTH} "
            "(make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    if not token.isascii() or not token.isprintable() or any(c.isspace() for c in token):
        raise CredentialError(f"the service credential in {where} must be printable ASCII without spaces")
    return token


def service_token() -> str:
    """The platform's service credential; :class:`CredentialError` when none is configured
    (or it is unusable), with a message naming the variables to set."""
    from services.config import SecretError, secret

    try:
        value = secret(ENV)  # $ENV, else the 0600 file named by $ENV_FILE
    except SecretError as exc:
        raise CredentialError(f"{ENV_FILE}: {exc}") from exc
    if value.strip():
        return _checked(value, f"${ENV_FILE}" if not os.environ.get(ENV) else f"${ENV}")
    raise CredentialError(
        f"no service credential configured: set {ENV} (the credential) or {ENV_FILE} "
        "(a 0600 file holding it); the engine, the gateway and the workers must share the same one"
    )


def optional_service_token() -> str | None:
    """:func:`service_token`, or ``None`` when none is configured (a health probe needs none).
    A configured but unusable credential still raises."""
    if not os.environ.get(ENV, "").strip() and not os.environ.get(ENV_FILE, "").strip():
        return None
    return service_token()


def same_token(presented: str | bytes, expected: bytes) -> bool:
    """Whether ``presented`` is the credential, compared in constant time (the time taken
    does not tell a guesser how many leading characters were right)."""
    raw = presented.encode("utf-8", "replace") if isinstance(presented, str) else presented
    return hmac.compare_digest(raw, expected)


def ensure_service_token() -> str:
    """The configured credential or, when none is, a fresh random one put in this process's
    environment so that the children it starts share it. For one process that starts a
    whole platform on this machine (the benchmarks); a deployment configures its own."""
    token = optional_service_token()
    if token is None:
        import secrets

        token = secrets.token_urlsafe(32)
        os.environ[ENV] = token
    return token
