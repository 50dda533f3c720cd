"""The 25 characters of 风声再临 (digest §9), one module each, and the helpers the core
uses to ask "does this seat have skill X right now?".

Each character module defines ``CHARACTER`` (:class:`Character`), ``SKILLS`` (its two
:class:`Skill` objects) and ``MISSION`` (:class:`Mission`). Adding a character touches
its own module, the list below and its tests.
"""

from __future__ import annotations

import importlib

from ..skills import (
    CHARACTERS,
    MISSIONS,
    SKILLS,
    available_characters,
    has_skill,
    mark_used,
    skills_of,
    state_allows,
    usable,
)
from .base import Character, Mission, Skill, switch_state

#: Character ids in the digest's order; a module ``characters/<id>.py`` of this package each.
CHARACTER_IDS: tuple[str, ...] = (
    "lao_qiang", "da_mei_nv", "fu_ping", "fu_she", "yi_dian_yuan", "e_mei_feng", "gang_tie_te_gong",
    "qi_bai", "zhi_ming_xiang_shui", "lao_gui", "xiao_bai", "hei_mei_gui", "lao_jin", "shan_ling",
    "huang_que", "dai_li", "dao_feng", "xiao_ma_ge", "bei_lei_mao", "fu_er_mo_si", "guai_dao_jiu_jiu",
    "qing_bao_chu_zhang", "liu_jie", "li_fu_meng_mian", "zhi_ye_sha_shou",
)

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


__all__ = [
    "CHARACTERS", "CHARACTER_IDS", "MISSIONS", "SKILLS", "Character", "Mission", "Skill",
    "available_characters", "has_skill", "mark_used", "skills_of", "state_allows", "switch_state", "usable",
]
