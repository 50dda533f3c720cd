"""Rule data of the 谍战篇 ruleset kept outside the code (``data/spy-rules.json``): the
identity table (digest §1.1), starting hand and draw (§3, §4), the 神秘人 cards and the
default pool (§7.2, §11.1), the 试探 lines (§8). Changing a decision is a data change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RULES_FILE = Path(__file__).with_name("data") / "spy-rules.json"
_DATA: dict[str, Any] = json.loads(RULES_FILE.read_text(encoding="utf-8"))

IDENTITIES: tuple[str, ...] = tuple(_DATA["identities"])
#: players -> (latent, special_service, mystery) identity cards (§1.1).
IDENTITY_TABLE: dict[int, tuple[int, int, int]] = {
    int(k): (v[0], v[1], v[2]) for k, v in _DATA["identity_table"].items() if k.isdigit()
}
START_HAND: int = _DATA["start_hand"]
TURN_DRAW: int = _DATA["turn_draw"]
CHARACTER_OFFER: int = _DATA["character_offer"]
DEATH_BLACKS: int = _DATA["death_blacks"]
FACTION_WIN: int = _DATA["faction_win"]
SECRET_TASKS: tuple[str, ...] = tuple(_DATA["secret_tasks"])
SECRET_TASK_POOL: tuple[str, ...] = tuple(_DATA["secret_task_pool"])
_PROBE: dict[int, frozenset[str]] = {int(k): frozenset(v) for k, v in _DATA["probe_draws"].items()}


def probe_draws(card: int, identity: str) -> bool:
    """Whether the 试探 ``card`` (1–18) makes a player of ``identity`` draw 1 (else discard 1)."""
    return identity in _PROBE[(card - 1) % 6 + 1]
