"""The observation assembled from cached pieces (engine/observation.py, for speed) is the
message built field by field: for every viewer (spectator included), at every decision of
random games of every ruleset, with and without characters, with the events and without."""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.marks import placed as characters_placed
from engine.observation import END_REASON, IDENTITY, MODE, action_message, public_tasks
from engine.rulesets import RULESET_IDS
from engine.text import fill_prompt
from fengsheng.v1 import game_pb2


def reference(g: Game, viewer: int, *, include_events: bool = False) -> game_pb2.Observation:
    """The view of ``viewer`` built directly, field by field (the builder before pieces)."""
    obs = _public(g)
    st = g.state
    obs.viewer = viewer
    if 0 <= viewer < st.players:
        p = st.seats[viewer]
        sv = obs.seats[viewer]
        sv.identity = IDENTITY.get(p.identity, game_pb2.IDENTITY_UNSPECIFIED)
        sv.hand.extend(p.hand)
        sv.character = p.character
        sv.secret_character = p.ext.private_character()
        sv.character_options.extend(p.options)
        sv.secret_task = p.ext.private_task()
        t = st.transit
        if t is not None and not t.face_up and viewer in t.known_by:
            obs.transit.card = t.card
        face_down = g.ruleset.face_down_kinds
        for item, shown in zip(st.chain, obs.chain, strict=True):
            if item.kind in face_down and viewer in (item.user, item.target):
                shown.card = item.card
                shown.code = item.code
        owner = dict(reversed(st.ext.face_down_discards()))
        for pos in obs.discard_face_down:
            card = st.discard[pos]
            if owner[card] == viewer:
                obs.discard[pos] = card
        prompt = st.prompt
        if prompt is not None and prompt.seat == viewer:
            obs.legal_actions.extend(g.legal_texts(viewer))
            obs.legal.extend(action_message(a) for a in g.legal_actions(viewer))
    if include_events:
        obs.events.extend(e.to_proto() for e in g.events if e.visible_to(viewer))
    return obs


def _public(g: Game) -> game_pb2.Observation:
    st = g.state
    obs = game_pb2.Observation(ruleset=st.ruleset, viewer=-1, players=st.players, turn=st.turn,
                               turn_number=st.turn_number, pile_count=len(st.pile), discard=st.discard,
                               removed_count=len(st.removed), pile_exhausted_once=st.pile_exhausted_once)
    if st.ext.face_down_discards():
        hidden = {card for card, _ in st.ext.face_down_discards()}
        for pos, card in enumerate(st.discard):
            if card in hidden:
                obs.discard[pos] = 0
                obs.discard_face_down.append(pos)
    placed = not st.characters or characters_placed(st)
    for i, p in enumerate(st.seats):
        sv = obs.seats.add(seat=i, alive=p.alive, identity_revealed=p.identity_revealed, intel=p.intel,
                           hand_count=len(p.hand), character=p.character if p.exposed and placed else "",
                           exposed=p.exposed, locked=i in st.locked, relation=p.ext.tie(),
                           secret_character=p.ext.private_character() if not p.alive or i in st.winners else "",
                           secret_task=p.ext.private_task() if st.over else "")
        if p.identity_revealed and p.identity:
            sv.identity = IDENTITY[p.identity]
    t = st.transit
    if t is not None:
        obs.has_transit = True
        tv = obs.transit
        tv.mode = MODE[t.mode]
        tv.direction = t.direction
        tv.sender = t.sender
        tv.holder = t.holder
        tv.target = t.target
        tv.face_up = t.face_up
        tv.receiver = st.chain[0].user if st.timing == "receive" and st.chain else -1
        if t.face_up:
            tv.card = t.card
    face_down = g.ruleset.face_down_kinds
    for item in st.chain:
        secret = item.kind in face_down
        obs.chain.add(user=item.user, kind=item.kind, card=0 if secret else item.card, target=item.target,
                      on=item.on if item.kind == "burn" else 0, code="" if secret else item.code,
                      negated=item.negated)
    prompt = st.prompt
    if prompt is not None:
        obs.pending.seat = prompt.seat
        obs.pending.kind = prompt.kind
        obs.pending.number = prompt.number
        obs.pending.prompt = prompt.text
        fill_prompt(st.ruleset, prompt.kind, prompt.text, obs.pending, prompt.key, tuple(prompt.args.items()))
    else:
        obs.pending.seat = -1
        obs.pending.number = st.decision
    if st.over:
        obs.outcome.over = True
        obs.outcome.winners.extend(st.winners)
        obs.outcome.reason = st.reason
        for k in st.kills:
            obs.outcome.killers[k.dead].values.extend(k.killers)
        obs.outcome.identities.extend(IDENTITY.get(p.identity, game_pb2.IDENTITY_UNSPECIFIED) for p in st.seats)
        obs.outcome.end_reason = END_REASON.get(st.end, game_pb2.END_OTHER)
        obs.outcome.tasks.extend(public_tasks(st))
    return obs


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_pieces_make_the_message_built_field_by_field(ruleset: str) -> None:
    checked = 0
    for seed in range(6):
        players = 5 + seed % 2
        g = Game.new(ruleset=ruleset, players=players, seed=seed, characters=bool(seed % 2))
        r = random.Random(seed)
        while True:
            events = g.decision_number % 29 == 0 or g.is_over
            # a different viewer first each time: the first view of a decision builds the
            # pieces the later ones share
            first = g.decision_number % (players + 1)
            for viewer in [*range(first - 1, players), *range(-1, first - 1)]:
                got = g.observation(viewer, include_events=events)
                want = reference(g, viewer, include_events=events)
                assert got == want, f"{ruleset} seed {seed} decision {g.decision_number} viewer {viewer}"
                assert got.SerializeToString(deterministic=True) == want.SerializeToString(deterministic=True)
                checked += 1
            if (p := g.pending) is None:
                break
            g.apply(p.seat, r.choice(g.legal_actions(p.seat)))
    assert checked > 5000
