"""The soak tier: tests whose strength is a count (seeded random games, determinized positions,
simulated ranked matches, hypothesis examples). Each is marked ``@pytest.mark.soak`` and takes
its count from :func:`soak_count`:

- ``./dev test`` and a plain ``pytest`` run the small CI count (``FENGSHENG_SOAK`` unset or
  ``ci``): the same checks over fewer games, always the first seeds of the full run, so a
  seed that found a bug once is still played;
- ``FENGSHENG_SOAK=full`` (``python bench/suite_soak.py``) runs the full count, the figure the
  test's docstring names (e.g. 2,000 invariant-checked random games).

``pytest -m soak`` selects the tier, ``-m "not soak"`` leaves it out.
"""

from __future__ import annotations

import os

#: the environment variable choosing the tier's size: ``ci`` (default) or ``full``
ENV = "FENGSHENG_SOAK"
LEVELS = ("ci", "full")


def level() -> str:
    """``ci`` or ``full``; anything else in ``FENGSHENG_SOAK`` is refused (a typo must not
    silently run the small count when the full one was asked for)."""
    value = os.environ.get(ENV, "ci").strip().lower() or "ci"
    if value not in LEVELS:
        raise ValueError(f"{ENV}={value!r}: expected one of {', '.join(LEVELS)}")
    return value


FULL = level() == "full"


def soak_count(full: int, ci: int) -> int:
    """The count a soak test runs: ``full`` under ``FENGSHENG_SOAK=full``, else ``ci``."""
    if not 0 < ci <= full:
        raise ValueError(f"a soak test's CI count must be in 1..{full}, not {ci}")
    return full if FULL else ci
