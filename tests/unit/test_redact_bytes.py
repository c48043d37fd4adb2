"""``Redactor.redact_bytes``: a file's bytes, whatever their encoding, masked like text; untouched otherwise."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from alphred.redact import Redactor

REDACTOR = Redactor({"DEPLOY_TOKEN": "hunter2-very-secret"})


def test_a_known_value_a_key_shape_and_a_url_password_are_masked_in_bytes() -> None:
    data = b"\xff\xfe token=hunter2-very-secret key=sk-ant-abcdefghijklmnopqrstuv url=https://u:pw123456@h/x\n"
    masked = REDACTOR.redact_bytes(data)
    assert b"hunter2" not in masked and b"sk-ant-abc" not in masked and b"pw123456" not in masked
    assert masked.startswith(b"\xff\xfe token=[REDACTED] key=[REDACTED]") and b"https://u:[REDACTED]@h/x" in masked


@given(st.binary(max_size=2000))
def test_bytes_holding_no_secret_come_back_as_they_are(data: bytes) -> None:
    if b"hunter2-very-secret" in data:
        return
    result = REDACTOR.redact_bytes(data)
    # the same bytes, unless something key-shaped happened to be in them
    assert result == data or b"[REDACTED]" in result


def test_nothing_to_mask_returns_the_very_same_object() -> None:
    data = b"\x00\x01 plain text, no secret\n" * 1000
    assert REDACTOR.redact_bytes(data) is data
