"""Request and response bodies of the REST API (they make the OpenAPI document at /docs)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SeatKindName = Literal["human", "random", "heuristic", "external", "v2", "search", "easy", "normal", "hard"]
#: a bot of every non-human seat: a level (easy = random, normal = heuristic v2, hard = search,
#: which plays as normal until the engine registers a search bot) or a policy by name
BotKindName = Literal["easy", "normal", "hard", "random", "heuristic", "v2", "search"]

#: longest pause a match may ask of its bots before each move, and longest human decision
#: timer (422 beyond them). The engine service refuses more too: these mirror
#: services/limits.py (the gateway imports nothing from services/; a unit test holds them equal)
MAX_BOT_DELAY_S = 5.0
MAX_TURN_TIMEOUT_S = 3600.0
#: decision numbers are protobuf int64
MAX_DECISION = 2**63 - 1
#: a bound on the size of a request, not a rule: each ruleset's player counts come from the
#: engine (``GET /api/rulesets``), and a count outside them is a 422 naming them
MAX_SEATS = 32


#: longest guest name, in characters (after cleaning: fengsheng/display_text.py)
GUEST_NAME_MAX = 32


class GuestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(
        min_length=1,
        max_length=2 * GUEST_NAME_MAX,
        description=f"display name of the guest: at most {GUEST_NAME_MAX} characters once whitespace is collapsed; "
        "bidi controls, zero-width and control characters are refused (422 invisible_character)",
    )


class GuestOut(BaseModel):
    player_id: str
    name: str
    token: str = Field(description="player token: send as `Authorization: Bearer <token>`")


class CreateMatchIn(BaseModel):
    """A match against bots. Seats `0 .. humans-1` are human, the others bots of `bot`."""

    model_config = ConfigDict(extra="forbid")
    players: int = Field(
        5, ge=1, le=MAX_SEATS, description="number of seats: one of the ruleset's `players` (GET /api/rulesets)"
    )
    humans: int = Field(1, ge=0, le=MAX_SEATS, description="human seats (the first ones); 0 = bots only")
    bot: BotKindName = Field(
        "heuristic",
        description="kind of every bot seat: a level (easy = random, normal = heuristic v2, hard = search: "
        "a determinized search within FENGSHENG_SEARCH_BUDGET_MS, heuristic v2 if it fails) "
        "or a policy (random, heuristic, v2, search)",
    )
    seats: list[SeatKindName] | None = Field(
        None, max_length=MAX_SEATS, description="explicit kind of every seat (overrides players / humans / bot)"
    )
    seed: int = Field(
        0,
        ge=0,
        lt=2**63,
        description="practice only: a chosen deal, allowed when no seat can be taken by anyone but the "
        "creator (no human or external seat, or one human seat the creator takes); never shown "
        "before the match ends. 0 = the server deals at random (a CSPRNG seed)",
    )
    ruleset: str | None = Field(
        None,
        max_length=32,
        description="rules edition: an `id` of GET /api/rulesets (unknown -> 422 naming the known ones); "
        "empty or absent: the engine's default (`default` of GET /api/rulesets)",
    )
    characters: bool = Field(False, description="deal characters (if the ruleset has them, else 422)")
    tutorial: bool = False
    turn_timeout_ms: int = Field(0, ge=0, le=int(MAX_TURN_TIMEOUT_S * 1000),
                                 description="human decision timer, ms; 0 = none")
    bot_delay_ms: int = Field(0, ge=0, le=int(MAX_BOT_DELAY_S * 1000),
                              description="pause before each bot move, ms (at most 5000)")


class SeatInfo(BaseModel):
    seat: int
    kind: str
    player: str | None = Field(None, description="name of the guest who claimed a human seat")


class CreateMatchOut(BaseModel):
    match_id: str
    ruleset: str = Field(description="the match's ruleset id (GET /api/rulesets)")
    seats: list[SeatInfo]
    pending: dict[str, Any]
    seat: int | None = Field(None, description="the seat the creator joined (with a player token)")
    seat_token: str | None = None


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(
        None, ge=0, lt=MAX_SEATS, description="a free human seat; default: the first free one"
    )


class JoinOut(BaseModel):
    match_id: str
    seat: int
    seat_token: str = Field(description="seat token: send as `Authorization: Bearer <token>` or `?token=`")


class MatchInfo(BaseModel):
    match_id: str
    ruleset: str = Field(description="the match's ruleset id (GET /api/rulesets)")
    seats: list[SeatInfo]
    settings: dict[str, Any]
    observation: dict[str, Any] = Field(description="the spectator's view (public information only)")


class ActIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decision: int = Field(ge=0, le=MAX_DECISION, description="the pending decision number this action answers")
    action: str = Field(min_length=1, max_length=200, description="an action in notation (docs/notation.md)")
    seat: int | None = Field(None, ge=0, lt=MAX_SEATS, description="optional; must be the token's seat")


class LegalActionsOut(BaseModel):
    decision: int
    seat_to_act: int
    seat: int = Field(description="the token's seat")
    actions: list[str] = Field(description="empty unless the token's seat must act")
    legal: list[dict[str, Any]] = Field(default_factory=list,
                                        description="`actions` as values (fengsheng.v1.Action), in the same order")


class ErrorBody(BaseModel):
    status: int
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody


class RematchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start_now: bool = Field(
        False,
        description="create the rematch now: bots take the seats of the persons who have not confirmed "
        "(else it is created when every seated person has confirmed)",
    )


class RematchOut(BaseModel):
    seat: int = Field(description="your seat (the same in the rematch)")
    confirmed: list[int] = Field(description="the seats whose person confirmed")
    waiting: list[int] = Field(description="the seated persons still to confirm")
    match_id: str | None = Field(None, description="the rematch, once created")
    seats: list[str] = Field(default_factory=list, description="the rematch's seat kinds, once created")
    seat_token: str | None = Field(None, description="your seat token in the rematch, once created")
