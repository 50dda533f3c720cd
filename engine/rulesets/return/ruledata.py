"""Rule data kept outside the code (``data/return-rules.json``): the readings of
the rules digest §11 for illegible card texts and silent sources, and the rule numbers
(hand limit, draws, win thresholds). Changing a decision is a data change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RULES_FILE = Path(__file__).with_name("data") / "return-rules.json"


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RULES_FILE.read_text(encoding="utf-8"))
    return data


_DATA = _load()

HAND_LIMIT: int = _DATA["hand_limit"]
TURN_DRAW: int = _DATA["turn_draw"]
START_HAND: int = _DATA["start_hand"]
DEATH_FAKES: int = _DATA["death_fakes"]
FACTION_WIN: int = _DATA["faction_win"]
AGENT_TRUE_WIN: int = _DATA["agent_true_win"]
#: players -> (latent, military, agent) identity cards (digest §1).
IDENTITY_TABLE: dict[int, tuple[int, int, int]] = {
    int(k): (v[0], v[1], v[2]) for k, v in _DATA["identity_table"].items()
}
#: 试探 card -> the identity it names (§11.1).
PROBE_IDENTITY: dict[int, str] = {int(k): v for k, v in _DATA["probe_identity"].items() if k.isdigit()}
#: 公开文本 card -> identity -> (action, count) when received as intel (§11.2).
PUBLIC_TEXT_ACTIONS: dict[int, dict[str, tuple[str, int]]] = {
    int(k): {ident: (act[0], int(act[1])) for ident, act in v.items()}
    for k, v in _DATA["public_text_actions"].items() if k.isdigit()
}
#: Notation: how a 秘密下达 code may be written in ``play N code C`` -> the canonical
#: word (docs/notation.md).
CODE_ALIASES: dict[str, str] = {"ting_feng": "听风", "kan_yu": "看雨", "ri_luo": "日落",
                                "听风": "听风", "看雨": "看雨", "日落": "日落"}
#: 秘密下达 code -> colour (§11.3).
SECRET_ORDER_CODES: dict[str, str] = {k: v for k, v in _DATA["secret_order_codes"].items() if not k.startswith("_")}
