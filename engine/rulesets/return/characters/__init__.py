"""The 25 characters of 风声再临 (digest §9), one module each, and the helpers the core
uses to ask "does this seat have skill X right now?".

Each character module defines ``CHARACTER`` (:class:`Character`), ``SKILLS`` (its two
:class:`Skill` objects) and ``MISSION`` (:class:`Mission`). Adding a character touches
its own module, the list below and its tests.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..characters.base import Character, Mission, Skill, switch_state

if TYPE_CHECKING:
    from engine.game import Game

#: Character ids in the digest's order; a module ``characters/<id>.py`` of this package each.
CHARACTER_IDS: tuple[str, ...] = (
    "lao_qiang", "da_mei_nv", "fu_ping", "fu_she", "yi_dian_yuan", "e_mei_feng", "gang_tie_te_gong",
    "qi_bai", "zhi_ming_xiang_shui", "lao_gui", "xiao_bai", "hei_mei_gui", "lao_jin", "shan_ling",
    "huang_que", "dai_li", "dao_feng", "xiao_ma_ge", "bei_lei_mao", "fu_er_mo_si", "guai_dao_jiu_jiu",
    "qing_bao_chu_zhang", "liu_jie", "li_fu_meng_mian", "zhi_ye_sha_shou",
)

CHARACTERS: dict[str, Character] = {}
SKILLS: dict[str, Skill] = {}
MISSIONS: dict[str, Mission] = {}


def _load() -> None:
    """Import every listed character module; a missing one is an ImportError at start-up
    (never a character that silently vanishes from the pool)."""
    for cid in CHARACTER_IDS:
        mod = importlib.import_module(f"{__name__}.{cid}")
        CHARACTERS[cid] = mod.CHARACTER
        MISSIONS[cid] = mod.MISSION
        for skill in mod.SKILLS:
            SKILLS[skill.id] = skill


_load()


def available_characters() -> list[str]:
    """Characters implemented in this build, in the digest's order."""
    return [c for c in CHARACTER_IDS if c in CHARACTERS]


def skills_of(g: Game, seat: int) -> list[str]:
    """The skill ids a seat has now: its character's, less a skill taken by 乔装, plus a
    skill it took with 乔装 (flags ``qiao_zhuang:<taker>:<owner>:<skill>``)."""
    st = g.state
    character = CHARACTERS.get(st.seats[seat].character)
    if character is None:
        return []
    have = list(character.skills)
    for flag in st.flags:
        if flag.startswith("qiao_zhuang:"):
            _, taker, owner, skill = flag.split(":")
            if int(owner) == seat and skill in have:
                have.remove(skill)
            if int(taker) == seat:
                have.append(skill)
    return have


def has_skill(g: Game, seat: int, skill_id: str) -> bool:
    """The seat is alive, has the skill now, and (for passive rule changes) holds it
    regardless of the character's face (non-state skills work face down too)."""
    st = g.state
    if not st.characters or not st.seats[seat].alive:
        return False
    return skill_id in skills_of(g, seat)


def state_allows(g: Game, seat: int, skill: Skill) -> bool:
    """【隐藏】 skills need the character exposed, 【暴露】 skills need it hidden (p.3)."""
    exposed = g.state.seats[seat].exposed
    if skill.state == "hide":
        return exposed
    if skill.state == "expose":
        return not exposed
    return True


def usable(g: Game, seat: int, skill_id: str, window: int | None = None) -> bool:
    """Has the skill, its state allows it, and it was not used at this timing yet."""
    if not has_skill(g, seat, skill_id):
        return False
    skill = SKILLS[skill_id]
    if not state_allows(g, seat, skill):
        return False
    key = f"{skill_id}@{seat}@{g.state.window if window is None else window}"
    return key not in g.state.used


def mark_used(g: Game, seat: int, skill_id: str, window: int | None = None) -> None:
    g.state.used.append(f"{skill_id}@{seat}@{g.state.window if window is None else window}")


__all__ = [
    "CHARACTERS", "CHARACTER_IDS", "MISSIONS", "SKILLS", "Character", "Mission", "Skill",
    "available_characters", "has_skill", "mark_used", "skills_of", "state_allows", "switch_state", "usable",
]
