"""Ranked and casual play: Redis state (:mod:`.store`), the service layer the servicers call,
bot connections included (:mod:`.service`), the ``BotService`` / ``RankedService`` servicers
(:mod:`.grpc`), matchmaking, casual tables and challenges, the ladder, canonical player
ids, in-process arenas, and the Celery tasks ``matchmaking.tick`` / ``ladder.update``
(:mod:`.tasks`)."""
