"""The free-text leak check of the invariants (``fengsheng.invariants``, check 4).

Hidden information can leak through words as well as through structured fields: the
open decision's prompt (``pending.prompt``) is the same line for every seat and for
spectators, and every event has a text. :class:`TextCheck` follows what each viewer may
know, derived from the structured observations it has received so far, and flags a free
text it reads that names more:

* **cards** – a viewer knows a card once its observation showed it (its own hand, an
  intel area, the discard pile, the intel in transit or a chain card shown to it) or an
  event it received lists it in ``cards`` (a draw, a look at a hand, a card shown …);
* **identities** – a seat's identity is known once the observation shows it (its own,
  a revealed one) or an event addressed privately to the viewer names it (拷问, 真相 …);
* **characters** – a character is known once the observation shows it at its seat (face
  up, the viewer's own, a 绝密任务 character shown to it); a text naming a character or
  one of its skills names the seat that holds it.

Numbers in a text are cards unless their context makes them a seat (``seat 3``, ``to 2``,
``killed by 1``, the ``2:`` of an action), a count (``draws 2``, ``1 card(s)``, ``(1 of
3)``, ``discard pile (40)``) or a turn number; a seat context only covers a seat number of
the game and a loose count context (``draws N``) only numbers below 10, so a card number
there is still checked. A ``choose N`` answer is a seat when the prompt it answered
offered only seat numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from engine import Game
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.v1 import game_pb2

IDENTITY_OF_ENUM = {number: name.lower() for name, number in game_pb2.Identity.items()
                    if number != game_pb2.IDENTITY_UNSPECIFIED}
#: Identity words of the texts (ids and the Chinese names) and the identity they name.
IDENTITY_WORDS = {**{name: name for name in IDENTITY_OF_ENUM.values()},
                  "军情": "military", "潜伏": "latent", "特工": "agent", "打酱油": "bystander"}


def _names(ruleset_id: str) -> dict[str, str]:
    """Character and skill ids and Chinese names -> the character they belong to, in one
    ruleset's character table (a text naming a hidden character's skill names the
    character). Per ruleset: classic reuses 再临's skill names for other characters (D30)."""
    names: dict[str, str] = {}
    ruleset = get_ruleset(ruleset_id)
    shared: set[str] = set()
    for cid, ch in ruleset.characters.items():
        names[cid] = names[ch.zh] = cid
        for sid in ch.skills:
            # A classic character not implemented yet has skill ids but no skill objects.
            zh = getattr(ruleset.skills.get(sid), "zh", "")
            for name in (sid, zh) if zh else (sid,):
                if names.get(name, cid) != cid:
                    shared.add(name)
                names[name] = cid
    # A skill of several characters (classic 就计: 老鬼 and 老枪) names none of them.
    for name in shared:
        del names[name]
    return names


def _zh_pattern(names: dict[str, str]) -> re.Pattern[str]:
    return re.compile("|".join(sorted((re.escape(n) for n in names if not n.isascii()), key=len, reverse=True))
                      or "(?!)")


NAMES_BY_RULESET: dict[str, dict[str, str]] = {rid: _names(rid) for rid in RULESET_IDS}
_ZH_BY_RULESET: dict[str, re.Pattern[str]] = {rid: _zh_pattern(n) for rid, n in NAMES_BY_RULESET.items()}
NAMES = NAMES_BY_RULESET["return"]
_ZH_NAMES = _ZH_BY_RULESET["return"]
_ZH_IDENTITIES = re.compile("|".join(w for w in IDENTITY_WORDS if not w.isascii()))
_ASCII_WORDS = re.compile(r"[a-z_]+")
_DIGITS = re.compile(r"\d+")

#: a number after these words is a seat (``to 0,2``, ``killed by 1``, ``game over: 0 2 win``, 谍战篇 ``lock 2``)
_SEAT_BEFORE = frozenset({"seat", "seats", "by", "to", "over", "lock"})
#: a number after these words is a count when small (``draws 2``; ``draws 21`` is a card)
_SMALL_COUNT_BEFORE = frozenset({"draws", "draw", "discard"})
#: a number after these words is a count or a turn of any size
_COUNT_BEFORE = frozenset({"least", "of", "turn", "pile"})
#: a number before these words is a count (``1 card(s)``, ``3 red intel``, ``(1 more)``)
_COUNT_AFTER = ("card", "hand", "true", "red", "blue", "more", "of", "pile", "this")
SMALL = 10


@dataclass(frozen=True, slots=True)
class Mentions:
    """What one text names: card numbers, (seat or None, identity) pairs, characters."""

    cards: tuple[int, ...]
    identities: tuple[tuple[int | None, str], ...]
    characters: tuple[str, ...]


def _bare(word: str) -> str:
    return word.lower().strip("(),:;.!?'\"").removesuffix("'s")


@lru_cache(maxsize=65536)
def mentions(text: str, players: int, choose_seats: bool = True, subject: tuple[int, ...] = (),
             ruleset: str = "return") -> Mentions:
    """Parse a free text (see the module docstring for how numbers are told apart). An
    identity word belongs to the seats named last before it, else to ``subject`` (the
    winners, for the outcome's reason), else to every seat of that identity."""
    words = text.split()
    bare = [_bare(w) for w in words]
    cards: list[int] = []
    idents: list[tuple[int | None, str]] = []
    last_seats: list[int] = list(subject)
    prev_role = ""
    for i, word in enumerate(words):
        nums = [int(n) for n in _DIGITS.findall(word)]
        prev = bare[i - 1] if i else ""
        if nums and not word.startswith("-"):
            role = _role(i, word, prev, bare, prev_role, choose_seats)
            if role == "seat":
                seats = [n for n in nums if n < players]
                cards.extend(n for n in nums if n >= players)
                if seats:
                    last_seats = seats
            elif role == "small":
                cards.extend(n for n in nums if n >= SMALL)
            elif role == "card":
                cards.extend(nums)
            prev_role = role
            continue
        prev_role = ""
        if prev in ("names", "choose"):
            continue  # a guess or a choice (真相 names an identity), not a fact about a seat
        found = [IDENTITY_WORDS[w] for w in _ASCII_WORDS.findall(word.lower()) if w in IDENTITY_WORDS]
        found += [IDENTITY_WORDS[w] for w in _ZH_IDENTITIES.findall(word)]
        for ident in found:
            if last_seats:
                idents.extend((s, ident) for s in last_seats)
            else:
                idents.append((None, ident))
    names = NAMES_BY_RULESET[ruleset]
    chars = {names[w] for w in _ASCII_WORDS.findall(text) if w in names}
    chars.update(names[m] for m in _ZH_BY_RULESET[ruleset].findall(text))
    return Mentions(tuple(cards), tuple(idents), tuple(sorted(chars)))


def _role(i: int, word: str, prev: str, bare: list[str], prev_role: str, choose_seats: bool) -> str:
    """``seat``, ``count`` (not a card), ``small`` (a count if below 10) or ``card``."""
    nxt = bare[i + 1] if i + 1 < len(bare) else ""
    if word.startswith("#"):
        return "count"  # "play 40 on #2": a chain position (classic 识破), not a card
    if i == 0 and (word.endswith(":") or nxt == "draws"):
        return "seat"  # "2: play 7" (an action), "0 draws 21"
    if prev == "to" and i >= 2 and bare[i - 2] == "down":
        return "count"  # "discard down to 6"
    if prev in _SEAT_BEFORE:
        return "seat"
    if prev in _COUNT_BEFORE or nxt.startswith(_COUNT_AFTER):
        return "count"
    if prev_role == "seat" and word.replace(",", "").isdigit() and bare[i - 1].replace(",", "").isdigit():
        return "seat"  # a list of seats: "killed by 1 3", "game over: 0 2 win"
    if prev == "choose":
        return "seat" if choose_seats else "card"
    if prev in _SMALL_COUNT_BEFORE:
        return "small"
    return "card"


@dataclass
class Knowledge:
    """What one viewer has been shown so far; a seat's also holds everything public (the
    spectator's knowledge, ``public``)."""

    cards: set[int] = field(default_factory=set)
    identities: dict[int, str] = field(default_factory=dict)
    characters: set[int] = field(default_factory=set)
    secret_characters: set[int] = field(default_factory=set)
    public: Knowledge | None = None

    def knows_card(self, card: int) -> bool:
        return card in self.cards or (self.public is not None and card in self.public.cards)

    def knows_identity(self, seat: int) -> bool:
        return seat in self.identities or (self.public is not None and seat in self.public.identities)

    def knows_character(self, seat: int) -> bool:
        return seat in self.characters or (self.public is not None and seat in self.public.characters)

    def knows_secret_character(self, seat: int) -> bool:
        return seat in self.secret_characters or (
            self.public is not None and seat in self.public.secret_characters)


class TextCheck:
    """Per-viewer knowledge and the check of the texts each viewer receives. Call
    :meth:`begin` once per decision, :meth:`check` for the spectator's observation and
    then for each seat's, then :meth:`end`; raises AssertionError naming the leak.

    A seat knows everything public besides its own: a public line (an event without an
    audience, the prompt, the outcome) that passes for the spectator passes for every
    seat, so a seat's check reads its private lines only (and a prompt if it differs)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.public = Knowledge()
        self.known: dict[int, Knowledge] = {-1: self.public}
        self._events_done = 0
        self._new: list[int] = []
        self._public_prompt = ""
        #: the numeric options of the decision open at the last check: they tell whether
        #: the ``choose N`` just answered named a seat or a card
        self._choose_seats = True

    def begin(self, game: Game) -> None:
        self._new = list(range(self._events_done, len(game.events)))

    def end(self, game: Game) -> None:
        self._events_done = len(game.events)
        p = game.state.prompt
        if p is None:
            return
        numbers = [n for o in p.options for n in (*o.picks, *o.to, *(c for c in (o.card, o.on) if c > 0))]
        self._choose_seats = all(n < self.players for n in numbers)

    def knowledge(self, viewer: int) -> Knowledge:
        k = self.known.get(viewer)
        if k is None:
            k = self.known[viewer] = Knowledge(public=self.public)
        return k

    def check(self, game: Game, viewer: int, obs: game_pb2.Observation) -> None:
        spectator = viewer < 0
        k = self.knowledge(viewer)
        self._learn(k, viewer, obs)
        texts: list[tuple[str, Mentions]] = []
        for i in self._new:
            e = game.events[i]
            private = bool(e.audience) and -1 not in e.audience
            if not e.visible_to(viewer) or not (spectator or private):
                continue
            k.cards.update(e.cards)
            choose_seats = self._choose_seats if e.kind == "action" else True
            m = mentions(e.text, self.players, choose_seats, ruleset=game.state.ruleset)
            if private:
                self._learn_private(game, k, m)
            texts.append((f"event {e.index} ({e.kind}) {e.text!r}", m))
        prompt = obs.pending.prompt
        if spectator:
            self._public_prompt = prompt
        if prompt and (spectator or prompt != self._public_prompt):
            texts.append((f"the prompt {prompt!r}", mentions(prompt, self.players, ruleset=game.state.ruleset)))
        if obs.outcome.reason and spectator:
            winners = tuple(obs.outcome.winners)
            texts.append((f"the outcome {obs.outcome.reason!r}", mentions(obs.outcome.reason, self.players,
                                                                        subject=winners,
                                                                        ruleset=game.state.ruleset)))
        for what, m in texts:
            leak = self.leak(game, k, viewer, m)
            if leak:
                who = "a spectator" if spectator else f"seat {viewer}"
                raise AssertionError(f"{what} shown to {who} names {leak}")

    # ------------------------------------------------------------------ knowledge
    @staticmethod
    def _learn(k: Knowledge, viewer: int, obs: game_pb2.Observation) -> None:
        """The observation's zones, identities and characters; a seat's public part is the
        spectator's, so for a seat only what is its own (its hand, identity, character)
        and what was shown to it (the face-down intel, a face-down card on the chain)."""
        cards = k.cards
        if viewer < 0:
            cards.update(c for c in obs.discard if c)  # 0: a face-down discard (classic D12)
            for j, sv in enumerate(obs.seats):
                cards.update(sv.intel)
                if sv.identity:
                    k.identities[j] = IDENTITY_OF_ENUM[sv.identity]
                if sv.character:
                    k.characters.add(j)
                if sv.secret_character:
                    k.secret_characters.add(j)
        elif viewer < len(obs.seats):
            sv = obs.seats[viewer]
            cards.update(sv.hand)
            if sv.secret_character:
                k.secret_characters.add(viewer)
        if obs.transit.card:
            cards.add(obs.transit.card)
        cards.update(item.card for item in obs.chain if item.card)

    @staticmethod
    def _learn_private(game: Game, k: Knowledge, m: Mentions) -> None:
        """An event addressed to the viewer alone (with the seats it names) shows it the
        identities and characters it names (拷问's look at an identity …)."""
        for seat, ident in m.identities:
            if seat is not None:
                k.identities[seat] = ident
        for cid in m.characters:
            for j, p in enumerate(game.state.seats):
                if p.character == cid:
                    k.characters.add(j)
                if p.ext.private_character() == cid:
                    k.secret_characters.add(j)

    def leak(self, game: Game, k: Knowledge, viewer: int, m: Mentions) -> str:
        """What of ``m`` the viewer may not know ("" when nothing)."""
        hidden = [c for c in m.cards if not k.knows_card(c)]
        if hidden:
            return f"card {hidden[0]}, which it has not seen"
        seats = game.state.seats
        for seat, ident in m.identities:
            holders = [seat] if seat is not None else [j for j, p in enumerate(seats) if p.identity == ident]
            for j in holders:
                if j != viewer and 0 <= j < len(seats) and not k.knows_identity(j):
                    return f"the identity {ident} of seat {j}, which it does not know"
        for cid in m.characters:
            for j, p in enumerate(seats):
                if j == viewer:
                    continue
                if (p.character == cid and not k.knows_character(j)) or (
                        p.ext.private_character() == cid and not k.knows_secret_character(j)):
                    return f"{cid}, the face-down character of seat {j}"
        return ""
