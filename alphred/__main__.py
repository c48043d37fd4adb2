"""``python -m alphred``."""

from alphred.cli import main

main()
