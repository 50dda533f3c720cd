"""The view of one seat (OpenSpiel's observer): only what that seat may know.

A seat sees its own hand and identity, every public zone (intel areas, the discard pile
with a face-down card shown as 0 unless the seat discarded it, counts), identities that
were revealed, the intel in transmission when it is face up or the seat has seen it (as
its sender, by 破译 …), the chain with face-down cards (试探, 秘密下达) shown only to
their user and target, and the events addressed to it.
A spectator (seat -1) sees public information only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from engine.marks import placed as characters_placed
from engine.text import fill as fill_text
from fengsheng.v1 import game_pb2

if TYPE_CHECKING:
    from engine.game import Game

#: Identity id -> the protobuf enum value: the value named by the id in upper case, for every
#: ruleset (``bystander`` -> ``BYSTANDER``); proto/fengsheng/v1/game.proto only adds values.
#: (cast: the stubs type ``Identity.items()``'s numbers as plain ints; they are the enum's values)
IDENTITY: dict[str, game_pb2.Identity] = {
    name.lower(): cast("game_pb2.Identity", number)
    for name, number in game_pb2.Identity.items()
    if number != game_pb2.IDENTITY_UNSPECIFIED
}
MODE = {"secret": game_pb2.SECRET, "direct": game_pb2.DIRECT, "text": game_pb2.TEXT,
        "left": game_pb2.ARROW_LEFT, "right": game_pb2.ARROW_RIGHT, "up": game_pb2.ARROW_UP}


def build_observation(g: Game, viewer: int, *, include_events: bool = False) -> game_pb2.Observation:
    st = g.state
    key = (st.decision, st.event_count, st.over)
    cached = g._public_cache
    if cached is None or cached[0] != key:
        cached = (key, _public(g))
        g._public_cache = cached
    obs = game_pb2.Observation()
    obs.CopyFrom(cached[1])
    obs.viewer = viewer
    if 0 <= viewer < st.players:
        p = st.seats[viewer]
        sv = obs.seats[viewer]
        # Unset while the characters are being chosen (classic §3: identities are dealt after).
        sv.identity = IDENTITY.get(p.identity, game_pb2.IDENTITY_UNSPECIFIED)
        sv.hand.extend(p.hand)
        sv.character = p.character
        sv.secret_character = p.secret_character
        sv.character_options.extend(p.options)
        sv.secret_task = p.secret_task
        t = st.transit
        if t is not None and not t.face_up and viewer in t.known_by:
            obs.transit.card = t.card
        face_down = g.ruleset.face_down_kinds
        for item, shown in zip(st.chain, obs.chain, strict=True):
            if item.kind in face_down and viewer in (item.user, item.target):
                shown.card = item.card
                shown.code = item.code
        if st.discard_face_down:
            # the seat knows the cards it put on the discard pile face down (classic D12)
            for pos in obs.discard_face_down:
                card = st.discard[pos]
                if st.discard_face_down_by[st.discard_face_down.index(card)] == viewer:
                    obs.discard[pos] = card
        prompt = st.prompt
        if prompt is not None and prompt.seat == viewer:
            obs.legal_actions.extend(g.legal_actions(viewer))
    if include_events:
        obs.events.extend(e.to_proto() for e in g.events if e.visible_to(viewer))
    return obs


def _public(g: Game) -> game_pb2.Observation:
    """The spectator's view: public information only (shared by every seat's view)."""
    st = g.state
    obs = game_pb2.Observation(
        ruleset=st.ruleset,
        viewer=-1,
        players=st.players,
        turn=st.turn,
        turn_number=st.turn_number,
        pile_count=len(st.pile),
        discard=st.discard,
        removed_count=len(st.removed),
        pile_exhausted_once=st.pile_exhausted_once,
    )
    if st.discard_face_down:
        hidden = set(st.discard_face_down)
        for pos, card in enumerate(st.discard):
            if card in hidden:
                obs.discard[pos] = 0
                obs.discard_face_down.append(pos)
    locked = st.locked
    placed = not st.characters or characters_placed(st)
    for i, p in enumerate(st.seats):
        sv = obs.seats.add(
            seat=i,
            alive=p.alive,
            identity_revealed=p.identity_revealed,
            intel=p.intel,
            hand_count=len(p.hand),
            character=p.character if p.exposed and placed else "",
            exposed=p.exposed,
            locked=i in locked,
            relation=p.relation,
            # 致命香水's 绝密任务 character: shown once she died or won (p.12 ①).
            secret_character=p.secret_character if not p.alive or i in st.winners else "",
            # an identity card's own victory condition (谍战篇 神秘人): public at game end only
            secret_task=p.secret_task if st.over else "",
        )
        if p.identity_revealed and p.identity:
            # A dead seat whose identity card was taken (classic 临危受命) shows none.
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
        obs.chain.add(
            user=item.user,
            kind=item.kind,
            card=0 if secret else item.card,
            target=item.target,
            on=item.on if item.kind == "burn" else 0,
            code="" if secret else item.code,
            negated=item.negated,
        )
    prompt = st.prompt
    if prompt is not None:
        obs.pending.seat = prompt.seat
        obs.pending.kind = prompt.kind
        obs.pending.number = prompt.number
        obs.pending.prompt = prompt.text
        fill_text(st.ruleset, "prompt", prompt.kind, prompt.text, obs.pending)
    else:
        obs.pending.seat = -1
        obs.pending.number = st.decision
    if st.over:
        obs.outcome.over = True
        obs.outcome.winners.extend(st.winners)
        obs.outcome.reason = st.reason
        for k in st.kills:
            obs.outcome.killers[k.dead].values.extend(k.killers)
        # all identities are public at game end (docs/rule-decisions.md): the outcome names
        # every seat's, living losers' too; the seat views keep what was revealed in play
        obs.outcome.identities.extend(IDENTITY.get(p.identity, game_pb2.IDENTITY_UNSPECIFIED) for p in st.seats)
    return obs
