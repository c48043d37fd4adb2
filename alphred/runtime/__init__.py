"""The one place where engine effects meet I/O: store, git, providers, commands, signals."""
