"""Errors shared by the GA, the execution layer and the arena."""


class ConfigError(ValueError):
    """A bad configuration value; the message is one line naming the key."""
