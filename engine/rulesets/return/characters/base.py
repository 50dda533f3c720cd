"""The shape of characters, skills and secret missions (rulebook pp.3, 9–16; digest §9).

A character is data (id, Chinese name, whether it is a state character, its two skill
ids) plus a mission; each skill is one small class keyed by its canonical id, in the
common shape of :class:`engine.skill.Skill`. A skill is found by the engine in three ways:

* **active** – :meth:`Skill.actions` lists ``skill ID …`` actions the owner may take in a
  context (``main``, ``respond``, ``arrive``, ``turn_start``); the use pays its cost
  (:meth:`Skill.on_use`, the part before "然后" and the state switch), goes on the chain
  like a card, and resolves with :meth:`Skill.resolve`;
* **triggered** – :meth:`Skill.offers` lists actions at a trigger window (an event
  the engine announces: a receipt, a turn end, a card use …); outside chain resolution the
  use opens a chain, during resolution it resolves at once (p.4 ②);
* **passive** – hooks the engine asks of every skill a seat has
  (:func:`skills.passive_skills`): :meth:`Skill.shields` (城府), :meth:`Skill.hides_identity`
  (城府), :meth:`Skill.widens_timing` (机敏), :meth:`Skill.takes_affected_card` (核燃机体),
  :meth:`Skill.credited_for_use` (the skills a card use counts as using). No skill id is
  named outside ``characters/``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.skill import Face
from engine.skill import Skill as CoreSkill
from engine.state import Frame, Item

from ..cards.base import Context, Effect
from ..kinds import Window
from ..records import seat_ext
from ..rules import blue_count, red_count

if TYPE_CHECKING:
    from engine.game import Game


class Skill(Effect, CoreSkill):
    """One character skill."""

    zh: ClassVar[str] = ""
    #: ``hide`` for 【隐藏】 (usable while exposed; using it turns the character face
    #: down), ``expose`` for 【暴露】 (usable while hidden; using it turns it face up).
    state: ClassVar[str] = ""
    #: Trigger windows this skill listens to (see triggers.py).
    windows: ClassVar[tuple[Window, ...]] = ()
    #: A forced trigger (凋零, 绝密任务): when it offers actions, ``pass`` is not legal.
    forced: ClassVar[bool] = False
    #: Used at most once per timing (p.4 ②: :func:`skills.usable`).
    per = "timing"

    def __init_subclass__(cls, **kwargs: object) -> None:
        """The face condition follows the state switch: 【隐藏】 needs the character
        exposed, 【暴露】 needs it hidden, other skills work either way (p.3)."""
        super().__init_subclass__(**kwargs)
        faces: dict[str, Face] = {"hide": "up", "expose": "down"}
        cls.face = faces.get(cls.state, "any")

    def actions(self, g: Game, seat: int, ctx: Context) -> list[Action]:
        """The legal uses in ``ctx`` as values (:func:`engine.action.use_skill`:
        ``use_skill(self.id)``, ``use_skill(self.id, 3, cards=(41,))`` …); empty when the
        skill cannot be used there."""
        return []

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        """The legal uses at the trigger window ``ev`` as values (empty: it does not
        fire)."""
        return []

    # -- passive hooks (asked of every skill the seat has; :func:`skills.passive_skills`)
    def shields(self, g: Game, seat: int) -> bool:
        """试探, 秘密下达 (and 拷问, 紧急下达, 真相) cannot target ``seat`` (城府)."""
        return False

    def hides_identity(self, g: Game, seat: int) -> bool:
        """``seat`` may keep its identity hidden at death (城府)."""
        return False

    def widens_timing(self, g: Game, seat: int, function: str) -> bool:
        """``seat`` may use ``function`` (a 自己回合中 card) in any player's turn (机敏)."""
        return False

    def takes_affected_card(self, g: Game, seat: int, item: Item) -> bool:
        """The user of ``item`` (识破 / 离间) may take the card it affected into hand
        (核燃机体)."""
        return False

    def credited_for_use(self, g: Game, item: Item, from_intel: bool) -> bool:
        """This card use was possible through this skill, so it counts (and is logged) as
        its use: 就计 (an intel played), 拷问 / 紧急下达 (an alternative function),
        核燃机体 (a second 危险情报 target)."""
        return False

    def forced_at(self, g: Game, seat: int, ev: Frame) -> bool:
        """Whether the skill must fire at window ``ev`` when it offers actions: ``forced``
        by default; a skill that is forced only at some windows overrides this (雇佣关系's
        discard but not its draw, 先机后置's turn-end discard but not its draw)."""
        return self.forced

    def on_use(self, g: Game, item: Item) -> None:
        """Pay the cost before responses: by default only the state switch."""
        switch_state(g, item.user, self.state)

    def dispose(self, g: Game, item: Item) -> None:
        """Skills have no card of their own to put away."""


class HandCardAsIntel(Skill):
    """A skill whose effect is that a card from the user's hand is successfully received
    by a chosen player (黄雀在后, 核能芯片): ``skill ID to S cards N``. The card leaves the
    hand when the skill is used (it is the intel on its way, held on the chain) and is
    placed at resolution; the skill id is the kill cause (黄雀's mission)."""

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        g.state.seats[item.user].hand.remove(item.cards[0])
        item.held = [item.cards[0]]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if fr.stage == 1 or not g.state.seats[item.target].alive:
            return True
        item.done = True
        fr.stage = 1
        g.place_intel(item.target, item.held, [item.user], cause=self.id)
        item.held = []
        return False


def switch_state(g: Game, seat: int, state: str) -> None:
    """Turn a state character face down (``hide``) or face up (``expose``)."""
    p = g.state.seats[seat]
    if state == "hide" and p.exposed:
        p.exposed = False
        g.log("hide.hides_character", seat, {"seat": seat})
    elif state == "expose" and not p.exposed:
        p.exposed = True
        g.log("expose.exposes_character_id", seat, {"seat": seat, "id": p.character})


@dataclass(frozen=True)
class Character:
    """A character card, one row of the character table
    (``data/return-characters.tsv``): id, Chinese and English names, state character or
    not, its skill ids, and its secret mission in words (the rule itself is the module's
    ``MISSION``). A skill belongs to the character whose row lists it."""

    id: str
    zh: str
    en: str
    stateful: bool
    skills: tuple[str, ...]
    mission: str


def load_table(path: Path) -> dict[str, Character]:
    """Read a character table (TSV: id, zh, en, stateful yes/no, skills comma-separated,
    mission), in its order; ValueError on a malformed or repeated row."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    table: dict[str, Character] = {}
    for row in rows:
        if None in row.values() or row["stateful"] not in ("yes", "no") or row["id"] in table:
            raise ValueError(f"{path}: bad character row {row!r}")
        table[row["id"]] = Character(row["id"], row["zh"], row["en"], row["stateful"] == "yes",
                                     tuple(row["skills"].split(",")), row["mission"])
    return table


class Mission:
    """A secret mission (机密任务): an agent's victory condition. "Players" in a mission
    never include yourself; it holds even while the character is face down (p.3)."""

    #: When the condition is checked besides every state change: ``death`` (at your own
    #: death, before discarding), ``declare`` (when another player declares victory).
    when: ClassVar[str] = ""

    def done(self, g: Game, seat: int) -> bool:
        return False


class KillNonAgent(Mission):
    """Kill a non-agent player by your own hand (蝮蛇, 戴笠, 情报处长)."""

    def done(self, g: Game, seat: int) -> bool:
        return any(non_agent for _, _, non_agent, _ in kills_by(g, seat))


class TwoOfAColourOnDeclare(Mission):
    """When another player declares victory, you hold 2 red or 2 blue intel (译电员, 七百)."""

    when = "declare"

    def done(self, g: Game, seat: int) -> bool:
        intel = g.state.seats[seat].intel
        return red_count(intel) >= 2 or blue_count(intel) >= 2


class WeakPlayerDies(Mission):
    """A player (not yourself) holding fewer than 2 true intel dies, by anyone's hand
    (六姐, 闪灵)."""

    def done(self, g: Game, seat: int) -> bool:
        return any(k.dead != seat and k.true_intel < 2 for k in g.state.kills)


class ThreeOfAColourEarly(Mission):
    """Hold 3 red or 3 blue intel before the pile first runs out (贝雷帽, 福尔摩斯; summary:
    牌庫首次抽光前存有三張潛伏或三張軍情情報; §11.13)."""

    def done(self, g: Game, seat: int) -> bool:
        intel = g.state.seats[seat].intel
        return not g.state.pile_exhausted_once and (red_count(intel) >= 3 or blue_count(intel) >= 3)


# ---------------------------------------------------------------------- helpers for skills
def receipt(g: Game) -> Frame | None:
    """The ``after`` frame of the receipt being processed (seat: receiver, card, order:
    kill-credit users, text: cause), for receipt triggers."""
    for fr in reversed(g.state.stack):
        if fr.kind == "after":
            return fr
    return None


def kills_by(g: Game, seat: int) -> list[tuple[int, str, bool, int]]:
    """Deaths credited to ``seat`` other than its own: (dead, cause, non_agent, true_intel);
    ``non_agent``: the dead player's identity (``Kill.identity``) was not agent (蝮蛇's
    mission, digest §9 "kill a non-agent player by your own hand")."""
    return [(k.dead, k.cause, k.identity != "agent", k.true_intel) for k in g.state.kills
            if seat in k.killers and k.dead != seat]


def take_random(g: Game, taker: int, owner: int, n: int = 1) -> list[int]:
    """抽: take ``n`` random hand cards of ``owner`` into ``taker``'s hand."""
    st = g.state
    src = st.seats[owner].hand
    got: list[int] = []
    for _ in range(min(n, len(src))):
        got.append(src.pop(g.random_below(len(src))))
    st.seats[taker].hand.extend(got)
    if got:
        g.log("take.takes_cards_from_seat", taker, {"seat": taker, "cards": tuple(got), "seat2": owner, "n": len(got)},
              audience=(taker, owner), cards=got, public="take.takes_n_card_from_seat")
    return got


def give(g: Game, giver: int, receiver: int, cards: list[int]) -> None:
    """Give hand cards to another player (only the two see them)."""
    st = g.state
    for c in cards:
        st.seats[giver].hand.remove(c)
        st.seats[receiver].hand.append(c)
    g.log("give.gives_cards_seat", giver, {"seat": giver, "cards": tuple(cards), "seat2": receiver, "n": len(cards)},
          audience=(giver, receiver), cards=cards, public="give.gives_n_card_seat")


def game_start_naming(g: Game, seat: int, ev: Frame, skill: str) -> list[Action] | None:
    """At the ``game_start`` window, a skill that names another player for the whole game
    (雇佣关系's employer, 危机关系's nemesis): ``skill ID to S`` for each other living
    player, or nothing once named. None at any other window."""
    if ev.text != "game_start":
        return None
    if seat_ext(g.state.seats[seat]).relation >= 0:
        return []
    return [use_skill(skill, s) for s in g.living() if s != seat]


def take_answer(fr: Frame) -> Action:
    """The ``choose`` answer just given, as a value (``.pick``: the card or seat of
    ``choose N``; ``.option``: the word of ``choose WORD``), and clear it."""
    answer = fr.answer
    assert answer is not None and answer.kind == "choose"
    fr.answer = None
    return answer


def pick_or_done(fr: Frame) -> bool:
    """For a card-by-card choice (``choose N`` ... ``choose done``): add the card just
    chosen to ``fr.cards``, or say (True) that the chooser is done. Call with an answer."""
    answer = take_answer(fr)
    if answer.option == "done":
        return True
    fr.cards.append(answer.pick)
    return False
