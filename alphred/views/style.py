"""Text for people on a terminal: colour (off for ``NO_COLOR``, ``TERM=dumb`` and non-terminals) and width.

Plain ANSI escapes, no dependency: progress lines, the closing block of a run and ``alphred status`` use it.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from typing import TextIO

CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}
STATUS_STYLE = {
    "completed": "green",
    "failed": "red",
    "cancelled": "magenta",
    "paused": "yellow",
    "interrupted": "yellow",
    "running": "cyan",
    "pending": "dim",
    "skipped": "dim",
}
DEFAULT_WIDTH = 100
ELLIPSIS = "…"


def is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def wants_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour on a terminal, unless ``NO_COLOR`` is set or ``TERM`` is ``dumb``; ``FORCE_COLOR`` forces it."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    return is_terminal(stream) and environ.get("TERM") != "dumb"


def terminal_width(stream: TextIO, environ: Mapping[str, str] | None = None) -> int:
    """Columns of the terminal behind ``stream`` (``COLUMNS`` wins, as for ``shutil``); 100 if unknown."""
    environ = os.environ if environ is None else environ
    columns = environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns or DEFAULT_WIDTH
    except (AttributeError, ValueError, OSError):
        return DEFAULT_WIDTH


def char_width(char: str) -> int:
    """Columns one character takes: 0 for combining marks, 2 for wide (East Asian) ones, else 1."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal (no escapes in it)."""
    return sum(char_width(c) for c in text)


_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)?")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` without terminal escapes and control characters (each becomes a space), trimmed."""
    return _CONTROLS.sub(" ", _ESCAPES.sub("", text)).strip()


def fit(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` columns, ending in ``…`` when cut; one line only."""
    text = text.replace("\r", " ").replace("\n", " ")
    if display_width(text) <= width:
        return text
    out: list[str] = []
    used = 0
    for char in text:
        w = char_width(char)
        if used + w > max(width - 1, 0):
            break
        out.append(char)
        used += w
    return "".join(out) + (ELLIPSIS if width > 0 else "")


class Painter:
    """Wraps text in ANSI colour codes, or leaves it alone when colour is off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        """``text`` in ``styles`` (names of CODES; unknown names are ignored)."""
        if not self.enabled or not text:
            return text
        codes = [CODES[s] for s in styles if s in CODES]
        if not codes:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def status(self, text: str, status: str | None = None) -> str:
        """``text`` in the colour of a run or phase status."""
        style = STATUS_STYLE.get(status or text)
        return self(text, style) if style else text


def shown_path(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the current directory when it lies below it (shorter lines), else as it is."""
    try:
        relative = os.path.relpath(path)
    except (ValueError, OSError):
        return str(path)
    return str(path) if relative.startswith("..") else relative


def format_seconds(seconds: float) -> str:
    """A duration as people read it: ``0.6s``, ``2m 05s``, ``1h 02m``."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def table(rows: list[tuple[str, ...]], right: set[int] | None = None) -> list[str]:
    """Rows as aligned columns (two spaces apart); columns in ``right`` are right-aligned."""
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = []
        for i, value in enumerate(row):
            pad = " " * (widths[i] - display_width(value))
            cells.append(pad + value if i in (right or set()) else value + pad)
        lines.append("  ".join(cells).rstrip())
    return lines
