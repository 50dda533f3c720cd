"""The flow of a turn as frame handlers on the engine's explicit stack.

A handler looks at its frame, does what it can, and either opens a decision
(:meth:`Game.ask`), pushes more work, or pops itself. When a decision is answered, the
action is written into the top frame's ``answer`` and its handler runs again. Nothing is
held in Python call frames, so any decision point snapshots and restores.

Rules: turn (rulebook p.5; digest §4), intel steps (p.4–5; §4), the response chain
(p.4 ①–⑦; §5), death and victory (p.5; §6–7).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.action import ACCEPT, DECLARE, DECLINE, choose
from engine.state import Frame, Item, Transit
from engine.text import ArgValue

from . import deck, marks, ruledata
from .choices import ask_choice
from .legal import skill_plays
from .records import match_ext
from .rules import check_victory, dying_seats, h_death, identity_action, schedule_deaths, turn_draw_count
from .setup import h_characters
from .transit import move_to, pass_on
from .triggers import h_chain, h_cost, h_resolve, h_trigger, open_window, start_chain, use_action, use_skill

if TYPE_CHECKING:
    from engine.game import Game

HAND_LIMIT = ruledata.HAND_LIMIT


# ---------------------------------------------------------------------- turn
def h_turn(g: Game, fr: Frame) -> None:
    """A seat's turn: start, draw 2, play phase with the send, discard to 6, end
    (rulebook p.5; turn-start and turn-end windows for skills)."""
    st = g.state
    s = fr.seat
    alive = st.seats[s].alive
    if fr.stage == 0:
        st.turn = s
        st.turn_number += 1
        st.received = False
        st.locked.clear()
        match_ext(st).send_code = ""
        match_ext(st).send_code_user = -1
        marks.remove(st, marks.Used)
        g.log("turn_start.turn_n_seat", s, {"n": st.turn_number, "seat": s})
        fr.stage = 1
        if alive and st.characters:
            g.push(Frame("turn_start", seat=s))
    elif fr.stage == 1:
        fr.stage = 2
        if alive:
            g.draw(s, turn_draw_count(g, s))
    elif fr.stage == 2:
        fr.stage = 3
        if alive:
            g.push(Frame("main", seat=s))
    elif fr.stage == 3:
        if alive and extra_send(g, s):
            return
        fr.stage = 4
        if alive and len(st.seats[s].hand) > HAND_LIMIT:
            g.push(Frame("discard", seat=s))
    elif fr.stage == 4:
        fr.stage = 5
        if alive:
            open_window(g, "turn_end", s)
    else:
        g.log("turn_end.ends_turn", s, {"seat": s})
        st.stack.pop()
        st.transit = None
        marks.end_turn(st)
        st.stack.append(Frame("turn", seat=g.next_living(s, 1)))


def extra_send(g: Game, seat: int) -> bool:
    """单枪匹马: each ``send_extra`` flag grants one more play phase and send this turn once
    the intel sent before is done with (p.15); ``send_extra_used`` counts those taken."""
    st = g.state
    if marks.count(st, marks.SendExtra()) <= marks.count(st, marks.SendExtraUsed()):
        return False
    marks.add(st, marks.SendExtraUsed())
    st.received = False
    st.transit = None
    match_ext(st).send_code = ""
    match_ext(st).send_code_user = -1
    g.log("extra_send.may_send_one_more_intel", seat, {"seat": seat})
    g.push(Frame("main", seat=seat))
    return True


def h_turn_start(g: Game, fr: Frame) -> None:
    """Before the turn-start draw: the turn player may use turn-start skills (乔装,
    战术大师, 先机后置, 精明, 英雄本色). A face-down turn player is always asked."""
    st = g.state
    s = fr.seat
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action.kind == "pass":
            st.stack.pop()
            return
        start_chain(g, use_skill(g, s, action), "turn_start")
        return
    if skill_plays(g, s, "turn_start") or not st.seats[s].exposed:
        g.ask(s, "turn_start", "prompt.turn_start.before_your_draw_use_skill", args={})
        return
    st.stack.pop()


def h_main(g: Game, fr: Frame) -> None:
    """The play phase: use cards, then declare the send (rulebook p.5 ②)."""
    st = g.state
    if not st.seats[fr.seat].alive or st.received:
        st.stack.pop()
        return
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action == DECLARE:
            st.stack.pop()
            g.push(Frame("send", seat=fr.seat))
            g.log("declare.declares_intel_send", fr.seat, {"seat": fr.seat})
            start_chain(g, Item("declare", fr.seat), "declare")
        else:
            depth = len(st.stack)
            item = use_action(g, fr.seat, action)
            # Windows the cost opened (成仁取义's discard: 线索) come before the poll, as
            # at response points and for triggered skills (triggers.py h_trigger).
            opened = st.stack[depth:]
            del st.stack[depth:]
            start_chain(g, item, "main")
            st.stack.extend(opened)
        return
    g.ask(fr.seat, "main", "prompt.main.use_cards_or_declare_intel", args={})


def h_send(g: Game, fr: Frame) -> None:
    """After the declaration resolved: pick the intel, its mode and route (p.5 ①)."""
    st = g.state
    s = fr.seat
    if fr.stage == 1 or not st.seats[s].alive:
        st.stack.pop()
        return
    if not fr.answer:
        seat = st.seats[s]
        if not seat.hand and not st.pile:
            g.reshuffle()
        if not seat.hand and not st.pile:
            g.log("no_intel.has_no_card_send", s, {"seat": s})
            st.stack.pop()
            return
        g.ask(s, "send", "prompt.send.send_intel_card_mode_route", args={})
        return
    send = fr.answer
    assert send is not None
    fr.answer = None
    fr.stage = 1
    if send.pile:
        card = g.take_pile_top()
        g.log("pile_send.sends_pile_top", s, {"seat": s}, audience=(s,), cards=(card,),
              public="pile_send.sends_pile_top")
    else:
        card = send.card
        st.seats[s].hand.remove(card)
    mode = send.mode
    target = send.target
    direction = 0 if mode == "direct" else (-1 if send.arrow == "left" else 1)
    t = Transit(card=card, mode=mode, direction=direction, sender=s, user=s, holder=s, target=target,
                face_up=mode == "text", known_by=[s])
    st.transit = t
    if st.characters:
        marks.add(st, marks.Sent(s, card))
    key, public = ("send.sends_card_direct_seat", "send.face_down_direct") if mode == "direct" else (
        "send.sends_card_id_id", "send.face_down")
    args: dict[str, ArgValue] = {"seat": s, "card": card, "seat2": target, "id": mode,
                                 "id2": "left" if direction < 0 else "right"}
    g.log(key, s, args, audience=() if t.face_up else (s,), cards=(card,), public=None if t.face_up else public)
    move_to(g, target if mode == "direct" else g.next_living(s, direction))
    g.push(Frame("transit", seat=s))
    open_window(g, "send", s, card=card)


def h_transit(g: Game, fr: Frame) -> None:
    """The intel travels until someone receives it successfully (p.4 ④, p.5 ②)."""
    st = g.state
    t = st.transit
    if t is None or st.received:
        st.stack.pop()
        return
    h = t.holder
    if not fr.answer and not st.seats[h].alive:
        # The holder died while the intel was with them (a skill at a response point):
        # a dead sender cannot take it back, so it is discarded and nobody receives it
        # this turn; any other dead holder passes it on by its mode, as a decline.
        if h == t.sender:
            g.log("intel_lost.intel_card_comes_back_dead", h, {"card": t.card}, cards=(t.card,))
            g.discard_card(t.card)
            st.transit = None
            st.stack.pop()
        else:
            pass_on(g, h)
        return
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action == ACCEPT:
            if h == t.sender and not t.sender_done:
                t.sender_done = True
                others = [(h + i) % st.players for i in range(1, st.players)]
                g.push(Frame("returned", seat=h, order=others))
                return
            g.log("receive.chooses_receive_intel", h, {"seat": h})
            start_chain(g, Item("receive", h, on=t.card), "receive")
            # 情报接收时 as a trigger (以爱宣名: whoever chooses to receive carries out the
            # sender's declaration, even if the receipt later fails); before the poll.
            open_window(g, "receive_chosen", h, card=t.card)
        elif action == DECLINE:
            g.log("decline.declines_intel", h, {"seat": h})
            pass_on(g, h)
        else:
            depth = len(st.stack)
            item = use_action(g, h, action)
            # Frames the cost opened (a ``cost`` frame: 暗杀's discards) come before the
            # poll, as in the play phase (h_main).
            opened = st.stack[depth:]
            del st.stack[depth:]
            start_chain(g, item, "arrive")
            st.stack.extend(opened)
        return
    if h == t.sender and t.sender_done:
        fr.answer = ACCEPT
        return
    g.ask(h, "arrive", "prompt.arrive.intel_reached_you_accept_or", args={})


def h_returned(g: Game, fr: Frame) -> None:
    """The intel is back at its sender: the other players may still use 调包 (p.8)."""
    st = g.state
    t = st.transit
    if t is None or t.holder != t.sender or st.received:
        st.stack.pop()
        return
    if fr.answer:
        action, fr.answer = fr.answer, None
        seat = fr.order[fr.index]
        fr.index += 1
        if action.kind != "pass":
            start_chain(g, use_action(g, seat, action), "returned")
        return
    while fr.index < len(fr.order) and not st.seats[fr.order[fr.index]].alive:
        fr.index += 1
    if fr.index >= len(fr.order):
        st.stack.pop()
        return
    g.ask(fr.order[fr.index], "returned", "prompt.returned.intel_back_at_sender_use", args={"zh": "调包"})


def h_discard(g: Game, fr: Frame) -> None:
    """Turn end: the turn player discards down to 6 (p.5 ③)."""
    st = g.state
    hand = st.seats[fr.seat].hand
    if fr.answer:
        card = fr.given().pick
        fr.answer = None
        g.discard_from_hand(fr.seat, [card])
        return
    if len(hand) <= HAND_LIMIT:
        st.stack.pop()
        return
    g.ask(fr.seat, "discard", "prompt.discard.discard_down_n_n_more",
          args={"n": HAND_LIMIT, "n2": len(hand) - HAND_LIMIT})


def h_after(g: Game, fr: Frame) -> None:
    """After intel is placed with a player (成功接收). Victory beats death (p.5 ③); then
    the pre-receipt window (牺牲); players now holding 3 fake intel are dying: death-time
    skills first, then what was left unresolved — 公开文本's action — then the deaths
    themselves (p.5 角色死亡 ①②); then the receipt window. ``fr.seat`` receiver,
    ``fr.card`` the card, ``fr.order`` seats credited with a kill, ``fr.text`` the cause,
    ``fr.cards`` every card placed at once (血染)."""
    st = g.state
    seat = st.seats[fr.seat]
    if fr.stage == 0:
        fr.stage = 1
        if check_victory(g):
            return
        open_window(g, "pre_received", fr.seat, card=fr.card, cards=fr.cards)
        return
    if fr.stage == 1:
        fr.stage = 2
        for s in reversed(newly_dying(g, fr)):
            open_window(g, "dying", s)
        return
    if fr.stage == 2:
        fr.stage = 4
        if deck.FUNCTION[fr.card] == "public_text" and seat.alive and fr.card in seat.intel:
            kind, n = identity_action(g, fr.card, seat.identity)
            key = "public_text.carries_out_zh_draw_n" if kind == "draw" else "public_text.carries_out_zh_discard_n"
            g.log(key, fr.seat, {"seat": fr.seat, "zh": "公开文本", "n": n})
            if kind == "draw":
                g.draw(fr.seat, n)
            elif seat.hand:
                fr.stage = 3
                ask_card(g, fr.seat, seat.hand, "prompt.choose.zh_discard_hand_card", args={"zh": "公开文本"})
                return
    if fr.stage == 3:
        fr.stage = 4
        card = fr.given().pick
        fr.answer = None
        g.discard_from_hand(fr.seat, [card])
        return
    if fr.stage == 4:
        fr.stage = 5
        schedule_deaths(g, fr.order, fr.text, announced=True, seats=newly_dying(g, fr))
        return
    if fr.stage == 5:
        fr.stage = 6
        if check_victory(g):
            return
        open_window(g, "received", fr.seat, card=fr.card, cards=fr.cards or [fr.card])
        return
    st.stack.pop()


def newly_dying(g: Game, fr: Frame) -> list[int]:
    """The players this receipt makes die: :func:`dying_seats`, except when the receipt is
    nested in a death under way further down the stack (a death frame, or an earlier
    receipt past its dying window): then only its receiver, unless that one is already
    dying there. A receipt made by a death-time skill (核能芯片) thus kills its receiver
    first, credited to the skill's user, and the original death follows with its own
    killers (rulebook p.10 核能芯片 note)."""
    outer: set[int] = set()
    for f in g.state.stack:
        if f is fr:
            break
        if f.kind == "death" or (f.kind == "after" and 2 <= f.stage <= 5):
            outer.add(f.seat)
    dying = dying_seats(g)
    if not outer:
        return dying
    return [fr.seat] if fr.seat in dying and fr.seat not in outer else []


def ask_card(g: Game, seat: int, cards: list[int], key: str, args: dict[str, ArgValue]) -> None:
    """``seat`` picks one of ``cards``; ``key`` and ``args``: what is asked (a prompt row
    of data/return-text.tsv and its arguments)."""
    ask_choice(g, seat, key, [choose(c) for c in sorted(set(cards))], args=args)


HANDLERS: dict[str, Callable[[Game, Frame], None]] = {
    "turn": h_turn,
    "main": h_main,
    "send": h_send,
    "transit": h_transit,
    "returned": h_returned,
    "discard": h_discard,
    "chain": h_chain,
    "resolve": h_resolve,
    "after": h_after,
    "turn_start": h_turn_start,
    "trigger": h_trigger,
    "death": h_death,
    "characters": h_characters,
    "cost": h_cost,
}
