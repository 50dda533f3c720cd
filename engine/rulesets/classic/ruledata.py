"""Rule data of the classic ruleset kept outside the code (``data/classic-rules.json``):
the identity table (digest §1, §12 D3), draw and starting hand (§3, §4), the 试探 variants
per card (§12 D2), and the decisions it encodes. Changing a decision is a data change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import kinds
from .kinds import Identity

RULES_FILE = Path(__file__).with_name("data") / "classic-rules.json"
_DATA: dict[str, Any] = json.loads(RULES_FILE.read_text(encoding="utf-8"))

#: The identities in the order of the identity table's columns (checked against the
#: :data:`kinds.Identity` words when the ruleset loads).
IDENTITIES: tuple[Identity, ...] = kinds.IDENTITIES
if tuple(_DATA["identities"]) != IDENTITIES:
    raise ValueError(f"{RULES_FILE.name}: identities {_DATA['identities']} are not {IDENTITIES}")
#: players -> (latent, military, bystander) identity cards (§1, D3).
IDENTITY_TABLE: dict[int, tuple[int, int, int]] = {
    int(k): (v[0], v[1], v[2]) for k, v in _DATA["identity_table"].items() if k.isdigit()
}
TURN_DRAW: int = _DATA["turn_draw"]
START_HAND: int = _DATA["start_hand"]
CHARACTER_OFFER: int = _DATA["character_offer"]
DEATH_FAKES: int = _DATA["death_fakes"]
FACTION_WIN: int = _DATA["faction_win"]
#: 试探 card -> (identity it names, form ``discard`` or ``draw``) (D2).
PROBE: dict[int, tuple[str, str]] = {int(k): (v[0], v[1]) for k, v in _DATA["probe"].items()}
