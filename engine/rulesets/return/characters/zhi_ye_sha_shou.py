"""职业杀手: 雇佣关系 and 暗杀 (rulebook p.16; digest §9, §11.15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck
from ..cards.basic import burn_intel
from ..characters.base import Mission, Skill, game_start_naming, take_answer
from ..choices import ask_choice
from ..records import seat_ext

if TYPE_CHECKING:
    from engine.game import Game

GU_YONG = "gu_yong_guan_xi"
AN_SHA = "an_sha"


def employer(g: Game, seat: int) -> int:
    """The employer this seat named at game start (-1: none). The relation stays for the
    whole game, even if the skill is taken away by 乔装 (p.16 雇佣关系 ①)."""
    p = g.state.seats[seat]
    return seat_ext(p).relation if p.character == "zhi_ye_sha_shou" else -1


class GuYongGuanXi(Skill):
    """雇佣关系: at game start name another player as your employer and look at their
    identity. Each time they successfully receive a fake intel you discard 1 hand card
    (forced; even when that fake kills them, p.16 ②); each time they receive a true intel
    you may draw 2. Two fakes at once (血染) count as one receipt.

    ``skill gu_yong_guan_xi to S`` at game start (forced); at the employer's receipt,
    ``skill gu_yong_guan_xi cards N`` (the discard, forced) or ``skill gu_yong_guan_xi``
    (draw 2, optional)."""

    id = GU_YONG
    zh = "雇佣关系"
    windows = ("game_start", "received")

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        named = game_start_naming(g, seat, ev, self.id)
        if named is not None:
            return named
        boss = employer(g, seat)
        if boss < 0 or ev.seat != boss:
            return []
        cards = ev.cards or [ev.card]
        if any(deck.IS_BLACK[c] for c in cards):
            return [use_skill(self.id, cards=(c,)) for c in sorted(set(st.seats[seat].hand))]
        return [use_skill(self.id)]

    def forced_at(self, g: Game, seat: int, ev: Frame) -> bool:
        return ev.text == "game_start" or any(deck.IS_BLACK[c] for c in ev.cards or [ev.card])

    def on_use(self, g: Game, item: Item) -> None:
        if item.target >= 0:
            item.code = "name"

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        me = st.seats[item.user]
        if item.code == "name":
            item.done = True
            seat_ext(me).relation = item.target
            g.log("employer.names_seat_as_employer", item.user, {"seat": item.user, "seat2": item.target},
                  seats=(item.target,))
            ident = st.seats[item.target].identity
            g.log("look_identity.looks_at_seat_identity_id", item.user,
                  {"seat": item.user, "seat2": item.target, "id": ident}, audience=(item.user,), seats=(item.target,),
                  public="look_identity.looks_at_seat_identity")
            return True
        if not me.alive:
            return True
        item.done = True
        if item.cards:
            if item.cards[0] in me.hand:
                g.discard_from_hand(item.user, [item.cards[0]])
        else:
            g.draw(item.user, 2)
        return True


def burnable_true(g: Game, seat: int) -> list[int]:
    st = g.state
    return sorted({c for c in st.seats[seat].intel if deck.IS_TRUE[c] and (st.tutorial or not deck.ENCRYPTED[c])})


class AnSha(Skill):
    """暗杀: in another player's turn, you may burn one of your true intel or discard 3
    hand cards, then that turn player (对方) successfully receives a fake intel from your
    hand (a grey card, summary). Several times a turn, but not twice at one timing (p.16).

    The fake card is named at use and is on its way at once: ``skill an_sha to T cards I
    on F`` burns true intel I (not encrypted); ``skill an_sha to T on F`` discards 3 other
    hand cards, picked one by one before the responses (``choose N``; a ``cost`` frame).
    Used at response points and at your own intel arrival."""

    id = AN_SHA
    zh = "暗杀"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        turn = st.turn
        if ctx not in ("respond", "arrive") or turn == seat or not st.seats[turn].alive:
            return []
        hand = st.seats[seat].hand
        out: list[Action] = []
        for f in sorted({c for c in hand if deck.IS_BLACK[c]}):
            out.extend(use_skill(self.id, turn, cards=(i,), on=f) for i in burnable_true(g, seat))
            if len(hand) >= 4:
                out.append(use_skill(self.id, turn, on=f))
        return out

    def on_use(self, g: Game, item: Item) -> None:
        st = g.state
        p = st.seats[item.user]
        p.hand.remove(item.on)
        item.held = [item.on]
        if item.cards:
            burn_intel(g, item.user, item.cards[0])
        else:
            g.push(Frame("cost", seat=item.user, text=self.id))

    def pay(self, g: Game, item: Item, fr: Frame) -> bool:
        """The cost: pick 3 hand cards, then discard them at once."""
        if fr.answer:
            fr.cards.append(take_answer(fr).pick)
        hand = list(g.state.seats[item.user].hand)
        for c in fr.cards:
            hand.remove(c)
        if len(fr.cards) < 3 and hand:
            ask_choice(g, item.user, "prompt.choose.zh_pick_hand_card_discard",
                       [choose(c) for c in sorted(set(hand))], args={"zh": "暗杀", "n": len(fr.cards) + 1, "n2": 3})
            return False
        item.cards = list(fr.cards)
        g.discard_from_hand(item.user, item.cards)
        return True

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 1 or not st.seats[item.target].alive or not st.seats[item.user].alive:
            return True
        item.done = True
        fr.stage = 1
        g.place_intel(item.target, list(item.held), [item.user], cause=AN_SHA)
        item.held = []
        return False


class ZhiYeShaShouMission(Mission):
    """Kill, by your own hand, a player of a different faction from your employer
    (summary: 親手殺死一名與僱主不同陣營的玩家). An agent employer has no faction: every
    other agent differs (decision §11.15); the employer never does."""

    def done(self, g: Game, seat: int) -> bool:
        st = g.state
        boss = seat_ext(st.seats[seat]).relation
        if boss < 0:
            return False
        mine = st.seats[boss].identity
        return any(k.dead != boss and (k.identity != mine or mine == "agent")
                   for k in st.kills if seat in k.killers and k.dead != seat)


SKILLS = (GuYongGuanXi(), AnSha())
MISSION = ZhiYeShaShouMission()
