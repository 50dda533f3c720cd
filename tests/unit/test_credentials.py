"""The service credential's reader (services/credentials.py): where it comes from, and the
clear refusals when it is missing, short, or in a file other users can read."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from services import credentials
from services.credentials import CredentialError, optional_service_token, same_token, service_token


@pytest.fixture
def no_credential(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv(credentials.ENV, raising=False)
    monkeypatch.delenv(credentials.ENV_FILE, raising=False)
    return monkeypatch


def test_none_configured_is_refused_with_the_variables_named(no_credential: pytest.MonkeyPatch) -> None:
    with pytest.raises(CredentialError, match=r"FENGSHENG_SERVICE_TOKEN.*FENGSHENG_SERVICE_TOKEN_FILE"):
        service_token()
    assert optional_service_token() is None


def test_from_the_environment(no_credential: pytest.MonkeyPatch) -> None:
    token = secrets.token_urlsafe(32)
    no_credential.setenv(credentials.ENV, f" {token}\n")
    assert service_token() == token


def test_a_short_credential_is_refused(no_credential: pytest.MonkeyPatch) -> None:
    no_credential.setenv(credentials.ENV, "changeme")
    with pytest.raises(CredentialError, match="at least 16"):
        service_token()
    with pytest.raises(CredentialError):
        optional_service_token()  # configured but unusable: not silently "none"


def test_from_a_0600_file(no_credential: pytest.MonkeyPatch, tmp_path: Path) -> None:
    token = secrets.token_urlsafe(32)
    path = tmp_path / "service-token"
    path.write_text(token + "\n")
    path.chmod(0o600)
    no_credential.setenv(credentials.ENV_FILE, str(path))
    assert service_token() == token


def test_a_file_others_can_read_is_refused(no_credential: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "service-token"
    path.write_text(secrets.token_urlsafe(32))
    path.chmod(0o644)
    no_credential.setenv(credentials.ENV_FILE, str(path))
    with pytest.raises(CredentialError, match=r"open to other users \(mode 644\); chmod 600"):
        service_token()


def test_a_missing_file_is_refused(no_credential: pytest.MonkeyPatch, tmp_path: Path) -> None:
    no_credential.setenv(credentials.ENV_FILE, str(tmp_path / "absent"))
    with pytest.raises(CredentialError, match=r"cannot read the secret file .*No such file"):
        service_token()


def test_the_comparison() -> None:
    token = secrets.token_urlsafe(32)
    assert same_token(token, token.encode())
    assert same_token(token.encode(), token.encode())
    assert not same_token(token[:-1], token.encode())
    assert not same_token("", token.encode())
    assert not same_token(token + "x", token.encode())


def test_ensure_generates_one_for_the_children(no_credential: pytest.MonkeyPatch) -> None:
    token = credentials.ensure_service_token()
    assert len(token) >= credentials.MIN_LENGTH
    assert service_token() == token  # now in this process's environment, for its children
