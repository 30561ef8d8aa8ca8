"""Help texts from docstrings: a command's one-line summary, read as plain text.

Docstrings are written for the source (reST literals, a usage line, paragraphs wrapped at 96
columns); ``--help`` shows them in a terminal. ``summary`` turns a module docstring into the
sentence that opens its help: the first sentence of its first paragraph, without a leading
``python -m ...``: usage line, with literals unquoted and roles dropped, ending with its full
stop. Taking the docstring's first *line* instead cuts a sentence that continues on the next.
"""

from __future__ import annotations

import re

_USAGE = re.compile(r"^``python -m [^`]*``\s*:\s*")  # "``python -m x [--y]``: what it does"
_ROLE = re.compile(r":[a-z]+:(?=`)")  # :func:`name` -> `name`
_LITERAL = re.compile(r"``(.+?)``|`([^`]+)`")
_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "cf.", "etc.")


def unquote(text: str) -> str:
    """``text`` without reST markup, its layout kept: roles dropped, ````literal```` and
    ```x``` unquoted (for a help's epilog of examples)."""
    return _LITERAL.sub(lambda m: m[1] or m[2], _ROLE.sub("", text))


def plain(text: str) -> str:
    """``unquote(text)`` with its whitespace (line breaks included) folded to single spaces."""
    return " ".join(unquote(text).split())


def first_sentence(text: str) -> str:
    """Up to the first ``.``, ``?`` or ``!`` followed by a space and a capital letter (``e.g.``
    and the like do not end a sentence); all of ``text`` if none does."""
    for match in re.finditer(r"[.?!](?=\s+[A-Z(])", text):
        word = text[:match.end()].rsplit(" ", 1)[-1]
        if word.lower() not in _ABBREVIATIONS:
            return text[:match.end()]
    return text


def summary(doc: str | None) -> str:
    """The one-line summary of a command whose module docstring is ``doc`` (see the module
    docstring); empty for no docstring."""
    paragraph = (doc or "").strip().split("\n\n")[0]
    text = first_sentence(plain(_USAGE.sub("", paragraph)))
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text.rstrip(" :;,") + "."
