"""The Celery side: the app (:mod:`.celery_app`, ``celery -A services.workers.celery_app``),
the ``bots.move`` and ``timers.expire`` tasks (:mod:`.tasks`) and the worker's Prometheus
metrics (:mod:`.metrics`). Ranked play's tasks live in :mod:`services.ranked.tasks`."""
