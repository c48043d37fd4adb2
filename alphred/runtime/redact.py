"""Secret redaction for everything Alphred stores: env values of secret-looking names, API-key shapes."""

from __future__ import annotations

import re
from collections.abc import Mapping
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
    r"|(?<=Bearer )[A-Za-z0-9._\-]{16,}"
)
MASK = "[REDACTED]"


class Redactor:
    """Replaces secrets in text; built once per run from the environment."""

    def __init__(self, env: Mapping[str, str]) -> None:
        values = {v for k, v in env.items() if SECRET_NAME.search(k) and len(v) >= MIN_SECRET_LENGTH}
        ordered = sorted(values, key=len, reverse=True)
        self._values = re.compile("|".join(re.escape(v) for v in ordered)) if ordered else None

    def redact(self, text: str) -> str:
        """``text`` with every known secret value and key-shaped string masked."""
        if not text:
            return text
        if self._values is not None:
            text = self._values.sub(MASK, text)
        return KEY_SHAPES.sub(MASK, text)

    def redact_data(self, data: Any) -> Any:
        """``data`` (JSON-like) with every string in it redacted."""
        if isinstance(data, str):
            return self.redact(data)
        if isinstance(data, dict):
            return {str(k): self.redact_data(v) for k, v in data.items()}
        if isinstance(data, list | tuple):
            return [self.redact_data(v) for v in data]
        return data
