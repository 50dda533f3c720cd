"""Parsing and normalising actions written in the notation of docs/notation.md.

The shapes (``play N [to S] [on M] [code C] [as F]``, ``skill …``, ``choose …``) are
shared by every ruleset; the words a ruleset adds (再临's 秘密下达 codes and their
ASCII aliases) come from its :attr:`engine.ruleset.Ruleset.code_aliases`.
"""

from __future__ import annotations

from collections.abc import Mapping

PLAY_KEYS = ("to", "on", "code", "as")


def normalize(action: str, code_aliases: Mapping[str, str] | None = None) -> str:
    """The canonical spelling of ``action``: single spaces, lower-case words, ``play``
    options in the order to/on/code/as, ``code`` words resolved through the ruleset's
    ``code_aliases``. Unknown shapes are returned tidied but otherwise as given (they then
    fail the legality check)."""
    words = action.strip().split()
    if not words:
        return ""
    words = [w if any(ord(ch) > 127 for ch in w) else w.lower() for w in words]
    if words[0] == "play" and len(words) >= 2:
        opts: dict[str, str] = {}
        i = 2
        while i + 1 < len(words) and words[i] in PLAY_KEYS and words[i] not in opts:
            opts[words[i]] = words[i + 1]
            i += 2
        if i != len(words):
            return " ".join(words)
        if "code" in opts:
            opts["code"] = (code_aliases or {}).get(opts["code"], opts["code"])
        if "code" in opts and "to" in opts:
            # The target of 秘密下达 is the declarer: accepted, then left implicit.
            return " ".join(words)
        out = ["play", words[1]]
        for key in PLAY_KEYS:
            if key in opts:
                out += [key, opts[key]]
        return " ".join(out)
    return " ".join(words)
