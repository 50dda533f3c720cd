"""The engine service: the ``EngineService`` gRPC servicer and the server that hosts every
servicer (:mod:`.grpc`), the match service (:mod:`.matches`) over the match store on Redis
(:mod:`.store`, its pipelined hot path :mod:`.redis_pipe` / :mod:`.redis_cluster_pipe`, an
in-memory :mod:`.fake_store` for unit tests), match notifications (:mod:`.notifier`), the
outbox sweepers (:mod:`.sweepers`), replays (:mod:`.replay`), the ruleset catalogue
(:mod:`.rulesets`), the port to the workers (:mod:`.scheduler`) and its metrics."""
