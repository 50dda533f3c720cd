"""The classic order of deaths (docs/rule-decisions.md classic 30; source 死亡 section
"当一位玩家獲得三张或以上的假情报时，他就会被杀害（死亡）然后按以下顺序进行"): a death is
recorded in ``State.kills`` when it begins, before its death-time skills, without the
identity until the reveal; a player those skills kill comes after it; a save (救美) takes
the record out at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engine import Game
from fengsheng.scenario import play_step

CHARACTERS = Path(__file__).resolve().parents[1] / "scenarios" / "classic" / "characters"


def played(name: str, upto: int | None = None) -> Game:
    """The scenario file's position after its first ``upto`` steps (all by default)."""
    data: dict[str, Any] = yaml.safe_load((CHARACTERS / name).read_text(encoding="utf-8"))
    game = Game.from_position(data)
    for step in [s for s in data["steps"] if isinstance(s, str)][:upto]:
        assert play_step(game, step) is None, step
    return game


def test_the_dying_player_is_recorded_before_her_death_time_skill_answers() -> None:
    game = played("fu_ping_hou_zhao_victim_dies_after_her.yaml", upto=4)  # 浮萍 asked 后着
    kills = game.state.kills
    assert [k.dead for k in kills] == [1]
    assert kills[0].identity == "" and kills[0].killers == [0]  # identity only at the reveal
    assert game.state.seats[1].alive


def test_the_victim_of_hou_zhao_comes_after_her() -> None:
    kills = played("fu_ping_hou_zhao_victim_dies_after_her.yaml").state.kills
    assert [(k.dead, k.killers, k.identity) for k in kills] == [(1, [0], "bystander"), (2, [1], "military")]


def test_a_saved_player_leaves_no_record() -> None:
    game = played("li_fu_meng_mian_jiu_mei_saves_her.yaml")
    assert game.state.seats[2].alive
    assert game.state.kills == []
