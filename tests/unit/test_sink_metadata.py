"""An event's metadata is stored redacted (keys, nested values and values of other types too), and metadata with
nothing to mask is kept as the same object (issue 29: the common case costs no JSON encoding)."""

from __future__ import annotations

from pathlib import Path

import pytest

from alphred.redact import MASK, Redactor
from alphred.runtime.sink import _redact_metadata

SECRET = "hunter2-very-secret-value"
REDACTOR = Redactor({"MY_API_KEY": SECRET})


def test_plain_metadata_is_kept_as_it_is() -> None:
    metadata = {"entry": 1, "prompt_chars": 12, "ratio": 0.5, "ok": True, "none": None, "tools": ["read", "write"]}
    assert _redact_metadata(metadata, REDACTOR) is metadata


@pytest.mark.parametrize(
    "metadata",
    [
        {"input": {"command": f"echo {SECRET}"}},
        {"items": [1, ("a", f"x{SECRET}y")]},
        {SECRET: 1},  # a key too
        {"path": Path(f"/tmp/{SECRET}")},  # not JSON: encoded with str
        {"token": "sk-ant-api03-" + "A" * 40},  # key-shaped
    ],
)
def test_a_secret_anywhere_in_the_metadata_is_masked(metadata: dict[str, object]) -> None:
    stored = _redact_metadata(metadata, REDACTOR)
    assert SECRET not in repr(stored)
    assert "A" * 40 not in repr(stored)
    assert MASK in repr(stored)
