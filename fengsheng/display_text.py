"""Text one user writes and others read: guest names, bot names and chat lines (docs/security.md,
"Names and chat"). One cleaner for all of them, so a trick refused in a name is refused in
chat too and the rules cannot drift apart.

What it does to the text, in order:

1. **NFC**: composed where Unicode can (``e`` + U+0301 becomes ``é``), so a mark that has a
   precomposed form does not count as one.
2. **Invisible characters**: bidi controls (U+202A–202E, U+2066–2069, U+200E/200F, U+061C),
   zero-width characters (U+200B–200D, U+2060, U+FEFF), letters that draw nothing (the Hangul
   fillers U+115F, U+1160, U+3164, U+FFA0; the combining grapheme joiner U+034F) and every
   other control, format, surrogate, private-use or unassigned character (Unicode category
   ``C``) but whitespace. A **name refuses** them (code ``invisible_character``, naming the
   first one): a name is shown beside other people's text, and an override in it could
   reorder a whole line or make two names look alike. A **chat message drops** them: its
   words still read as written.
3. **Whitespace**: every run becomes one space, and the ends are trimmed. Nothing left: refused
   (``empty_name`` / ``empty_message``). Longer than its limit: refused (``name_too_long`` /
   ``message_too_long``).
4. **Combining marks**: at most :data:`MAX_MARKS` (4) marks (Unicode category ``M``) follow one
   another (accents stacked on one base character); more is refused (``too_many_marks``).
   Vietnamese, Devanagari or Tibetan need at most three after NFC; "Zalgo" text needs dozens.

The cleaner never makes HTML: clients put names and messages on the page as text, each name
isolated in a ``<bdi>`` (docs/web-client.md).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

#: bidirectional formatting characters: embeddings, overrides, isolates, marks
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: characters of no width: zero-width space, (non-)joiner, word joiner, byte-order mark
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
#: letters and marks that draw nothing (a name of them looks empty)
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u034f")
#: the most combining marks that may follow one another
MAX_MARKS = 4

Kind = Literal["name", "message"]

_SPACES = re.compile(r"\s+")


class TextRefused(ValueError):
    """Text that may not be kept: ``code`` is the error code the API answers with."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def invisible(char: str) -> bool:
    """Whether ``char`` changes how text around it is drawn, or draws nothing at all."""
    if char in BIDI_CONTROLS or char in ZERO_WIDTH or char in BLANKS:
        return True
    return not char.isspace() and unicodedata.category(char).startswith("C")


def _described(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def clean_text(raw: str, *, kind: Kind, max_len: int) -> str:
    """``raw`` as it is kept and shown (the module's rules); raises :class:`TextRefused`."""
    text = unicodedata.normalize("NFC", raw)
    if kind == "name":
        bad = next((c for c in text if invisible(c)), None)
        if bad is not None:
            raise TextRefused(
                "invisible_character",
                f"a name may not hold {_described(bad)}: bidi controls, zero-width and control characters are refused",
            )
    else:
        text = "".join(c for c in text if not invisible(c))
    text = _SPACES.sub(" ", text).strip()
    if not text:
        raise TextRefused(f"empty_{kind}", f"the {kind} is empty")
    if len(text) > max_len:
        raise TextRefused(f"{kind}_too_long", f"a {kind} holds at most {max_len} characters")
    run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c).startswith("M") else 0
        if run > MAX_MARKS:
            raise TextRefused(
                "too_many_marks", f"at most {MAX_MARKS} combining marks may follow one another in a {kind}"
            )
    return text


def clean_name(raw: str, max_len: int) -> str:
    """A guest's or a bot's name as kept (:func:`clean_text` of kind ``name``)."""
    return clean_text(raw, kind="name", max_len=max_len)
