"""The character and skill tables of 风声再临 and the questions the rules ask of them
("does this seat have skill X right now?"). The tables start empty and are filled by
:mod:`.characters` when the ruleset loads, so cards and rules can import this leaf module
without importing every character.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import marks

if TYPE_CHECKING:
    from engine.game import Game

    from .characters.base import Character, Mission, Skill

CHARACTERS: dict[str, Character] = {}
SKILLS: dict[str, Skill] = {}
MISSIONS: dict[str, Mission] = {}


def available_characters() -> list[str]:
    """Characters of this ruleset, in the digest's order."""
    return list(CHARACTERS)


def skills_of(g: Game, seat: int) -> list[str]:
    """The skill ids a seat has now: its character's, less a skill taken by 乔装, plus a
    skill it took with 乔装 (:class:`marks.QiaoZhuang`)."""
    st = g.state
    character = CHARACTERS.get(st.seats[seat].character)
    if character is None:
        return []
    have = list(character.skills)
    tag = marks.QiaoZhuang.tag
    for mark in st.marks:  # this is the engine's hottest loop: the record is read in place,
        if mark.tag != tag:  # as QiaoZhuang lays it out (seats: taker, owner; words: skill)
            continue
        taker, owner = mark.seats
        skill = mark.words[0]
        if owner == seat and skill in have:
            have.remove(skill)
        if taker == seat:
            have.append(skill)
    return have


def has_skill(g: Game, seat: int, skill_id: str) -> bool:
    """The seat is alive, has the skill now, and (for passive rule changes) holds it
    regardless of the character's face (non-state skills work face down too)."""
    st = g.state
    if not st.characters or not st.seats[seat].alive:
        return False
    return skill_id in skills_of(g, seat)


def passive_skills(g: Game, seat: int) -> list[Skill]:
    """The skills a seat has now whose passive hooks the rules ask (:class:`Skill`'s
    ``shields``, ``hides_identity`` …): alive, characters in play, whatever the face
    (non-state skills work face down too; as :func:`has_skill`)."""
    st = g.state
    if not st.characters or not st.seats[seat].alive:
        return []
    return [SKILLS[sid] for sid in skills_of(g, seat) if sid in SKILLS]


def state_allows(g: Game, seat: int, skill: Skill) -> bool:
    """【隐藏】 skills need the character exposed, 【暴露】 skills need it hidden (p.3)."""
    return skill.face_allows(g.state.seats[seat].exposed)


def usable(g: Game, seat: int, skill_id: str, window: int | None = None) -> bool:
    """Has the skill, its state allows it, and it was not used at this timing yet."""
    if not has_skill(g, seat, skill_id):
        return False
    skill = SKILLS[skill_id]
    if not state_allows(g, seat, skill):
        return False
    return not marks.has(g.state, marks.Used(skill_id, seat, g.state.window if window is None else window))


def mark_used(g: Game, seat: int, skill_id: str, window: int | None = None) -> None:
    marks.add(g.state, marks.Used(skill_id, seat, g.state.window if window is None else window))


def once_per_turn(g: Game, seat: int, skill_id: str) -> bool:
    """Not used yet this turn: a turn-start skill is offered again after each turn-start
    chain, but the turn start is one timing (p.4 ②); :class:`marks.Used` marks are dropped
    at turn start."""
    return not any(u.skill == skill_id and u.seat == seat for u in marks.find(g.state, marks.Used))
