"""Settings read from the environment (one place), with the CLI flags overriding them.

=================================  ============================================  ==========
variable                           meaning                                       default
=================================  ============================================  ==========
``FENGSHENG_REDIS_URL``            Redis for every role below not given its own  ``redis://127.0.0.1:6379/0``
                                   URL (may carry a password; or ``..._FILE``)
``FENGSHENG_MATCH_REDIS_URL``      engines: the match store; may be a cluster    ``FENGSHENG_REDIS_URL``
                                   (``redis+cluster://``; or ``..._FILE``)
``FENGSHENG_BROKER_URL``           engines, workers: the Celery broker (one node) ``FENGSHENG_REDIS_URL``
``FENGSHENG_RANKED_REDIS_URL``     engines, workers: bot accounts, ranked and     ``FENGSHENG_REDIS_URL``
                                   casual tables, ladder; may be a cluster
``FENGSHENG_GATEWAY_REDIS_URL``    gateways: seat table, chat, rate-limit buckets ``FENGSHENG_REDIS_URL``
                                   (may be a cluster)
``FENGSHENG_REDIS_PASSWORD``       Redis password, added to a URL without one     none
                                   (or ``FENGSHENG_REDIS_PASSWORD_FILE``)
``FENGSHENG_SECRET``               gateway: the secret signing the seat tokens   random per run
                                   (or ``FENGSHENG_SECRET_FILE``)
``FENGSHENG_OPERATOR_TOKEN``       gateway: the operator pages' bearer token      none: the pages
                                   (at least 32 characters; or ``..._FILE``)      answer 403
``FENGSHENG_ENGINE_ADDR``          engine gRPC address the workers call          ``127.0.0.1:50051``
``FENGSHENG_VISIBILITY_TIMEOUT_MS`` ms before an unacked task is redelivered   ``120000``
``FENGSHENG_RESTORE_INTERVAL_MS``  ms between sweeps for unacked tasks           ``10000``
``FENGSHENG_TASK_ROUTES``          ``1``: route tasks to per-kind queues          off
                                   (bots, timers, matchmaking, ladder)
``FENGSHENG_WORKER_METRICS_PORT``  a worker serves Prometheus ``/metrics`` here  off
``FENGSHENG_METRICS_HOST``         interface of the worker's ``/metrics``        ``127.0.0.1``
``FENGSHENG_GROUP_COMMIT_MS``      engine: longest wait to share an action write  ``0.5``
                                   with others (0 = off; services/engine/redis_pipe.py)
``FENGSHENG_ANSWER_WINDOW_MS``     engines: the answer window of a person's       ``1000``
                                   decision: no answer of the seat, nor its
                                   auto-pass, is applied sooner (0–5000 ms),
                                   plus a uniform jitter of up to
                                   ``FENGSHENG_ANSWER_WINDOW_JITTER_MS``
                                   (default 250; see
                                   services/engine/answer_window.py)
``FENGSHENG_AUTO_PASS``            engines: ``0`` = answer no person's            ``1``
                                   single-action decision (pass-only or forced;
                                   each seat can turn it off itself)
``FENGSHENG_MM_ADDRESS_WINDOW_MS`` engines, workers: accounts seen from one      ``86400000``
                                   client address within this many milliseconds
                                   never share a rated table (0 = the address rule
                                   off; docs/ranked.md, "What a rated table forbids")
=================================  ============================================  ==========

Secrets (the token secret, the Redis password, the service credential, the operator token)
come from the environment or from a file named by ``NAME_FILE`` that only its owner may read
(0600), never from a command line: any local user reads another process's argv in ``/proc/PID/cmdline``.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit, urlunsplit

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_ENGINE_ADDR = "127.0.0.1:50051"


class SecretError(ValueError):
    """A secret is configured in a way that would leak it (an open file, a command line)."""


def read_secret_file(path: str) -> str:
    """The secret held in ``path`` (surrounding whitespace stripped). Refused unless only its
    owner may read it: a secret other local users can read is no secret."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise SecretError(f"cannot read the secret file {path}: {exc.strerror}") from exc
    with os.fdopen(fd, encoding="utf-8") as fh:
        mode = os.fstat(fh.fileno()).st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise SecretError(
                f"the secret file {path} is open to other users (mode {stat.S_IMODE(mode):03o}); chmod 600 {path}"
            )
        return fh.read().strip()


def secret(name: str) -> str:
    """The secret named ``name``: ``$NAME`` if set, else the contents of the 0600 file named by
    ``$NAME_FILE``, else ``""``."""
    value = os.environ.get(name)
    if value:
        return value
    path = os.environ.get(f"{name}_FILE")
    return read_secret_file(path) if path else ""


def write_secret_file(path: str | os.PathLike[str], value: str) -> None:
    """Write ``value`` to ``path`` readable by its owner only (0600 from the first byte)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        os.fchmod(fh.fileno(), 0o600)
        fh.write(value + "\n")


def url_password(url: str) -> str:
    """The password in a Redis URL (``redis://:PW@host:port/db``), or ``""``."""
    return unquote(urlsplit(url).password or "")


def with_password(url: str, password: str) -> str:
    """``url`` carrying ``password`` (unless it carries one already)."""
    parts = urlsplit(url)
    if not password or parts.password:
        return url
    user = quote(unquote(parts.username or ""), safe="")
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    netloc = f"{user}:{quote(password, safe='')}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def redacted(url: str) -> str:
    """``url`` with its password shown as ``***`` (for logs and banners)."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit((parts.scheme, f"{user}:***@{netloc}", parts.path, parts.query, parts.fragment))


def configured_redis_url() -> str | None:
    """The Redis URL from ``FENGSHENG_REDIS_URL`` (or its ``_FILE``) with
    ``FENGSHENG_REDIS_PASSWORD`` (or its ``_FILE``) added when the URL has none; ``None``
    when no URL is configured."""
    url = secret("FENGSHENG_REDIS_URL")
    return with_password(url, secret("FENGSHENG_REDIS_PASSWORD")) if url else None


def redis_url() -> str:
    """:func:`configured_redis_url`, else ``$REDIS_URL``, else ``redis://127.0.0.1:6379/0``
    (with ``FENGSHENG_REDIS_PASSWORD`` added)."""
    url = configured_redis_url() or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    return with_password(url, secret("FENGSHENG_REDIS_PASSWORD"))


#: each Redis role's own variable (with ``_FILE``); unset = the shared ``FENGSHENG_REDIS_URL``
ROLE_VARS = {
    "match": "FENGSHENG_MATCH_REDIS_URL",
    "broker": "FENGSHENG_BROKER_URL",
    "ranked": "FENGSHENG_RANKED_REDIS_URL",
    "gateway": "FENGSHENG_GATEWAY_REDIS_URL",
}
#: the roles that may be a Redis Cluster (``redis+cluster://``): every script and transaction
#: of theirs touches one hash slot. The broker needs one node (kombu has no cluster mode).
CLUSTER_ROLES = ("match", "ranked", "gateway")
_CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")  # services/redis_client.py


class ConfigError(ValueError):
    """A setting that cannot work (a cluster URL for a role that needs one node)."""


def configured_role_url(role: str) -> str | None:
    """The URL given to ``role`` alone (``$FENGSHENG_<ROLE>_REDIS_URL`` or its ``_FILE``;
    :data:`ROLE_VARS`), with ``FENGSHENG_REDIS_PASSWORD`` added when it carries none; ``None``
    when the role has no URL of its own."""
    url = secret(ROLE_VARS[role])
    return with_password(url, secret("FENGSHENG_REDIS_PASSWORD")) if url else None


def check_role_url(role: str, url: str) -> str:
    """``url`` if ``role`` can use it: a cluster URL for any role of :data:`CLUSTER_ROLES`,
    not for the Celery broker (one node: docs/operations.md, *Redis roles*)."""
    if role not in CLUSTER_ROLES and urlsplit(url).scheme in _CLUSTER_SCHEMES:
        own = ROLE_VARS[role]
        raise ConfigError(
            f"the {role} Redis must be one node, not a cluster ({redacted(url)}): give it a redis:// or "
            f"rediss:// URL in {own} (kombu, the Celery broker's transport, has no cluster mode)"
        )
    return url


def role_url(role: str, shared: str | None = None) -> str:
    """The Redis URL of ``role`` (``match``, ``broker``, ``ranked``, ``gateway``): its own
    variable, else ``shared`` (a command's ``--redis-url``), else :func:`redis_url`.
    Raises :class:`ConfigError` for a cluster URL where one node is needed."""
    url = configured_role_url(role) or (with_password(shared, secret("FENGSHENG_REDIS_PASSWORD")) if shared else "")
    return check_role_url(role, url or redis_url())


@dataclass(frozen=True)
class RedisUrls:
    """Every Redis role's URL (passwords included: never print them, see :func:`redacted`)."""

    match: str
    broker: str
    ranked: str
    gateway: str

    @classmethod
    def from_env(cls, shared: str | None = None) -> RedisUrls:
        """Each role's own variable, else ``shared``, else ``FENGSHENG_REDIS_URL``."""
        return cls(**{role: role_url(role, shared) for role in ROLE_VARS})


def token_secret() -> str:
    """The secret signing the seat tokens: ``FENGSHENG_SECRET`` or ``FENGSHENG_SECRET_FILE``."""
    return secret("FENGSHENG_SECRET")


#: the shortest operator token accepted (a guessable one would open the operators' pages)
OPERATOR_TOKEN_MIN = 32


def operator_token() -> str:
    """The gateway operators' bearer token (the ranked audit page): ``FENGSHENG_OPERATOR_TOKEN``
    or the 0600 file named by ``FENGSHENG_OPERATOR_TOKEN_FILE``; ``""`` when none is set (the
    operator pages then answer 403 to everyone). A token shorter than
    :data:`OPERATOR_TOKEN_MIN` is refused with :class:`SecretError`."""
    token = secret("FENGSHENG_OPERATOR_TOKEN")
    if token and len(token) < OPERATOR_TOKEN_MIN:
        raise SecretError(
            f"FENGSHENG_OPERATOR_TOKEN is {len(token)} characters; use at least {OPERATOR_TOKEN_MIN} "
            "random ones (python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    return token


def command_line_redis_url(value: str) -> str:
    """A ``--redis-url`` from a command line, ready for use: refused if it carries a password
    (every local user reads ``/proc/PID/cmdline``), else given ``FENGSHENG_REDIS_PASSWORD``."""
    if url_password(value):
        raise SecretError(
            "--redis-url carries a password, which any local user can read on the command line; "
            "pass the URL in FENGSHENG_REDIS_URL (or a 0600 file named by FENGSHENG_REDIS_URL_FILE), "
            "or the password alone in FENGSHENG_REDIS_PASSWORD"
        )
    return with_password(value, secret("FENGSHENG_REDIS_PASSWORD"))


def positive_int(name: str, default: int, what: str = "a whole number") -> int:
    """The whole number ``$NAME`` (``default`` when unset), at least 1; a ``ValueError``
    naming the variable otherwise."""
    raw = os.environ.get(name) or str(default)
    try:
        value = int(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be {what}, not {raw!r}") from exc
    if value < 1:
        raise ValueError(f"{name} must be at least 1")
    return value


def engine_addr() -> str:
    return os.environ.get("FENGSHENG_ENGINE_ADDR") or DEFAULT_ENGINE_ADDR


def visibility_timeout() -> float:
    """Seconds before an unacked task is redelivered (``FENGSHENG_VISIBILITY_TIMEOUT_MS``)."""
    return ms_env("FENGSHENG_VISIBILITY_TIMEOUT_MS", 120_000, was="FENGSHENG_VISIBILITY_TIMEOUT") / 1000


def restore_interval() -> float:
    """Seconds between sweeps for unacked tasks (``FENGSHENG_RESTORE_INTERVAL_MS``)."""
    return ms_env("FENGSHENG_RESTORE_INTERVAL_MS", 10_000, was="FENGSHENG_RESTORE_INTERVAL") / 1000


#: see :func:`group_commit_ms`
DEFAULT_GROUP_COMMIT_MS = 0.5


def group_commit_ms() -> float:
    """How long (ms) the engine may hold an action's write so that the writes of concurrent
    matches go to Redis together. It holds only while writes come closer together than
    that, so a quiet server writes each action at once (services/engine/redis_pipe.py)."""
    raw = os.environ.get("FENGSHENG_GROUP_COMMIT_MS")
    return DEFAULT_GROUP_COMMIT_MS if raw is None or raw == "" else float(raw)


def task_routes() -> bool:
    """Route tasks to per-kind queues (``bots``, ``timers``, ``matchmaking``, ``ladder``)."""
    return (os.environ.get("FENGSHENG_TASK_ROUTES") or "").lower() in ("1", "true", "yes", "on")


#: see :func:`address_window_ms` (one day)
DEFAULT_ADDRESS_WINDOW_MS = 86_400_000


class RenamedSetting(ValueError):
    """An environment variable of an older name is set: every duration is ``*_MS`` now."""


def ms_env(name: str, default_ms: float, *, was: str = "") -> float:
    """A duration setting ``name`` in milliseconds (finite, >= 0; ``default_ms`` when unset
    or empty); ``ValueError`` naming it for a bad value. ``was``: the variable's older name in
    seconds: set, it is refused (:class:`RenamedSetting`) rather than silently ignored."""
    if was and os.environ.get(was, "").strip():
        raise RenamedSetting(f"{was} is no longer read: durations are milliseconds; set {name} instead "
                             f"({was}={os.environ[was]!r} would be {name}={_ms_of(os.environ[was])})")  # fmt: skip
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return float(default_ms)
    try:
        value = float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be milliseconds, not {raw!r}") from exc
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{name} must be a finite number of milliseconds >= 0, not {raw!r}")
    return value


def _ms_of(seconds: str) -> str:
    try:
        return f"{float(seconds) * 1000:g}"
    except ValueError:
        return "?"


def address_window_ms() -> float:
    """How long (ms) one client address ties accounts together for rated play: two
    accounts seen from the same address (at queue time, or a bot's stream opening) within
    this window, or queued from it now, never share a rated table; each account's addresses
    are kept this long, no longer. ``0`` turns the address rule off (the owner rule stays).
    ``FENGSHENG_MM_ADDRESS_WINDOW_MS``; ``ValueError`` naming it for a bad value."""
    return ms_env("FENGSHENG_MM_ADDRESS_WINDOW_MS", DEFAULT_ADDRESS_WINDOW_MS, was="FENGSHENG_MM_ADDRESS_WINDOW_S")
