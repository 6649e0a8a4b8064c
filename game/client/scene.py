"""The scene protocol and the options the views share.

The :class:`~game.client.app.App` (seen by scenes as :class:`AppLike`) keeps a stack of scenes; the top one gets the
events and the fixed-step updates, and every scene from the topmost opaque one up
is drawn (so a pause menu or the result panel shows the game underneath).
Scenes move between each other with ``app.push/pop/replace`` on objects they are
handed, never by looking screens up by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import pygame

if TYPE_CHECKING:
    from .theme import Theme

#: (label, factor) of the animation speed setting, in the order a button cycles them; 0 = no animation.
ANIM_SPEEDS: tuple[tuple[str, float], ...] = (("Normal", 1.0), ("Fast", 2.0), ("Instant", 0.0), ("Slow", 0.6))


@dataclass
class ViewOptions:
    """Client-side view settings. ``anim_speed``: factor on animation time (0 = instant)."""

    anim_speed: float = 1.0
    show_targets: bool = False

    def speed_label(self) -> str:
        for label, factor in ANIM_SPEEDS:
            if factor == self.anim_speed:
                return label
        return f"x{self.anim_speed:g}"

    def next_speed(self) -> None:
        factors = [f for _, f in ANIM_SPEEDS]
        i = factors.index(self.anim_speed) if self.anim_speed in factors else -1
        self.anim_speed = factors[(i + 1) % len(factors)]


class AppLike(Protocol):
    """What a scene may use of the window that holds it. :class:`game.client.app.App` is the one
    implementation; the modules the app itself imports (scenes, widgets, dialogs, settings)
    name this protocol instead of the class, so nothing imports the app back."""

    art: "Theme"
    options: ViewOptions
    prefs: Any  # game.client.prefs.Prefs
    scenes: list["Scene"]

    @property
    def top(self) -> "Scene | None": ...
    def push(self, scene: "Scene") -> None: ...
    def pop(self) -> "Scene": ...
    def replace(self, scene: "Scene") -> None: ...
    def reset(self, scene: "Scene") -> None: ...
    def go_home(self) -> None: ...
    def quit(self) -> None: ...
    def request_quit(self) -> None: ...
    def toggle_fullscreen(self) -> None: ...


class Scene:
    """Base scene: override what you need. ``opaque`` scenes hide the ones below."""

    opaque = True

    def __init__(self, app: AppLike) -> None:
        self.app = app

    def handle_event(self, event: pygame.event.Event) -> None:
        """One pygame event in canvas coordinates (only the top scene gets them)."""

    def update(self, dt: float) -> None:
        """Advance by one fixed step of ``dt`` seconds."""

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        """Full redraw onto the 1280x800 canvas; ``alpha`` 0..1 is how far we are between updates."""

    def at_rest(self) -> bool:
        """True while nothing of this scene moves on its own (no animation, blinking or fading):
        the window then draws only when an event or an update changes something. Default: False
        (a scene that does not say otherwise is drawn every frame)."""
        return False

    def uses_key(self, key: int) -> bool:
        """True if this scene itself handles ``key`` (then app-wide keys such as mute leave it alone)."""
        return False

    def unsaved_game(self) -> bool:
        """True if closing now would discard a game in progress (the app then asks first)."""
        return False

    def quit_question(self) -> str | None:
        """What to ask before the window closes (an English source text, translated when
        shown), or None to close at once. Default: ask if :meth:`unsaved_game`."""
        return "Quit and discard the game in progress?" if self.unsaved_game() else None

    def close(self) -> None:
        """Called when the scene leaves the stack for good (stop threads, drop hooks)."""
