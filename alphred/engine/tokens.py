"""Token and cost accounting over the usage shapes providers report.

A usage dict may carry (at the top level, or nested under ``usage`` when the top level has none):
- ``tokens``: tokens used since the previous report (incremental);
- ``input_tokens`` + ``output_tokens`` or ``prompt_tokens`` + ``completion_tokens``: one call's usage
  (incremental; used only when ``tokens`` is absent);
- ``tokensUsed``, ``totalTokens`` or ``total_tokens``: the running total so far (cumulative).
The total is ``max(sum of incrementals, largest cumulative seen)``, so a provider that reports both a
per-call and a running figure is not counted twice. Cost works the same way: ``cost_usd`` is
incremental, ``total_cost_usd`` cumulative. Values that are not finite, non-negative numbers are ignored.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

_INCREMENTAL = "tokens"
_PAIRS = (("input_tokens", "output_tokens"), ("prompt_tokens", "completion_tokens"))
_CUMULATIVE = ("tokensUsed", "totalTokens", "total_tokens")
_TOKEN_KEYS = (_INCREMENTAL, *_CUMULATIVE, *(key for pair in _PAIRS for key in pair))
_COST_INCREMENTAL = "cost_usd"
_COST_CUMULATIVE = "total_cost_usd"


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or value < 0:
        return None
    return float(value)


def _count(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    number = _number(value)
    return None if number is None else int(number)


class TokenCounter:
    """Accumulates usage reports of one attempt (or one run) into token and cost totals."""

    def __init__(self) -> None:
        self.incremental = 0
        self.cumulative = 0
        self.cost_incremental = 0.0
        self.cost_cumulative = 0.0

    @property
    def total(self) -> int:
        """Tokens used so far: the larger of the summed increments and the largest running total."""
        return max(self.incremental, self.cumulative)

    @property
    def cost_usd(self) -> float:
        """Cost so far in USD, by the same rule as ``total``."""
        return max(self.cost_incremental, self.cost_cumulative)

    def feed(self, usage: Mapping[str, Any]) -> int:
        """Account one usage report; return by how much ``total`` grew."""
        before = self.total
        tokens_from = _section(usage, _TOKEN_KEYS)
        if tokens_from is not None:
            self._feed_tokens(tokens_from)
        cost_from = _section(usage, (_COST_INCREMENTAL, _COST_CUMULATIVE))
        if cost_from is not None:
            self._feed_cost(cost_from)
        return self.total - before

    def _feed_tokens(self, usage: Mapping[str, Any]) -> None:
        step = _count(usage.get(_INCREMENTAL))
        if step is None:
            for first, second in _PAIRS:
                parts = [_count(usage.get(first)), _count(usage.get(second))]
                if any(part is not None for part in parts):
                    step = sum(part for part in parts if part is not None)
                    break
        if step is not None:
            self.incremental += step
        for key in _CUMULATIVE:
            running = _count(usage.get(key))
            if running is not None:
                self.cumulative = max(self.cumulative, running)

    def _feed_cost(self, usage: Mapping[str, Any]) -> None:
        step = _number(usage.get(_COST_INCREMENTAL))
        if step is not None:
            self.cost_incremental += step
        running = _number(usage.get(_COST_CUMULATIVE))
        if running is not None:
            self.cost_cumulative = max(self.cost_cumulative, running)


def _section(usage: Mapping[str, Any], keys: tuple[str, ...]) -> Mapping[str, Any] | None:
    """The mapping that holds ``keys``: the top level when it has any of them, else a nested ``usage``."""
    if any(key in usage for key in keys):
        return usage
    nested = usage.get("usage")
    if isinstance(nested, Mapping) and any(key in nested for key in keys):
        return nested
    return None
