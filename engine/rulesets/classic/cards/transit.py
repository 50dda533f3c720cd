"""截获, 退回, 破译: the functions that act on the intel in transmission (digest §5, §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.state import Item

from .. import marks
from ..characters.base import fire
from ..intel import take_intel
from .base import CardFunction, own_turn, register, timing

if TYPE_CHECKING:
    from engine.game import Game


@register
class Intercept(CardFunction):
    """截获: 情报传递 step, other players' turns; the user takes the intel at once (not a
    transmission: 锁定, 调虎离山 and the mode do not limit it). Several resolve LIFO: the
    last used gets it, the others find no intel and fail (digest §5, §6.3)."""

    id: ClassVar[str] = "intercept"

    def timing_ok(self, g: Game, seat: int) -> bool:
        return timing(g) == "transmit" and not own_turn(g, seat) and g.state.transit is not None

    def valid(self, g: Game, item: Item) -> bool:
        return g.state.seats[item.user].alive and g.state.transit is not None

    def resolve(self, g: Game, item: Item) -> None:
        take_intel(g, item.user, cause="intercept")


@register
class SendBack(CardFunction):
    """退回: 情报到达 step, the intel at you, not in your turn, not when locked; it travels
    the other way from then on; a 直达 goes back to its sender, who must take it (§12 D13)."""

    id: ClassVar[str] = "send_back"

    def timing_ok(self, g: Game, seat: int) -> bool:
        t = g.state.transit
        return (timing(g) == "arrive" and t is not None and t.holder == seat and not own_turn(g, seat)
                and seat not in g.state.locked)

    def valid(self, g: Game, item: Item) -> bool:
        t = g.state.transit
        return t is not None and t.holder == item.user and g.state.seats[item.user].alive

    def resolve(self, g: Game, item: Item) -> None:
        t = g.state.transit
        assert t is not None
        t.direction = -t.direction
        marks.add(g.state, marks.SEND_BACK)
        g.log("send_back.sends_intel_back_zh", item.user, {"seat": item.user, "zh": '退回'})


@register
class Decrypt(CardFunction):
    """破译: 情报到达 step, the intel at you; look at it (only you; legal on a 文本 too)."""

    id: ClassVar[str] = "decrypt"

    def timing_ok(self, g: Game, seat: int) -> bool:
        t = g.state.transit
        return timing(g) == "arrive" and t is not None and t.holder == seat

    def valid(self, g: Game, item: Item) -> bool:
        return g.state.transit is not None and g.state.seats[item.user].alive

    def resolve(self, g: Game, item: Item) -> None:
        t = g.state.transit
        assert t is not None
        if item.user not in t.known_by:
            t.known_by.append(item.user)
        g.log("decrypt.decrypts_intel_card", item.user, {"seat": item.user, "card": t.card}, audience=(item.user,),
              cards=(t.card,), public="decrypt.decrypts_intel")
        fire(g, "decrypted", item.user, item=item)
