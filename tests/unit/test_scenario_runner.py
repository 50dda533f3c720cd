"""The scenario runner's own errors (shared/spec/scenario-format.md): a broken scenario is
an ERROR naming the problem, never a silent pass."""

from __future__ import annotations

from typing import Any

from fengsheng.scenario import run_scenario


def base(**extra: Any) -> dict[str, Any]:
    """A 3-seat 再临 position in seat 0's play phase."""
    data: dict[str, Any] = {
        "name": "runner check",
        "source": "shared/spec/scenario-format.md",
        "ruleset": "return",
        "seats": [{"identity": "latent", "hand": [10]}, {"identity": "military", "hand": [11]},
                  {"identity": "agent", "hand": [12]}],
        "turn": 0,
    }
    data.update(extra)
    return data


def test_a_good_scenario_passes() -> None:
    result = run_scenario(base(expect={"to_act": 0, "legal_excludes": {0: ["accept"]}}))
    assert result.status == "ok", result.line()


def test_unknown_seat_key_is_an_error() -> None:
    data = base()
    data["seats"][1]["intell"] = [5]
    result = run_scenario(data)
    assert result.status == "ERROR"
    assert "seat 1" in result.message and "intell" in result.message


def test_legal_excludes_for_a_seat_not_to_act_is_an_error() -> None:
    result = run_scenario(base(expect={"legal_excludes": {1: ["declare"]}}))
    assert result.status == "ERROR"
    assert "seat 1 is not to act" in result.message


def test_unknown_ruleset_is_an_error() -> None:
    result = run_scenario(base(ruleset="no_such_edition"))
    assert result.status == "ERROR"
    assert "no_such_edition" in result.message


def test_unknown_step_is_an_error() -> None:
    result = run_scenario(base(step="draw"))
    assert result.status == "ERROR"
    assert "game_start" in result.message


def test_game_start_step_needs_characters() -> None:
    result = run_scenario(base(step="game_start"))
    assert result.status == "ERROR"
    assert "characters" in result.message


def game_start(expect: dict[str, Any]) -> dict[str, Any]:
    data = base(step="game_start", expect=expect, steps=["2: skill gu_yong_guan_xi to 0", "*: pass"])
    data["seats"][2]["character"] = "zhi_ye_sha_shou"
    return data


def test_game_start_step_plays_the_game_start_skills() -> None:
    ok = run_scenario(game_start({"seats": {2: {"relation": 0}}, "to_act": 0}))
    assert ok.status == "ok", ok.line()
    wrong = run_scenario(game_start({"seats": {2: {"relation": 1}}}))
    assert wrong.status == "FAIL" and "relation" in wrong.message


def test_seen_and_not_seen_check_what_a_seat_was_shown() -> None:
    look = {"kind": "look_identity", "seats": [0], "text_contains": "latent"}
    assert run_scenario(game_start({"seen": {2: [look]}, "not_seen": {1: [look], -1: [look]}})).status == "ok"
    leaked = run_scenario(game_start({"seen": {1: [look]}}))
    assert leaked.status == "FAIL" and "seen" in leaked.message
    hidden = run_scenario(game_start({"not_seen": {2: [look]}}))
    assert hidden.status == "FAIL" and "not_seen" in hidden.message
    bad = run_scenario(game_start({"seen": {2: [{"kindd": "look_identity"}]}}))
    assert bad.status == "ERROR" and "kindd" in bad.message


def test_hand_within_and_hand_includes() -> None:
    ok = run_scenario(base(expect={"seats": {0: {"hand_within": [10, 11], "hand_includes": [10]}}}))
    assert ok.status == "ok", ok.line()
    outside = run_scenario(base(expect={"seats": {0: {"hand_within": [11]}}}))
    assert outside.status == "FAIL" and "hand_within" in outside.message
    missing = run_scenario(base(expect={"seats": {0: {"hand_includes": [11]}}}))
    assert missing.status == "FAIL" and "hand_includes" in missing.message
