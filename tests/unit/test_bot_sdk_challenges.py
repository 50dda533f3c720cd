"""The SDK and challenges (docs/bots.md, "Casual tables and challenges"): a challenge to the
bot is answered with the author's ``accept`` (default: accept), never taken for the bot's
own ticket; the bot's own challenge that is declined or expires is opened again later."""

from __future__ import annotations

from typing import Any

from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng_bot.client import _handle, _Session


class Recorder:
    """Stands in for BotClient: what the SDK sent."""

    def __init__(self) -> None:
        self.sent: list[bs.BotMessage] = []

    def send(self, msg: bs.BotMessage) -> None:
        self.sent.append(msg)

    def answer_challenge(self, ticket_id: str, accept: bool = True) -> None:
        self.send(bs.BotMessage(answer=bs.ChallengeAnswer(ticket_id=ticket_id, accept=accept)))


def ticket(**fields: Any) -> bs.ServerMessage:
    return bs.ServerMessage(ticket=bs.Ticket(**fields))


def run(msg: bs.ServerMessage, state: _Session, accept: Any = None) -> tuple[Recorder, list[float]]:
    client, later = Recorder(), []
    _handle(msg, lambda o, legal: legal[0], client, state, lambda: None, later.append, accept)  # type: ignore[arg-type]
    return client, later


def test_a_challenge_is_accepted_by_default_and_as_the_author_decides() -> None:
    state = _Session(queued=True)  # the bot's own ranked ticket waits meanwhile
    invited = ticket(ticket_id="t_1", state="invited", challenger="alice", seat=1)
    client, _ = run(invited, state)
    assert [(m.answer.ticket_id, m.answer.accept) for m in client.sent] == [("t_1", True)]
    assert "t_1" in state.accepted
    again, _ = run(invited, state)  # the same invitation sent again (a reconnection)
    assert not again.sent  # answered once
    seen: list[str] = []
    state = _Session(queued=True)
    client, _ = run(invited, state, accept=lambda t: seen.append(t.challenger) or False)
    assert [(m.answer.ticket_id, m.answer.accept) for m in client.sent] == [("t_1", False)] and seen == ["alice"]
    assert state.queued  # an invitation is not the bot's own ticket
    # the invitation's later states change nothing of the bot's own
    for later_state in ("accepted", "declined", "expired", "matched"):
        client, later = run(ticket(ticket_id="t_1", state=later_state, challenger="alice"), state)
        assert not client.sent and not later and state.queued


def test_the_bots_own_challenge_declined_or_expired_is_opened_again_later() -> None:
    state = _Session()
    run(ticket(ticket_id="t_2", state="pending"), state)
    assert state.queued
    _, later = run(ticket(ticket_id="t_2", state="declined"), state)
    assert not state.queued and len(later) == 1 and later[0] >= 1.0
    run(ticket(ticket_id="t_3", state="pending"), state)
    _, again = run(ticket(ticket_id="t_3", state="expired"), state)
    assert len(again) == 1 and state.join_attempts == 2  # the waits grow
