"""The nine card functions of 谍战篇 (spy digest §8) and how the actions that use them are
carried out: play-phase cards (试探 平衡 威逼 利诱 澄清), 破译 at an arrival, the contest
cards (截获 误导 调包), 澄清 in a rescue round, and the hand-off of the dead (§6.3).

A card used from hand goes to the discard pile face up as it starts to resolve (试探: out
of the game face down). Effects that wait for a ``choose`` are ``spy_card`` frames
(``text`` the function, ``seat`` the user, ``index`` the target, ``card`` the card)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option
from engine.state import Frame

from . import deck, ruledata, skills
from .nodes import settle

if TYPE_CHECKING:
    from engine.game import Game

THREATEN_NAMES = ("clarify", "intercept", "swap", "mislead")


def use_from_hand(g: Game, seat: int, card: int, function: str) -> None:
    """The card leaves the hand: face up to the discard pile (试探: removed face down)."""
    st = g.state
    st.seats[seat].hand.remove(card)
    if function == "probe":
        st.removed.append(card)
    else:
        g.discard_card(card)
    skills.note_card_use(g, seat, card, function)


def apply_main(g: Game, seat: int, action: Action) -> None:
    """A play-phase action of the turn player (``play …`` or ``skill …``)."""
    if action.kind == "skill":
        skills.use(g, seat, action)
        return
    card = action.card
    function = deck.FUNCTION[card]
    settle(g)  # the node after the card (§5.3): below the card's triggers and frames
    use_from_hand(g, seat, card, function)
    if function == "clarify":
        g.log("play.uses_zh", seat, {"seat": seat, "zh": "澄清"}, cards=(card,))
    if function == "clarify":
        clarify(g, seat, action.on)
        return
    target = action.target
    run_targeted(g, seat, card, function, target)


def run_targeted(g: Game, seat: int, card: int, function: str, target: int) -> None:
    """试探 平衡 威逼 利诱 on ``target`` (also 诡诈's card-less 威逼/利诱, ``card`` 0)."""
    if function == "probe":
        g.log("probe.probes_seat_with_card", seat, {"seat": seat, "seat2": target, "card": card},
              audience=(seat, target), cards=(card,), seats=(target,), public="probe.probes_seat")
    else:
        g.log("play.uses_zh_on_seat", seat, {"seat": seat, "zh": deck.FUNCTION_ZH[function], "seat2": target},
              seats=(target,), cards=(card,) if card else ())
    # the effect waits for the target's "when you become the target" window (就计, §9)
    g.push(Frame("spy_card", seat=seat, index=target, card=card, text="resolve",
                 order=[deck.FUNCTIONS.index(function)]))
    skills.fire(g, "targeted", target, card=card, function=function)


def resolve_targeted(g: Game, fr: Frame) -> None:
    """The effect of a targeted play-phase card (``resolve`` frame, stage 0), then (stage 1,
    once any prompt of the effect is answered) 就计's taking of the card."""
    st = g.state
    seat, target, card = fr.seat, fr.index, fr.card
    function = deck.FUNCTIONS[fr.order[0]]
    if fr.stage == 1:
        st.stack.pop()
        skills.after_targeted(g, target, card)
        return
    fr.stage = 1
    # 城府 voids 威逼 after the user has named a card (the naming is part of the use)
    if function != "threaten" and skills.no_effect(g, seat, target, function, card):
        return
    if function == "probe":
        probe(g, seat, card, target)
    elif function == "balance":
        balance(g, seat, target)
    elif function == "threaten":
        g.push(Frame("spy_card", seat=seat, index=target, card=card, text="threaten"))
    elif function == "bribe":
        bribe(g, seat, target)


def probe(g: Game, seat: int, card: int, target: int) -> None:
    """试探 (§8): the target draws 1 or discards 1 by the line for their identity."""
    st = g.state
    if ruledata.probe_draws(card, st.seats[target].identity):
        g.draw(target, 1)
        return
    hand = st.seats[target].hand
    if len(hand) >= 2:
        g.push(Frame("spy_card", seat=seat, index=target, card=card, text="probe"))
    elif hand:
        g.discard_from_hand(target, [hand[0]])
    else:
        g.log("probe_empty.has_no_hand_card_discard", target, {"seat": target})


def balance(g: Game, seat: int, target: int) -> None:
    """平衡 (§8): both discard their whole hands (user first), then draw 3 each."""
    st = g.state
    for s in (seat, target):
        if st.seats[s].hand:
            g.discard_from_hand(s, list(st.seats[s].hand))
    g.draw(seat, 3)
    g.draw(target, 3)


def bribe(g: Game, seat: int, target: int) -> None:
    """利诱 (§8): the pile's top card is shown and put into the target's intel area, unless
    they would then hold 3+ intel of a colour it has: then it goes to the user's hand."""
    st = g.state
    top = g.take_pile_top()
    if not top:
        return
    g.log("reveal.reveals_card_from_pile", seat, {"seat": seat, "card": top}, cards=(top,))
    intel = st.seats[target].intel
    if any(deck.count(intel, c) + 1 >= 3 for c in deck.colors(top)):
        st.seats[seat].hand.append(top)
        g.log("take.takes_card_into_hand", seat, {"seat": seat, "card": top}, cards=(top,))
    else:
        place(g, target, top)


def place(g: Game, seat: int, card: int) -> None:
    """置入情报区: the card joins the intel area face up; not a receipt (§4.5)."""
    g.state.seats[seat].intel.append(card)
    g.log("place.card_placed_into_seat_intel", seat, {"card": card, "seat": seat}, cards=(card,), seats=(seat,))


def clarify(g: Game, seat: int, intel: int) -> None:
    """澄清 (§8): discard a black-containing intel from an intel area."""
    st = g.state
    for i, p in enumerate(st.seats):
        if intel in p.intel:
            p.intel.remove(intel)
            g.discard_card(intel)
            g.log("clarify.clarifies_card_from_seat", seat, {"seat": seat, "card": intel, "seat2": i}, cards=(intel,),
                  seats=(i,))
            return


def h_card(g: Game, fr: Frame) -> None:
    """An effect waiting for a choice (``choose`` prompts of docs/notation.md)."""
    st = g.state
    if fr.text == "probe":
        if fr.answer:
            g.discard_from_hand(fr.index, [fr.given().pick])
            st.stack.pop()
            return
        g.ask(fr.index, "choose", "prompt.choose.zh_choose_hand_card_discard",
              [choose(c) for c in sorted(st.seats[fr.index].hand)], args={"zh": "试探"})
        return
    if fr.text == "threaten":
        threaten(g, fr)
        return
    if fr.text == "resolve":
        resolve_targeted(g, fr)
        return
    if fr.text == "decrypt":
        t = st.transit
        if fr.answer:
            if fr.answer == choose_option("flip") and t is not None:
                t.face_up = True
                g.log("flip_intel.turns_intel_card_face_up", fr.seat, {"seat": fr.seat, "card": t.card},
                      cards=(t.card,))
                g.draw(fr.seat, 1)
            st.stack.pop()
            return
        assert t is not None
        opts = ([choose_option("flip")] if deck.IS_BLACK[t.card] else []) + [choose_option("keep")]
        g.ask(fr.seat, "choose", "prompt.choose.zh_turn_intel_face_up", opts, args={"zh": "破译", "n": 1})
        return
    skills.h_skill_step(g, fr)


def threaten(g: Game, fr: Frame) -> None:
    """威逼 (§8): the user names a card; the target gives one such card (their pick), or
    shows the user the whole hand."""
    st = g.state
    user, target = fr.seat, fr.index
    if fr.stage == 0:
        if fr.answer:
            fr.text = "threaten"
            fr.stage = 1
            fr.cards = []
            fr.order = [THREATEN_NAMES.index(fr.given().option)]
            fr.answer = None
        else:
            g.ask(user, "choose", "prompt.choose.zh_name_card", [choose_option(n) for n in THREATEN_NAMES],
                  args={"zh": "威逼"})
            return
    name = THREATEN_NAMES[fr.order[0]]
    if not fr.answer and skills.no_effect(g, user, target, "threaten", fr.card):
        st.stack.pop()
        return
    hand = st.seats[target].hand
    matching = sorted(c for c in hand if deck.FUNCTION[c] == name)
    if fr.answer:
        give(g, target, user, [fr.given().pick])
        st.stack.pop()
        return
    if matching:
        g.ask(target, "choose", "prompt.choose.zh_give_seat_one_zh",
              [choose(c) for c in matching], args={"zh": "威逼", "seat": user, "zh2": deck.FUNCTION_ZH[name]})
        return
    st.stack.pop()
    g.log("show_hand.shows_hand_cards" if hand else "show_hand.shows_hand_none", target,
          {"seat": target, "cards": tuple(sorted(hand)), "seat2": user}, audience=(user, target), cards=tuple(hand),
          public="show_hand.shows_hand_seat")


def give(g: Game, giver: int, taker: int, given: list[int]) -> None:
    """交给 (§5.4): face down, only giver and taker see the cards."""
    st = g.state
    for c in given:
        st.seats[giver].hand.remove(c)
        st.seats[taker].hand.append(c)
    n = len(given)
    g.log("give.gives_cards_seat", giver, {"seat": giver, "cards": tuple(given), "seat2": taker, "n": n},
          audience=(giver, taker), cards=tuple(given), seats=(taker,),
          public="give.gives_card_seat" if n == 1 else "give.gives_n_cards_seat")


# ---------------------------------------------------------------------- transmission, contest
def apply_arrive(g: Game, seat: int, action: Action) -> None:
    """破译 (§8): the user looks at the intel; black: may turn it face up and draw 1."""
    st = g.state
    card = action.card
    use_from_hand(g, seat, card, "decrypt")
    t = st.transit
    assert t is not None
    g.log("play.uses_zh", seat, {"seat": seat, "zh": "破译"}, cards=(card,))
    if not t.face_up:
        if seat not in t.known_by:
            t.known_by.append(seat)
        g.log("decrypt.looks_at_intel_card", seat, {"seat": seat, "card": t.card}, audience=(seat,), cards=(t.card,),
              public="decrypt.looks_at_intel")
        g.push(Frame("spy_card", seat=seat, card=card, text="decrypt"))


def mislead_targets(g: Game) -> list[int]:
    """误导 (§8): the nearest living left- and right-hand neighbours of the seat the pending
    intel stands before."""
    t = g.state.transit
    assert t is not None
    return sorted({g.next_living(t.holder, -1), g.next_living(t.holder, 1)} - {t.holder})


def apply_contest(g: Game, seat: int, action: Action) -> None:
    """A contest action (§4.4): 截获, 误导, 调包, or a contest skill."""
    st = g.state
    if action.kind == "skill":
        skills.use(g, seat, action)
        return
    card = action.card
    function = action.alt or deck.FUNCTION[card]
    t = st.transit
    assert t is not None
    if function == "swap":
        st.seats[seat].hand.remove(card)
        old = t.card
        g.discard_card(old)
        t.card = card
        t.face_up = False
        t.known_by = [seat]
        g.log("swap.swaps_in_card", seat, {"seat": seat, "card": card}, audience=(seat,), cards=(card,),
              public="swap.swaps_in_face_down_card")
        g.log("swapped_out.old_intel_card_discarded", seat, {"card": old}, cards=(old,))
        skills.note_card_use(g, seat, card, "swap")
        return
    use_from_hand(g, seat, card, function)
    g.log("play.uses_zh", seat, {"seat": seat, "zh": deck.FUNCTION_ZH[function]}, cards=(card,))
    if function == "intercept":
        move_pending(g, seat, seat, "截获")
    else:
        move_pending(g, seat, action.target, "误导")


def move_pending(g: Game, seat: int, to: int, what: str) -> None:
    t = g.state.transit
    assert t is not None
    t.holder = to
    g.log("contest.uses_zh_intel_now_in", seat, {"seat": seat, "zh": what, "seat2": to}, seats=(to,))


# ---------------------------------------------------------------------- rescue, hand-off
def apply_rescue(g: Game, seat: int, dying: int, action: Action) -> None:
    """澄清 on the dying player's black intel (§6.2), or a dying-time skill."""
    if action.kind == "skill":
        skills.use(g, seat, action)
        return
    card = action.card
    use_from_hand(g, seat, card, "clarify")
    g.log("play.uses_zh", seat, {"seat": seat, "zh": "澄清"}, cards=(card,))
    clarify(g, seat, action.on)


def hand_off(g: Game, dead: int, action: Action) -> None:
    """``choose N[,M[,K]] to S`` (§6.3 step 3): give up to 3 hand cards to a living player."""
    give(g, dead, action.target, list(action.picks))
