"""Where each ``{{ path }}`` of a ``run:`` template sits in shell syntax, so that its value is passed as data.

A command template's values never become shell code: each placeholder is replaced by a reference to an
environment variable holding the value, written for the quoting around it (``"${V}"`` bare, ``${V}`` inside
double quotes or an unquoted heredoc, escaped one level deeper inside the script of ``sh -c "…"``). This
module finds that quoting context; places where no reference can work (single quotes, a quoted heredoc,
arithmetic, the script of ``eval``) are reported so that ``validate`` can point at them.
"""

from __future__ import annotations

import os
import re

from alphred.guards.templates import Placeholder, Template
from alphred.lazy import deferred_dataclass

SENTINEL = "\x00"
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox"})
_WORD_END = frozenset(" \t\n;&|()<>")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")

BARE = "bare"
DOUBLE = "double"
SINGLE = "single"
HEREDOC = "heredoc"
QUOTED_HEREDOC = "quoted heredoc"
ARITHMETIC = "arithmetic"
SCRIPT = "script"
TOO_DEEP = "too deep"
ESCAPED = "escaped"
UNKNOWN = "unknown"

_PROBLEMS = {
    SINGLE: 'inside single quotes (no value can reach it there; use double quotes: "{{ %s }}")',
    QUOTED_HEREDOC: "inside a quoted heredoc (<<'EOF' expands nothing; use an unquoted one: <<EOF)",
    ARITHMETIC: "inside arithmetic ($(( )), (( ))), where the shell evaluates a value as code",
    TOO_DEEP: "in a shell script nested inside another one (sh -c inside sh -c)",
    ESCAPED: "right after a backslash (the backslash would escape the value's quoting)",
    UNKNOWN: "where the shell syntax around it is unclear",
}


@deferred_dataclass(frozen=True)
class Spot:
    """The quoting context of one placeholder; ``outer`` is the quote of an ``sh -c`` script around it."""

    context: str
    outer: str = ""


def placeholder_spots(template: Template) -> list[tuple[Placeholder, Spot]]:
    """Every placeholder of a command template with its shell quoting context, in order."""
    text = "".join(SENTINEL if isinstance(part, Placeholder) else part.replace(SENTINEL, "") for part in template.parts)
    spots = _Scanner(text, nested=False).run()
    placeholders = template.paths
    spots = (spots + [Spot(UNKNOWN)] * len(placeholders))[: len(placeholders)]  # never raises on odd syntax
    return list(zip(placeholders, spots, strict=True))


def shell_problems(template: Template) -> list[tuple[int, str]]:
    """(offset of the placeholder, message) for each placeholder whose value cannot be passed safely."""
    problems: list[tuple[int, str]] = []
    for placeholder, spot in placeholder_spots(template):
        if reference(spot, "V") is None:
            key = spot.context if spot.context in _PROBLEMS else TOO_DEEP
            where = _PROBLEMS[key] % placeholder.dotted if "%s" in _PROBLEMS[key] else _PROBLEMS[key]
            problems.append((placeholder.offset, f"'{{{{ {placeholder.dotted} }}}}' cannot be used {where}"))
    if SENTINEL in template.text:
        problems.append((template.text.index(SENTINEL), "a command cannot contain a NUL character"))
    return problems


_COMMAND_START = re.compile(r"(?:^|[;&|(\n`]|\b(?:then|do|else|elif)\s)\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*[\"]?$")


def command_words(template: Template) -> list[tuple[int, str]]:
    """(offset, message) for each placeholder that stands as the command word of a command line: its value
    is run as one program name (arguments and all), which is rarely what was meant."""
    found: list[tuple[int, str]] = []
    for placeholder, spot in placeholder_spots(template):
        if spot.outer or spot.context not in (BARE, DOUBLE):
            continue
        if _COMMAND_START.search(template.text[: placeholder.offset]):
            dotted = placeholder.dotted
            found.append(
                (
                    placeholder.offset,
                    f"'{{{{ {dotted} }}}}' is the command word: its value runs as one program name, arguments "
                    f"and all; to run it as a command line write 'sh -c {{{{ {dotted} }}}}'",
                )
            )
    return found


def reference(spot: Spot, name: str) -> str | None:
    """The shell text that expands to environment variable ``name`` as one piece of data, or None."""
    context = BARE if spot.context == SCRIPT else spot.context  # a whole script argument: run on purpose
    if spot.outer == '"':  # the script of sh -c "…": escape for the outer shell, expand in the inner one
        return {BARE: f'\\"\\${{{name}}}\\"', DOUBLE: f"\\${{{name}}}", HEREDOC: f"\\${{{name}}}"}.get(context)
    return {BARE: f'"${{{name}}}"', DOUBLE: f"${{{name}}}", HEREDOC: f"${{{name}}}"}.get(context)


class _Scanner:
    """A small shell lexer: enough of POSIX sh quoting to know where each sentinel character stands."""

    def __init__(self, text: str, *, nested: bool) -> None:
        self.text = text
        self.i = 0
        self.nested = nested
        self.spots: list[Spot] = []
        self.heredocs: list[tuple[str, bool, bool]] = []  # (delimiter, quoted, strip tabs) awaiting a newline

    def run(self) -> list[Spot]:
        self.command(None)
        self.heredoc_bodies()
        return self.spots

    def add(self, context: str) -> None:
        self.spots.append(Spot(context))

    def command(self, end: str | None) -> None:
        """Scan commands until ``end`` (``)`` of ``$(``, a backtick) or the end of the text."""
        text = self.text
        words: list[str] = []
        word: list[str] = []
        started = False
        parens = 0

        def finish() -> None:
            nonlocal started
            if started:
                words.append("".join(word))
            word.clear()
            started = False

        while self.i < len(text):
            c = text[self.i]
            nxt = text[self.i + 1] if self.i + 1 < len(text) else ""
            if end is not None and c == end and (end != ")" or parens == 0):
                self.i += 1
                return
            if c == SENTINEL:
                self.add(SCRIPT if _script_position(words) else BARE)
                started = True
                self.i += 1
            elif c == "\\":
                if nxt == SENTINEL:
                    self.add(ESCAPED)
                word.append(nxt)
                started = True
                self.i += 2
            elif c == "'":
                self.single(script=not started and _script_position(words))
                started = True
            elif c == '"':
                self.double(script=not started and _script_position(words))
                started = True
            elif c == "$" and nxt == "'":
                self.ansi_c()
                started = True
            elif c == "$" and text.startswith("$((", self.i):
                self.arithmetic(3)
                started = True
            elif c == "(" and nxt == "(" and not started and not words:
                self.arithmetic(2)
            elif c == "$" and nxt == "(":
                self.i += 2
                self.command(")")
                started = True
            elif c == "`":
                self.i += 1
                self.command("`")
                started = True
            elif c == "#" and not started:
                newline = text.find("\n", self.i)
                comment_end = len(text) if newline == -1 else newline
                self.spots.extend(Spot(BARE) for _ in range(text.count(SENTINEL, self.i, comment_end)))
                self.i = comment_end
            elif c == "<" and nxt == "<" and not text.startswith("<<<", self.i):
                finish()
                self.heredoc_operator()
            elif c == "\n":
                finish()
                words.clear()
                self.i += 1
                self.heredoc_bodies()
            elif c in _WORD_END:
                finish()
                if c == "(":
                    parens += 1
                elif c == ")":
                    parens = max(parens - 1, 0)
                if c in ";&|()":
                    words.clear()
                self.i += 1
            else:
                word.append(c)
                started = True
                self.i += 1
        return

    def single(self, *, script: bool) -> None:
        start = self.i + 1
        close = self.text.find("'", start)
        close = len(self.text) if close == -1 else close
        self.nested_or(self.text[start:close], "'", script, SINGLE)
        self.i = close + 1

    def ansi_c(self) -> None:
        self.i += 2
        while self.i < len(self.text) and self.text[self.i] != "'":
            if self.text[self.i] == SENTINEL or (
                self.text[self.i] == "\\" and self.text[self.i + 1 : self.i + 2] == SENTINEL
            ):
                self.add(SINGLE)
            self.i += 2 if self.text[self.i] == "\\" else 1
        self.i += 1

    def double(self, *, script: bool) -> None:
        start = self.i + 1
        before = len(self.spots)
        self.i = start
        text = self.text
        while self.i < len(text):
            c = text[self.i]
            if c == '"':
                break
            if c == "\\":
                if text[self.i + 1 : self.i + 2] == SENTINEL:
                    self.add(ESCAPED)
                self.i += 2
            elif c == SENTINEL:
                self.add(DOUBLE)
                self.i += 1
            elif text.startswith("$((", self.i):
                self.arithmetic(3)
            elif c == "$" and text.startswith("$(", self.i):
                self.i += 2
                self.command(")")
            elif c == "`":
                self.i += 1
                self.command("`")
            else:
                self.i += 1
        content = text[start : self.i]
        self.i += 1
        if script:
            del self.spots[before:]
            self.nested_or(_unescape_double(content), '"', True, DOUBLE)

    def nested_or(self, content: str, quote: str, script: bool, plain: str) -> None:
        """Spots of a quoted string: its own context, or those of the script it holds (``sh -c '…'``)."""
        if not script:
            self.spots.extend(Spot(plain) for _ in range(content.count(SENTINEL)))
        elif self.nested:
            self.spots.extend(Spot(TOO_DEEP, quote) for _ in range(content.count(SENTINEL)))
        else:
            self.spots.extend(Spot(spot.context, quote) for spot in _Scanner(content, nested=True).run())

    def arithmetic(self, opening: int) -> None:
        depth = 0
        self.i += opening
        text = self.text
        while self.i < len(text):
            c = text[self.i]
            if c == SENTINEL:
                self.add(ARITHMETIC)
            elif c == "(":
                depth += 1
            elif c == ")":
                if depth == 0 and text.startswith("))", self.i):
                    self.i += 2
                    return
                depth = max(depth - 1, 0)
            self.i += 1

    def heredoc_operator(self) -> None:
        text = self.text
        self.i += 2
        strip = text.startswith("-", self.i)
        if strip:
            self.i += 1
        while self.i < len(text) and text[self.i] in " \t":
            self.i += 1
        start = self.i
        while self.i < len(text) and text[self.i] not in _WORD_END:
            if text[self.i] in "'\"":
                close = text.find(text[self.i], self.i + 1)
                self.i = len(text) if close == -1 else close + 1
            else:
                self.i += 1
        raw = text[start : self.i]
        if SENTINEL in raw:
            self.spots.extend(Spot(BARE) for _ in range(raw.count(SENTINEL)))
        quoted = any(q in raw for q in "'\"\\")
        self.heredocs.append((re.sub(r"['\"\\]", "", raw), quoted, strip))

    def heredoc_bodies(self) -> None:
        """Consume the bodies of the heredocs opened on the line that just ended."""
        text = self.text
        pending, self.heredocs = self.heredocs, []
        for delimiter, quoted, strip in pending:
            while self.i < len(text):
                newline = text.find("\n", self.i)
                line_end = len(text) if newline == -1 else newline
                line = text[self.i : line_end]
                self.i = line_end + 1
                if (line.lstrip("\t") if strip else line) == delimiter:
                    break
                for index, char in enumerate(line):
                    if char == SENTINEL:
                        escaped = not quoted and line[index - 1 : index] == "\\"
                        self.add(QUOTED_HEREDOC if quoted else ESCAPED if escaped else HEREDOC)


def _script_position(words: list[str]) -> bool:
    """True when the next word of this simple command is shell code: an argument of ``eval``, or the script
    right after the ``-c`` of a shell (``bash -lc``, ``timeout 5 sh -c``, ``xargs sh -c``, ...)."""
    first = 0
    while first < len(words) and _ASSIGNMENT.match(words[first]):
        first += 1
    names = [os.path.basename(word) for word in words[first:]]
    if "eval" in names:
        return True
    if len(names) >= 2 and re.fullmatch(r"-[a-zA-Z]*c[a-zA-Z]*", names[-1]):
        return any(name in SHELLS for name in names[:-1])
    return False


def _unescape_double(content: str) -> str:
    """The text a double-quoted string hands to the command: backslash before $ ` " \\ and newline removed."""
    return re.sub(r'\\([$`"\\\n])', lambda m: "" if m.group(1) == "\n" else m.group(1), content)
