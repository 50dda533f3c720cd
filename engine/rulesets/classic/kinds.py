"""The classic ruleset's words as ``Literal`` types (a misspelt one at a call site is a type
error under ``mypy --strict``): identities, transmission modes, the timings of the priority
loop, the moments automatic skills are offered, and the kinds of skill."""

from __future__ import annotations

from typing import Literal, get_args

#: 潜伏战线 / 军情处 / 打酱油 (digest §1, §12 D31).
Identity = Literal["latent", "military", "bystander"]
IDENTITIES: tuple[Identity, ...] = get_args(Identity)

#: 密电 / 直达 / 文本: how an intel travels (§5).
Mode = Literal["secret", "direct", "text"]
MODES: tuple[Mode, ...] = get_args(Mode)

#: The priority loop's timings (§4, §5, §6.3), kept in ``State.timing`` and on the
#: ``window`` frame: turn start, play phases 1 and 2, 情报传递, 情报到达.
Timing = Literal["start", "main1", "main2", "transmit", "arrive"]
TIMINGS: tuple[Timing, ...] = get_args(Timing)

#: The moments :func:`characters.base.fire` offers to automatic skills (§6.5, §7).
TriggerEvent = Literal["card_used", "used_on", "seen_through", "decrypted", "drawn", "received", "dying", "death",
                       "died"]
TRIGGER_EVENTS: tuple[TriggerEvent, ...] = get_args(TriggerEvent)

#: A skill's kind (docs/classic-characters.md): used with priority (``active``; ``flip``
#: turns the character face up), offered at a moment (``auto``), lets a card be used as
#: another (``conversion``), or changes a rule while it works (``passive``).
SkillKind = Literal["active", "flip", "auto", "conversion", "passive"]
SKILL_KINDS: tuple[SkillKind, ...] = get_args(SkillKind)


def timing(text: str) -> Timing:
    """``text`` (a ``window`` frame's, or ``State.timing``) as a :data:`Timing`; anything
    else is an engine bug, raised as such."""
    for t in TIMINGS:
        if t == text:
            return t
    raise ValueError(f"not a classic timing: {text!r}")
