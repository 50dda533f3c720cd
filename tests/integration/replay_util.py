"""Helpers of the replay-steps tests: play matches over gRPC, and the old scratch-match
method rebuilt in-process (every view after every step, from settings + actions)."""

from __future__ import annotations

import random
from typing import Any

from engine import Game
from engine.bots import heuristic_bot
from engine.notation import parse
from fengsheng.v1 import engine_service_pb2 as es
from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
from gateway.convert import to_dict
from gateway.replay_steps import to_page


def play(stub: es_grpc.EngineServiceStub, match_id: str, *, actions: int | None = None, seed: int = 1) -> int:
    """Answer the open decisions of an all-human match with the heuristic bot: all of them,
    or ``actions`` of them; returns how many were applied."""
    rng = random.Random(seed)
    done = 0
    while actions is None or done < actions:
        legal = stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=-1), timeout=10)
        seat = legal.seat_to_act
        if seat < 0:
            break
        obs = stub.GetObservation(es.GetObservationRequest(match_id=match_id, seat=seat), timeout=10)
        action = str(heuristic_bot(obs, [parse(a) for a in obs.legal_actions], rng))
        stub.Act(es.ActRequest(match_id=match_id, seat=seat, decision=legal.decision, action=action), timeout=10)
        done += 1
    return done


def create(stub: es_grpc.EngineServiceStub, match_id: str, *, players: int = 5, seed: int = 4242) -> None:
    stub.CreateMatch(
        es.CreateMatchRequest(
            match_id=match_id, settings=es.MatchSettings(players=players, seed=seed, characters=True)
        ),
        timeout=10,
    )


def all_pages(
    stub: es_grpc.EngineServiceStub, match_id: str, view: int, *, max_steps: int = 0, **kw: Any
) -> dict[str, Any]:
    """Every step of ``view`` through GetReplaySteps, page after page, as the gateway's JSON."""
    out: dict[str, Any] | None = None
    start = 0
    while True:
        reply = stub.GetReplaySteps(
            es.GetReplayStepsRequest(match_id=match_id, view=view, from_step=start, max_steps=max_steps, **kw),
            timeout=30,
        )
        page = to_page(reply)
        if out is None:
            out = page
        else:
            for key in ("steps", "observations", "events"):
                out[key].extend(page[key])
        if page["next_step"] is None:
            return out
        assert page["next_step"] == start + len(page["steps"]) > start
        start = page["next_step"]


def old_method(replay: es.Replay) -> dict[str, dict[str, Any]]:
    """What gateway/replay_steps.py produced before GetReplaySteps, computed in-process: a
    fresh game from the replay's settings, the actions applied one by one, the observation
    of the spectator and of every seat after each one (``all``: every seat's own view
    merged), and each view's events with the step they happened at."""
    s = replay.settings
    game = Game.new(ruleset=s.ruleset, players=s.players, seed=s.seed, tutorial=s.tutorial, characters=s.characters)
    players = s.players
    viewers = list(range(-1, players))

    def frame() -> dict[str, Any]:
        views = {}
        for v in viewers:
            obs = to_dict(game.observation(v))
            obs.pop("events", None)
            views[str(v)] = obs
        views["all"] = _old_reveal(views, players)
        return views

    steps = [{"step": 0, "seat": -1, "action": "", "decision": 0, "pending": game.decision_number}]
    frames = [frame()]
    tagged = [(e, 0) for e in game.events]
    for i, a in enumerate(replay.actions, start=1):
        n = len(game.events)
        game.apply(a.seat, a.action)
        pending = game.pending
        steps.append(
            {
                "step": i,
                "seat": a.seat,
                "action": a.action,
                "decision": a.decision,
                "pending": pending.number if pending else game.decision_number,
            }
        )
        frames.append(frame())
        tagged += [(e, i) for e in game.events[n:]]
    out: dict[str, dict[str, Any]] = {}
    for key in [*(str(v) for v in viewers), "all"]:
        if key == "all":
            events = [(e, i) for e, i in tagged if any(e.visible_to(v) for v in viewers)]
        else:
            events = [(e, i) for e, i in tagged if e.visible_to(int(key))]
        out[key] = {
            "steps": steps,
            "observations": [f[key] for f in frames],
            "events": [{**to_dict(e.to_proto()), "step": i} for e, i in events],
        }
    return out


def _old_reveal(frame: dict[str, dict[str, Any]], players: int) -> dict[str, Any]:
    """gateway/replay_steps.py's ``_reveal`` as it was (on the JSON of each view)."""
    out: dict[str, Any] = {**frame["-1"], "viewer": -2}
    out["seats"] = [frame[str(s)]["seats"][s] for s in range(players)]
    transit = dict(out.get("transit", {}))
    chain = [dict(c) for c in out.get("chain", [])]
    for s in range(players):
        view = frame[str(s)]
        card = view.get("transit", {}).get("card", 0)
        if card and not transit.get("card"):
            transit["card"] = card
        for i, item in enumerate(view.get("chain", [])):
            if i < len(chain):
                if item.get("card") and not chain[i].get("card"):
                    chain[i]["card"] = item["card"]
                if item.get("code") and not chain[i].get("code"):
                    chain[i]["code"] = item["code"]
    discard = list(out.get("discard", []))
    for s in range(players):  # a face-down discard (classic D12), as its discarder sees it
        for pos in out.get("discard_face_down", []):
            card = frame[str(s)].get("discard", [])[pos]
            if card and not discard[pos]:
                discard[pos] = card
    if discard:
        out["discard"] = discard
    out["transit"] = transit
    out["chain"] = chain
    out["legal_actions"] = []
    return out
