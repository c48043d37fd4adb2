"""Reading the files a workflow names: regular files only, size-capped, UTF-8, inside the allowed places."""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_WORKFLOW_BYTES = 4_000_000
MAX_PROMPT_BYTES = 1_000_000


class FileRefusedError(Exception):
    """Raised when: a file is not a regular file, too large, not UTF-8 or outside the allowed places."""


def read_regular_text(path: Path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes.

    Never blocks or reads without end: the file is opened non-blocking and checked to be a regular file
    before anything is read (a FIFO, ``/dev/zero``, a directory is refused at once). Raises
    FileNotFoundError, FileRefusedError, or OSError for anything else that fails.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise FileRefusedError("is a directory, not a file") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefusedError("is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError("is not a regular file (a device, FIFO or socket)")
        if info.st_size > limit:
            raise FileRefusedError(f"is {info.st_size} bytes, over the limit of {limit}")
        data = os.read(fd, limit + 1)
        while len(data) <= limit and (chunk := os.read(fd, limit + 1 - len(data))):
            data += chunk
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefusedError(f"is over the limit of {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefusedError(f"is not UTF-8 text (byte {exc.start})") from None


def allowed_roots(workflow_dir: Path) -> list[Path]:
    """Where a workflow's ``prompt_file`` may point: its own directory and the repository holding it."""
    base = workflow_dir.resolve()
    roots = [base]
    for folder in (base, *base.parents):
        if (folder / ".git").exists():
            roots.append(folder)
            break
    return roots


def inside(path: Path, roots: list[Path]) -> bool:
    """True when ``path`` (symlinks resolved) lies inside one of ``roots``."""
    real = path.resolve()
    return any(real == root or real.is_relative_to(root) for root in roots)
