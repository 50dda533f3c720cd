"""The one shape of a character skill, shared by every ruleset (issue 31 §1).

A skill is one small class in its character's module (``rulesets/<id>/characters/``),
keyed by its ruleset-scoped id. It *declares*:

- **when it may fire** — :attr:`Skill.windows`: the trigger windows (events) it listens
  to; an active skill is offered where its ruleset holds priority (play phase, a response
  point, a contest) and lists no window;
- **its condition** — :attr:`Skill.face` (the character must be face ``up``, face
  ``down`` or ``any``: a flip / 【暴露】 skill works face down, an ordinary or 【隐藏】 skill
  face up) and :attr:`Skill.per` (once per ``phase``, ``turn`` or ``timing``; ``""``: no
  limit besides its text); :attr:`Skill.forced` for a trigger without "you may";
- **its offers** — :meth:`actions` (uses at a priority / idle point) and :meth:`offers`
  (uses at a trigger window), the legal ``skill ID …`` actions (engine/action.py values);
- **its effect** — :meth:`resolve` (the use resolves on the chain) and :meth:`step` (it
  continues on its own frame).

A **passive** skill changes a rule: the ruleset's core asks every working skill of a seat
through a hook method its skill base declares (``timing_override``, ``draw_count``,
``sexes``, ``probe_choice``, ``shields``, ``hides_identity``, ``widens_timing``,
``nullifies``, ``any_arrow``, ``usable_as`` …: each ruleset's own) and never
names a skill id: the characters answer (``tests/unit/test_skill_ids.py`` fails
otherwise). The methods' argument types are the ruleset's (its context word, its event
record), so each ruleset's base narrows them; the names and the declarations are common.
"""

from __future__ import annotations

from typing import ClassVar, Literal

#: The face a character must show for the skill to work.
Face = Literal["up", "down", "any"]
#: How often a skill may be used: once per phase, per turn, per timing (再临's "same
#: timing" rule, p.4), or no limit of its own.
Per = Literal["", "phase", "turn", "timing"]


class Skill:
    """One character skill (see the module docstring). A ruleset's skill base subclasses
    this and adds its hooks; a character's skill subclasses that."""

    id: ClassVar[str] = ""
    """The skill id, canonical within its ruleset (notation, scenario files, logs)."""
    zh: ClassVar[str] = ""
    """The printed name (logs, the text-leak check)."""
    face: ClassVar[Face] = "up"
    """When it works: the character face up, face down (flip / 【暴露】), or either."""
    per: ClassVar[Per] = ""
    """Its use limit (the ruleset's usage marks enforce it)."""
    windows: ClassVar[tuple[str, ...]] = ()
    """The trigger windows (events) it listens to; empty for active and passive skills."""
    forced: ClassVar[bool] = False
    """A trigger without "you may" (可以): its offer is taken without asking."""

    def face_allows(self, exposed: bool) -> bool:
        """The character's face lets the skill work: ``exposed`` is face up."""
        if self.face == "any":
            return True
        return exposed if self.face == "up" else not exposed

