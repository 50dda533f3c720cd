"""致命香水's 绝密任务 (rulebook p.12): at game start she draws a random character face down
from the characters not in play, redrawing 职业杀手/礼服蒙面/黄雀; only she sees it until
her death or victory (①). Scenarios cannot start before the game-start window, so this
is checked on dealt games."""

from __future__ import annotations

from engine import Game
from engine.rulesets import ruleset_module

REDRAW = ruleset_module("return", "characters.zhi_ming_xiang_shui").REDRAW

POOL = ["zhi_ming_xiang_shui", "huang_que", "zhi_ye_sha_shou", "li_fu_meng_mian", "qi_bai", "fu_she", "e_mei_feng"]


def deal_with_perfume(seed: int) -> tuple[Game, int]:
    """Play the character choice so that whoever is offered 致命香水 takes it."""
    g = Game.new(players=3, seed=seed, characters=True, character_pool=POOL)
    owner = -1
    while g.pending is not None and g.pending.kind == "character":
        seat = g.pending.seat
        legal = list(g.legal_texts(seat))
        pick = next((a for a in legal if "zhi_ming_xiang_shui" in a), legal[0])
        if "zhi_ming_xiang_shui" in pick:
            owner = seat
        g.apply(seat, pick)
    return g, owner


def test_secret_character_drawn_at_game_start() -> None:
    checked = 0
    for seed in range(40):
        g, owner = deal_with_perfume(seed)
        if owner < 0:
            continue
        st = g.state
        eligible = [c for c in st.character_pool if c not in REDRAW]
        if not eligible:
            continue
        # other game-start skills (雇佣关系, 危机关系) may be asked first
        while g.pending is not None and not (g.pending.seat == owner and g.pending.kind == "trigger"):
            assert g.pending.kind != "main", "致命香水 was not asked at game start"
            g.apply(g.pending.seat, g.legal_actions(g.pending.seat)[0])
        # forced: pass is not offered
        assert list(map(str, g.legal_actions(owner))) == ["skill jue_mi_ren_wu"]
        g.apply(owner, "skill jue_mi_ren_wu")
        while g.pending is not None and g.pending.kind == "respond":
            g.apply(g.pending.seat, "pass")
        secret = st.seats[owner].ext.private_character()
        assert secret in eligible and secret not in REDRAW
        assert secret not in st.character_pool
        assert g.observation(owner).seats[owner].secret_character == secret
        for viewer in (-1, *(s for s in range(3) if s != owner)):
            assert g.observation(viewer).seats[owner].secret_character == ""
            assert all(secret not in e.text for e in g.events_for(viewer) if e.kind == "secret_character")
        checked += 1
    assert checked >= 3


def test_secret_character_revealed_at_death() -> None:
    g = Game.from_position({
        "seats": [{"identity": "latent", "hand": [7]},
                  {"identity": "agent", "character": "zhi_ming_xiang_shui", "intel": [5, 6]},
                  {"identity": "military"}],
        "relations": {"secret_character": {1: "qi_bai"}},
    })
    assert g.observation(-1).seats[1].secret_character == ""
    for action in ("0: declare", "1: pass", "2: pass", "0: send 7 direct to 1", "1: accept", "2: pass", "0: pass"):
        seat, act = action.split(": ")
        g.apply(int(seat), act)
    assert not g.state.seats[1].alive
    assert g.observation(-1).seats[1].secret_character == "qi_bai"
    assert any(e.kind == "secret_character" and not e.audience for e in g.events)
