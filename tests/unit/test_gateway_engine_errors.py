"""An engine failure reaches an untrusted client without its text: the details of an
INTERNAL or UNKNOWN status are an exception's message, which may quote the game state
(docs/security.md); the client gets the status and a generic message, the log the text."""

from __future__ import annotations

import grpc
import pytest
from grpc.aio import AioRpcError, Metadata

from gateway.errors import from_grpc

SECRET_TEXT = "Act: internal error: AssertionError: seat 3 hand [12, 59, 71]"


@pytest.mark.parametrize("code", [grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS])
def test_an_engine_failure_keeps_its_text_from_the_client(
    code: grpc.StatusCode, caplog: pytest.LogCaptureFixture
) -> None:
    err = from_grpc(AioRpcError(code, Metadata(), Metadata(), details=SECRET_TEXT))
    assert "59" not in err.message and "hand" not in err.message
    assert err.code == code.name.lower() and err.status >= 500
    assert SECRET_TEXT in caplog.text  # the operator still sees it


def test_an_answer_to_the_request_keeps_its_text() -> None:
    err = from_grpc(AioRpcError(grpc.StatusCode.INVALID_ARGUMENT, Metadata(), Metadata(), details="illegal: pass"))
    assert err.message == "illegal: pass" and err.status == 400
