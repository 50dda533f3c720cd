"""职业杀手's 雇佣关系 and 礼服蒙面's 危机关系 (rulebook p.16): at game start each names
another player (employer / nemesis X); 职业杀手 also looks at the employer's identity,
privately. Scenarios cannot start before the game-start window, so this is checked on
dealt games."""

from __future__ import annotations

from engine import Game

POOL = ["zhi_ye_sha_shou", "li_fu_meng_mian", "fu_ping", "lao_jin", "dai_li", "hei_mei_gui"]
NAMING = {"zhi_ye_sha_shou": "gu_yong_guan_xi", "li_fu_meng_mian": "wei_ji_guan_xi"}


def deal(seed: int) -> tuple[Game, dict[int, str]]:
    """Play the character choice so that whoever is offered one of the two takes it."""
    g = Game.new(players=3, seed=seed, characters=True, character_pool=POOL)
    owners: dict[int, str] = {}
    while g.pending is not None and g.pending.kind == "character":
        seat = g.pending.seat
        legal = list(g.legal_texts(seat))
        pick = next((a for a in legal if any(c in a for c in NAMING)), legal[0])
        for c in NAMING:
            if c in pick:
                owners[seat] = c
        g.apply(seat, pick)
    return g, owners


def test_game_start_naming_is_forced_public_and_the_identity_look_private() -> None:
    checked = 0
    for seed in range(30):
        g, owners = deal(seed)
        if not owners:
            continue
        st = g.state
        while g.pending is not None and g.pending.kind in ("trigger", "respond"):
            seat = g.pending.seat
            legal = list(g.legal_texts(seat))
            if g.pending.kind == "trigger" and seat in owners:
                skill = NAMING[owners[seat]]
                assert legal == [f"skill {skill} to {s}" for s in range(3) if s != seat]
                g.apply(seat, legal[-1])
            else:
                g.apply(seat, "pass")
        assert g.pending is not None
        for seat, ch in owners.items():
            named = st.seats[seat].ext.tie()
            assert named not in (-1, seat)
            # the relation is public
            assert all(g.observation(v).seats[seat].relation == named for v in (-1, 0, 1, 2))
            looks = [e for e in g.events if e.kind == "look_identity" and e.seat == seat and e.audience == (seat,)]
            if ch == "zhi_ye_sha_shou":
                assert len(looks) == 1 and st.seats[named].identity in looks[0].text
                for viewer in (-1, *(v for v in range(3) if v != seat)):
                    assert all(st.seats[named].identity not in e.text for e in g.events_for(viewer)
                               if e.kind == "look_identity")
            else:
                assert not looks
            checked += 1
    assert checked >= 5
