"""The platform's services, one subpackage per role (README.md, "services/ layout"):

- :mod:`services.engine`: the engine gRPC server and the match service behind it (match
  store on Redis, its pipelined hot path, notifier, sweepers, replays, scheduler port);
- :mod:`services.ranked`: ranked and casual play (bot accounts, queue, matchmaking, ladder,
  the ``BotService`` / ``RankedService`` servicers and the bot-connection orchestration);
- :mod:`services.workers`: the Celery app, the bot-move and timer tasks, worker metrics.

The modules at this level are shared by them and by the gateway and the CLI: settings
(:mod:`~services.config`), the service credential and the channels that carry it, the
typed errors and the gRPC guards that map them to status codes, limits, bot levels, Redis
clients and the local ``redis-server`` / cluster helpers, container health probes.

Imports stay light here: importing :mod:`services` loads neither gRPC nor Redis.
"""
