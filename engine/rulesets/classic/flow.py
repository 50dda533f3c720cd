"""The classic turn as frame handlers on the engine's explicit stack (digest §4–§7):
``turn`` (phases), ``window`` (the priority loop of §6.3), ``resolve`` (the chain, LIFO;
both through the core's :mod:`engine.chain`),
``send`` / ``transit`` (the transmission steps of §5), ``after`` (a receipt: deaths,
victory, triggers), ``dying`` (§7), and the ``card_step`` / ``skill_step`` frames of
effects that ask decisions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import chain
from engine.action import ACCEPT
from engine.state import Frame, Item, Kill, Transit
from engine.text import ArgValue

from . import deck, marks, ruledata
from .cards import FUNCTIONS
from .characters import MISSIONS, SKILLS
from .characters.base import draw_count, fire
from .intel import take_intel
from .legal import PRIORITY, receive_actions, send_actions
from .setup import h_characters
from .victory import check_victory, h_declare

if TYPE_CHECKING:
    from engine.game import Game

def h_turn(g: Game, fr: Frame) -> None:
    """A turn (§4): start window, draw 2, play phase 1, send, play phase 2, turn end."""
    st = g.state
    me = fr.seat
    if fr.stage > 0 and not st.seats[me].alive:
        fr.stage = 4
    if fr.stage == 0:
        st.turn = me
        st.turn_number += 1
        marks.clear_turn(st)
        st.locked = []
        st.received = False
        st.transit = None
        g.log("turn.turn_n_seat", me, {"n": st.turn_number, "seat": me})
        fr.stage = 1
        g.push(Frame("window", seat=me, text="start"))
    elif fr.stage == 1:
        fr.stage = 2
        drawn = g.draw(me, draw_count(g, me, ruledata.TURN_DRAW))
        if check_victory(g):
            return
        g.push(Frame("window", seat=me, text="main1"))
        fire(g, "drawn", me, cards=drawn)
    elif fr.stage == 2:
        fr.stage = 3
        if st.seats[me].hand:
            g.push(Frame("send", seat=me))
        else:
            g.log("send.has_no_card_send", me, {"seat": me})
    elif fr.stage == 3:
        fr.stage = 4
        g.push(Frame("window", seat=me, text="main2"))
    else:
        st.stack.pop()
        if st.seats[me].alive and not marks.has(st, marks.SENT):
            lose(g, me)
            if check_victory(g):
                return
        nxt = g.next_living(me)
        if not st.seats[nxt].alive:
            return
        st.locked = []
        st.transit = None
        g.push(Frame("turn", seat=nxt))


def h_window(g: Game, fr: Frame) -> None:
    """A step's priority loop (§6.3; :func:`engine.chain.pass_priority`): when every living
    player passed in succession the chain resolves LIFO, then the turn player holds
    priority again; all pass at an empty chain: the step ends."""
    st = g.state
    if fr.stage == 1:
        chain.priority_again(g, fr)
        if fr.text in ("transmit", "arrive") and st.transit is None:
            st.stack.pop()
            st.timing = ""
            return
    st.timing = fr.text
    if not chain.pass_priority(g, fr, PRIORITY):
        return
    if st.chain:
        fr.stage = 1
        g.push(Frame("resolve"))
        return
    st.stack.pop()
    st.timing = ""


class Resolution:
    """How a classic chain item resolves (§6.2 ③, §6.3): it fails if 识破'd or its target
    is gone (its skill's or card's ``valid``), else the "used on you" triggers fire; its
    effect, if still valid; then the card goes where its function says (or to the discard
    pile), the cards it held to the discard pile, and victory is checked."""

    def takes_effect(self, g: Game, item: Item, fr: Frame) -> bool:
        skill = SKILLS.get(item.code) if item.kind == "skill" else None
        fn = FUNCTIONS.get(item.kind)
        if item.negated or not (skill.valid(g, item) if skill is not None else fn is not None and fn.valid(g, item)):
            # 识破'd (voided) or its target gone (fails): two templates, so no English word
            # travels as an argument into the Chinese log
            g.log("resolve.id_voided" if item.negated else "resolve.id_fails", item.user,
                  {"seat": item.user, "id": item.code if skill else item.kind})
            return False
        if fn is not None:
            fire(g, "used_on", item.target, item=item)
        return True

    def effect(self, g: Game, item: Item, fr: Frame) -> bool:
        if item.kind == "skill":
            skill = SKILLS.get(item.code)
            if skill is not None:
                if skill.valid(g, item):
                    item.done = True
                    skill.resolve(g, item)
                return True
        fn = FUNCTIONS.get(item.kind)
        if fn is not None and fn.valid(g, item):
            item.done = True
            fn.resolve(g, item)
        return True

    def dispose(self, g: Game, item: Item) -> None:
        fn = FUNCTIONS.get(item.kind)
        if fn is not None:
            fn.after(g, item)
        elif item.card:
            g.discard_card(item.card)
        for c in item.held:
            g.discard_card(c)
        item.held = []
        check_victory(g)


RESOLUTION = Resolution()


def h_resolve(g: Game, fr: Frame) -> None:
    """Resolve the chain last-in-first-out (§6.2 ③, §6.3; :func:`engine.chain.resolve_chain`)."""
    chain.resolve_chain(g, fr, RESOLUTION)


def h_card_step(g: Game, fr: Frame) -> None:
    """A card effect that asks decisions; victory is checked after each of its steps."""
    depth = len(g.state.stack) - 1
    FUNCTIONS[fr.text].step(g, fr)
    _check_after_step(g, fr, depth)


def h_skill_step(g: Game, fr: Frame) -> None:
    """A skill that asks decisions (triggered skills: 偷天, 阳谋, 后着 …); victory is checked
    after each of its steps."""
    depth = len(g.state.stack) - 1
    SKILLS[fr.text].step(g, fr)
    _check_after_step(g, fr, depth)


def _check_after_step(g: Game, fr: Frame, depth: int) -> None:
    """A condition met by a card or skill step (a card taken into a hand by 偷天 or 阳谋,
    intel moved …) is declared at once, not at the next draw or receipt: "当任意一位玩家达到
    胜利條件就必须立刻宣告胜利，游戏立刻结束" (source 胜利 section; digest §8;
    docs/rule-decisions.md classic 14). A receipt or a death the step just started (an
    ``after`` or ``dying`` frame it pushed; ``depth``: where the step's frame stood) checks
    for itself, after settling the deaths it causes (classic 9: a third fake kills before
    a third red is declared)."""
    st = g.state
    if st.over or any(f is not fr and f.kind in ("after", "dying") for f in st.stack[depth:]):
        return
    check_victory(g)


def h_send(g: Game, fr: Frame) -> None:
    """The send phase (§4.4, §5): the turn player sends one hand card as intel."""
    st = g.state
    if not fr.answer:
        g.ask(fr.seat, "send", "prompt.send.send_one_hand_card_as", send_actions(g, fr.seat),
              args={})
        return
    send = fr.given()
    st.stack.pop()
    card = send.card
    mode = send.mode
    target = send.target if mode == "direct" else -1
    st.seats[fr.seat].hand.remove(card)
    marks.add(st, marks.SENT)
    t = Transit(card=card, mode=mode, direction=0 if mode == "direct" else 1, sender=fr.seat, user=fr.seat,
                holder=fr.seat, target=target, face_up=mode == "text", known_by=[fr.seat])
    st.transit = t
    key, public = ("send.sends_card_direct_seat", "send.sends_direct_seat") if mode == "direct" else (
        "send.sends_card_id", "send.sends_id")
    args: dict[str, ArgValue] = {"seat": fr.seat, "card": card, "id": mode, "seat2": target}
    if t.face_up:
        g.log(key, fr.seat, args, cards=(card,))
    else:
        g.log(key, fr.seat, args, audience=(fr.seat,), cards=(card,), public=public)
    g.push(Frame("transit", seat=fr.seat))


def next_hop(g: Game, t: Transit) -> int:
    """Where the intel goes next (§5): the 直达 target (unless lured and not locked, or
    dead), else back to the sender; 密电/文本 the next player in its direction, skipping
    dead players and lured ones (a locked one is not skipped; the sender is never
    skipped). -1: it came back to a dead sender (it is discarded)."""
    st = g.state
    n = st.players
    if t.mode == "direct":
        tgt = t.target
        if t.holder == t.sender and st.seats[tgt].alive and (tgt in st.locked or not is_lured(g, tgt)):
            return tgt
        return t.sender if st.seats[t.sender].alive else -1
    s = t.holder
    for _ in range(n):
        s = (s + t.direction) % n
        if s == t.sender:
            return s if st.seats[s].alive else -1
        if not st.seats[s].alive:
            continue
        if is_lured(g, s) and s not in st.locked:
            continue
        return s
    return -1


def is_lured(g: Game, seat: int) -> bool:
    return marks.has(g.state, marks.lured(seat))


def h_transit(g: Game, fr: Frame) -> None:
    """The transmission steps (§5): stage 0 情报传递 window, stage 1 the intel arrives
    (情报到达 window), stage 2 the 情报接收 decision, stage 3 its answer."""
    st = g.state
    t = st.transit
    if t is None:
        st.stack.pop()
        return
    if fr.stage == 0:
        fr.stage = 1
        g.push(Frame("window", seat=st.turn, text="transmit"))
    elif fr.stage == 1:
        nxt = next_hop(g, t)
        if nxt < 0:
            st.transit = None
            st.received = True
            g.discard_card(t.card)
            g.log("intel.intel_card_comes_back_dead", t.sender, {"card": t.card}, cards=(t.card,))
            st.stack.pop()
            return
        t.holder = nxt
        g.log("arrive.intel_arrives_at_seat", nxt, {"seat": nxt})
        fr.stage = 2
        g.push(Frame("window", seat=st.turn, text="arrive"))
    elif fr.stage == 2:
        if marks.has(st, marks.SEND_BACK):
            marks.remove(st, marks.SEND_BACK)
            fr.stage = 0
            return
        if not st.seats[t.holder].alive:
            fr.stage = 0
            return
        fr.stage = 3
        g.ask(t.holder, "receive", "prompt.receive.take_intel", receive_actions(g), args={})
    else:
        answer = fr.answer
        fr.answer = None
        if answer == ACCEPT:
            st.stack.pop()
            take_intel(g, t.holder, cause="send")
        else:
            g.log("decline.does_not_take_intel", t.holder, {"seat": t.holder})
            fr.stage = 0


def h_after(g: Game, fr: Frame) -> None:
    """After a receipt (§7, §8): a third fake kills at once; then victory; then the
    "when … receives" triggers (D19: placed intel counts as received)."""
    st = g.state
    seat = fr.seat
    if fr.stage == 0:
        fr.stage = 1
        s = st.seats[seat]
        if s.alive and sum(1 for c in s.intel if deck.IS_BLACK[c]) >= ruledata.DEATH_FAKES:
            g.push(Frame("dying", seat=seat, order=list(fr.order), text=fr.text))
        return
    if fr.stage == 1:
        fr.stage = 2
        if check_victory(g):
            return
        if st.seats[seat].alive:
            fire(g, "received", seat, cards=list(fr.cards), order=list(fr.order), text=fr.text)
        return
    st.stack.pop()


def h_dying(g: Game, fr: Frame) -> None:
    """A death (§7): death-time skills first (before the reveal; one may save: event
    ``dying``); if not saved, the ``death`` event (the death stands, hand and identity still
    in place: 搜取, 临危受命); then the player puts hand and intel in the discard pile and
    reveals character and identity.

    The death is recorded in the order of deaths when it happens, before the skills it
    triggers (source 死亡 section: "…他就会被杀害（死亡）然后按以下顺序进行"): a record
    goes into ``State.kills`` at once (``fr.index``: its place) and is completed at the
    reveal, so a player a death-time skill kills (后着) dies after this one, and every
    victory check in between sees this death (docs/rule-decisions.md classic 30). A save
    (:func:`save`, 救美) takes the record out again."""
    st = g.state
    if fr.stage == 0:
        fr.stage = 1
        fr.index = len(st.kills)
        st.kills.append(_record(g, fr.seat, list(fr.order), fr.text, revealed=False))
        fire(g, "dying", fr.seat, order=list(fr.order), text=fr.text)
        return
    if fr.stage == 1:
        if marks.has(st, marks.saved(fr.seat)):
            st.stack.pop()
            marks.remove(st, marks.saved(fr.seat))
            return
        # The death stands: "when a player dies" skills that need the hand and the
        # identity still in place (搜取, 临危受命) run now, before the reveal.
        fr.stage = 2
        fire(g, "death", fr.seat, order=list(fr.order), text=fr.text)
        return
    st.stack.pop()
    if not st.seats[fr.seat].alive:
        _unrecord(g, fr)
        return
    die(g, fr.seat, list(fr.order), fr.text, place=fr.index)
    fire(g, "died", fr.seat, order=list(fr.order), text=fr.text)
    check_victory(g)


def _record(g: Game, seat: int, killers: list[int], cause: str, *, revealed: bool = True) -> Kill:
    """The record of ``seat``'s death as things stand now (killers, true intel, identity).
    Until the reveal (§7 ②, ``revealed`` false) the identity is not in it: missions that
    count a faction's dead read it there (小白, 小马哥), and 临危受命 may still take it."""
    s = g.state.seats[seat]
    return Kill(dead=seat, killers=sorted(set(k for k in killers if k >= 0)), cause=cause,
                true_intel=sum(1 for c in s.intel if deck.IS_TRUE[c]), identity=s.identity if revealed else "")


def _unrecord(g: Game, fr: Frame) -> None:
    """Take out the record a ``dying`` frame put in at its start (the death did not
    happen: a save, or the seat already left)."""
    kills = g.state.kills
    if 0 <= fr.index < len(kills) and kills[fr.index].dead == fr.seat:
        del kills[fr.index]


def save(g: Game, seat: int) -> None:
    """A death-time skill saves the dying ``seat`` (救美, §7 ①): it does not die, so its
    death leaves the order of deaths at once (before any victory check)."""
    st = g.state
    marks.add(st, marks.saved(seat))
    for fr in reversed(st.stack):
        if fr.kind == "dying" and fr.seat == seat and fr.stage > 0:
            _unrecord(g, fr)
            fr.index = -1
            return


def die(g: Game, seat: int, killers: list[int], cause: str, place: int | None = None) -> None:
    """``seat`` dies: its record in the order of deaths is completed at ``place`` (put in
    when the death began, :func:`h_dying`; none: appended), then it leaves the game."""
    st = g.state
    s = st.seats[seat]
    mission = MISSIONS.get(s.character) if s.character else None
    if mission is not None:
        mission.dying(g, seat)
    kill = _record(g, seat, killers, cause)
    if place is not None and 0 <= place < len(st.kills) and st.kills[place].dead == seat:
        st.kills[place] = kill
    else:
        st.kills.append(kill)
    key = "death.dies_id" if s.identity else "death.dies_identity_card_was_taken"
    g.log(key, seat, {"seat": seat, "id": s.identity}, seats=kill.killers)
    _leave(g, seat)


def lose(g: Game, seat: int, six_intel: str = "") -> None:
    """``seat`` loses (§7, D23): out of the game, not dead; no death-time skills. Why: it
    sent no intel this turn, or (``six_intel``: the skill's printed name) six intel."""
    marks.add(g.state, marks.lost(seat))
    args: dict[str, ArgValue] = {"seat": seat, "id": g.state.seats[seat].identity, "zh": six_intel}
    g.log("lose.loses_game_zh_six_intel" if six_intel else "lose.loses_game_sent_no_intel", seat, args)
    _leave(g, seat)


def _leave(g: Game, seat: int) -> None:
    st = g.state
    s = st.seats[seat]
    s.alive = False
    # The hand goes face down (never shown; §12 D12, docs/rule-decisions.md classic 12), the
    # intel face up (it lay face up).
    g.discard_face_down(seat, s.hand)
    for c in s.intel:
        g.discard_card(c)
    s.hand = []
    s.intel = []
    s.identity_revealed = True
    if s.character:
        s.exposed = True
    if seat in st.locked:
        st.locked.remove(seat)


HANDLERS = {
    "turn": h_turn,
    "window": h_window,
    "resolve": h_resolve,
    "card_step": h_card_step,
    "skill_step": h_skill_step,
    "send": h_send,
    "transit": h_transit,
    "after": h_after,
    "dying": h_dying,
    "characters": h_characters,
    "declare": h_declare,
}
