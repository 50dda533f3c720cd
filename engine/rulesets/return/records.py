"""风声再临's own fields of a seat and of the match (:class:`engine.state.SeatExt`,
:class:`engine.state.MatchExt`): the relations chosen at game start (雇佣关系, 危机关系),
致命香水's 绝密任务 character, and the 秘密下达 code binding this turn's send. Read them
with :func:`seat_ext` and :func:`match_ext`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.state import MatchExt, Seat, SeatExt, State, match_record, seat_record


@dataclass(slots=True)
class ReturnSeat(SeatExt):
    """A 风声再临 seat's own fields."""

    relation: int = -1
    """礼服蒙面's nemesis / 职业杀手's employer (a seat), chosen at game start."""
    secret_character: str = ""
    """致命香水's 绝密任务: the face-down character whose mission is an extra condition."""

    def tie(self) -> int:
        return self.relation

    def private_character(self) -> str:
        return self.secret_character

    def set_private_character(self, character: str) -> None:
        self.secret_character = character


@dataclass(slots=True)
class ReturnMatch(MatchExt):
    """A 风声再临 match's own fields."""

    send_code: str | int = ""
    """What binds this turn's send: a 秘密下达 code word (``听风`` …), or a card number (情报处长's
    偷龙转凤 chose that very card: it must be sent); "" none. ``send_code_user`` may see the
    hand."""
    send_code_user: int = -1

    def code_hidden_from(self, seat: int, turn: int) -> bool:
        return bool(self.send_code) and seat not in (self.send_code_user, turn)

    def set_code(self, code: str) -> None:
        self.send_code = code


def seat_ext(seat: Seat) -> ReturnSeat:
    """A 风声再临 seat's own fields."""
    return seat_record(seat, ReturnSeat)


def match_ext(st: State) -> ReturnMatch:
    """A 风声再临 match's own fields."""
    return match_record(st, ReturnMatch)
