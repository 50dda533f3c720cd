"""The bot SDK's command line keeps the bot token off argv (docs/security.md: no secret on a
command line, where every local user reads it in ``/proc/PID/cmdline``)."""

from __future__ import annotations

import pytest

from fengsheng.bot.__main__ import main


def test_a_token_on_the_command_line_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--token", "bt_secret", "--matches", "1"])
    assert stop.value.code == 2
    assert "FENGSHENG_BOT_TOKEN" in capsys.readouterr().err


def test_no_token_at_all_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("FENGSHENG_BOT_TOKEN", raising=False)
    monkeypatch.delenv("FENGSHENG_BOT_TOKEN_FILE", raising=False)
    with pytest.raises(SystemExit) as stop:
        main([])
    assert stop.value.code == 2
    assert "no bot token" in capsys.readouterr().err
