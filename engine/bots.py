"""Bot policies: pure functions from one seat's observation to one legal action.

A policy is ``(observation, legal, rng) -> action``: ``observation`` is the
``fengsheng.v1.Observation`` of the bot's own seat (never anyone else's), ``legal`` the
legal actions of that seat (:class:`engine.Action` values), ``rng`` a seeded
:class:`random.Random` owned by the caller (the Celery task seeds it from the match id,
seat and decision number, so a redelivered move is the same move). No I/O.

>>> import random
>>> from fengsheng.v1 import game_pb2
>>> from engine.action import PASS, play
>>> obs = game_pb2.Observation(viewer=0)
>>> str(random_bot(obs, [PASS, play(3)], random.Random(1))) in ("pass", "play 3")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.action import ACCEPT, DECLARE, DECLINE, PASS, Action
from engine.ruleset import CardTable
from engine.rulesets import get_ruleset
from fengsheng.v1 import game_pb2

Policy = Callable[[game_pb2.Observation, Sequence[Action], random.Random], Action]
"""``(observation, legal actions, rng) -> one of them``. A caller holding text (a bot
worker reading the wire's ``legal_actions``) reads it with :func:`engine.notation.parse`."""

#: Card functions worth playing whenever legal in the play phase (no downside to the user).
_MAIN_PLAYS = frozenset({"probe", "public_text", "danger", "lock", "reinforce", "classified"})
#: Functions the heuristic uses at a response point when the chain threatens it.
_COUNTERS = frozenset({"see_through"})


def random_bot(observation: game_pb2.Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    if not legal:
        raise ValueError("no legal action to choose from")
    return rng.choice(legal)


def _me(observation: game_pb2.Observation) -> game_pb2.SeatView | None:
    for view in observation.seats:
        if view.seat == observation.viewer:
            found: game_pb2.SeatView = view
            return found
    return None


def _card_of(action: Action) -> int:
    """The card played or sent, or the one number a ``choose`` picks, or 0."""
    if action.kind in ("play", "send"):
        return action.card
    return action.picks[0] if len(action.picks) == 1 else 0


def _cards(observation: game_pb2.Observation) -> CardTable:
    """The deck of the observed match's ruleset."""
    return get_ruleset(observation.ruleset or "return").cards


def _function(cards: CardTable, card: int) -> str:
    return cards.function[card] if 0 < card <= cards.count else ""


def _black(cards: CardTable, card: int) -> bool:
    return 0 < card <= cards.count and cards.is_black[card]


def _wants(cards: CardTable, identity: int, card: int) -> bool:
    """Whether receiving ``card`` helps a player of ``identity`` (true intel of its colour)."""
    if not 0 < card <= cards.count:
        return False
    if identity == game_pb2.LATENT:
        return cards.is_red[card]
    if identity in (game_pb2.MILITARY, game_pb2.SPECIAL_SERVICE):  # 谍战篇 特工机关: blue
        return cards.is_blue[card]
    if identity == game_pb2.AGENT:
        return cards.is_true[card]
    return False


def _black_count(cards: CardTable, view: game_pb2.SeatView | None) -> int:
    if view is None:
        return 0
    return sum(1 for c in view.intel if _black(cards, c))


def heuristic_bot(observation: game_pb2.Observation, actions: Sequence[Action], rng: random.Random) -> Action:
    """A simple, cautious player that uses only its own observation:

    - intel that reached it: accept true intel of its own colour, decline black intel once
      it holds two black ones (a third kills), otherwise accept half the time;
    - send: prefer a card that does not help its own side's enemies, i.e. black first;
    - response points: answer a chain item aimed at itself with 识破 when it has one,
      else pass;
    - play phase: play a harmless card now and then, then declare the send;
    - discards and other choices: drop black cards first, else pick at random.
    """
    if not actions:
        raise ValueError("no legal action to choose from")
    legal = list(actions)
    if len(legal) == 1:
        return legal[0]
    kind = observation.pending.kind
    cards = _cards(observation)
    me = _me(observation)
    identity = me.identity if me is not None else game_pb2.IDENTITY_UNSPECIFIED
    blacks = _black_count(cards, me)

    if kind in ("arrive", "receive") and {ACCEPT, DECLINE} <= set(legal):
        card = observation.transit.card if observation.has_transit else 0
        if card and _wants(cards, identity, card):
            return ACCEPT
        if card and _black(cards, card):
            return DECLINE if blacks >= 1 else rng.choice([ACCEPT, DECLINE])
        if blacks >= 2:
            return DECLINE
        return rng.choice([ACCEPT, DECLINE])

    if kind == "send":
        sends = [a for a in legal if a.kind == "send"]
        black = [a for a in sends if _black(cards, _card_of(a))] if sends else []
        pool = black or [a for a in sends if not _wants(cards, identity, _card_of(a))] or sends
        return rng.choice(pool)

    if kind == "priority" and observation.chain:
        # classic (digest §6.3): answer an item aimed at itself with 识破 when it can.
        if observation.chain[-1].target == observation.viewer and observation.chain[-1].user != observation.viewer:
            counters = [a for a in legal if a.kind == "play" and _function(cards, _card_of(a)) == "see_through"]
            if counters:
                return rng.choice(counters)
        return PASS

    if kind == "priority":
        # An empty chain: use an own-turn card now and then (试探, 锁定 …), burn a fake in
        # front of itself, else pass.
        plays = [a for a in legal if a.kind == "play"]
        mine = [a for a in plays if _function(cards, _card_of(a)) == "burn"
                and me is not None and a.on in me.intel and not (a.to or a.code or a.alt)]
        if mine:
            return rng.choice(mine)
        if plays and rng.random() < 0.2:
            return rng.choice(plays)
        return PASS

    if kind in ("respond", "returned"):
        chain = observation.chain
        if chain and chain[-1].target == observation.viewer:
            counters = [a for a in legal if _function(cards, _card_of(a)) in _COUNTERS and a.kind == "play"]
            if counters:
                return rng.choice(counters)
        if PASS in legal:
            return PASS

    if kind == "main":
        plays = [a for a in legal if a.kind == "play" and _function(cards, _card_of(a)) in _MAIN_PLAYS]
        if plays and rng.random() < 0.3:
            return rng.choice(plays)
        if DECLARE in legal:
            return DECLARE
        if PASS in legal and rng.random() < 0.7:  # 谍战篇: `pass` ends the play phase
            return PASS

    if kind == "handoff" and PASS in legal:
        # 谍战篇 §6.3: a dead player gives its hand to a living player (any one, at random)
        gifts = [a for a in legal if a != PASS and len(a.picks) == len(me.hand if me else [])]
        return rng.choice(gifts) if gifts else PASS

    if kind in ("discard", "choose"):
        chooses = [a for a in legal if a.kind == "choose"]
        black = [a for a in chooses if _black(cards, _card_of(a))]
        if kind == "discard" and black:
            return rng.choice(black)
        if chooses:
            return rng.choice(chooses)

    return rng.choice(legal)


#: Policies by the name the engine service passes to ``bots.move``.
POLICIES: dict[str, Policy] = {"random": random_bot, "heuristic": heuristic_bot}

# heuristic v2 (engine/bots_v2.py, issue 14): plays its identity and does not kill itself.
from engine.bots_v2 import heuristic_v2_bot  # noqa: E402  (after POLICIES: bots_v2 does not import this module)

POLICIES["v2"] = heuristic_v2_bot

# the search bot (engine/search.py, issue 14): determinized search with a belief over identities;
# a plain call plays v2, callers holding the match call ``POLICIES["search"].decide`` (needs_game).
from engine.search import SearchBot  # noqa: E402

POLICIES["search"] = SearchBot()
