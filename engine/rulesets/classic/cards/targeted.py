"""试探, 锁定, 调虎离山: the functions that name a player (digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, choose_option
from engine.state import Frame, Item

from .. import marks, ruledata
from ..characters.base import ask_choose, hand_choices, probe_choice
from .base import PLAY_PHASES, CardFunction, own_turn, register, timing

if TYPE_CHECKING:
    from engine.game import Game


@register
class Probe(CardFunction):
    """试探: own turn, play phase; handed face down to another player, who acts by their
    true identity (discard form: discard 1 / draw form: draw 2, else only a sentence).
    Seen only by user and target; removed from the game face down afterwards, discarded
    face up when 识破'd (digest §9, §12 D2)."""

    id: ClassVar[str] = "probe"
    face_down: ClassVar[bool] = True
    targeted: ClassVar[bool] = True

    def timing_ok(self, g: Game, seat: int) -> bool:
        return own_turn(g, seat) and timing(g) in PLAY_PHASES

    def resolve(self, g: Game, item: Item) -> None:
        who = item.target
        named, form = ruledata.PROBE[item.card]
        hit = g.state.seats[who].identity == named
        choice = probe_choice(g, who, item)
        if choice is not None:
            g.push(Frame("card_step", seat=who, card=item.card, text=self.id, order=[item.user]))
            return
        self.apply(g, item.user, who, item.card, form if hit else "")

    def apply(self, g: Game, user: int, who: int, card: int, action: str) -> None:
        """Carry out the 试探 (``action``: ``discard``, ``draw`` or "" for the sentence)."""
        if action == "draw":
            g.log("probe.draws_n_zh", who, {"seat": who, "n": 2, "zh": "试探"})
            g.draw(who, 2)
        elif action == "discard":
            hand = g.state.seats[who].hand
            if not hand:
                g.log("probe.has_no_hand_card_discard", who, {"seat": who, "zh": "试探"})
                return
            g.push(Frame("card_step", seat=who, card=card, text=self.id, stage=1, order=[user]))
        else:
            words = "我是一个好人" if ruledata.PROBE[card][1] == "discard" else "其实我是卧底"
            g.log("probe.says_text", who, {"seat": who, "text": words})

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Stage 0 (城府): the card's action or only the sentence (``choose none``); stage 1:
        the hand card to discard."""
        if fr.stage == 0:
            return [choose_option(ruledata.PROBE[fr.card][1]), choose_option("none")]
        return hand_choices(g, seat)

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if fr.stage == 0:
            # A skill (城府) lets the target carry out either answer of the card, whatever its
            # identity: the card's action (discard / draw) or only the sentence (none).
            if not fr.answer:
                ask_choose(g, fr.seat, "prompt.choose.zh_which_answer", self.choices(g, fr.seat, fr),
                           args={"zh": "试探"})
                return
            form = fr.given().option
            st.stack.pop()
            self.apply(g, fr.order[0], fr.seat, fr.card, "" if form == "none" else form)
            return
        if not fr.answer:
            ask_choose(g, fr.seat, "prompt.choose.zh_discard_n_hand_card", self.choices(g, fr.seat, fr),
                       args={"zh": "试探", "n": 1})
            return
        card = fr.given().pick
        st.stack.pop()
        g.discard_from_hand(fr.seat, [card])

    def after(self, g: Game, item: Item) -> None:
        if item.negated:
            g.discard_card(item.card)
        else:
            g.state.removed.append(item.card)


@register
class Lock(CardFunction):
    """锁定: own turn, play phase or 情报传递 step; the named player must take the intel
    that reaches them this turn (digest §5, §9; D21: several count once)."""

    id: ClassVar[str] = "lock"
    targeted: ClassVar[bool] = True

    def timing_ok(self, g: Game, seat: int) -> bool:
        return own_turn(g, seat) and timing(g) in ("main1", "main2", "transmit")

    def resolve(self, g: Game, item: Item) -> None:
        if item.target not in g.state.locked:
            g.state.locked.append(item.target)
        g.log("lock.locked_zh", item.target, {"seat": item.target, "zh": "锁定"})


@register
class LureAway(CardFunction):
    """调虎离山: 情报传递 step, any turn; the named player takes no part in this turn's
    transmission; never the sender; no effect on a locked player (digest §5, §9)."""

    id: ClassVar[str] = "lure_away"
    targeted: ClassVar[bool] = True

    def timing_ok(self, g: Game, seat: int) -> bool:
        return timing(g) == "transmit" and g.state.transit is not None

    def targets(self, g: Game, seat: int) -> list[int]:
        t = g.state.transit
        sender = t.sender if t is not None else -1
        return [s for s in g.living() if s != seat and s != sender]

    def resolve(self, g: Game, item: Item) -> None:
        marks.add(g.state, marks.lured(item.target))
        g.log("lure_away.lured_away_zh", item.target, {"seat": item.target, "zh": "调虎离山"})
