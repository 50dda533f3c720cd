"""Challenge deadlines (services/ranked/deadlines.py, ``Deadlines``, used by casual.py): issue
26 found one 30 s timer task per challenge (36 challenges, 36 tasks). One task per event loop
now expires them all, in deadline order, each at its deadline, and a sooner deadline added
later wakes it."""

from __future__ import annotations

import asyncio
import time

from services.ranked.deadlines import Deadlines


def test_one_task_expires_every_challenge_at_its_deadline() -> None:
    fired: list[tuple[str, float]] = []

    async def action(svc: object, challenge_id: str) -> None:
        fired.append((challenge_id, time.time()))

    async def run() -> None:
        deadlines = Deadlines(action)
        before = len(asyncio.all_tasks())
        start = time.time()
        for i in range(36):
            deadlines.add(start + 0.3 + (35 - i) * 0.005, None, f"late-{i}")
        deadlines.add(start + 0.1, None, "soonest")  # added last, due first: it wakes the task
        assert len(asyncio.all_tasks()) - before == 1 and len(deadlines) == 37
        while len(fired) < 37:
            await asyncio.sleep(0.02)
            assert time.time() - start < 5, fired
        assert len(deadlines) == 0
        await asyncio.sleep(0.05)
        assert len(asyncio.all_tasks()) == before  # the task ends with nothing left to wait for
        assert fired[0][0] == "soonest" and 0.1 <= fired[0][1] - start < 0.25, fired[0]
        assert [c for c, _ in fired[1:]] == [f"late-{i}" for i in reversed(range(36))]
        assert all(at >= start + 0.3 for _, at in fired[1:])

    asyncio.run(run())


def test_a_failing_action_does_not_stop_the_others() -> None:
    fired: list[str] = []

    async def action(svc: object, challenge_id: str) -> None:
        if challenge_id == "bad":
            raise ConnectionError("redis away")
        fired.append(challenge_id)

    async def run() -> None:
        deadlines = Deadlines(action)
        now = time.time()
        deadlines.add(now + 0.02, None, "bad")
        deadlines.add(now + 0.04, None, "good")
        for _ in range(100):
            if fired:
                break
            await asyncio.sleep(0.02)
        assert fired == ["good"]

    asyncio.run(run())
