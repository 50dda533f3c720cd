"""What clients may choose and see of a match: seats they may claim, seeds they may choose,
settings they may read. A seed deals every identity, hand and the draw pile, so it is the
most secret thing a match has (docs/security/gatehard.md).
"""

from __future__ import annotations

from typing import Any

from fengsheng.v1 import engine_service_pb2 as pb
from gateway import errors
from gateway.convert import settings_dict

#: seat kinds a guest may claim: people, and bots run by anyone outside the platform
JOINABLE = frozenset({"human", "external"})


def check_seed(seed: int, kinds: list[str], *, creator_seated: bool) -> None:
    """A chosen seed deals every identity, hand and the draw pile to whoever chose it, so it
    is allowed only in practice: when no seat can be taken by anyone but the creator (no
    human or external seat, or one human seat that the creator, with a player token, takes
    now). Everything else gets a seed from the engine's CSPRNG."""
    if not seed:
        return
    joinable = [k for k in kinds if k in JOINABLE]
    if not joinable or (joinable == ["human"] and creator_seated):
        return
    raise errors.ApiError(
        422,
        "malformed_request",
        "a chosen `seed` is allowed only in practice matches where no one but the creator can take a seat "
        "(no human or external seat, or one human seat taken by the creator with a player token): the seed "
        "would reveal every hidden card; leave it out and the server deals at random",
    )


def public_settings(settings: pb.MatchSettings) -> dict[str, Any]:
    """A match's settings as anyone may read them: without the seed (it deals every hidden
    card; only a finished match's replay shows it)."""
    shown = settings_dict(settings)
    shown.pop("seed", None)
    return shown
