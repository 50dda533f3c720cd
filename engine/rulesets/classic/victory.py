"""Victory (digest §8): faction conditions (潜伏 3 red, 军情 3 blue, for the whole
faction), bystander missions (with characters), the last player alive (D18), one
declarer per game (turn player first, then counter-clockwise), co-winners who did not
declare, missions that make a declaration fail, identity reveals (D29)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.state import Frame

from . import deck, marks, ruledata
from .characters import MISSIONS
from .characters.base import skills_of

if TYPE_CHECKING:
    from engine.game import Game


def faction_met(g: Game, seat: int) -> bool:
    s = g.state.seats[seat]
    if not s.alive:
        return False
    if s.identity == "latent":
        return sum(1 for c in s.intel if deck.IS_RED[c]) >= ruledata.FACTION_WIN
    if s.identity == "military":
        return sum(1 for c in s.intel if deck.IS_BLUE[c]) >= ruledata.FACTION_WIN
    return False


def mission_met(g: Game, seat: int) -> bool:
    """A bystander completed its character's mission (§8; needs characters). Lost
    players never win (D23); dead ones may (missions met at death, e.g. 浮萍)."""
    st = g.state
    s = st.seats[seat]
    if not st.characters or s.identity != "bystander" or not s.character or marks.has(st, marks.lost(seat)):
        return False
    mission = MISSIONS.get(s.character)
    return mission is not None and mission.met(g, seat)


def check_victory(g: Game) -> bool:
    """Whether the game is over now; ends it when someone must declare."""
    st = g.state
    if st.over or (st.stack and st.stack[-1].kind == "declare"):
        return True  # over, or a declaration waits for the declarer's choice (风度)
    n = st.players
    if st.characters:
        for k in range(n):
            s = (st.turn + k) % n
            for sk in skills_of(g, s):
                sk.state_check(g, s)
    for k in range(n):
        s = (st.turn + k) % n
        if faction_met(g, s):
            declare(g, s, f"{st.seats[s].identity} faction: three intel of its colour")
            return True
        if mission_met(g, s):
            declare(g, s, f"mission of {st.seats[s].character}")
            return True
    alive = g.living()
    if len(alive) <= 1:
        finish(g, alive, "the last player alive" if alive else "nobody is left",
               "last_standing" if alive else "nobody_left")
        return True
    return False


def declare(g: Game, seat: int, reason: str, chosen: int = -1) -> None:
    """``seat`` declares victory: its faction mates (not lost) win with it; bystanders'
    missions may join or defeat the declaration (§8); a declarer's skill may add a
    co-winner (风度), chosen by the declarer when there are several candidates: then a
    ``declare`` frame waits for that choice (``chosen``, see :func:`h_declare`)."""
    st = g.state
    me = st.seats[seat]
    winners = [seat]
    if me.identity in ("latent", "military"):
        winners = [i for i, s in enumerate(st.seats) if s.identity == me.identity and not marks.has(st, marks.lost(i))]
    if st.characters:
        joined: list[int] = []
        for i, s in enumerate(st.seats):
            if i == seat or s.identity != "bystander" or not s.character or marks.has(st, marks.lost(i)):
                continue
            mission = MISSIONS.get(s.character)
            verdict = mission.on_declare(g, i, seat) if mission is not None else None
            if verdict == "fail":
                me.identity_revealed = True  # declaring reveals the identity (D29), even in vain
                show_mission(g, seat, reason)
                g.log("declare.declares_victory_reason", seat, {"seat": seat, "reason": reason})
                show_mission(g, i, "mission")
                finish(g, [i], f"mission of {s.character}: the declaration of seat {seat} fails", "mission")
                return
            if verdict == "join":
                joined.append(i)
        for sk in skills_of(g, seat):
            extra = sk.co_winners(g, seat, winners)
            if sk.co_winner_choice and len(extra) > 1:
                if chosen not in extra:
                    fr = Frame("declare", seat=seat, text=reason, order=extra)
                    g.push(fr)
                    g.ask(seat, "trigger", "prompt.trigger.zh_choose_who_wins_with",
                          sk.offers(g, seat, fr), args={"zh": sk.zh})
                    return
                extra = [chosen]
            winners += [w for w in extra if w not in winners]
        winners += [w for w in joined if w not in winners]
        for w in joined:
            show_mission(g, w, "mission")
    show_mission(g, seat, reason)
    g.log("declare.declares_victory_reason", seat, {"seat": seat, "reason": reason})
    # a declaration names a faction's intel or a mission (check_victory's two reasons)
    finish(g, winners, reason, "mission" if reason.startswith("mission") else "intel")


def show_mission(g: Game, seat: int, reason: str) -> None:
    """A win by a mission (机密任务) shows the character card it is printed on: a face-down
    character is turned face up first, so the declaration naming it reveals nothing hidden
    (docs/rule-decisions.md, classic 29; §8, D29 reveal the identity the same way)."""
    s = g.state.seats[seat]
    if reason.startswith("mission") and s.character and not s.exposed:
        s.exposed = True
        g.log("flip.shows_id_for_mission", seat, {"seat": seat, "id": s.character})


def h_declare(g: Game, fr: Frame) -> None:
    """A declaration waiting for the declarer's choice of a co-winner (风度,
    ``skill ID to S``): the game ends with it (§6.6: nothing can be inserted)."""
    act = fr.given()
    g.state.stack.pop()
    g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": act.skill})
    declare(g, fr.seat, fr.text, chosen=act.target)


def finish(g: Game, winners: list[int], reason: str, end: str) -> None:
    """End the game: ``winners`` win; ``reason`` in words, ``end`` as a value (State.end)."""
    st = g.state
    st.end = end
    st.over = True
    st.prompt = None
    st.winners = sorted(winners)
    st.reason = reason
    for w in winners:
        st.seats[w].identity_revealed = True
    key = "game_over.game_over_seats_win_reason" if st.winners else "game_over.game_over_nobody_win_reason"
    g.log(key, -1, {"seats": tuple(st.winners), "reason": reason}, seats=st.winners)
