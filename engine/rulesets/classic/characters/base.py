"""The skill framework of the classic ruleset (digest §6.5, §10.1).

A character is one module ``characters/<id>.py`` with one small class per skill, listed
in its ``SKILLS`` tuple, and a ``MISSION`` (the 机密任务, a :class:`Mission`, or ``None``).
Its facts (name, P/O kind, sex, skill ids, mission text) are its row in
``data/classic-characters.tsv``; a skill class never restates its character: whoever has
a character whose row lists the skill id has the skill (就计 is shared by 老鬼 and 老枪).

Skill kinds (``kind``):

- ``flip``: a 潜伏 character's flip skill; usable only face down, at a priority (the seat
  holds priority and ``actions`` lists it); goes on the chain as an item of kind
  ``skill``; cannot be 识破'd (D9). The character turns face up when declared.
- ``active``: a face-up skill used at a priority like a card (收买, 爱情 …).
- ``auto``: "当…时" skills; :meth:`Skill.trigger` (of any working skill, whatever its
  kind: 就计 is a flip skill with a trigger condition) is called for each event and builds
  the ``skill_step`` frame to run at once (no response), or None. Several at one moment run
  from the turn player counter-clockwise (§6.5). A "you may" asks a ``trigger`` decision:
  ``pass`` or one of :meth:`Skill.offers` (typed ``skill ID …`` actions, read again from
  the frame by the legal actions: :func:`ask_trigger`). Events: ``received`` (a seat got intel: ``fr.seat`` the
  receiver, ``cards``, ``order`` = [sender or -1], ``text`` = cause), ``used_on`` (a card
  used successfully on a seat, after the chain settles, before its effect), ``dying``
  (before the identity is revealed; call :func:`flow.save` to save), ``death`` (the
  death stands: hand and identity still in place), ``died``,
  ``decrypted``, ``seen_through``, ``card_used``, ``drawn`` (the turn's draw).
- ``conversion``: ``converts(card)`` names the functions a hand card may be used as
  (``play N as F``); the card keeps colour and mode and can be 识破'd.
- ``passive``: rule changes read by the engine: ``timing_override`` (敏锐),
  ``draw_count`` (精明), ``sexes`` (乔装), ``probe_choice`` (城府).

The common declarations and method names are :class:`engine.skill.Skill`'s (``face``
follows ``kind``; ``actions``, ``offers``, ``resolve``, ``step``); offers are
:class:`engine.action.Action` values, never notation text.
"""

from __future__ import annotations

import csv
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from engine import windows
from engine.action import PASS, Action, Hidden, choose
from engine.skill import Skill as CoreSkill
from engine.state import Frame, Item
from engine.text import ArgValue

from ..kinds import SkillKind, TriggerEvent

if TYPE_CHECKING:
    from engine.game import Game

TSV = Path(__file__).resolve().parent.parent / "data" / "classic-characters.tsv"


@dataclass(frozen=True, slots=True)
class CharacterRow:
    """One character card (digest §10.2)."""

    id: str
    zh: str
    en: str
    kind: str
    """``P`` 潜伏角色 (starts face down) or ``O`` 公开角色."""
    sex: str
    """``F``, ``M`` or ``both`` (小白)."""
    skills: tuple[str, ...]
    mission: str


class Skill(CoreSkill):
    """One skill, in the common shape of :class:`engine.skill.Skill`. Subclasses set
    ``id`` and ``kind`` and override the hooks they use."""

    kind: ClassVar[SkillKind | None] = None

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A flip skill works face down, every other skill face up (§10.1)."""
        super().__init_subclass__(**kwargs)
        cls.face = "down" if cls.kind == "flip" else "up"

    # -- whether it works now -------------------------------------------------
    def works(self, g: Game, seat: int) -> bool:
        """Flip skills only face down; every other skill only face up (§10.1)."""
        s = g.state.seats[seat]
        if not s.alive:
            return False
        return self.face_allows(s.exposed)

    # -- priority skills (flip, active) ----------------------------------------
    def actions(self, g: Game, seat: int) -> list[Action]:
        """The ``skill ID …`` actions ``seat`` may take now when holding priority."""
        return []

    def declare(self, g: Game, seat: int, action: Action) -> Item:
        """The chain item for ``skill ID …`` (flip skills turn the character face up here)."""
        item = Item(kind="skill", user=seat, code=self.id)
        if action.to:
            item.target = action.to[0]
            item.targets = list(action.to)
        item.cards = list(action.cards)
        item.on = action.on
        if self.kind == "flip":
            flip(g, seat, up=True)
        return item

    def valid(self, g: Game, item: Item) -> bool:
        return item.target < 0 or g.state.seats[item.target].alive

    def resolve(self, g: Game, item: Item) -> None:
        """The effect when the item resolves; may push ``skill_step`` frames."""

    # -- automatic skills -------------------------------------------------------
    def trigger(self, g: Game, seat: int, event: TriggerEvent, fr: Frame) -> Frame | None:
        """``seat`` (who has this skill, alive, skill working) sees ``event`` described by
        ``fr``; return the ``skill_step`` frame that carries the skill out, or None."""
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """The ``skill ID …`` uses open to ``seat`` at its "you may" (a ``trigger``
        decision; ``pass`` is always offered besides): ``fr`` is the skill's own
        ``skill_step`` frame, which carries the event it fired on (the seat, the cards, the
        card looked at …). Read from the state alone: the legal actions of the open
        decision call it again (:func:`ask_trigger`)."""
        return []

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """The options of a ``choose`` decision the skill's ``skill_step`` frame ``fr`` has
        open (``choose N``, ``choose N to S``, ``pass`` …), read from the state and the
        frame alone, as :meth:`offers`: the legal actions call it again
        (``legal.legal_for``)."""
        return []

    def flip_window(self, g: Game, event: TriggerEvent, fr: Frame) -> int:
        """For a flip skill with a trigger condition (就计, 弃卒保帅): the seat whose
        face-down character could fire it at ``event`` (-1: none). Every living face-down
        seat there is asked, whatever its character (with only ``pass`` when it cannot use
        the skill): being asked must not tell the table who the character may be
        (design.md "prompt order must not leak hands"; as 再临's hidden windows)."""
        return -1

    def step(self, g: Game, fr: Frame) -> None:
        """Continue the skill's effect on its ``skill_step`` frame; pop it when done."""
        g.state.stack.pop()

    # -- conversion and passive -------------------------------------------------
    def converts(self, g: Game, seat: int, card: int) -> tuple[str, ...]:
        return ()

    def timing_override(self, g: Game, seat: int, function: str) -> bool | None:
        return None

    def draw_count(self, g: Game, seat: int) -> int | None:
        return None

    def sexes(self) -> tuple[str, ...] | None:
        return None

    def probe_choice(self, g: Game, seat: int, item: Item) -> bool:
        return False

    def state_check(self, g: Game, seat: int) -> None:
        """Called whenever victory is checked, before any declaration (败露: a state-based
        loss that beats a victory reached at the same moment)."""

    def co_winners(self, g: Game, seat: int, winners: list[int]) -> list[int]:
        """Extra winners when ``seat`` (who has this skill) declares victory (风度). With
        :attr:`co_winner_choice`, these are the candidates and the declarer picks one."""
        return []

    #: ``co_winners`` lists candidates of which the declarer chooses one (风度: a decision of
    #: kind ``trigger``, ``skill ID to S``, asked while declaring, §6.6 special moment).
    co_winner_choice: ClassVar[bool] = False

    # -- hidden information -------------------------------------------------------
    def hidden(self, g: Game, seat: int, action: Action) -> Hidden | None:
        """For an action of this skill (``skill ID …``, or the answer to a prompt of its
        ``skill_step`` frame) that names a card others may not see (a card given from hand,
        one put back on the pile): (the seats that see the action line, the line the others
        see). None: the line is public."""
        return None

    def hidden_answer(self, g: Game, fr: Frame, action: Action) -> Hidden | None:
        """Who may see ``action``, the answer to a decision on this skill's ``skill_step``
        frame ``fr``, and what everyone else sees instead (as ``privacy.hidden_action``);
        None: the answer is public (the default)."""
        return None


class Mission:
    """A bystander's 机密任务 (digest §8): ``met`` is checked whenever victory is checked;
    ``on_declare`` lets a bystander join (``"join"``) or defeat (``"fail"``) another
    player's declaration. Checked only for bystanders with characters."""

    def met(self, g: Game, seat: int) -> bool:
        return False

    def on_declare(self, g: Game, seat: int, declarer: int) -> str | None:
        return None

    def dying(self, g: Game, seat: int) -> None:
        """Called when ``seat`` dies, after the death-time skills and before its hand and
        intel are discarded (老鬼: "at your death, reveal your hand"); record what the
        mission needs with :func:`marks.add` (``marks.mission_done(seat)``)."""


# ---------------------------------------------------------------------------- registry
def load_rows(path: Path = TSV) -> dict[str, CharacterRow]:
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return {r["id"]: CharacterRow(r["id"], r["zh"], r["en"], r["kind"], r["sex"],
                                  tuple(x for x in r["skills"].split(",") if x), r["mission"]) for r in rows}


ROWS: dict[str, CharacterRow] = load_rows()
SKILLS: dict[str, Skill] = {}
MISSIONS: dict[str, Mission | None] = {}
#: Characters whose module is a placeholder (``PENDING = True``): in the table, not playable.
PENDING: set[str] = set()


def _load_modules() -> None:
    """Import ``characters/<id>.py`` for every TSV row. A missing module is an ImportError
    (a row never silently vanishes); a module whose ``SKILLS`` ids differ from its row's
    is a ValueError."""
    for cid, row in ROWS.items():
        mod = importlib.import_module(f"{__package__}.{cid}")
        if getattr(mod, "PENDING", False):
            PENDING.add(cid)
            continue
        classes = mod.SKILLS
        ids = tuple(c.id for c in classes)
        if sorted(ids) != sorted(row.skills):
            raise ValueError(f"characters/{cid}.py: skills {ids} differ from the TSV row's {row.skills}")
        for cls in classes:
            found = SKILLS.get(cls.id)
            if found is None:
                SKILLS[cls.id] = cls()
            elif type(found) is not cls:
                # A shared skill (就计) is one class, defined once and imported by the other.
                raise ValueError(f"skill {cls.id!r} is defined by two classes")
        MISSIONS[cid] = getattr(mod, "MISSION", None)
    _FLIP_TRIGGERS.extend(sk for sk in SKILLS.values()
                          if sk.kind == "flip" and type(sk).flip_window is not Skill.flip_window)


#: The flip skills with a trigger condition (:meth:`Skill.flip_window`), filled on load.
_FLIP_TRIGGERS: list[Skill] = []


def playable() -> list[str]:
    """Characters that can be dealt (their module is implemented), in table order."""
    return [c for c in ROWS if c not in PENDING]


# ---------------------------------------------------------------------------- queries
def skills_of(g: Game, seat: int, kind: str | None = None) -> list[Skill]:
    """The working skills of ``seat`` (of one kind)."""
    s = g.state.seats[seat]
    if not s.character or s.character not in ROWS:
        return []
    out = []
    for sid in ROWS[s.character].skills:
        sk = SKILLS.get(sid)
        if sk is not None and (kind is None or sk.kind == kind) and sk.works(g, seat):
            out.append(sk)
    return out


def has_skill(g: Game, seat: int, skill_id: str) -> bool:
    return any(sk.id == skill_id for sk in skills_of(g, seat))


def sexes(g: Game, seat: int) -> tuple[str, ...]:
    """The seat's sex(es) by character (D6): face-down characters have none (§10.1)."""
    s = g.state.seats[seat]
    if not s.character or not s.exposed:
        return ()
    for sk in skills_of(g, seat, "passive"):
        got = sk.sexes()
        if got is not None:
            return got
    sex = ROWS[s.character].sex
    return ("F", "M") if sex == "both" else (sex,)


def flip(g: Game, seat: int, *, up: bool) -> None:
    """Turn ``seat``'s character face up (翻开) or face down (盖伏)."""
    s = g.state.seats[seat]
    s.exposed = up
    if up:
        g.log("flip.turns_id_face_up", seat, {"seat": seat, "id": s.character})
    else:
        g.log("flip.turns_character_face_down", seat, {"seat": seat})


def timing_override(g: Game, seat: int, function: str) -> bool | None:
    """A passive skill's answer to "may ``seat`` use ``function`` now?" (golden rule)."""
    if not g.state.characters:
        return None
    for sk in skills_of(g, seat, "passive"):
        got = sk.timing_override(g, seat, function)
        if got is not None:
            return got
    return None


def draw_count(g: Game, seat: int, default: int) -> int:
    if g.state.characters:
        for sk in skills_of(g, seat, "passive"):
            got = sk.draw_count(g, seat)
            if got is not None:
                return got
    return default


def probe_choice(g: Game, seat: int, item: Item) -> bool | None:
    """True when a skill (城府) lets the 试探'd seat choose the action; None otherwise."""
    if g.state.characters and any(sk.probe_choice(g, seat, item) for sk in skills_of(g, seat, "passive")):
        return True
    return None


def conversion_skill(g: Game, seat: int, card: int, function: str) -> str:
    """The id of the conversion skill that lets ``card`` be used as ``function`` ("" if none)."""
    for sk in skills_of(g, seat, "conversion"):
        if function in sk.converts(g, seat, card):
            return sk.id
    return ""


def fire(g: Game, event: TriggerEvent, seat: int, *, item: Item | None = None, cards: list[int] | None = None,
         order: list[int] | None = None, text: str = "") -> None:
    """Offer ``event`` to every automatic skill; push the frames of those that fire so
    that the turn player's run first, then counter-clockwise (§6.5)."""
    st = g.state
    if not st.characters:
        return
    info = Frame(event, seat=seat, card=item.card if item is not None else 0, cards=list(cards or []),
                 order=list(order or []), text=text,
                 index=next((i for i, it in enumerate(st.chain) if it is item), -1))
    # An item's event carries its function (or skill id) in ``text`` (no caller passes both).
    if item is not None and item.kind == "skill":
        info.text = item.code
    elif item is not None:
        info.text = item.kind
        if item.target >= 0:
            info.order = [item.user, item.target]
        else:
            info.order = [item.user]

    def frames_of(owner: int) -> list[Frame]:
        frames: list[Frame] = []
        fired: set[str] = set()
        for sk in skills_of(g, owner):
            fr = sk.trigger(g, owner, event, info)
            if fr is not None:
                frames.append(fr)
                fired.add(sk.id)
        if windows.face_down(st.seats[owner]):
            # A face-down seat is asked at a flip trigger's moment whatever its character
            # (the skill's step offers only ``pass`` to a seat without it).
            for sk in _FLIP_TRIGGERS:
                if sk.id not in fired and sk.flip_window(g, event, info) == owner:
                    frames.append(Frame("skill_step", seat=owner, text=sk.id))
        return frames

    windows.open_per_seat(g, st.turn, frames_of)


def skill_privacy(g: Game, seat: int, action: Action) -> Hidden | None:
    """The :meth:`Skill.hidden` answer for ``action``: a ``skill ID …`` action, or the answer
    to a prompt opened by a skill's ``skill_step`` frame (``privacy.hidden_action``)."""
    st = g.state
    if action.kind == "skill" and action.skill in SKILLS:
        return SKILLS[action.skill].hidden(g, seat, action)
    if st.stack and st.stack[-1].kind == "skill_step" and st.stack[-1].text in SKILLS:
        return SKILLS[st.stack[-1].text].hidden(g, seat, action)
    return None


def ask_trigger(g: Game, fr: Frame, offers: Sequence[Action], key: str, args: dict[str, ArgValue]) -> None:
    """A "you may" of an automatic skill on its ``skill_step`` frame ``fr``: ``pass`` or
    one of ``offers`` (its :meth:`Skill.offers`); ``key`` and ``args``: what is asked (a
    prompt row of data/classic-text.tsv and its arguments). The legal actions are read
    again from the skill (:func:`trigger_actions`); the prompt keeps the same values for
    the record."""
    g.ask(fr.seat, "trigger", key, [PASS, *offers], args=args)


def ask_choose(g: Game, seat: int, key: str, options: Sequence[Action], args: dict[str, ArgValue]) -> None:
    """A ``choose`` decision of a skill's or a card's step: one of ``options`` (values:
    ``choose N``, ``choose N to S``, ``choose WORD``, ``pass``), the step's
    :meth:`Skill.choices` (a card's ``CardFunction.choices``). The legal actions are read
    again from those; the prompt keeps the same values for the record."""
    g.ask(seat, "choose", key, options, args=args)


def hand_choices(g: Game, seat: int) -> list[Action]:
    """``choose N`` for each distinct card of ``seat``'s hand, in card order."""
    return [choose(c) for c in sorted(set(g.state.seats[seat].hand))]


def trigger_actions(g: Game, seat: int) -> list[Action]:
    """The legal actions of an open ``trigger`` decision of ``seat``, as values: ``pass``
    and the skill's :meth:`Skill.offers` on its ``skill_step`` frame, or a co-winner
    choice (风度) on the ``declare`` frame (no ``pass``: the choice is mandatory)."""
    fr = g.state.stack[-1]
    if fr.kind == "declare":
        return next(sk for sk in skills_of(g, seat) if sk.co_winner_choice).offers(g, seat, fr)
    return [PASS, *SKILLS[fr.text].offers(g, seat, fr)]
