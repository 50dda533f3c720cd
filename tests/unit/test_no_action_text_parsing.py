"""Actions and events are values; their text is read back in one place (issue 27 §5, the
acceptance "no module outside a ruleset's notation.py (or equivalent) parses action text").

Who sees an action's or event's arguments is decided from typed fields (``Action``'s
fields, an event's typed arguments, a frame's own fields), never by taking a line apart. This
test walks the syntax tree of every module of the engine, the services and the gateway
and fails on code that takes apart the text of an action, an event, a prompt or a frame:

- splitting or prefix-testing it: ``.split()``, ``.partition()``, ``.startswith()``,
  ``.endswith()``, ``.find()``, ``.index()`` called on ``X.text``, ``X.canonical``,
  ``X.action``, ``X.prompt``, a variable named ``action``, ``act`` or ``a``, or ``str()`` of
  one of those (``str(a).startswith("send")``);
- indexing such a split (``fr.text.split()[0]``) or a list named ``words``;
- a regular expression run over such a text (``re.match(…, e.text)``, ``PATTERN.match(e.text)``);
- a substring test on it (``"direct" in action``, ``"send" in e.text``).

Comparing a whole word (``fr.text == "probe"``: a frame's one-word subject) is not parsing.
Allowed: :mod:`engine.notation` (the notation's reader) and :mod:`engine.text` (the
template table: it renders events and matches prompt lines to their rows).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("engine", "services", "gateway")
ALLOWED = frozenset({"engine/notation.py", "engine/text.py"})

#: Attributes that hold an action's, event's, prompt's or frame's text.
TEXT_ATTRS = frozenset({"text", "canonical", "action", "prompt"})
#: Variables that hold an action (or its text) in the code that reads one.
TEXT_NAMES = frozenset({"action", "act", "a"})
#: String methods that take a text apart.
PARSING_METHODS = frozenset({"split", "rsplit", "partition", "rpartition", "startswith", "endswith", "find",
                             "rfind", "index", "splitlines"})
#: Regular-expression functions / compiled-pattern methods.
REGEX_METHODS = frozenset({"match", "fullmatch", "search", "findall", "finditer", "sub", "subn"})


def _is_text(node: ast.expr) -> bool:
    """Whether ``node`` is the text of an action, event, prompt or frame."""
    if isinstance(node, ast.Attribute):
        return node.attr in TEXT_ATTRS
    if isinstance(node, ast.Name):
        return node.id in TEXT_NAMES
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" \
            and len(node.args) == 1:
        arg = node.args[0]
        return _is_text(arg)
    return False


def _splits_text(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in PARSING_METHODS and _is_text(node.func.value))


def _parses_text(node: ast.AST) -> bool:
    """Whether ``node`` takes apart the text of an action, event, prompt or frame."""
    if _splits_text(node):
        return True
    if isinstance(node, ast.Subscript):
        return _splits_text(node.value) or (isinstance(node.value, ast.Name) and node.value.id == "words")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in REGEX_METHODS:
        return any(_is_text(a) for a in node.args)
    if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        left = node.left
        return isinstance(left, ast.Constant) and isinstance(left.value, str) and _is_text(node.comparators[0])
    return False


def offences(source: str, name: str = "<snippet>") -> list[str]:
    """Every place in ``source`` that takes apart the text of an action, event, prompt or
    frame, as ``name:line: code``."""
    return [f"{name}:{getattr(node, 'lineno', 0)}: {ast.unparse(node)}"
            for node in ast.walk(ast.parse(source)) if _parses_text(node)]


def _modules() -> list[Path]:
    files = [p for d in SCANNED for p in sorted((ROOT / d).rglob("*.py"))]
    return [p for p in files if p.relative_to(ROOT).as_posix() not in ALLOWED]


def test_no_module_outside_the_notation_parses_action_text() -> None:
    modules = _modules()
    assert len(modules) > 100, "the scan found too few modules to mean anything"
    found = [o for p in modules for o in offences(p.read_text(encoding="utf-8"), p.relative_to(ROOT).as_posix())]
    assert not found, "action/event/prompt/frame text taken apart outside engine/notation.py:\n" + "\n".join(found)


@pytest.mark.parametrize("snippet", [
    "sid = st.stack[-1].text.split()[0]",                      # a frame's words (谍战篇 before)
    "sid, event, _ = fr.text.split()",
    "if prompt.text.startswith(tuple(PRIVATE_PROMPTS)): pass",  # a prompt's prefix (再临 before)
    "words = e.text.split()\nmode = words[2]",                 # an event's words (belief before)
    "m = _ACTION.match(e.text)",                               # a regex over an event line
    "m = re.match(r'^(\\d+): (.*)$', e.text)",
    "def _words(action: str) -> list[str]:\n    return action.split()",  # audit_sim before
    "sends = [a for a in legal if str(a).startswith('send')]",
    "direct = 'direct' in action",
    "sends = [a for a in legal if a.startswith('send')]",    # audit_sim before
    "x = last.action.split()",
])
def test_the_check_catches_text_parsing(snippet: str) -> None:
    """The net can fail: each of these takes an action's or event's text apart."""
    assert offences(snippet)


@pytest.mark.parametrize("snippet", [
    "if fr.text == 'probe': pass",                 # a frame's one-word subject, compared whole
    "sk = SKILLS.get(st.stack[-1].text)",
    "if action.kind == 'send' and action.mode == 'direct': pass",
    "parts = word.split(',')",                     # not an action's text
    "first = str(exc).splitlines()[0]",            # an error message
    "text = action.text(card=lambda _: '?')",      # writing the text, not reading it
])
def test_the_check_lets_typed_reads_pass(snippet: str) -> None:
    assert not offences(snippet)
