"""The Celery app (Redis broker) that runs bot moves and turn timers.

Tasks live in :mod:`services.tasks` under the names ``bots.move`` and ``timers.expire``;
the engine service sends them by name (:class:`services.scheduler.CeleryScheduler`).
Delivery is at least once: ``acks_late`` + ``reject_on_worker_lost`` mean a task whose
worker dies is redelivered (after the broker's visibility timeout), and every task is
idempotent by decision number, so a second delivery is a no-op. No result backend: no
task waits on another.
"""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_ready

from services import config


def make_app(redis_url: str | None = None) -> Celery:
    """A configured Celery app on ``redis_url`` (default: :func:`services.config.redis_url`)."""
    url = redis_url or config.redis_url()
    app = Celery("fengsheng", broker=url, include=["services.tasks", "services.ranked_tasks"])
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        task_default_queue="fengsheng",
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        broker_transport_options={
            "visibility_timeout": config.visibility_timeout(),
            "unacked_restore_interval": config.restore_interval(),
            "unacked_restore_throttle": 1,
        },
    )
    if config.task_routes():
        # one queue per kind of work, each with its own workers (deploy/): `celery -A
        # services.celery_app worker -Q bots,fengsheng` etc.; off by default, where the one
        # `fengsheng` queue carries every task (as `fengsheng up` runs it)
        app.conf.task_routes = {
            "bots.*": {"queue": "bots"},
            "timers.*": {"queue": "timers"},
            "matchmaking.*": {"queue": "matchmaking"},
            "ladder.*": {"queue": "ladder"},
        }
    # ranked play: one matchmaking pass every FENGSHENG_MM_TICK_S (docs/ranked.md). Every
    # worker embeds a beat (see _embedded_beat) unless FENGSHENG_EMBEDDED_BEAT=0, in which
    # case run `celery -A services.celery_app beat`; the task itself lets one tick per period
    # through (a Redis lock), so several beats cost nothing.
    from services.matchmaking import Schedule

    tick_s = Schedule.from_env().tick_s
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
    EmbeddedService(beat_app, thread=True, scheduler_cls=Scheduler).start()


#: The app the worker runs (``celery -A services.celery_app worker``).
app = make_app()

# Prometheus metrics of the worker (served when FENGSHENG_WORKER_METRICS_PORT is set)
from services import worker_metrics  # noqa: E402

worker_metrics.install()
