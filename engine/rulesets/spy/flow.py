"""The 谍战篇 turn as frames on the engine stack (spy digest §4–§6): five fixed phases
(draw, play, transmission, contest, receive), the node check after every effect (§5.3:
triggers, collection victories, dying), rescue rounds (§6.2), death (§6.3) and the turn's
end. There is no response chain: every card or skill resolves completely, in a queue
(§5.1), before the next decision.

Frame kinds: ``spy_turn`` (stage 0 start and draw, 1 play phase, 2 transmission starts, 3
after the intel, 4 turn end), ``spy_travel`` (the intel moving, ``arrive`` decisions),
``spy_contest`` (the asking round of §4.4), ``spy_receive``, ``spy_settle`` (a node),
``spy_dying`` (the dying players one by one), ``spy_rescue`` (one rescue round),
``spy_death`` (dying players who were not saved), ``spy_card`` (a card or skill effect
waiting for a ``choose``), ``spy_trigger`` (a triggered skill's "you may"),
``characters`` (set-up)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import ACCEPT, DECLINE, Action
from engine.marks import add, end_turn
from engine.state import Frame, Kill, Transit

from . import cards, deck, ruledata, skills
from .marks import Lost
from .nodes import settle
from .setup import h_characters
from .victory import (
    collection_winners,
    death_winners,
    finish,
    last_standing,
    mark_died,
    turn_end_winners,
)

if TYPE_CHECKING:
    from engine.game import Game


def blacks(g: Game, seat: int) -> int:
    return deck.count(g.state.seats[seat].intel, "black")


# ---------------------------------------------------------------------- the turn
def h_turn(g: Game, fr: Frame) -> None:
    st = g.state
    seat = fr.seat
    if fr.stage == 0:  # a new turn: draw phase (§4.1)
        st.turn = seat
        st.turn_number += 1
        st.locked = []
        st.received = False
        g.log("turn.turn_n_seat", seat, {"n": st.turn_number, "seat": seat})
        g.draw(seat, ruledata.TURN_DRAW)
        fr.stage = 1
        return
    if fr.stage == 1:  # play phase (§4.2): the turn player acts until `pass`
        if not st.seats[seat].alive:
            fr.stage = 4
            return
        if fr.answer:
            action, fr.answer = fr.answer, None
            if action.kind == "pass":
                fr.stage = 2
                return
            cards.apply_main(g, seat, action)
            return
        g.ask(seat, "main", "prompt.main.play_phase_use_cards_skills", args={})
        return
    if fr.stage == 2:  # transmission (§4.3)
        if not st.seats[seat].alive:
            fr.stage = 4
            return
        if fr.answer:
            action, fr.answer = fr.answer, None
            fr.stage = 3
            start_send(g, seat, action)
            return
        if not st.seats[seat].hand:
            lose(g, seat)
            fr.stage = 4
            return
        g.ask(seat, "send", "prompt.send.send_one_hand_card_as", args={})
        return
    if fr.stage == 3:
        fr.stage = 4
        return
    # turn end (§4.5): the 搅局者 check, then the right-hand neighbour's turn
    if st.transit is not None:
        g.discard_card(st.transit.card)
        st.transit = None
    won = turn_end_winners(g)
    if won:
        finish(g, won, "jiao_ju_zhe at the turn end", "mission")
        return
    end_turn(st)
    st.locked = []
    st.stack.pop()
    if not g.living():
        finish(g, set(), "nobody is left", "nobody_left")
        return
    g.push(Frame("spy_turn", seat=g.next_living(seat)))


def lose(g: Game, seat: int) -> None:
    """§6.4: a turn player with no hand card at the transmission is out of the game: no
    death, no death victories; character, hand and intel are discarded."""
    st = g.state
    p = st.seats[seat]
    p.alive = False
    add(st, Lost(seat))
    g.log("lose.cannot_send_out_game", seat, {"seat": seat})
    for c in p.intel:
        g.discard_card(c)
    p.intel = []
    for c in p.hand:
        g.discard_card(c)
    p.hand = []
    won = last_standing(g)
    if won is not None:
        finish(g, won, "last player standing", "last_standing")


def start_send(g: Game, seat: int, action: Action) -> None:
    """``send N [left|right] [to S] [lock L]``: the intel leaves face down (§4.3)."""
    st = g.state
    card = action.card
    direction = action.arrow or deck.DIRECTION[card]
    target = -1
    if action.to:
        direction = "up"
        target = action.target
    st.seats[seat].hand.remove(card)
    step = deck.ARROWS[direction]
    holder = target if direction == "up" else g.next_living(seat, step)
    st.transit = Transit(card=card, mode=direction, direction=step, sender=seat, user=seat, holder=holder,
                         target=target, known_by=[seat])
    g.log("send.sends_card_id", seat, {"seat": seat, "card": card, "id": direction}, audience=(seat,), cards=(card,),
          public="send.sends_intel_id")
    if action.lock >= 0:
        st.locked = [action.lock]
        g.log("lock.locks_seat", seat, {"seat": seat, "seat2": action.lock}, seats=(action.lock,))
    g.push(Frame("spy_travel"))
    skills.fire(g, "sent", seat)


# ---------------------------------------------------------------------- transmission
def h_travel(g: Game, fr: Frame) -> None:
    st = g.state
    t = st.transit
    if t is None:
        st.stack.pop()
        return
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action == ACCEPT:
            g.log("accept.accepts_intel", t.holder, {"seat": t.holder}, seats=(t.holder,))
            st.stack.pop()
            g.push(Frame("spy_contest", stage=1))
            skills.fire(g, "accepted", t.holder)
            return
        if action == DECLINE:
            g.log("decline.declines_intel", t.holder, {"seat": t.holder}, seats=(t.holder,))
            move_on(g)
            return
        cards.apply_arrive(g, t.holder, action)
        return
    h = t.holder
    if not st.seats[h].alive:  # a dead player: it moves on; back at a dead sender: discarded
        if h == t.sender:
            g.discard_card(t.card)
            g.log("intel_lost.intel_card_discarded", -1, {"card": t.card}, cards=(t.card,))
            st.transit = None
            st.stack.pop()
            return
        move_on(g)
        return
    g.log("arrive.intel_in_front_seat", h, {"seat": h}, seats=(h,))
    g.ask(h, "arrive", "prompt.arrive.accept_or_decline_intel", args={})


def move_on(g: Game) -> None:
    """The intel goes on (§2): along its arrow, or back to the sender for ↑."""
    t = g.state.transit
    assert t is not None
    if t.direction == 0:
        t.holder = t.sender
    else:
        nxt = (t.holder + t.direction) % g.state.players
        t.holder = nxt


# ---------------------------------------------------------------------- contest
def h_contest(g: Game, fr: Frame) -> None:
    """§4.4: ask from the seat the pending intel stands before, in turn order; a use
    restarts the asking there; a full round of passes ends the phase."""
    st = g.state
    t = st.transit
    if t is None:  # taken away (搜缉): the turn ends without a receipt
        st.stack.pop()
        return
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action.kind == "pass":
            fr.index += 1
            fr.seat = g.next_living(fr.seat)
        else:
            cards.apply_contest(g, fr.seat, action)
            fr.stage = 1
            return
    if fr.stage == 1:
        fr.stage = 0
        fr.index = 0
        fr.seat = t.holder if st.seats[t.holder].alive else g.next_living(t.holder)
    living = g.living()
    if fr.index >= len(living) or not living:
        st.stack.pop()
        g.push(Frame("spy_receive"))
        return
    if not st.seats[fr.seat].alive:
        fr.seat = g.next_living(fr.seat)
    g.ask(fr.seat, "contest", "prompt.contest.contest_phase_use_contest_card", args={})


def h_receive(g: Game, fr: Frame) -> None:
    """§4.5: the seat the pending intel stands before receives it, face up; then the
    node (receive triggers, victory, dying)."""
    st = g.state
    st.stack.pop()
    t = st.transit
    if t is None:
        return
    st.transit = None
    r = t.holder
    if not st.seats[r].alive:
        g.discard_card(t.card)
        g.log("intel_lost.intel_card_discarded", -1, {"card": t.card}, cards=(t.card,))
        return
    st.seats[r].intel.append(t.card)
    st.received = True
    g.log("receive.receives_cards", r, {"seat": r, "cards": (t.card,)}, cards=(t.card,), seats=(r, t.sender))
    settle(g)
    skills.fire(g, "received", r, card=t.card, sender=t.sender)


# ---------------------------------------------------------------------- nodes, dying, death
#: Frames of a dying or death resolution: nodes inside them check nothing (§5.3 last line).
RESOLVING_DEATH = frozenset({"spy_dying", "spy_rescue", "spy_death"})


def h_settle(g: Game, fr: Frame) -> None:
    """§5.3 steps 2–3 (triggers are frames pushed above this one): collection victories,
    then every living player with 3+ black intel becomes dying."""
    st = g.state
    st.stack.pop()
    if any(f.kind in RESOLVING_DEATH for f in st.stack):
        return  # postponed to the node after the dying and death resolution (§5.3)
    won = collection_winners(g)
    if won:
        finish(g, won, "intel collected", "intel")
        return
    t = st.turn
    order = [(t + i) % st.players for i in range(st.players)]
    dying = [s for s in order if st.seats[s].alive and blacks(g, s) >= ruledata.DEATH_BLACKS]
    if dying:
        g.push(Frame("spy_dying", order=dying))


def h_dying(g: Game, fr: Frame) -> None:
    """§6.1–6.2: the dying players one by one from the turn player; each gets a rescue
    round; those not saved die together (``cards`` collects them)."""
    st = g.state
    while fr.index < len(fr.order):
        s = fr.order[fr.index]
        fr.index += 1
        if st.seats[s].alive and blacks(g, s) >= ruledata.DEATH_BLACKS:
            g.log("dying.dying", s, {"seat": s}, seats=(s,))
            n = st.players
            asked = [(s + i) % n for i in range(n) if st.seats[(s + i) % n].alive]
            g.push(Frame("spy_rescue", seat=s, order=asked))
            return
    st.stack.pop()
    if fr.cards:
        g.push(Frame("spy_death", order=list(fr.cards)))
    else:
        settle(g)  # the node after the rescue rounds: victory, anyone newly dying


def h_rescue(g: Game, fr: Frame) -> None:
    """One rescue round (§6.2): each living player from the dying one, once; after a 澄清
    the same player is asked again while 3+ black remain (§11.12)."""
    st = g.state
    if fr.answer:
        action, fr.answer = fr.answer, None
        if action.kind == "pass":
            fr.index += 1
        else:
            cards.apply_rescue(g, fr.order[fr.index], fr.seat, action)
            return
    if blacks(g, fr.seat) < ruledata.DEATH_BLACKS:
        g.log("rescued.recovers", fr.seat, {"seat": fr.seat}, seats=(fr.seat,))
        st.stack.pop()
        return
    while fr.index < len(fr.order) and not st.seats[fr.order[fr.index]].alive:
        fr.index += 1
    if fr.index >= len(fr.order):
        st.stack.pop()
        st.stack[-1].cards.append(fr.seat)
        return
    g.ask(fr.order[fr.index], "rescue", "prompt.rescue.dying_use_zh_on_them", args={"seat": fr.seat, "zh": "澄清"})


def h_death(g: Game, fr: Frame) -> None:
    """§6.3: the players of ``order`` die together: death victories, before-death skills,
    the hand-off of up to 3 cards, then hand and intel are discarded. Identities stay
    hidden (§11.17)."""
    st = g.state
    if fr.stage == 0:
        for d in fr.order:
            st.seats[d].alive = False
            mark_died(g, d)
            true = sum(1 for c in st.seats[d].intel if deck.IS_TRUE[c])
            st.kills.append(Kill(dead=d, killers=[], cause="dying", true_intel=true, identity=st.seats[d].identity))
            g.log("death.dies", d, {"seat": d}, seats=(d,))
        won = death_winners(g, fr.order)
        if won:
            finish(g, won, "a death", "mission")
            return
        fr.stage = 1
        skills.fire_before_death(g, fr.order)
        return
    if fr.stage == 1:  # hand-off (§6.3 step 3), one dead player after another
        if fr.answer:
            action, fr.answer = fr.answer, None
            if action.kind != "pass":
                cards.hand_off(g, fr.order[fr.index], action)
            fr.index += 1
        while fr.index < len(fr.order):
            d = fr.order[fr.index]
            if st.seats[d].hand and g.living():
                g.ask(d, "handoff", "prompt.handoff.you_died_give_up_n", args={"n": 3})
                return
            fr.index += 1
        fr.stage = 2
    for d in fr.order:  # step 4: the rest is discarded
        p = st.seats[d]
        for c in p.hand + p.intel:
            g.discard_card(c)
        if p.hand or p.intel:
            g.log("discard.discards_cards", d, {"seat": d, "cards": tuple(p.hand + p.intel)},
                  cards=tuple(p.hand + p.intel))
        p.hand = []
        p.intel = []
    st.stack.pop()
    # intel placed by before-death skills (遗信, 如归) is checked while the dead are still in
    # their death resolution: a dying 诱变者 may still win (§6.3, §7.2, FAQ 2.0 诱变者)
    won = collection_winners(g, tuple(fr.order))
    if won:
        finish(g, won, "intel collected", "intel")
        return
    standing = last_standing(g)
    if standing is not None:
        finish(g, standing, "last player standing", "last_standing")
        return
    settle(g)


HANDLERS = {
    "spy_turn": h_turn,
    "spy_travel": h_travel,
    "spy_contest": h_contest,
    "spy_receive": h_receive,
    "spy_settle": h_settle,
    "spy_dying": h_dying,
    "spy_rescue": h_rescue,
    "spy_death": h_death,
    "spy_card": cards.h_card,
    "spy_trigger": skills.h_trigger,
    "characters": h_characters,
}
