"""The window's side of each game in :data:`game.registry.GAMES`, found by key.

The shell's screens (main menu, saved games, ``rose-king host/join`` with a window)
ask these objects; they never import a game's scenes. A game adds itself with one
object satisfying :class:`ClientGame` (in ``game/client/<game>/plugin.py``) and one
line in :func:`_clients`; :func:`register`, the one registration (the window's entry point
calls it), hands them to the screens that cannot import them (the LAN layer's, the audio).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

import pygame

from game.registry import game_for_record

from .audio import declare
from .lan import CLIENTS as _LAYER

#: Seconds after which a game's title art on the menu comes to rest (then the menu is still).
TITLE_SETTLE = 4.0

if TYPE_CHECKING:
    from .app import App
    from .lan import LanClient
    from .scene import Scene
    from .widgets import Button


@runtime_checkable
class ClientGame(Protocol):
    """What the shell's screens need of one game's scenes. ``key`` matches its :class:`game.registry.Game`.
    Every member is asked of every game (docs/architecture.md, "What a third game implements")."""

    @property
    def key(self) -> str:
        """The game's key, its :class:`game.registry.Game`'s."""
        ...

    @property
    def title(self) -> str:
        """The game's English title (translated when shown), e.g. on the main menu's choice of game."""
        ...

    @property
    def credit(self) -> str:
        """Who made the game, in English (translated when shown, under the main menu)."""
        ...

    @property
    def sounds(self) -> Sequence[str]:
        """Its sound effects: file stems under ``assets/sounds`` (``<name>.wav``), none another game
        declares; the first is the one its settings screen plays at a new volume. Passed to
        :func:`game.client.audio.declare` by :func:`register`."""
        ...

    @property
    def lan(self) -> "LanClient | None":
        """Its window on the one LAN layer (:class:`game.client.lan.LanClient`: its network table
        and its few words and choices there), None for a game without LAN play; with it the shell
        runs "Host a game", the waiting and join screens and ``rose-king host/join`` with a window
        (:func:`run_lan`). The registry entry's ``lan`` (:class:`net.match.LanPart`) goes with it."""
        ...

    def draw_badge(self, surface: pygame.Surface, app: "App", rect: pygame.Rect) -> None:
        """A small picture of the game inside ``rect`` (the main menu's choice of game)."""
        ...

    def menu_buttons(self, app: "App", x: int, w: int) -> list["Button"]:
        """The main menu's ways to start this game (the menu places their rects)."""
        ...

    def draw_title(self, surface: pygame.Surface, app: "App", clock: float, y: int = 150) -> None:
        """The game's title art over the table (``clock`` in seconds, for gentle motion)."""
        ...

    def how_to_play(self, app: "App") -> "Scene":
        """The game's illustrated rules."""
        ...

    def resume(self, app: "App", path: str | os.PathLike[str]) -> None:
        """Play on a saved unfinished game. Raises game.saves.SaveError / ValueError for a bad file."""
        ...

    def open_replay(self, app: "App", path: str | os.PathLike[str],
                    on_back: Callable[[], None] | None = None) -> str | None:
        """Push the replay viewer of a record; return a one-line reason instead if it cannot be opened."""
        ...


def run_lan(args: argparse.Namespace, open_window: "Callable[[], App]") -> int:
    """``rose-king host|join`` with a window, for the game of ``args.game`` (default: the first),
    through the one LAN layer (:func:`game.client.lan.lobby.run_layer_window`; the command checked
    that the game's registry entry has ``lan``). Returns the exit status."""
    from .lan.lobby import run_layer_window
    register()
    return run_layer_window(args, getattr(args, "game", None) or CLIENT_GAMES[0].key, open_window)


def _clients() -> tuple[ClientGame, ...]:
    from .roseking.plugin import CLIENT as ROSE_KING
    from .royals.plugin import CLIENT as ROYALS_RIOTS
    return (ROSE_KING, ROYALS_RIOTS)


#: The client side of every game, in :data:`game.registry.GAMES` order.
CLIENT_GAMES: tuple[ClientGame, ...] = _clients()


def register() -> None:
    """The one registration of every game's window side, made by the window's entry point
    (:func:`game.client.main.open_window`, :func:`run_lan`) before a screen asks: each game's
    sounds to :func:`game.client.audio.declare`, each game on the LAN layer to
    :data:`game.client.lan.CLIENTS` (the layer's screens find a game's client there: they
    cannot import it). Importing a module registers nothing; calling this again changes nothing."""
    for client in CLIENT_GAMES:
        declare(client.key, client.sounds)
        if client.lan is not None:
            _LAYER[client.key] = client


def game_of_scene(scene: object) -> str | None:
    """The key of the game whose client package (the package of its ``plugin.py``) holds
    ``scene``'s class, or None for a scene of the shell: each game's scenes stay in its own package."""
    module = type(scene).__module__
    for c in CLIENT_GAMES:
        if module.startswith(type(c).__module__.rpartition(".")[0] + "."):
            return c.key
    return None


def client_by_key(key: str) -> ClientGame:
    """Raises KeyError for an unknown key."""
    for c in CLIENT_GAMES:
        if c.key == key:
            return c
    raise KeyError(key)


def client_for_record(record: Mapping[str, Any]) -> ClientGame:
    """The client of the game a parsed record belongs to. Raises :class:`game.records.RecordError`."""
    return client_by_key(game_for_record(record).key)
