"""Secrets stay off command lines and out of files other users can read (services/config.py,
the CLI's ``--secret`` / ``--redis-url`` checks, the data directory of ``fengsheng up``)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from fengsheng.cli import main
from fengsheng.commands.up_data import DataDirError, open_data_dir
from services import config


@pytest.mark.parametrize(
    "argv",
    [
        ["gateway", "--engine", "127.0.0.1:1", "--secret", "s3cret"],
        ["gateway", "--engine", "127.0.0.1:1", "--secret=s3cret"],
        ["up", "--secret", "s3cret"],
    ],
)
def test_secret_flag_is_refused_with_a_pointer_to_the_env_var(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "FENGSHENG_SECRET" in err and "command line" in err


@pytest.mark.parametrize("command", [["engine-server"], ["worker"], ["gateway", "--engine", "127.0.0.1:1"], ["up"]])
def test_redis_url_with_a_password_is_refused_on_the_command_line(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([*command, "--redis-url", "redis://:hunter2@127.0.0.1:1/0"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "FENGSHENG_REDIS_URL" in err and "hunter2" not in err


def test_secret_from_env_or_owner_only_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FENGSHENG_SECRET", raising=False)
    path = tmp_path / "secret"
    config.write_secret_file(path, "from-the-file")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    monkeypatch.setenv("FENGSHENG_SECRET_FILE", str(path))
    assert config.token_secret() == "from-the-file"
    monkeypatch.setenv("FENGSHENG_SECRET", "from-the-env")
    assert config.token_secret() == "from-the-env"
    monkeypatch.delenv("FENGSHENG_SECRET")
    os.chmod(path, 0o644)  # other users could read it: refused, with the fix in the message
    with pytest.raises(config.SecretError, match="chmod 600"):
        config.token_secret()


def test_redis_password_joins_the_url_and_is_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_URL", "redis://redis:6379/0")
    monkeypatch.setenv("FENGSHENG_REDIS_PASSWORD", "p@ss/word")
    url = config.redis_url()
    assert config.url_password(url) == "p@ss/word"
    assert url.endswith("@redis:6379/0")
    assert config.redacted(url) == "redis://:***@redis:6379/0"
    import redis

    kwargs = redis.connection.parse_url(url)
    assert kwargs["password"] == "p@ss/word" and kwargs["host"] == "redis" and kwargs["port"] == 6379


def test_data_dir_is_owner_only_locked_and_fresh_empties_only_its_own_files(tmp_path: Path) -> None:
    path = tmp_path / "data"
    data = open_data_dir(path)
    try:
        token = data.secret("token.secret")
        assert data.secret("token.secret") == token  # kept, not regenerated
        assert stat.S_IMODE(path.stat().st_mode) == 0o700
        assert stat.S_IMODE((path / "token.secret").stat().st_mode) == 0o600
        with pytest.raises(DataDirError, match="another `fengsheng up`"):
            open_data_dir(path)
    finally:
        data.close()
    (path / "notes.txt").write_text("the user's own file")
    data = open_data_dir(path, fresh=True)
    try:
        assert not (path / "token.secret").exists()
        assert (path / "notes.txt").exists()
        assert data.secret("token.secret") != token
    finally:
        data.close()


def test_a_password_free_redis_url_flag_gets_the_password_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FENGSHENG_REDIS_PASSWORD", "from-env")
    assert config.command_line_redis_url("redis://10.0.0.5:6380/2") == "redis://:from-env@10.0.0.5:6380/2"
    with pytest.raises(config.SecretError, match="FENGSHENG_REDIS_URL"):
        config.command_line_redis_url("redis://:typed@10.0.0.5:6380/2")
