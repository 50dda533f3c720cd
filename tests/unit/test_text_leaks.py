"""Issue 11 finding 9 and acceptance 1–2 (leaks): free text never names what its viewer
cannot see. The invariants' free-text check (fengsheng.text_leaks, run by
fengsheng.invariants.Checker after every decision, so also by the 1,000 random games with
characters of tests/unit/test_random_play_characters.py) reads the prompt, the outcome
and every event text each seat and a spectator receive.

Each leak the engine had is put back with a monkeypatch and must be caught; the fixed
engine must pass the same games."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import Game
from engine.rulesets import ruleset_module
from fengsheng.invariants import Checker, MatchMirror
from fengsheng.scenario import play_step
from fengsheng.simulate import play_random
from fengsheng.text_leaks import mentions

privacy = ruleset_module("return", "privacy")
lao_jin = ruleset_module("return", "characters.lao_jin")

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "return" / "characters"
PO_FU_SCENARIO = SCENARIOS / "lao_jin_po_fu_chen_zhou_pile_bottom_kills.yaml"
#: seeds whose random games (with characters) use the skill named
PO_FU_SEED, DIAO_LING_SEED, AN_SHA_SEED = 5, 4, 12


def _play_scenario_checked(path: Path) -> Game:
    """The scenario's position and steps, with every invariant checked after each step."""
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    game = Game.from_position(data)
    checker = Checker(0)
    for step in data["steps"]:
        if isinstance(step, str):
            before = len(game.history)
            play_step(game, step)
            for n in range(before, len(game.history)):
                checker(game, n + 1)
    return game


def _old_po_fu_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put back the old prompt, which named the pile-bottom card only 老金 looked at."""
    ask = Game.ask

    def leaky_ask(self: Game, seat: int, kind: str, key: str, options: Any = (), *, args: Any) -> None:
        if key == "prompt.choose.zh_who_receives_pile_bottom":
            card = next(e.cards[0] for e in reversed(self.events) if e.kind == "pile_bottom" and e.cards)
            key, args = "prompt.choose.zh_who_receives_card", {**args, "card": card}
        ask(self, seat, kind, key, options, args=args)

    monkeypatch.setattr(Game, "ask", leaky_ask)


def test_po_fu_chen_zhou_prompt_does_not_name_the_pile_bottom_card() -> None:
    game = _play_scenario_checked(PO_FU_SCENARIO)
    prompts = [e for e in game.events if e.kind == "pile_bottom"]
    assert prompts, "the scenario no longer reaches 破釜沉舟's choice"
    assert lao_jin.PO_FU in " ".join(e.text for e in game.events if e.kind == "skill")


def test_old_po_fu_chen_zhou_prompt_is_caught_in_the_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    _old_po_fu_prompt(monkeypatch)
    leak = r"the prompt '破釜沉舟: who receives \d+' shown to a spectator names card"
    with pytest.raises(AssertionError, match=leak):
        _play_scenario_checked(PO_FU_SCENARIO)


def test_old_po_fu_chen_zhou_prompt_is_caught_in_random_play(monkeypatch: pytest.MonkeyPatch) -> None:
    play_random(PO_FU_SEED, 3 + PO_FU_SEED % 5, check=Checker(PO_FU_SEED), characters=True)
    _old_po_fu_prompt(monkeypatch)
    with pytest.raises(AssertionError, match="破釜沉舟: who receives"):
        play_random(PO_FU_SEED, 3 + PO_FU_SEED % 5, check=Checker(PO_FU_SEED), characters=True)


@pytest.mark.parametrize(("seed", "skill"), [(DIAO_LING_SEED, "diao_ling"), (AN_SHA_SEED, "an_sha")])
def test_skill_lines_hide_the_hand_cards_they_name(monkeypatch: pytest.MonkeyPatch, seed: int, skill: str) -> None:
    """凋零's two hand cards and 暗杀's fake from the hand are named when the skill is used
    but only leave the hand when it resolves: everyone else's log line shows ``?``."""
    result = play_random(seed, 3 + seed % 5, check=Checker(seed), characters=True)
    spectator = [e.text for e in result.game.events if e.visible_to(-1) and e.kind == "action" and skill in e.text]
    assert any("?" in text for text in spectator), spectator
    monkeypatch.setattr(privacy, "hidden_skill_cards", lambda g, seat, words: None)
    with pytest.raises(AssertionError, match=rf"event \d+ \(action\) '\d: skill {skill} .*' shown to .* names card"):
        play_random(seed, 3 + seed % 5, check=Checker(seed), characters=True)


def test_a_public_line_naming_a_hidden_identity_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """雇佣关系 looks at the employer's identity privately; a public line saying it leaks."""
    log = Game.log

    def leaky_log(self: Game, key: str, seat: int, args: dict[str, Any], **kw: Any) -> None:
        if key.startswith("look_identity.") and kw.get("public"):
            kw["public"] = key  # the public variant filled with the private template's arguments
        log(self, key, seat, args, **kw)

    monkeypatch.setattr(Game, "log", leaky_log)
    with pytest.raises(AssertionError, match=r"names the identity \w+ of seat \d, which it does not know"):
        for seed in range(40):
            play_random(seed, 3 + seed % 5, check=Checker(seed), characters=True)


def test_a_public_line_naming_a_face_down_character_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    log = Game.log

    def leaky_log(self: Game, key: str, seat: int, args: dict[str, Any], **kw: Any) -> None:
        if key == "character.places_face_down_character":
            key = "character.places_id"  # the public line names the face-down character
        log(self, key, seat, args, **kw)

    monkeypatch.setattr(Game, "log", leaky_log)
    with pytest.raises(AssertionError, match="the face-down character of seat"):
        for seed in range(20):
            play_random(seed, 3 + seed % 5, check=Checker(seed), characters=True)


def test_a_public_draw_naming_the_cards_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without characters too: the public line of a draw naming the drawn cards."""
    log = Game.log

    def leaky_log(self: Game, key: str, seat: int, args: dict[str, Any], **kw: Any) -> None:
        if key == "draw.draws_cards":
            kw.pop("public", None)
            kw["audience"] = ()
            kw["cards"] = ()
        log(self, key, seat, args, **kw)

    monkeypatch.setattr(Game, "log", leaky_log)
    with pytest.raises(AssertionError, match=r"event \d+ \(draw\) '\d draws [\d ]+' shown to .* names card"):
        play_random(1, 5, check=Checker(1))


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("seat 2 draws 2", ()),
        ("0 draws 65 7", (65, 7)),
        ("2: play 30 to 0,2", (30,)),
        ("2: skill an_sha to 4 cards 63 on 33", (63, 33)),
        ("discard down to 6 (1 more)", ()),
        ("暗杀: pick a hand card to discard (1 of 3)", ()),
        ("the discard pile (67) is shuffled into a new pile", ()),
        ("turn 41: seat 3", ()),
        ("seat 4 dies (agent); killed by 1 3", ()),
        ("game over: 0 2 4 win (latent holds 3 red intel)", ()),
        ("seat 2's intel 57 and seat 0's intel 52 change places", (57, 52)),
        ("seat 1 takes 2 card(s) from seat 4", ()),
        ("seat 1 takes 64 4 from seat 4", (64, 4)),
        ("破釜沉舟: who receives 59", (59,)),
        ("seat 40 looks", (40,)),  # not a seat of a 5-player game: a card
        ("seat 0 draws 12 (试探)", (12,)),  # too big for a count
    ],
)
def test_numbers_are_told_apart(text: str, cards: tuple[int, ...]) -> None:
    assert mentions(text, 5).cards == cards


def test_identities_and_characters_are_attributed() -> None:
    m = mentions("seat 0 names agent and looks at seat 2's identity: latent", 5)
    assert m.identities == ((2, "latent"),)  # the named guess is no fact about seat 0
    assert mentions("seat 4 dies (agent); killed by 1", 5).identities == ((4, "agent"),)
    assert mentions("agent completes a victory condition", 5, subject=(1, 3)).identities == ((1, "agent"), (3, "agent"))
    assert mentions("respond to seat 2's po_fu_chen_zhou or pass", 5).characters == ("lao_jin",)
    assert mentions("破釜沉舟: who receives the pile-bottom card you looked at", 5).characters == ("lao_jin",)
    assert mentions("seat 1's 识破 voids seat 2's probe", 5).characters == ()


def test_a_count_after_a_seat_is_no_seat_list() -> None:
    """Seed 585 (3 players): "(3 of 4)" after "seat 1" counts picks; it names no card."""
    assert mentions("收买: pick a hand card to give seat 1 (3 of 4)", 3).cards == ()


def _mirror_at(seed: int, decisions: int) -> MatchMirror:
    """A mirror of a 5-player random game with characters, ``decisions`` actions in."""
    game = Game.new(players=5, seed=seed, characters=True)
    pick = random.Random(seed).choice
    history = []
    for _ in range(decisions):
        p = game.pending
        assert p is not None
        action = pick(game.legal_actions(p.seat))
        history.append((p.number, p.seat, action))
        game.apply(p.seat, action)
    mirror = MatchMirror(ruleset="return", players=5, seed=seed, tutorial=False, characters=True)
    mirror.advance(history)
    return mirror


def test_the_fuzzers_mirror_catches_what_a_server_should_not_serve() -> None:
    """What the fuzz tests check each served observation with: the engine's own views
    pass; another seat's hand, a hidden card in a prompt, a foreign event line do not."""
    mirror = _mirror_at(7, 120)
    game = mirror.game
    for viewer in range(-1, 5):
        mirror.check_view(viewer, game.observation(viewer, include_events=True))
    other = game.observation(1)
    other.seats[2].hand.extend(game.state.seats[2].hand or game.state.pile[-1:])
    with pytest.raises(AssertionError, match="was served seat 2's hand"):
        mirror.check_view(1, other)
    pile_bottom = game.state.pile[0]
    spectator = game.observation(-1)
    spectator.pending.prompt = f"破釜沉舟: who receives {pile_bottom}"
    with pytest.raises(AssertionError, match=f"names card {pile_bottom}"):
        mirror.check_view(-1, spectator)
    private = next(e for e in game.events if e.audience and -1 not in e.audience and 0 not in e.audience)
    seat0 = game.observation(0)
    seat0.events.append(private.to_proto())
    with pytest.raises(AssertionError, match="not the engine's line"):
        mirror.check_view(0, seat0)


def _scenario_files() -> list[Path]:
    return sorted((SCENARIOS.parent).rglob("*.yaml"))


def test_every_scenario_keeps_the_invariants_at_every_action() -> None:
    """The 469 rule scenarios reach paths random play rarely does (紧急下达, 真相, 城府 …):
    the invariants, the free-text check included, hold before and after every action."""
    from engine.errors import IllegalAction, SetupError

    checked = 0
    for path in _scenario_files():
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        try:
            game = Game.from_position(data)
        except SetupError:
            continue  # scenarios about refused set-ups
        checker = Checker(0)
        checker(game, 0)
        for step in data.get("steps") or []:
            if not isinstance(step, str):
                continue
            who, action = (part.strip() for part in step.split(":", 1))
            if who != "*":
                try:
                    game.apply(int(who), action)
                except IllegalAction:
                    break  # a scenario about a refused action: nothing more happens
                checker(game, len(game.history))
                continue
            until = int(action.split()[2]) if len(action.split()) == 3 else None
            while (p := game.pending) is not None and p.seat != until and "pass" in game.legal_texts(p.seat):
                game.apply(p.seat, "pass")
                checker(game, len(game.history))
        checked += 1
    assert checked > 400, checked
