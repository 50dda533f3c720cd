"""State-based rules: victory (rulebook p.5 游戏获胜及结束; digest §7) and death
(p.5 角色死亡; digest §6), and the identity actions printed on cards (decisions §11.1–2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import deck, ruledata
from engine.state import Kill

if TYPE_CHECKING:
    from engine.game import Game

PUBLIC_TEXT_ACTIONS = ruledata.PUBLIC_TEXT_ACTIONS
DEATH_FAKES = ruledata.DEATH_FAKES
FACTION_WIN = ruledata.FACTION_WIN
AGENT_TRUE_WIN = ruledata.AGENT_TRUE_WIN


def identity_action(g: Game, card: int, identity: str) -> tuple[str, int]:
    return PUBLIC_TEXT_ACTIONS[card][identity]


def blue_count(intel: list[int]) -> int:
    """Blue intel, 机密文件 counting (p.9 机密文件 ①)."""
    return sum(1 for c in intel if deck.IS_BLUE[c])


def red_count(intel: list[int]) -> int:
    return sum(1 for c in intel if deck.IS_RED[c])


def true_count(intel: list[int]) -> int:
    return sum(1 for c in intel if deck.IS_TRUE[c])


def fake_count(intel: list[int]) -> int:
    return sum(1 for c in intel if deck.IS_BLACK[c])


def victory(g: Game) -> tuple[list[int], str] | None:
    """Who wins now, if anyone: agents with 6 true intel (their win makes the factions'
    fail), a faction whose member holds 3 of its colour (all its members win, dead ones
    too), or the last player alive."""
    seats = g.state.seats
    agents = [i for i, p in enumerate(seats) if p.alive and p.identity == "agent"
              and true_count(p.intel) >= AGENT_TRUE_WIN]
    if agents:
        return agents, "agent holds 6 true intel"
    winners: list[int] = []
    reasons: list[str] = []
    for faction, counter, colour in (("military", blue_count, "blue"), ("latent", red_count, "red")):
        if any(p.alive and p.identity == faction and counter(p.intel) >= FACTION_WIN for p in seats):
            winners.extend(i for i, p in enumerate(seats) if p.identity == faction)
            reasons.append(f"{faction} holds 3 {colour} intel")
    if winners:
        return sorted(winners), "; ".join(reasons)
    living = [i for i, p in enumerate(seats) if p.alive]
    if len(living) == 1:
        return living, "last player alive"
    return None


def declare_victory(g: Game, winners: list[int], reason: str) -> None:
    """宣胜: the game ends at once; declarers reveal their identity (p.5 ①③)."""
    st = g.state
    st.over = True
    st.winners = winners
    st.reason = reason
    st.prompt = None
    for w in winners:
        st.seats[w].identity_revealed = True
    g.log("victory", -1, f"game over: {' '.join(map(str, winners))} win ({reason})", seats=winners)


def die(g: Game, seat: int, killers: list[int]) -> None:
    """The dead player discards hand and intel, reveals their identity (p.5 ②); the
    seats credited with the kill are recorded (③)."""
    st = g.state
    p = st.seats[seat]
    p.alive = False
    p.identity_revealed = True
    st.discard.extend(p.hand)
    st.discard.extend(p.intel)
    p.hand.clear()
    p.intel.clear()
    if seat in st.locked:
        st.locked.remove(seat)
    st.kills.append(Kill(seat, sorted(set(killers))))
    g.log("death", seat, f"seat {seat} dies ({p.identity}); killed by {' '.join(map(str, killers)) or '-'}",
          seats=(seat, *killers))


def after_placement(g: Game, killers: list[int]) -> None:
    """After an intel is placed: victory beats death (p.5 ③), then deaths from 3 fake
    intel, then any victory a death made true (last alive)."""
    found = victory(g)
    if found:
        declare_victory(g, *found)
        return
    for i, p in enumerate(g.state.seats):
        if p.alive and fake_count(p.intel) >= DEATH_FAKES:
            die(g, i, killers)
    found = victory(g)
    if found:
        declare_victory(g, *found)
