"""Secret redaction: see ``alphred.redact`` (one redactor for the store and every output)."""

from alphred.redact import MASK, Redactor, process_redactor, register_secrets

__all__ = ["MASK", "Redactor", "process_redactor", "register_secrets"]
