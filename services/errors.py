"""The service layer's typed errors.

The service layer raises these and the servicers let them through; one interceptor on every
gRPC server maps them to status codes with one table (:data:`services.grpc_guard.STATUS_CODES`),
and Celery tasks read their ``kind``. Each
error names what a client needs to recover: the current decision number, the seat to
act, the legal alternatives.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every error a client may see. ``kind`` is a stable machine-readable word."""

    kind: str = "error"

    def __init__(
        self,
        message: str,
        *,
        decision: int | None = None,
        seat_to_act: int | None = None,
        legal: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        #: the match's current decision number, when known
        self.decision = decision
        #: the seat that must act now (-1 when the game is over), when known
        self.seat_to_act = seat_to_act
        #: the legal actions of the requesting seat, for illegal or malformed actions
        self.legal = legal


class MatchNotFound(ServiceError):
    """No match with this id in the store."""

    kind = "not_found"


class MatchExists(ServiceError):
    """CreateMatch named a match id that is already taken."""

    kind = "already_exists"


class BadRequest(ServiceError):
    """A malformed request: bad match id, seat out of range, empty or oversized action."""

    kind = "malformed"


class IllegalActionError(ServiceError):
    """The action does not parse or is not legal now; ``legal`` lists the alternatives."""

    kind = "illegal"


class StaleDecision(ServiceError):
    """The request answers a decision that is no longer (or not yet) open.

    ``kind`` is ``stale`` (an older decision), ``duplicate`` (exactly the action that
    closed that decision, resubmitted), ``future`` (a decision number not reached yet) or
    ``over`` (the match has ended).
    """

    kind = "stale"

    def __init__(self, message: str, *, kind: str = "stale", **kw: object) -> None:
        super().__init__(message, **kw)  # type: ignore[arg-type]
        self.kind = kind


class OutOfTurn(ServiceError):
    """The decision number is current, but another seat must answer it."""

    kind = "out_of_turn"


class NotOver(ServiceError):
    """The answer would reveal hidden information until the match is over (a replay's
    full view, or a seat's view asked for without that seat's token)."""

    kind = "not_over"


class UnsupportedFormat(ServiceError):
    """Stored data of a format this build does not read (a match stored by an older build):
    refused by its format number, never guessed at."""

    kind = "unsupported_format"


class Conflict(ServiceError):
    """Compare-and-set kept failing (heavy contention on one match); safe to retry."""

    kind = "conflict"


# Ranked play and the bot API (services/ranked/)
class Unauthenticated(ServiceError):
    """No valid bot token."""

    kind = "unauthenticated"


class Forbidden(ServiceError):
    """The token's bot does not hold this seat of this match (or this ticket)."""

    kind = "forbidden"


class Exhausted(ServiceError):
    """A per-bot limit: request rate, concurrent matches or streams; ``retry_after_s`` is how
    long to wait before the same request can succeed."""

    kind = "rate_limited"

    def __init__(self, message: str, *, kind: str = "rate_limited", retry_after_s: float = 0.0) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after_s = retry_after_s


class NameTaken(MatchExists):
    """A bot name another live account has (case-insensitive), or one reserved for house
    bots (``house...``): ``ALREADY_EXISTS``, HTTP 409 ``name_taken``."""

    kind = "name_taken"


class Revoked(ServiceError):
    """The token this stream authenticated with was revoked (or rotated away)."""

    kind = "revoked"


class Replaced(ServiceError):
    """A newer stream of the same bot took over: this one no longer acts, and is closed."""

    kind = "replaced"
