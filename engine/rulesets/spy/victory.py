"""Victory in 谍战篇 (spy digest §7): the faction collections (3 red for 潜伏战线, 3 blue for
特工机关), the seven 神秘人 cards (§7.2), their declaration order (§7.3), the death-time
victories (§6.3 step 1), the 搅局者 turn-end check, and the last player standing (§6.5).

Each function returns the winning seats (empty: nobody wins now); :func:`finish` ends the
game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.marks import add, has

from . import deck, ruledata
from .characters.gu_xiao_meng import co_winners
from .marks import Lost, TurnDied
from .records import seat_ext

if TYPE_CHECKING:
    from engine.game import Game

FACTION_COLOR = {"latent": "red", "special_service": "blue"}


def task(g: Game, seat: int) -> str:
    """The 神秘人 card of ``seat`` ('' for a faction player)."""
    p = g.state.seats[seat]
    return seat_ext(p).secret_task if p.identity == "mystery" else ""


def out(g: Game, seat: int) -> bool:
    """``seat`` is out of the game without dying (§6.4): it can never win."""
    return has(g.state, Lost(seat))


def died_this_turn(g: Game, seat: int) -> bool:
    return has(g.state, TurnDied(seat))


def faction(g: Game, identity: str) -> set[int]:
    """Every player of a faction, dead ones included, not ones out of the game (§7.1)."""
    return {i for i, p in enumerate(g.state.seats) if p.identity == identity and not out(g, i)}


def usurp(g: Game, winners: set[int]) -> set[int]:
    """篡夺者 (§7.2): in their own turn, when anyone declares victory, they win in their
    place (also after dying earlier in that turn); not if already among the winners."""
    t = g.state.turn
    if winners and task(g, t) == "cuan_duo_zhe" and not out(g, t) and t not in winners \
            and (g.state.seats[t].alive or died_this_turn(g, t)):
        return {t}
    return winners


def collection_winners(g: Game, resolving: tuple[int, ...] = ()) -> set[int]:
    """The collection check (§7.3): 3 red / 3 blue declared by the faction of that colour
    or a 双面间谍; held without a declaration: a 诱变者 wins who is alive or among
    ``resolving`` (still inside their own death resolution, §7.2 / FAQ 2.0); then 篡夺者."""
    st = g.state
    winners: set[int] = set()
    undeclared = False
    for s in g.living():
        p = st.seats[s]
        if len(p.intel) < ruledata.FACTION_WIN:  # too few intel for any colour (speed only)
            continue
        for identity, color in FACTION_COLOR.items():
            if deck.count(p.intel, color) < ruledata.FACTION_WIN:
                continue
            if p.identity == identity:
                winners |= faction(g, identity)
            elif task(g, s) == "shuang_mian_jian_die":
                winners.add(s)
            else:
                undeclared = True
    if undeclared:
        winners |= {s for s in (*g.living(), *resolving) if task(g, s) == "you_bian_zhe"}
    return usurp(g, winners)


def death_winners(g: Game, dead: list[int]) -> set[int]:
    """Victories at a death (§6.3 step 1): 镇压者 (own turn, a dead player held 2+ red-or-blue
    intel), 先行者 (dies holding 1+ red-or-blue), 清道夫 (a dead player held at most 1 red and
    at most 1 blue; alive or among the dead), then 篡夺者. ``dead`` still hold their intel."""
    st = g.state
    winners: set[int] = set()
    t = st.turn
    true_counts = {d: sum(1 for c in st.seats[d].intel if deck.IS_TRUE[c]) for d in dead}
    if task(g, t) == "zhen_ya_zhe" and not out(g, t) and any(n >= 2 for n in true_counts.values()):
        winners.add(t)
    winners |= {d for d in dead if task(g, d) == "xian_xing_zhe" and true_counts[d] >= 1}
    if any(deck.count(st.seats[d].intel, "red") <= 1 and deck.count(st.seats[d].intel, "blue") <= 1 for d in dead):
        winners |= {s for s in range(st.players)
                    if task(g, s) == "qing_dao_fu" and (st.seats[s].alive or s in dead) and not out(g, s)}
    return usurp(g, winners)


def turn_end_winners(g: Game) -> set[int]:
    """搅局者 (§7.2): at the end of their own turn (even if they died in it), every other
    living player holds at least 2 red-or-blue intel."""
    st = g.state
    t = st.turn
    if task(g, t) != "jiao_ju_zhe" or out(g, t):
        return set()
    others = [s for s in g.living() if s != t]
    if others and all(sum(1 for c in st.seats[s].intel if deck.IS_TRUE[c]) >= 2 for s in others):
        return usurp(g, {t})
    return set()


def last_standing(g: Game) -> set[int] | None:
    """§6.5 (rulebook, §11.15): with one player alive, they declare victory and their
    teammates win with them (a 神秘人 alone); with nobody alive the game ends without
    winners (docs/rule-decisions.md). None while two or more live."""
    living = g.living()
    if len(living) > 1:
        return None
    if not living:
        return set()
    s = living[0]
    identity = g.state.seats[s].identity
    winners = {s} if identity == "mystery" else faction(g, identity)
    return usurp(g, winners)


def finish(g: Game, winners: set[int], reason: str, end: str) -> None:
    """End the game: the winners declare (§7.3); every identity is shown in the outcome.
    ``end``: why, as a value (State.end)."""
    st = g.state
    st.end = end
    winners = co_winners(g, winners)
    st.over = True
    for w in winners:  # §7.3: the winners reveal their identity cards to declare
        st.seats[w].identity_revealed = True
    st.winners = sorted(winners)  # §11.17: the outcome names every seat's identity
    st.reason = reason
    st.prompt = None
    key = "game_over.game_over_seats_win_reason" if st.winners else "game_over.game_over_nobody_win_reason"
    g.log(key, -1, {"seats": tuple(st.winners), "reason": reason}, seats=st.winners)


def mark_died(g: Game, seat: int) -> None:
    add(g.state, TurnDied(seat))
