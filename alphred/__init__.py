"""Alphred: multi-phase LLM coding-agent workflows in isolated git worktrees, every step stored in SQL."""

__version__ = "0.1.0"
