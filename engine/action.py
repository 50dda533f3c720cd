"""An action as a value: one answer to a decision (docs/notation.md), in the manner of
python-chess's ``Move``.

:class:`Action` is frozen and hashable. ``str(action)`` is its canonical text in the
notation (scenario files, the CLI, logs, replays and the wire's text form use it);
:func:`engine.notation.parse` is the one place that reads that text back. Everything inside
the engine builds and reads the typed fields.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace

#: Action kinds that carry no argument.
BARE = frozenset({"pass", "declare", "accept", "decline"})
#: Every action kind.
KINDS = ("pass", "declare", "accept", "decline", "play", "send", "skill", "choose")
#: Skills whose text names the cards (or the intel) before the target seat:
#: ``skill ji_song cards N,M to S`` / ``skill ji_song on M to S`` (谍战篇 急送).
TARGET_LAST = frozenset({"ji_song"})


def _seats(seats: tuple[int, ...]) -> str:
    return ",".join(map(str, seats))


def _shown(card: int) -> str:
    """A card number as the text writes it: a face-down card of a public form (0, or -1 for
    ``on``: see :func:`redacted`) as ``?``."""
    return str(card) if card > 0 else "?"


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One answer to a decision.

    ``kind`` is one of :data:`KINDS`; the other fields are used as the kind needs:

    - ``play``: ``card`` (the hand card used), ``to`` (target seats), ``on`` (a card it acts
      on) or ``chain`` (识破 naming the chain item at position ``chain``, counted from 1),
      ``code`` (秘密下达's code), ``alt`` (the function it is used as: 拷问, 应变 …).
    - ``send``: ``card`` (0 with ``pile`` when the top pile card is sent), ``mode``
      (``secret`` / ``direct`` / ``text``; empty in a ruleset that sends by arrows), ``to`` (直达 / ↑ target),
      ``arrow`` (``left`` / ``right``), ``lock`` (the locked seat, -1: none).
    - ``skill``: ``skill`` (the skill id), ``to``, ``cards``, ``on``, ``options`` (the
      words after ``choose``: 强令's functions, 乔装's skill …).
    - ``choose``: ``picks`` (numbers: cards or seats, as the prompt says) or ``options``
      (words: ``left``, ``threaten``, a character id …), ``face`` (``exposed`` /
      ``hidden`` for a character kept face up or down), ``to`` (a seat the picked cards go
      to).
    """

    kind: str
    card: int = 0
    pile: bool = False
    skill: str = ""
    to: tuple[int, ...] = ()
    on: int = 0
    chain: int = 0
    cards: tuple[int, ...] = ()
    mode: str = ""
    arrow: str = ""
    lock: int = -1
    code: str = ""
    alt: str = ""
    picks: tuple[int, ...] = ()
    options: tuple[str, ...] = ()
    face: str = ""
    canonical: str = field(init=False, repr=False, default="")
    """The canonical text, computed once: two actions are the same action exactly when
    their canonical texts are equal, so equality and hashing use it (fast, and legal-list
    membership is checked at every decision)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "canonical", self.text())

    def __eq__(self, other: object) -> bool:
        if self is other:  # legal actions are shared values (engine.action.play …)
            return True
        if isinstance(other, Action):
            return self.canonical == other.canonical
        if isinstance(other, str):
            # Always a bug: the text form is ``str(action)``, a value is read with
            # ``engine.notation.parse`` (and mypy's strict equality skips custom __eq__).
            raise TypeError(f"comparing the action {self.canonical!r} with the text {other!r}")
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.canonical)

    # ------------------------------------------------------------------ reading
    @property
    def target(self) -> int:
        """The first target seat, -1 when there is none."""
        return self.to[0] if self.to else -1

    @property
    def pick(self) -> int:
        """The first picked number of a ``choose`` (a card or a seat)."""
        return self.picks[0]

    @property
    def option(self) -> str:
        """The first option word of a ``choose`` or a skill's ``choose``, '' when none."""
        return self.options[0] if self.options else ""

    # ------------------------------------------------------------------ text
    def __str__(self) -> str:
        return self.canonical

    def text(self, card: Callable[[int], str] = _shown) -> str:
        """The canonical text; ``card`` writes each card number (the card sent or played,
        ``cards``, ``on``): privacy passes one that writes ``?`` for a card others may not
        see."""
        k = self.kind
        if k in BARE:
            return k
        if k == "play":
            out = f"play {card(self.card)}"
            if self.to:
                out += f" to {_seats(self.to)}"
            if self.chain:
                out += f" on #{self.chain}"
            elif self.on:
                out += f" on {card(self.on)}"
            if self.code:
                out += f" code {self.code}"
            if self.alt:
                out += f" as {self.alt}"
            return out
        if k == "send":
            out = "send pile" if self.pile else f"send {card(self.card)}"
            if self.mode:
                out += f" {self.mode}"
            if self.to:
                out += f" to {_seats(self.to)}"
            if self.arrow:
                out += f" {self.arrow}"
            if self.lock >= 0:
                out += f" lock {self.lock}"
            return out
        if k == "skill":
            target = f" to {_seats(self.to)}" if self.to else ""
            named = (f" cards {','.join(map(card, self.cards))}" if self.cards else "") + (
                f" on {card(self.on)}" if self.on else "")
            out = f"skill {self.skill}" + (named + target if self.skill in TARGET_LAST else target + named)
            if self.options:
                out += f" choose {','.join(self.options)}"
            return out
        if k == "choose":
            out = f"choose {_seats(self.picks)}" if self.picks else f"choose {','.join(self.options)}"
            if self.face:
                out += f" {self.face}"
            if self.to:
                out += f" to {_seats(self.to)}"
            return out
        raise ValueError(f"unknown action kind {k!r}")


PASS = Action("pass")
DECLARE = Action("declare")
ACCEPT = Action("accept")
DECLINE = Action("decline")


#: Actions built by the helpers below, by their fields: the rulesets list the same actions
#: at decision after decision and game after game, so each is built (and its text written)
#: once and then shared. Values are immutable, so sharing is safe; a full table is emptied.
_MADE: dict[tuple[object, ...], Action] = {}
_MADE_MAX = 200_000


def _keep(key: tuple[object, ...], action: Action) -> Action:
    if len(_MADE) >= _MADE_MAX:
        _MADE.clear()
    _MADE[key] = action
    return action


def play(card: int, to: int | tuple[int, ...] = (), *, on: int = 0, chain: int = 0, code: str = "",
         alt: str = "") -> Action:
    """``play card [to S] [on M | on #K] [code C] [as F]`` (built once, then shared)."""
    seats = (to,) if isinstance(to, int) else to
    key = ("play", card, seats, on, chain, code, alt)
    hit = _MADE.get(key)
    if hit is not None:
        return hit
    return _keep(key, Action("play", card=card, to=seats, on=on, chain=chain, code=code, alt=alt))


def as_function(a: Action, alt: str) -> Action:
    """The ``play`` action ``a`` with the card used as the function ``alt`` (``… as ALT``)."""
    return play(a.card, a.to, on=a.on, chain=a.chain, code=a.code, alt=alt)


def send(card: int, mode: str = "", to: tuple[int, ...] = (), arrow: str = "", lock: int = -1, *,
         pile: bool = False) -> Action:
    """``send N|pile [MODE] [to S] [ARROW] [lock L]`` (built once, then shared)."""
    key = ("send", card, mode, to, arrow, lock, pile)
    hit = _MADE.get(key)
    if hit is not None:
        return hit
    return _keep(key, Action("send", card=card, pile=pile, mode=mode, to=to, arrow=arrow, lock=lock))


def choose(*picks: int, to: int = -1) -> Action:
    """``choose N[,M…] [to S]``: numbers picked (cards or seats; built once, then shared)."""
    key = ("choose", picks, to)
    hit = _MADE.get(key)
    if hit is not None:
        return hit
    return _keep(key, Action("choose", picks=picks, to=(to,) if to >= 0 else ()))


def choose_option(word: str) -> Action:
    """``choose WORD``: an option word (``left``, ``threaten``, a character id …)."""
    key = ("option", word)
    hit = _MADE.get(key)
    if hit is not None:
        return hit
    return _keep(key, Action("choose", options=(word,)))


def use_skill(skill: str, to: int | tuple[int, ...] = (), *, cards: tuple[int, ...] = (), on: int = 0,
              options: tuple[str, ...] = ()) -> Action:
    """``skill ID [to S] [cards N,M] [on M] [choose W,…]`` (built once, then shared): a
    skill's offer as a value (engine/skill.py)."""
    seats = (to,) if isinstance(to, int) else to
    key = ("skill", skill, seats, cards, on, options)
    hit = _MADE.get(key)
    if hit is not None:
        return hit
    return _keep(key, Action("skill", skill=skill, to=seats, cards=cards, on=on, options=options))


#: The card number of a card others may not see, in the public form of an action
#: (:func:`redacted`): 0 in ``card`` and ``cards``, :data:`HIDDEN_ON` in ``on`` (where 0
#: means "no card acted on"). Such a card is written ``?``.
FACE_DOWN = 0
HIDDEN_ON = -1

#: The event row of a public form that is an action with its hidden cards face down.
REDACTED = "action.hidden"

#: The value of a public form's argument (the type its placeholder names: engine/text.py).
PublicArg = int | str | tuple[int, ...] | tuple[str, ...]


def redacted(action: Action, hidden: Collection[int] | None = None) -> Action:
    """``action`` as the seats that may not see ``hidden`` (every card it names, when None)
    see it: those card numbers face down (:data:`FACE_DOWN`, ``on``: :data:`HIDDEN_ON`);
    its kind, seats, mode, arrow, lock, skill and words stay. Never applied: a public form
    only."""
    def blank(c: int) -> bool:
        return c > 0 and (hidden is None or c in hidden)

    return replace(
        action,
        card=FACE_DOWN if blank(action.card) else action.card,
        cards=tuple(FACE_DOWN if blank(c) else c for c in action.cards),
        on=HIDDEN_ON if blank(action.on) else action.on,
    )


@dataclass(frozen=True, slots=True)
class Hidden:
    """What a hidden action shows, decided by each ruleset's ``privacy.hidden_action`` from
    the action's typed fields: the seats of ``audience`` see the action in full; everyone
    else (spectators too) sees its public form, a value rendered by the ruleset's text table
    (engine/text.py) like any event:

    - ``key`` an ``action``-kind event row (``action.hidden_gives_n_cards_seat`` …) and ``args``
      only the typed arguments that row names besides the actor's ``{seat}`` (a count, a
      seat, a printed name: never a hidden card), or
    - ``key`` :data:`REDACTED` and ``shown``: the action itself with each card the others may
      not see face down (:func:`redacted`), its text in the row's ``{action2}``.
    """

    audience: tuple[int, ...]
    key: str = REDACTED
    args: Mapping[str, PublicArg] = field(default_factory=dict)
    shown: Action | None = None


def hide(audience: tuple[int, ...], key: str, **args: PublicArg) -> Hidden:
    """A public form by phrase: event row ``key`` with these typed ``args``."""
    return Hidden(audience, key, args)


def hide_cards(audience: tuple[int, ...], action: Action, hidden: Collection[int] | None = None) -> Hidden:
    """A public form that is ``action`` with the cards of ``hidden`` (all, when None) face
    down."""
    return Hidden(audience, REDACTED, {}, redacted(action, hidden))
