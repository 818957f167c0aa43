"""The one exception layer 1 raises: a command that must not run, with the reason."""

from __future__ import annotations

__all__ = ["Refusal"]


class Refusal(Exception):
    """Raised by validation; the message is the reason shown to the model and the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
