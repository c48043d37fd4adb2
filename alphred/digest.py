"""SHA-256 without loading OpenSSL: ``hashlib`` initialises libcrypto on import (~10 ms of every start-up
that hashes a workflow file); CPython's own SHA-256 module gives the same digests at no start-up cost."""

from __future__ import annotations

from typing import Any

try:  # CPython 3.12+
    from _sha2 import sha256 as _sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - CPython 3.11, or another interpreter
    try:
        from _sha256 import sha256 as _sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
    except ImportError:
        from hashlib import sha256 as _sha256  # type: ignore[assignment,unused-ignore]


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hash object (``update``, ``hexdigest``) over ``data``."""
    return _sha256(data)
