"""Which ``ActStream`` failures the gateway retries as a unary ``Act`` (gateway/engine_client.py
``_broken``): a broken stream is retried (safe: an action names its decision, so a second
delivery answers ``duplicate``), a refusal is the answer and is not."""

from __future__ import annotations

import grpc

from gateway.engine_client import CORE_INTERNAL, _broken


def _error(code: grpc.StatusCode, details: str, trailing: tuple[tuple[str, str], ...] = ()) -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(*trailing), details=details)


def test_a_write_that_raced_the_streams_end_is_retried() -> None:
    # what grpc.aio raises when the replica ended the stream (it is stopping) while the
    # first request was being written: seen as a 502 under load
    assert _broken(_error(grpc.StatusCode.INTERNAL, CORE_INTERNAL))


def test_the_engines_own_failure_is_not_retried() -> None:
    assert not _broken(_error(grpc.StatusCode.INTERNAL, "the engine failed"))


def test_a_refusal_is_the_answer() -> None:
    refusal = _error(grpc.StatusCode.FAILED_PRECONDITION, "stale decision 3", (("fs-error", "stale"),))
    assert not _broken(refusal)
    assert _broken(_error(grpc.StatusCode.UNAVAILABLE, "", (("fs-error", "store_unavailable"),)))


def test_a_lost_replica_is_retried() -> None:
    assert _broken(_error(grpc.StatusCode.UNAVAILABLE, "connection reset"))
    assert _broken(_error(grpc.StatusCode.DEADLINE_EXCEEDED, "ActStream timed out"))
