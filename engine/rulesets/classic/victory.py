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
    """Whether the game is over now (or a declaration is asking its declarer, §6.6); ends
    it when someone must declare."""
    st = g.state
    if st.over or (st.stack and st.stack[-1].kind == "declare"):
        return True
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
        finish(g, alive, "the last player alive" if alive else "nobody is left")
        return True
    return False


def declare(g: Game, seat: int, reason: str) -> None:
    """``seat`` declares victory: its faction mates (not lost) win with it; the declarer's
    skills add co-winners, possibly asking the declarer to choose (风度); bystanders'
    missions may join or defeat the declaration (§8)."""
    st = g.state
    me = st.seats[seat]
    winners = [seat]
    if me.identity in ("latent", "military"):
        winners = [i for i, s in enumerate(st.seats) if s.identity == me.identity and not marks.has(st, marks.lost(i))]
    g.log("declare", seat, f"seat {seat} declares victory ({reason})")
    if st.characters and not _co_winners(g, seat, winners, 0, reason):
        return
    conclude(g, seat, winners, reason)


def _co_winners(g: Game, seat: int, winners: list[int], start: int, reason: str) -> bool:
    """Add the co-winners of the declarer's skills from the ``start``-th on to ``winners``;
    False when a skill asks the declarer to choose (a ``declare`` frame was pushed)."""
    skills = skills_of(g, seat)
    for i in range(start, len(skills)):
        sk = skills[i]
        winners += [w for w in sk.co_winners(g, seat, winners) if w not in winners]
        options = [w for w in sk.co_winner_choices(g, seat, winners) if w not in winners]
        if len(options) == 1:
            winners.append(options[0])
        elif options:
            g.push(Frame("declare", seat=seat, order=list(winners), cards=options, index=i + 1, text=reason))
            return False
    return True


def h_declare(g: Game, fr: Frame) -> None:
    """A declaration that asks its declarer (风度: which female wins along): decision
    ``choose``, ``choose S``; nothing may be inserted meanwhile (宣告胜利时, §6.6)."""
    st = g.state
    if not fr.answer:
        skill = skills_of(g, fr.seat)[fr.index - 1].id
        g.ask(fr.seat, "choose", f"{skill}: choose who wins with you", [f"choose {s}" for s in fr.cards])
        return
    st.stack.pop()
    winners = [*fr.order, int(fr.answer.split()[1])]
    if _co_winners(g, fr.seat, winners, fr.index, fr.text):
        conclude(g, fr.seat, winners, fr.text)


def conclude(g: Game, seat: int, winners: list[int], reason: str) -> None:
    """The declaration of ``seat`` with these winners meets the bystanders' missions that
    join it or make it fail (§8), then the game ends."""
    st = g.state
    if st.characters:
        for i, s in enumerate(st.seats):
            if i == seat or s.identity != "bystander" or not s.character or marks.has(st, marks.lost(i)):
                continue
            mission = MISSIONS.get(s.character)
            verdict = mission.on_declare(g, i, seat) if mission is not None else None
            if verdict == "fail":
                finish(g, [i], f"mission of {s.character}: the declaration of seat {seat} fails")
                return
            if verdict == "join" and i not in winners:
                winners.append(i)
    finish(g, winners, reason)


def finish(g: Game, winners: list[int], reason: str) -> None:
    st = g.state
    st.over = True
    st.prompt = None
    st.winners = sorted(winners)
    st.reason = reason
    for w in winners:
        st.seats[w].identity_revealed = True
    who = " ".join(map(str, st.winners)) or "nobody"
    g.log("game_over", -1, f"game over: {who} win ({reason})", seats=st.winners)
