"""What a ruleset gives the core: a :class:`Ruleset` (deck, rule numbers, identities and
the player-count table, the turn's frame handlers, the character table, and the entry
points the core calls), looked up from ``State.ruleset`` (:mod:`engine.rulesets`).

This module is a leaf: it imports only the state records, so a ruleset package can
import it without importing :mod:`engine.game`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.action import Action, Hidden
from engine.state import Frame, MatchExt, Prompt, SeatExt, State

if TYPE_CHECKING:
    from engine.game import Game
    from engine.marks import TypedMark

#: A frame handler: looks at the top frame, opens a decision, pushes work or pops itself.
Handler = Callable[["Game", Frame], None]


@dataclass(frozen=True, slots=True)
class CardTable:
    """The printed deck as the core and the bots read it: flat tuples indexed by card
    number (index 0 unused), so a look-up is one index."""

    function: tuple[str, ...]
    """Canonical function id of each card (``probe``, ``burn`` …)."""
    function_zh: tuple[str, ...]
    is_red: tuple[bool, ...]
    is_blue: tuple[bool, ...]
    is_black: tuple[bool, ...]
    is_true: tuple[bool, ...]
    mode: tuple[str, ...] = ()
    """The printed transmission of each card, where a face-down intel always travels as
    printed (密电/直达, arrows): a determinization puts a card of the shown mode into a
    face-down intel in transit. Empty: no such rule (a card or skill may change the mode)."""

    @property
    def count(self) -> int:
        """How many physical cards the deck has (numbered 1..count)."""
        return len(self.function) - 1

    @property
    def all_cards(self) -> tuple[int, ...]:
        return tuple(range(1, self.count + 1))

    def name(self, number: int) -> str:
        """``24 截获`` style label for logs and prompts."""
        return f"{number} {self.function_zh[number]}"


@dataclass(frozen=True, slots=True)
class CharacterInfo:
    """One row of a ruleset's character table: the facts the core, the CLI and the tests
    read (the skills' behaviour lives in the ruleset's skill classes)."""

    id: str
    zh: str
    en: str
    stateful: bool
    """A state character (【隐藏】/【暴露】 skills; placed face up or face down)."""
    skills: tuple[str, ...]
    """Skill ids, scoped by the ruleset (two editions may give one name such as 城府 to different skills)."""
    mission: str
    """The secret mission (机密任务) in words."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One edition of the game, as the core sees it. Adding a ruleset means a package
    ``engine/rulesets/<id>/`` that builds one of these as ``RULESET``, and one line in
    :data:`engine.rulesets.PACKAGES`."""

    id: str
    zh: str
    cards: CardTable
    identities: tuple[str, ...]
    """Identity ids (``military``, ``latent``, ``agent`` …)."""
    identity_table: Mapping[int, tuple[int, ...]]
    """Players -> how many identity cards of each kind, in :attr:`identities` order; its
    keys are the player counts the ruleset allows."""
    hand_limit: int | None
    """The turn player discards down to this many cards at the turn's end (None: no
    limit)."""
    handlers: Mapping[str, Handler]
    """Frame kind -> handler: the turn, the chain, deaths, windows …"""
    characters: Mapping[str, CharacterInfo]
    """Character id -> its row, in the rules digest's order."""
    skills: Mapping[str, Any]
    """Skill id -> the ruleset's skill object."""
    code_aliases: Mapping[str, str]
    """Notation words of this ruleset: ``code`` spellings -> the canonical one
    (``ting_feng`` -> 听风 …)."""
    face_down_kinds: tuple[str, ...]
    """Chain item kinds whose card is shown only to its user and target (试探, 秘密下达)."""
    new_state: Callable[..., State]
    """``(ruleset, players, seed, *, tutorial, characters, character_pool) -> State``: a deal."""
    position_state: Callable[[dict[str, Any]], State]
    """A scenario position (shared/spec/scenario-format.md) -> State; raises SetupError."""
    legal_for: Callable[[Game, Prompt], Sequence[Action]]
    """Every legal action for the open decision, as values (a ``choose``'s are the
    prompt's options)."""
    hidden_action: Callable[[Game, int, Action], Hidden | None]
    """For an action that shows a hidden card: (who sees it, what the others see)."""
    discarded: Callable[[Game, int, list[int]], None]
    """Called after a seat discards hand cards (弃牌): opens the ruleset's window for it."""
    mark_kinds: tuple[type[TypedMark], ...] = ()
    """The ruleset's kinds of mark (:mod:`engine.marks`); their tags are unique with the
    core's (tests/unit/test_marks.py), as :func:`engine.marks.find` tells kinds by tag."""
    hand_discards_face_down: bool = False
    """Hand cards discarded as a cost or by an effect (:meth:`Game.discard_from_hand`) and a
    leaving player's hand go to the discard pile face down: the observation and the events
    show their numbers only to the seat that discarded them (the ruleset's match record
    keeps them: :meth:`engine.state.MatchExt.face_down_discards`)."""
    alias: Callable[[Game, Action, list[Action]], list[Action] | None] | None = None
    """Accepted spellings of the ruleset that are not listed as legal: ``(game, canonical
    action, legal) -> the legal actions it stands for`` or None (e.g. ``declare`` for
    ``pass`` in a play phase)."""
    secret_codes: tuple[str, ...] = ()
    """The codes a face-down card may carry (秘密下达: 听风, 看雨, 日落), in canonical
    spelling: a determinization (:mod:`engine.determinize`) draws a code the seat has not
    seen from these."""
    secret_tasks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Identity id -> the cards dealt with it, each seat of that identity privately holding
    one (a private task, :meth:`engine.state.SeatExt.private_task`); a determinization
    draws the ones a seat has not seen from these."""
    seat_record: type[SeatExt] = SeatExt
    """The ruleset's own per-seat record (``Seat.ext``): a :class:`SeatExt` subclass, or
    the base when its seats have nothing of their own. The snapshot keeps it."""
    match_record: type[MatchExt] = MatchExt
    """The ruleset's own per-match record (``State.ext``), like :attr:`seat_record`."""
    drawn: Callable[[Game, int, list[int]], None] | None = None
    """Called after a seat drew cards from the pile (:meth:`Game.draw`), for a rule about
    the drawn cards (cards drawn during a chain cannot join it)."""
    intel_placed: Callable[[Game, int, list[int], list[int], str], None] | None = None
    """``(game, seat, cards, users, cause)``: what follows when a card or skill places intel
    in front of a seat (:meth:`Game.place_intel`: victory, deaths, receipt triggers); None:
    the ruleset never calls it."""
    factions: Mapping[str, str] = field(default_factory=dict)
    """The identities whose players win together when one of them holds 3 intel of the
    faction's colour, and that colour (``red`` / ``blue``), as the ruleset's digest gives
    them in its victory section. Every other identity wins alone. Bots read sides from
    here, so they play each ruleset's factions."""
