"""State-based rules: victory (rulebook p.5 游戏获胜及结束; digest §7) and death
(p.5 角色死亡; digest §6), and the identity actions printed on cards (decisions §11.1–2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.state import Frame, Kill

from . import deck, marks, ruledata
from .skills import MISSIONS, passive_skills
from .triggers import open_window

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


def mission_done(g: Game, seat: int, *, when: str = "") -> bool:
    """An agent's secret mission (or 致命香水's 绝密任务 for anyone) holds now."""
    st = g.state
    if not st.characters:
        return False
    p = st.seats[seat]
    checks = []
    if p.identity == "agent" and p.character in MISSIONS:
        checks.append(MISSIONS[p.character])
    if p.secret_character in MISSIONS:
        checks.append(MISSIONS[p.secret_character])
    return any(m.when == when and m.done(g, seat) for m in checks)


def victory(g: Game) -> tuple[list[int], str, str] | None:
    """Who wins now, if anyone: agents with 6 true intel or a completed mission (their
    win makes the factions' fail), a faction whose member holds 3 of its colour (all its
    members win, dead ones too), or the last player alive (p.5; digest §7). Answers the
    winners, the reason in words and as a value (State.end)."""
    seats = g.state.seats
    agents = [i for i, p in enumerate(seats) if p.alive and p.identity == "agent"
              and (true_count(p.intel) >= AGENT_TRUE_WIN or mission_done(g, i))]
    if agents:
        # an agent's win: 6 true intel (its identity's condition) or its mission (p.2 特工)
        intel = all(true_count(seats[i].intel) >= AGENT_TRUE_WIN for i in agents)
        return agents, "agent completes a victory condition", "intel" if intel else "mission"
    winners: list[int] = []
    reasons: list[str] = []
    for faction, counter, colour in (("military", blue_count, "blue"), ("latent", red_count, "red")):
        if any(p.alive and p.identity == faction and counter(p.intel) >= FACTION_WIN for p in seats):
            winners.extend(i for i, p in enumerate(seats) if p.identity == faction)
            reasons.append(f"{faction} holds 3 {colour} intel")
    # 致命香水 (non-agent) with her 绝密任务 done wins with her faction (digest §9).
    extra = [i for i, p in enumerate(seats) if p.alive and p.identity != "agent" and p.secret_character
             and mission_done(g, i)]
    if winners or extra:
        return (sorted(set(winners) | set(extra)), "; ".join(reasons) or "secret mission completed",
                "intel" if reasons else "mission")
    living = [i for i, p in enumerate(seats) if p.alive]
    if len(living) == 1:
        return living, "last player alive", "last_standing"
    return None


def check_victory(g: Game) -> bool:
    """Declare victory if a condition holds now; True when the game is over."""
    found = victory(g)
    if found:
        declare_victory(g, *found)
    return g.state.over


def declare_victory(g: Game, winners: list[int], reason: str, end: str) -> None:
    """宣胜: the game ends at once; declarers reveal their identity (p.5 ①③). Agents whose
    mission is met "when another player declares victory" win too, and an agent's win
    makes the non-agents' fail (p.2 特工)."""
    st = g.state
    seats = st.seats
    joining = [i for i, p in enumerate(seats) if p.alive and i not in winners and mission_done(g, i, when="declare")]
    if joining:
        agents = [w for w in winners if seats[w].identity == "agent"]
        if any(seats[j].identity == "agent" for j in joining):
            winners = sorted(set(agents) | {j for j in joining if seats[j].identity == "agent"})
        else:
            # Only a non-agent 致命香水 (绝密任务) joins: her win voids nobody's (p.12 ②).
            winners = sorted(set(winners) | set(joining))
        reason, end = "agent mission on another's declaration", "mission"
    st.over = True
    st.winners = winners
    st.reason = reason
    st.end = end
    st.prompt = None
    for w in winners:
        seats[w].identity_revealed = True
        reveal_secret_character(g, w)
    g.log("victory.game_over_seats_win_reason", -1, {"seats": tuple(winners), "reason": reason}, seats=winners)


def reveal_secret_character(g: Game, seat: int) -> None:
    """致命香水's face-down 绝密任务 character is shown at her death or victory (p.12 ①)."""
    secret = g.state.seats[seat].secret_character
    if secret:
        g.log("secret_character.zh_character_was_id", seat, {"seat": seat, "zh": '绝密任务', "id": secret})


def schedule_deaths(g: Game, killers: list[int], cause: str, *, announced: bool = False,
                    seats: list[int] | None = None) -> None:
    """Every living player with 3 or more fake intel dies: death frames in turn order.
    ``announced``: their death-time window was already opened. ``seats``: only these
    (a receipt nested in a death, see ``flow.newly_dying``)."""
    for s in reversed(dying_seats(g) if seats is None else seats):
        g.push(Frame("death", seat=s, stage=1 if announced else 0, order=list(killers), text=cause))


def h_death(g: Game, fr: Frame) -> None:
    """A death (p.5 角色死亡): death-time skills first (①), a mission met at one's own death,
    then the dead player discards hand and intel, reveals the identity and leaves (②)."""
    st = g.state
    p = st.seats[fr.seat]
    if fr.stage == 2:
        # The death is done: a death can make another player's condition true (p.5).
        st.stack.pop()
        check_victory(g)
        return
    if not p.alive or st.over:
        st.stack.pop()
        return
    if fr.stage == 0:
        fr.stage = 1
        open_window(g, "dying", fr.seat)
        return
    if fr.stage == 1:
        fr.stage = 2
        if fake_count(p.intel) < DEATH_FAKES and fr.index != 1:
            # A death-time skill saved the player (e.g. burned a fake). ``fr.index == 1``
            # marks a death that is not caused by fake intel (凋零's "否则死亡").
            st.stack.pop()
            return
        if check_victory(g):
            return
        if mission_done(g, fr.seat, when="death"):
            declare_victory(g, [fr.seat], "secret mission completed at death", "mission")
            return
        die(g, fr.seat, fr.order, fr.text)


def die(g: Game, seat: int, killers: list[int], cause: str = "") -> None:
    """The dead player discards hand and intel, reveals their identity (p.5 ②); the
    seats credited with the kill are recorded (③)."""
    st = g.state
    p = st.seats[seat]
    # 城府: may keep the identity hidden (a passive hook, Skill.hides_identity)
    keeper = next((sk for sk in passive_skills(g, seat) if sk.hides_identity(g, seat)), None)
    hidden_identity = keeper is not None
    if keeper is not None:
        g.log("skill.uses_id", seat, {"seat": seat, "id": keeper.id})
    kill = Kill(seat, sorted(set(killers)), cause, true_count(p.intel), p.identity)
    p.alive = False
    if not hidden_identity:
        p.identity_revealed = True
    if seat in st.locked:
        st.locked.remove(seat)
    st.kills.append(kill)
    reveal_secret_character(g, seat)
    g.log("death.dies_killed_by_seats" if hidden_identity else "death.dies_id_killed_by_seats", seat,
          {"seat": seat, "id": p.identity, "seats": tuple(kill.killers)}, seats=(seat, *kill.killers))
    intel = list(p.intel)
    p.intel.clear()
    st.discard.extend(intel)
    hand = list(p.hand)
    p.hand.clear()
    st.discard.extend(hand)
    if hand or intel:
        # Hand and intel are discarded together (②): one 'discarded' window (线索 may take
        # any of them, p.15 线索 note "死亡弃牌").
        g.log("discard.discards_cards", seat, {"seat": seat, "cards": tuple(hand + intel)}, cards=hand + intel)
        open_window(g, "discarded", seat, cards=hand + intel)


def turn_draw_count(g: Game, seat: int) -> int:
    """The turn-start draw: 2, unless a skill set it (:class:`marks.DrawSet`, the last one
    counts) or added to it (:class:`marks.DrawExtra`)."""
    st = g.state
    count = ruledata.TURN_DRAW
    for drawn in marks.find(st, marks.DrawSet):
        count = drawn.count
    return count + sum(extra.count for extra in marks.find(st, marks.DrawExtra))


def dying_seats(g: Game) -> list[int]:
    """Living players holding 3 or more fake intel, in turn order from the turn player."""
    st = g.state
    order = ((st.turn + i) % st.players for i in range(st.players))
    return [s for s in order if st.seats[s].alive and fake_count(st.seats[s].intel) >= DEATH_FAKES]
