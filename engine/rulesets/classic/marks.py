"""Marks of the classic ruleset kept in ``State.flags`` (so they round-trip through the
snapshot): per-turn ones (who is lured, whether the turn player sent, a 退回 waiting to
act) are cleared at turn start; ``game:`` ones last the game (lost players, used
once-per-game skills). This module is the only place that spells them."""

from __future__ import annotations

from engine.state import State


def has(st: State, mark: str) -> bool:
    return mark in st.flags


def add(st: State, mark: str) -> None:
    if mark not in st.flags:
        st.flags.append(mark)


def remove(st: State, mark: str) -> None:
    if mark in st.flags:
        st.flags.remove(mark)


def clear_turn(st: State) -> None:
    """Drop the per-turn marks (every mark not starting with ``game:``)."""
    st.flags[:] = [f for f in st.flags if f.startswith("game:")]


def lured(seat: int) -> str:
    """调虎离山 was used on ``seat`` this turn (digest §5)."""
    return f"lured:{seat}"


SENT = "sent"
"""The turn player sent an intel this turn (§4.6)."""
SEND_BACK = "send_back"
"""退回 resolved at this arrival: the intel moves on, reversed (§5, D13)."""
RECEIVE_STEP = "receive_step"
"""A seat is deciding whether to take the intel (a special moment, §6.6)."""


def lost(seat: int) -> str:
    """``seat`` lost the game (out, not dead; §7, D23)."""
    return f"game:lost:{seat}"


def saved(seat: int) -> str:
    """A death-time skill saved ``seat`` from dying now (救美, §7 step 1)."""
    return f"saved:{seat}"


def once(skill: str, seat: int) -> str:
    """A once-per-game skill (identity reveals, D17) was used by ``seat``."""
    return f"game:once:{skill}:{seat}"


def mission_done(seat: int) -> str:
    """``seat``'s mission was met at a moment that leaves no trace (老鬼's hand at death)."""
    return f"game:mission:{seat}"
