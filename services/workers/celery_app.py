"""The Celery app (Redis broker) that runs bot moves and turn timers.

Tasks live in :mod:`services.workers.tasks` under the names ``bots.move`` and ``timers.expire``;
the engine service sends them by name (:class:`services.engine.scheduler.CeleryScheduler`).
Delivery is at least once: ``acks_late`` + ``reject_on_worker_lost`` mean a task whose
worker dies is redelivered (after the broker's visibility timeout), and every task is
idempotent by decision number, so a second delivery is a no-op. No result backend: no
task waits on another.

Redis restarts (docs/operations.md, "Redis restarts"): the worker reconnects to the broker
forever (``broker_connection_max_retries=None``, also at startup), notices a dead broker
connection within seconds (``health_check_interval``, TCP keepalive, connect timeout) and, on
a lost connection, cancels its late-ack tasks rather than acknowledging them on a connection
that no longer holds them: their messages come back after the visibility timeout and, the
tasks being idempotent, run again harmlessly. See :func:`broker_options`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, cast

import redis.exceptions
from celery import Celery
from celery.signals import worker_ready
from kombu.transport import redis as kombu_redis

from services import config

if TYPE_CHECKING:
    from celery.beat import _Threaded


class _BrokerChannel(kombu_redis.Channel):
    """kombu's Redis channel, made to fail like a lost connection once its connection is
    closed, instead of crashing the worker.

    The crash (``Unrecoverable error: AttributeError("'NoneType' object has no attribute
    'hostname'")``, about one Redis restart in five): when the broker connection drops while
    the consumer's channel waits in ``BRPOP``, Celery's ``on_connection_error_after_connected``
    first ``collect()``s the connection: closing the channel re-reads the ``BRPOP`` reply,
    which raises ``ConnectionError`` before the channel is marked closed, and ``collect`` then
    detaches the transport (``transport.client = None``). Celery next calls
    ``connection.close()``, which closes that channel again; this time it gets as far as
    giving back its unacknowledged messages, which needs a new Redis pool, whose settings are
    read from ``transport.client.hostname``: ``AttributeError``, which Celery does not expect
    and which ends the worker. Raising ``ConnectionError`` there instead is swallowed by the
    same close, the worker reconnects, and the unacknowledged messages, still in Redis's
    ``unacked`` hash, come back after the visibility timeout."""

    def _connparams(self, asynchronous: bool = False) -> dict[str, object]:
        if self.connection.client is None:
            raise redis.exceptions.ConnectionError("the broker connection is closed")
        # kombu's stubs (celery-types) leave out this private method of its Redis Channel
        params: dict[str, object] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        return params


class BrokerTransport(kombu_redis.Transport):
    """kombu's Redis transport with :class:`_BrokerChannel` (``broker_transport``)."""

    Channel = _BrokerChannel


def broker_options() -> dict[str, float | int | bool]:
    """kombu's Redis transport options.

    ``visibility_timeout``: an unacknowledged message (its worker died) comes back after it;
    it is longer than any bot countdown (``MAX_BOT_DELAY_S``), so a move held until its
    ETA is not handed out twice. ``health_check_interval``: a pooled connection idle that
    long is PINGed before use, so the first command after a Redis restart does not fail on a
    dead socket. ``socket_timeout`` exceeds the 1 s ``BRPOP`` the consumer polls with."""
    return {
        "visibility_timeout": config.visibility_timeout(),
        "unacked_restore_interval": config.restore_interval(),
        "unacked_restore_throttle": 1,
        "health_check_interval": 5,
        "socket_connect_timeout": 5,
        "socket_timeout": 10,
        "socket_keepalive": True,
        "retry_on_timeout": True,
    }


def make_app(redis_url: str | None = None) -> Celery:
    """A configured Celery app on ``redis_url`` (default: the broker's URL,
    ``FENGSHENG_BROKER_URL`` else ``FENGSHENG_REDIS_URL``: services/config.py)."""
    url = redis_url or config.role_url("broker")
    app = Celery("fengsheng", broker=url, include=["services.workers.tasks", "services.ranked.tasks"])
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        task_default_queue="fengsheng",
        broker_connection_retry=True,
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,
        broker_connection_timeout=5.0,
        worker_cancel_long_running_tasks_on_connection_loss=True,
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        broker_transport_options=broker_options(),
    )
    if url.startswith("redis://"):
        app.conf.broker_transport = f"{__name__}:BrokerTransport"
    if config.task_routes():
        # one queue per kind of work, each with its own workers (deploy/): `celery -A
        # services.workers.celery_app worker -Q bots,fengsheng` etc.; off by default, where the one
        # `fengsheng` queue carries every task (as `fengsheng up` runs it)
        app.conf.task_routes = {
            "bots.*": {"queue": "bots"},
            "timers.*": {"queue": "timers"},
            "matchmaking.*": {"queue": "matchmaking"},
            "ladder.*": {"queue": "ladder"},
        }
    # ranked play: one matchmaking pass every FENGSHENG_MM_TICK_MS (docs/ranked.md). Every
    # worker embeds a beat (see _embedded_beat) unless FENGSHENG_EMBEDDED_BEAT=0, in which
    # case run `celery -A services.workers.celery_app beat`; the task itself lets one tick per period
    # through (a Redis lock), so several beats cost nothing.
    from services.ranked.matchmaking import Schedule

    tick_s = Schedule.from_env().tick_ms / 1000  # Celery beat counts seconds
    app.conf.beat_schedule = {
        "matchmaking-tick": {"task": "matchmaking.tick", "schedule": tick_s, "options": {"expires": 10 * tick_s}},
    }
    app.conf.beat_scheduler = "celery.beat:Scheduler"  # in memory: no schedule file
    return app


@worker_ready.connect
def _embedded_beat(sender: object = None, **_: object) -> None:
    """Run Celery beat inside each worker (a thread), so ``fengsheng worker`` / ``fengsheng up``
    need no separate beat process for matchmaking."""
    if os.environ.get("FENGSHENG_EMBEDDED_BEAT", "1") in ("0", "false", "no"):
        return
    from celery.beat import EmbeddedService, Scheduler

    beat_app = getattr(sender, "app", None) or app
    # the in-memory scheduler: no schedule file (the service ignores beat_scheduler)
    # thread=True: the service is a _Threaded (the stubs' _Process lacks the start() it has)
    beat = cast("_Threaded", EmbeddedService(beat_app, thread=True, scheduler_cls=Scheduler))
    beat.start()


#: The app the worker runs (``celery -A services.workers.celery_app worker``).
app = make_app()

# Prometheus metrics of the worker (served when FENGSHENG_WORKER_METRICS_PORT is set)
from services.workers import metrics as worker_metrics  # noqa: E402

worker_metrics.install()
