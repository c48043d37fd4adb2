"""Presentation shared by the CLI and the web view: status objects, progress, jsonl, CI outputs, closing blocks."""
