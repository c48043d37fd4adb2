"""Secret redaction for everything Alphred stores or prints: one ``Redactor`` per process, applied by the store
to every row it writes (``alphred.store.redaction``) and by every output that does not come from the store.

A secret is: the value of an environment variable whose name says KEY, TOKEN, SECRET, PASSWORD, PASSWD or
CREDENTIAL (and each line of a multi-line one, since command output is stored line by line); the value of
a run input with such a name (``register_secrets``); anything shaped like an API key; the password of a
URL (``postgresql://user:PASSWORD@host``).

A provider event's content is also cut to MAX_EVENT_CHARS (``cut_event_content``), the same way where it is
stored (the runtime's event sink) and where it is streamed (``--events jsonl``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
MIN_SECRET_LENGTH = 6
KEY_SHAPES = re.compile(
    r"sk-ant-[A-Za-z0-9_\-]{16,}"
    r"|sk-(?:proj-)?[A-Za-z0-9_\-]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{30,}"
    r"|xox[abprs]-[A-Za-z0-9\-]{10,}"
    r"|AKIA[0-9A-Z]{16}"
    r"|AIza[0-9A-Za-z_\-]{35}"
    r"|glpat-[A-Za-z0-9_\-]{20,}"
)
"""Strings shaped like an API key. Every alternative starts with a literal, so the regex engine skips to the
places where one can start: a lookbehind among them (``BEARER_TOKEN``) made it try every alternative at every
character, 9x slower — and every string the store writes passes here (issue 29)."""
KEY_STARTS = ("sk-", "xox", "AKIA", "AIza", "glpat-")
"""The literals ``KEY_SHAPES``' alternatives start with, but GitHub's (``_GITHUB_KEY``)."""
_GITHUB_KEY = re.compile(r"gh[pousr]_|github_pat_")


_GITHUB_TAILS = ("p_", "o_", "u_", "s_", "r_")
"""What follows ``gh`` where ``_GITHUB_KEY``'s first alternative matches (``ghp_``...; the other is ``github_pat_``)."""


def may_hold_key(text: str) -> bool:
    """False when no string shaped like an API key (``KEY_SHAPES``) can be in ``text``: each alternative starts with
    one of ``KEY_STARTS``, looked for by C substring searches, or GitHub's (``_GITHUB_KEY``: each ``gh`` found looked
    at), ~3x cheaper than ``KEY_SHAPES`` itself, which tries every place that starts with s, g, x or A (issue 29: the
    store's redaction boundary passes every string a phase writes; ``_GITHUB_KEY``'s own search cost as much as the
    substring searches together). True sends the text to ``KEY_SHAPES``."""
    for start in KEY_STARTS:
        if start in text:
            return True
    if "github_pat_" in text:
        return True
    at = text.find("gh")
    while at >= 0:
        if text.startswith(_GITHUB_TAILS, at + 2):
            return True
        at = text.find("gh", at + 2)
    return False


BEARER_TOKEN = re.compile(r"(?<=Bearer )[A-Za-z0-9._\-]{16,}")
"""The token of an ``Authorization: Bearer`` header, masked before the key shapes (the whole token)."""
_MAY_HOLD_SECRET = re.compile("|".join([*map(re.escape, KEY_STARTS), _GITHUB_KEY.pattern, "Bearer ", "://"]).encode())
"""Bytes a key-shaped string, a bearer token or a URL password would contain (what ``may_hold_key`` and ``redact``
look for first): a cheap look before ``redact_bytes`` redacts."""
URL_PASSWORD = re.compile(r"(?<=[a-z0-9+.\-]://)([^:/@\s\"']*):[^@/\s\"']+@", re.IGNORECASE)
MASK = "[REDACTED]"
FEW_VALUES = 8
"""Up to this many known secret values (with their JSON-escaped forms), ``Redactor`` looks for each by substring
search before its regex; more are looked for by the regex alone."""
MAX_EVENT_CHARS = 64_000


class Redactor:
    """Replaces secrets in text; built from an environment, more secret values can be added."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self._known: set[str] = set()
        self._values: re.Pattern[str] | None = None
        self._few: tuple[str, ...] = ()  # the known values when they are FEW_VALUES or fewer (``_holds_known``)
        self._value_bytes: re.Pattern[bytes] | None = None
        self.add(v for k, v in env.items() if SECRET_NAME.search(k))

    def add(self, values: Iterable[str]) -> None:
        """Mask these values too (each line of a multi-line one as well, and their JSON-escaped forms)."""
        found = set(self._known)
        for value in values:
            pieces = [value, *value.splitlines()] if "\n" in value else [value]
            for piece in pieces:
                piece = piece.strip()
                if len(piece) >= MIN_SECRET_LENGTH and not _is_path(piece):
                    found.update({piece, json.dumps(piece)[1:-1]})
        if found != self._known:
            self._known = found
            ordered = sorted(found, key=len, reverse=True)
            self._values = re.compile("|".join(re.escape(v) for v in ordered))
            self._few = tuple(ordered) if len(ordered) <= FEW_VALUES else ()
            self._value_bytes = re.compile(b"|".join(re.escape(v.encode("utf-8", "surrogateescape")) for v in ordered))

    def redact(self, text: str) -> str:
        """``text`` with every known secret value, key-shaped string and URL password masked."""
        if not text:
            return text
        if self._values is not None and self._holds_known(text):
            text = self._values.sub(MASK, text)
        if "Bearer " in text:
            text = BEARER_TOKEN.sub(MASK, text)
        if may_hold_key(text):
            text = KEY_SHAPES.sub(MASK, text)
        if "://" in text:
            text = URL_PASSWORD.sub(lambda m: f"{m.group(1)}:{MASK}@", text)
        return text

    def leaves_alone(self, texts: Iterable[str]) -> bool:
        """True when ``redact`` would change none of ``texts``, seen in ONE pass over them joined by newlines
        instead of one pass each. A secret inside one text is inside the joined text too (no pattern is
        anchored, and a newline bounds a word as a text's start and end do), so a clean joined text means clean
        texts; a match across a newline (only a known multi-line secret's) just answers False.

        Each of ``redact``'s patterns is searched for, not substituted: no match anywhere means ``redact`` changes
        nothing; a match answers False even where ``redact`` would write the same text back (a URL's password
        already masked), and the caller then takes the per-text way, which redacts as always."""
        joined = "\n".join(texts)
        if not joined:
            return True
        return not (
            (self._values is not None and self._holds_known(joined))
            or ("Bearer " in joined and BEARER_TOKEN.search(joined))
            or (may_hold_key(joined) and KEY_SHAPES.search(joined))
            or ("://" in joined and URL_PASSWORD.search(joined))
        )

    def _holds_known(self, text: str) -> bool:
        """True when a known secret value is in ``text``: a C substring search per value when they are few (a
        process's environment usually holds one to a few), else the values' regex, which tries every place
        that starts with one of their first characters."""
        few = self._few
        if not few:
            return self._values is not None and self._values.search(text) is not None
        for value in few:  # noqa: SIM110 - a plain loop, no generator: the store's every statement comes here
            if value in text:
                return True
        return False

    def redact_bytes(self, data: bytes) -> bytes:
        """``data`` (a file's bytes, any encoding) with what ``redact`` masks masked; the same bytes when it
        holds nothing to mask (checked first with one fast search, so large files cost little)."""
        if not _MAY_HOLD_SECRET.search(data) and (self._value_bytes is None or not self._value_bytes.search(data)):
            return data
        return self.redact(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")

    def redact_data(self, data: Any) -> Any:
        """``data`` (JSON-like) with every string in it redacted."""
        if isinstance(data, str):
            return self.redact(data)
        if isinstance(data, dict):
            return {str(k): self.redact_data(v) for k, v in data.items()}
        if isinstance(data, list | tuple):
            return [self.redact_data(v) for v in data]
        return data


def _is_path(value: str) -> bool:
    """An existing absolute path (``SSH_KEY_PATH=/home/me/.ssh/id``): masking it would mask the worktree too."""
    return value.startswith("/") and os.path.exists(value)


_PROCESS: Redactor | None = None


def process_redactor() -> Redactor:
    """The redactor of this process: built from its environment on first use, plus registered secrets."""
    global _PROCESS
    if _PROCESS is None:
        _PROCESS = Redactor(os.environ)
    return _PROCESS


def register_secrets(values: Iterable[str]) -> None:
    """Mask ``values`` in everything this process stores or prints from now on."""
    process_redactor().add(values)


def secret_inputs(inputs: Mapping[str, str]) -> list[str]:
    """The values of run inputs whose name says they are secret (``api_key``, ``db_password``...)."""
    return [value for name, value in inputs.items() if SECRET_NAME.search(name)]


def cut_event_content(content: str) -> str:
    """A (redacted) event content cut to MAX_EVENT_CHARS, with a note of how much was cut."""
    if len(content) <= MAX_EVENT_CHARS:
        return content
    return content[:MAX_EVENT_CHARS] + f"\n[... {len(content) - MAX_EVENT_CHARS} characters cut by alphred]"
