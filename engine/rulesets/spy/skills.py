"""The character-skill framework of 谍战篇 (spy digest §5.2, §9): the kinds of skill, when a
seat may use one, the trigger windows (§5.3 step 1: from the turn player in turn order),
and the hooks the flow and the cards call (a card used, an intel sent / accepted /
received, before death, "has no effect" checks).

A skill is a :class:`Skill` subclass (the common shape of :class:`engine.skill.Skill`)
registered by its character's module (``characters/<id>.py``); ids are scoped to this
ruleset (§11.20). Trigger skills read the event as an :class:`Event` value; passive skills
answer hooks (:meth:`Skill.nullifies`, :meth:`Skill.any_arrow`, :meth:`Skill.usable_as`)
that the cards and the legal actions ask of every working skill (:func:`passive_skills`),
so no skill id is named outside ``characters/``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine import windows
from engine.action import PASS, Action, use_skill
from engine.marks import add, has, remove
from engine.skill import Skill as CoreSkill
from engine.state import Frame

from .marks import Jailed, JiuJiTaken, Used
from .nodes import settle
from .table import ROWS

if TYPE_CHECKING:
    from engine.game import Game

#: The trigger window every face-down character gets when targeted (就计's cover).
MASK = "face_down"
#: Skill id -> skill object (filled by the character modules).
SKILLS: dict[str, Skill] = {}


@dataclass(frozen=True, slots=True)
class Event:
    """What a trigger window is about (§5.3 step 1), as trigger skills read it: ``name``
    (``targeted``, ``sent``, ``accepted``, ``received``, ``used_card``, ``before_death``),
    ``seat`` (the seat it happened to: the target, the sender of a send, the receiver, the
    card's user, the dying), ``card`` (0: none), ``sender`` (receipts; -1: none) and
    ``function`` (card uses and targeting; ``-`` when none)."""

    name: str
    seat: int
    card: int = 0
    sender: int = -1
    function: str = "-"


class Skill(CoreSkill):
    """One character skill. ``kind``: ``main`` (play phase, once per phase), ``contest``,
    ``rescue`` (a dying-time skill), ``trigger`` (fires on events: :attr:`windows`),
    ``passive``. ``flip`` skills cost turning the character face up (usable only while
    face down, §5.2: :attr:`face` ``down``)."""

    kind: ClassVar[str] = "passive"
    flip: ClassVar[bool] = False
    also: ClassVar[tuple[str, ...]] = ()
    """Further idle points an active skill may be used at (急智: ``rescue`` too)."""
    once: ClassVar[bool] = False
    """Once per turn (急送's once per contest phase, 金口一开; main skills always are)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """The common declarations follow this ruleset's: a flip skill works face down,
        others face up (§5.2); main skills are once per phase, ``once`` skills per turn."""
        super().__init_subclass__(**kwargs)
        cls.face = "down" if cls.flip else "up"
        cls.per = "phase" if cls.kind == "main" else "turn" if cls.once else ""

    # --------------------------------------------------------------- active skills
    def actions(self, g: Game, seat: int) -> list[Action]:
        """The notation of each legal use now (active skills)."""
        return [use_skill(self.id)]

    def use(self, g: Game, seat: int, action: Action) -> None:
        """Carry out a use (the cost is paid by :func:`use`)."""

    def step(self, g: Game, fr: Frame) -> None:
        """Continue a ``spy_card`` frame whose ``text`` is this skill's id."""
        g.state.stack.pop()

    # --------------------------------------------------------------- triggers
    def offers(self, g: Game, seat: int, ev: Event) -> list[Action]:
        """Trigger skills: the ``skill …`` actions open to ``seat`` on this event (empty:
        it does not fire)."""
        return []

    def asked(self, g: Game, seat: int, ev: Event) -> bool:
        """Whether the seat is asked even with nothing usable (only ``pass``): a skill whose
        use needs a certain hand card is asked on its public condition, so the prompt tells
        nobody what the hand holds (as the classic ruleset does)."""
        return False

    def fire(self, g: Game, fr: Frame, action: Action) -> None:
        """Carry out a trigger answer (``fr`` is the ``spy_trigger`` frame, popped)."""

    # --------------------------------------------------------------- passive hooks
    def nullifies(self, g: Game, seat: int, function: str) -> bool:
        """A card of ``function`` has no effect on ``seat`` (城府: 试探 and 威逼)."""
        return False

    def any_arrow(self, g: Game, seat: int) -> bool:
        """``seat`` may treat the arrow of the intel it sends as ←, → or ↑ (联络)."""
        return False

    def usable_as(self, g: Game, seat: int, function: str) -> tuple[str, ...]:
        """The functions a hand card of ``function`` may also be used as (应变: 截获 as
        误导)."""
        return ()


def character_of(g: Game, seat: int) -> str:
    return g.state.seats[seat].character


def skill_ids(g: Game, seat: int) -> tuple[str, ...]:
    ch = g.state.seats[seat].character
    return ROWS[ch].skills if ch else ()


def can_use(g: Game, seat: int, sk: Skill) -> bool:
    """The seat may use ``sk`` now: alive, not 禁闭'd, face up (face down for a flip skill)."""
    st = g.state
    p = st.seats[seat]
    if not p.alive or has(st, Jailed(seat)):
        return False
    return sk.face_allows(p.exposed)


def owned(g: Game, seat: int, kind: str) -> list[Skill]:
    if not g.state.characters:
        return []
    return [SKILLS[s] for s in skill_ids(g, seat) if s in SKILLS
            and (SKILLS[s].kind == kind or kind in SKILLS[s].also) and can_use(g, seat, SKILLS[s])]


def passive(g: Game, seat: int, skill: str) -> bool:
    """Whether ``seat`` has the passive (or always-on) skill ``skill`` working now."""
    st = g.state
    if not st.characters or skill not in skill_ids(g, seat):
        return False
    p = st.seats[seat]
    return p.alive and p.exposed and not has(st, Jailed(seat))


def passive_skills(g: Game, seat: int) -> list[Skill]:
    """The seat's skills whose passive hooks apply now: characters in play, alive, face
    up, not 禁闭'd (as :func:`passive`)."""
    st = g.state
    if not st.characters:
        return []
    p = st.seats[seat]
    if not (p.alive and p.exposed) or has(st, Jailed(seat)):
        return []
    return [SKILLS[s] for s in skill_ids(g, seat) if s in SKILLS]


def active_actions(g: Game, seat: int, kind: str) -> list[Action]:
    out: list[Action] = []
    for sk in owned(g, seat, kind):
        if (kind == "main" or sk.once) and has(g.state, Used(seat, sk.id)):
            continue
        out += sk.actions(g, seat)
    return out


def flip_up(g: Game, seat: int, sk: Skill) -> None:
    p = g.state.seats[seat]
    p.exposed = True
    g.log("flip.turns_id_face_up", seat, {"seat": seat, "id": p.character}, seats=(seat,))


def use(g: Game, seat: int, action: Action) -> None:
    """An active skill: pay the cost (flip / once-per-phase mark), log, run it, then the node."""
    sk = SKILLS[action.skill]
    if sk.flip:
        flip_up(g, seat, sk)
    if sk.kind == "main" or sk.once:
        add(g.state, Used(seat, sk.id))
    g.log("skill.uses_id", seat, {"seat": seat, "id": sk.id})
    settle(g)
    sk.use(g, seat, action)


def h_skill_step(g: Game, fr: Frame) -> None:
    SKILLS[fr.text].step(g, fr)


# ------------------------------------------------------------------ triggers
def fire(g: Game, event: str, seat: int, *, card: int = 0, sender: int = -1, function: str = "") -> None:
    """An event happened (§5.3 step 1): open a trigger window for every seat with a skill
    that may fire, from the turn player in turn order (pushed in reverse: a stack). The
    values are kept on the frames and read back as an :class:`Event`."""
    st = g.state
    if not st.characters:
        return

    def frames_of(s: int) -> list[Frame]:
        frames: list[Frame] = []
        own = [SKILLS[sid] for sid in skill_ids(g, s) if sid in SKILLS]
        if event == "targeted" and s == seat and windows.face_down(st.seats[s]) \
                and not any(sk.face == "down" and event in sk.windows for sk in own):
            # every face-down target is asked, so a face-down trigger's prompt (就计)
            # tells nobody who she is
            frames.append(Frame("spy_trigger", seat=s, text=MASK, event=event, index=seat))
        for sk in own:
            if sk.kind != "trigger" or event not in sk.windows:
                continue
            frames.append(Frame("spy_trigger", seat=s, text=sk.id, event=event, function=function,
                                index=seat, card=card, order=[sender]))
        return frames

    windows.open_per_seat(g, st.turn, frames_of)


def trigger_event(fr: Frame) -> Event:
    """The event's values kept on a ``spy_trigger`` frame: the seat it happened to, the
    card, the sender (receipts), the card function (card uses)."""
    return Event(fr.event, fr.index, fr.card, fr.order[0] if fr.order else -1, fr.function or "-")


def h_trigger(g: Game, fr: Frame) -> None:
    """A trigger window of one seat's skill: ``pass`` or ``skill ID …``."""
    st = g.state
    sid, event = fr.text, fr.event
    if sid == MASK:
        if fr.answer:
            fr.answer = None
            st.stack.pop()
            return
        g.ask(fr.seat, "trigger", "prompt.trigger.face_down_character_may_react", [PASS], args={})
        return
    sk = SKILLS[sid]
    if fr.answer:
        action, fr.answer = fr.answer, None
        st.stack.pop()
        if action != PASS:
            if sk.flip:
                flip_up(g, fr.seat, sk)
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": sid})
            sk.fire(g, fr, action)
        return
    p = st.seats[fr.seat]
    # "before death" skills work for the dead (§6.2); others need a living owner
    usable = can_use(g, fr.seat, sk) or (event == "before_death" and p.exposed and not has(st, Jailed(fr.seat)))
    ev = trigger_event(fr)
    offers = sk.offers(g, fr.seat, ev) if usable else []
    if not offers and not (usable and sk.asked(g, fr.seat, ev)):
        st.stack.pop()
        return
    if sk.forced:
        fr.answer = offers[0]
        return
    # a flip skill's prompt names nothing: the character is still face down
    if sk.flip:
        g.ask(fr.seat, "trigger", "prompt.trigger.face_down_character_may_react", [PASS, *offers],
              args={})
    else:
        g.ask(fr.seat, "trigger", "prompt.trigger.zh_use_it", [PASS, *offers], args={"zh": sk.zh})


def fire_before_death(g: Game, dead: list[int]) -> None:
    """§6.3 step 2: "before death" skills of the dead, and of others (承志)."""
    for d in reversed(dead):
        fire(g, "before_death", d)


def note_card_use(g: Game, seat: int, card: int, function: str) -> None:
    """A hand card was used: the ``used_card`` window (转交, 换日, 诱导) opens once the card
    has resolved (its frame is pushed below the card's own frames, §5.1)."""
    fire(g, "used_card", seat, card=card, function=function)


def after_targeted(g: Game, target: int, card: int) -> None:
    """就计 (§9 李宁玉): once the card that targeted her has resolved, it goes into her hand
    (nothing when no real card was used, e.g. 诡诈)."""
    st = g.state
    if not card or not has(st, JiuJiTaken(target)):
        return
    remove(st, JiuJiTaken)
    for zone in (st.discard, st.removed):
        if card in zone:
            zone.remove(card)
            st.seats[target].hand.append(card)
            g.log("take.takes_card_into_hand", target, {"seat": target, "card": card}, cards=(card,))
            return


def no_effect(g: Game, user: int, target: int, function: str, card: int) -> bool:
    """Whether the card has no effect on ``target``: a passive skill of the target
    nullifies it (:meth:`Skill.nullifies`; 城府: 试探 and 威逼)."""
    for sk in passive_skills(g, target):
        if sk.nullifies(g, target, function):
            g.log("no_effect.id_no_effect", target, {"seat": target, "id": sk.id}, seats=(target,))
            return True
    return False


def any_arrow(g: Game, seat: int) -> bool:
    """A passive skill lets ``seat`` send with any arrow (:meth:`Skill.any_arrow`)."""
    return any(sk.any_arrow(g, seat) for sk in passive_skills(g, seat))


def usable_as(g: Game, seat: int, function: str) -> tuple[str, ...]:
    """The functions ``seat``'s passive skills let a card of ``function`` be used as."""
    return tuple(alt for sk in passive_skills(g, seat) for alt in sk.usable_as(g, seat, function))
