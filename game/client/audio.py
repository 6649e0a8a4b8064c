"""Sound effects: play by name, volume and mute, silent without an audio device.

::

    audio = Audio()                   # nothing opened yet
    unfollow = audio.follow(store)    # volume and on/off from the settings, now and on change
    audio.play(name)                  # opens the mixer and loads the file on first use

Names are files in ``assets/sounds/`` (made by ``assets/make_sounds.py``), and each belongs to
one game: a game's client declares its effects (:attr:`game.client.games.ClientGame.sounds`) and
:mod:`game.client.games` passes every registered client's to :func:`declare`, so this shell
module names no game (:func:`effects` lists them). The mute key of the client flips the ``sound``
setting (``store.update(sound=not store.settings.sound)``); :meth:`Audio.follow` then mutes or
unmutes at once.

A machine without an audio device (``pygame.mixer.init`` raising, no SDL_mixer)
plays nothing and keeps going: :attr:`Audio.available` turns False and
:attr:`Audio.error` says why, once. With sound off the mixer is never opened.
"""

from __future__ import annotations

import logging
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

import pygame

if TYPE_CHECKING:
    from game.settings import Settings, SettingsStore

log = logging.getLogger(__name__)

#: The effects the registered games declared: name -> the key of the game it belongs to, in the
#: order they were declared (:func:`declare`; the registry's order once :func:`game.client.games.register` ran).
_OWNER: dict[str, str] = {}
#: A name is a file stem: lower-case letters, digits and ``_``.
_STEM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
#: Mixer format: the files are 44.1 kHz 16-bit; a short buffer keeps effects in step with animations.
MIXER_FREQUENCY, MIXER_BUFFER = 44_100, 512


def declare(game: str, names: Iterable[str]) -> tuple[str, ...]:
    """Register the effects of the game whose registry key is ``game``: ``names`` are file stems
    under ``assets/sounds`` (``<name>.wav``). Returns them as a tuple. Declaring a game's names again
    is harmless. Raises ValueError, declaring nothing, for no names, a name that is not a stem
    (lower-case letters, digits, ``_``), a name given twice, or a name another game declared (each
    file belongs to one game)."""
    names = tuple(names)
    if not names:
        raise ValueError(f"{game}: no sound effects declared")
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name or not set(name) <= _STEM:
            raise ValueError(f"{game}: {name!r} is not a sound file stem (a-z, 0-9, _)")
        if name in names[:i]:
            raise ValueError(f"{game}: sound {name!r} declared twice")
        if _OWNER.get(name, game) != game:
            raise ValueError(f"{game}: sound {name!r} belongs to {_OWNER[name]}")
    for name in names:
        _OWNER.setdefault(name, game)
    return names


def effects(game: str | None = None) -> tuple[str, ...]:
    """Every declared effect (in declaration order), or only those of the game whose key is ``game``
    (empty for a game that declared none)."""
    return tuple(n for n, owner in _OWNER.items() if game is None or owner == game)


def sound_folder() -> Traversable:
    """Where the WAV files are: the ``assets`` package's ``sounds`` folder (works from a wheel)."""
    try:
        folder = resources.files("assets").joinpath("sounds")
        if folder.is_dir():
            return folder
    except (ImportError, OSError):  # assets/ not importable, or a namespace package importlib cannot read
        pass
    return Path(__file__).resolve().parents[2] / "assets" / "sounds"  # a checkout: the folder beside game/


class Audio:
    """The window's sound effects (one per app; no global instance).

    ``volume``: 0..1 linear, applied to every effect. ``enabled``: False plays nothing.
    ``folder``: where ``<name>.wav`` files are (tests pass their own).
    """

    def __init__(self, volume: float = 0.35, enabled: bool = True, folder: Traversable | Path | None = None) -> None:
        self._volume = _check_volume(volume)
        self.enabled = enabled
        self._folder = folder
        self._mixer: bool | None = None  # None: not tried yet
        self._opened_mixer = False
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}
        #: Why sound is unavailable (the mixer's error), or None.
        self.error: str | None = None

    @property
    def volume(self) -> float:
        return self._volume

    def set_volume(self, volume: float) -> None:
        """Set the volume (0..1) of every effect, including those already loaded. Raises ValueError outside 0..1."""
        self._volume = _check_volume(volume)
        for sound in self._sounds.values():
            if sound is not None:
                sound.set_volume(self._volume)

    @property
    def available(self) -> bool | None:
        """True once the mixer opened, False if it cannot, None if not tried yet (sound never played)."""
        return self._mixer

    def toggle(self) -> bool:
        """Flip sound on/off (for a client without settings); returns whether sound is now on."""
        self.enabled = not self.enabled
        if not self.enabled:
            self.stop()
        return self.enabled

    def play(self, name: str) -> bool:
        """Start effect ``name`` (one a game declared, :func:`effects`); returns True if it is sounding.

        When every mixer channel is busy, the effect that started first stops to make room (a new
        effect is never dropped). Returns False, silently, when sound is off, the volume is 0, there is no
        audio device or the file cannot be loaded (logged once). Raises ValueError
        for a name no game declared (a programming error).
        """
        if name not in _OWNER:
            known = ", ".join(_OWNER) or "none: game.client.games.register() declares them"
            raise ValueError(f"unknown sound {name!r} (declared: {known})")
        if not self.enabled or self._volume <= 0 or not self._open_mixer():
            return False
        sound = self._load(name)
        if sound is None:
            return False
        try:
            channel = pygame.mixer.find_channel(True)  # all busy: the effect that started first makes room
            if channel is None:
                return False
            channel.play(sound)
            return True
        except pygame.error as e:  # the device vanished mid-game
            log.warning("cannot play %s: %s", name, e)
            return False

    def stop(self) -> None:
        """Silence everything that is playing."""
        if self._mixer:
            pygame.mixer.stop()

    def apply(self, settings: "Settings") -> None:
        """Take ``settings.sound`` and ``settings.volume``."""
        self.set_volume(settings.volume)
        self.enabled = settings.sound
        if not self.enabled:
            self.stop()

    def follow(self, store: "SettingsStore") -> Callable[[], None]:
        """Apply ``store``'s settings now and after every change. Returns the unsubscriber."""
        self.apply(store.settings)
        return store.on_change(lambda settings, changed: self.apply(settings))

    def close(self) -> None:
        """Free the sounds and close the mixer if this object opened it."""
        self._sounds.clear()
        if self._opened_mixer:
            pygame.mixer.quit()
            self._opened_mixer = False
        self._mixer = None

    def _open_mixer(self) -> bool:
        if self._mixer is None:
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=MIXER_FREQUENCY, size=-16, channels=2, buffer=MIXER_BUFFER)
                    self._opened_mixer = True
                self._mixer = True
            except (pygame.error, NotImplementedError, OSError) as e:  # no device / no SDL_mixer
                self.error = str(e) or type(e).__name__
                log.info("no sound: %s", self.error)
                self._mixer = False
        return self._mixer

    def _load(self, name: str) -> pygame.mixer.Sound | None:
        if name not in self._sounds:
            folder = self._folder if self._folder is not None else sound_folder()
            try:
                with folder.joinpath(f"{name}.wav").open("rb") as f:
                    sound = pygame.mixer.Sound(file=f)
                sound.set_volume(self._volume)
                self._sounds[name] = sound
            except (OSError, pygame.error) as e:
                log.warning("cannot load sound %s: %s", name, e)
                self._sounds[name] = None
        return self._sounds[name]


def _check_volume(volume: float) -> float:
    if isinstance(volume, bool) or not isinstance(volume, (int, float)) or not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume must be a number from 0 to 1, got {volume!r}")
    return float(volume)
