"""How to play Royals & Riots (placeholder)."""

from __future__ import annotations

from ..widgets import ButtonScene


class RoyalsHowTo(ButtonScene):
    def on_escape(self) -> None:
        self.app.pop()
