"""The window's link to the player's settings: language, sound, full screen, notices.

One :class:`Prefs` belongs to the :class:`~game.client.app.App` (``app.prefs``; no
global). It

* loads the :class:`~game.settings.SettingsStore` (``<user config dir>/rose-king/settings.json``,
  or ``$ROSE_KING_CONFIG_DIR``) and makes the game's language follow it
  (:func:`game.settings.follow_language`): every screen draws its texts through ``_()``
  each frame, so a language change shows at once on every scene, without restarting; the
  window's caption (:func:`window_caption`) follows too;
* makes the :class:`~game.client.audio.Audio` follow the ``sound`` and ``volume`` settings;
* applies ``fullscreen``, ``animation_speed`` and every game's field with a ``view_option``
  (Rose King's ``show_legal_targets``) at once to the window and to ``app.options`` (the view
  options the game screens read);
* handles the mute key (M) anywhere a screen does not use that key itself, with a short
  "Sound on"/"Sound off" flash;
* shows the store's notice (a damaged settings file, a failed save) as a panel at the top of
  the window for :data:`NOTICE_SECONDS` or until clicked.
"""

from __future__ import annotations

import logging
from typing import Callable

import pygame

from game import i18n
from game.i18n import _
from game.registry import GAMES
from game.settings import Section, Settings, SettingsStore, follow_language, schemas

from .theme import CANVAS, CREAM, GOLD
from .audio import Audio
from .scene import AppLike
from .textinput import typing
from .widgets import panel

log = logging.getLogger(__name__)

#: How long (seconds) a settings notice stays up unless clicked away.
NOTICE_SECONDS = 12.0
#: How long the mute key's "Sound on/off" flash stays up.
FLASH_SECONDS = 1.6
MUTE_KEY = pygame.K_m


def view_fields() -> list[tuple[str, str, str]]:
    """(game key, field, view option) of every game's settings field that sets a view option."""
    return [(game, name, f.view_option) for game, schema in schemas().items()
            for name, f in schema.items() if f.view_option]


def window_caption() -> str:
    """The window's caption in the current language: the app's games' titles
    (:data:`game.registry.GAMES`, in the menus' order) joined as the README names the app,
    "Rose King & Royals & Riots" (German and Dutch: "Rosenkönig & Royals & Riots", French:
    "Le Roi des Roses & Royals & Riots")."""
    caption = ""
    for game in GAMES:
        title = _(game.title)
        # TRANSLATORS: the window's caption joins the titles of the app's games one by one:
        # "Rose King" and "Royals & Riots" give "Rose King & Royals & Riots"
        caption = _("{games} & {title}").format(games=caption, title=title) if caption else title
    return caption


def show_caption(code: str | None = None) -> None:
    """Set the window's caption to :func:`window_caption` (``code``: the new language, unused;
    this is an :func:`game.i18n.on_language_change` callback)."""
    pygame.display.set_caption(window_caption())


class Prefs:
    """Settings applied to a running window. ``store``/``audio`` default to the player's own;
    ``sync_options``: also take the animation speed and legal targets from the settings now
    (False when the caller passed its own view options, as tests do)."""

    def __init__(self, app: "AppLike", store: SettingsStore | None = None, audio: Audio | None = None,
                 sync_options: bool = True) -> None:
        self.app = app
        self.store = store if store is not None else SettingsStore()
        self.audio = audio if audio is not None else Audio()
        self.fullscreen = False
        self.flash: tuple[str, float] | None = None
        self._notice_age = 0.0
        self._notice_rect: pygame.Rect | None = None
        self._unsubscribe: list[Callable[[], None]] = [
            follow_language(self.store), self.audio.follow(self.store), self.store.on_change(self._apply),
            i18n.on_language_change(show_caption)]
        show_caption()  # in the settings' language, now that it is set
        s = self.store.settings
        if sync_options:
            app.options.anim_speed = s.animation_speed
            for game, name, option in view_fields():
                setattr(app.options, option, s.of(game)[name])
        if s.fullscreen:
            self._set_fullscreen(True)

    @property
    def settings(self) -> Settings:
        return self.store.settings

    # ------------------------------------------------------------------ applying changes
    def _apply(self, settings: Settings, changed: frozenset[str]) -> None:
        opts = self.app.options
        if "animation_speed" in changed:
            opts.anim_speed = settings.animation_speed
        for game, name, option in view_fields():
            if f"{game}.{name}" in changed:
                setattr(opts, option, settings.of(game)[name])
        if "fullscreen" in changed:
            self._set_fullscreen(settings.fullscreen)

    def _set_fullscreen(self, on: bool) -> None:
        if on != self.fullscreen:
            self.app.toggle_fullscreen()
            self.fullscreen = on

    def remember_fullscreen(self) -> None:
        """After F11 toggled the window: keep the new state in the settings."""
        self.fullscreen = not self.fullscreen
        self.update(fullscreen=self.fullscreen)

    def remember_options(self) -> None:
        """After a screen changed ``app.options`` itself (T key, pause menu): keep them in the settings."""
        opts = self.app.options
        self.update(animation_speed=opts.anim_speed)
        for game, name, option in view_fields():
            self.update_game(game, **{name: getattr(opts, option)})

    def update(self, **changes: object) -> None:
        """``store.update`` that never raises into the frame loop (a bad value is logged and ignored)."""
        try:
            self.store.update(**changes)
        except ValueError as e:
            log.warning("setting refused: %s", e)

    def update_game(self, game: str, **changes: object) -> None:
        """``store.update_game`` (a field of ``game``'s section) that never raises into the frame loop."""
        try:
            self.store.update_game(game, **changes)
        except ValueError as e:
            log.warning("setting refused: %s", e)

    def game_settings(self, game: str) -> Section:
        """The settings section of ``game`` (a key of :data:`game.registry.GAMES`): its fields as
        attributes, e.g. ``prefs.game_settings("royals-riots").computer_speed``."""
        return self.store.settings.of(game)

    def play(self, name: str) -> bool:
        """Play sound effect ``name`` (one a game declared, :func:`game.client.audio.effects`); False if silent."""
        return self.audio.play(name)

    def toggle_sound(self) -> None:
        """The mute key: flip the ``sound`` setting and say so."""
        self.update(sound=not self.settings.sound)
        self.flash = (_("Sound on") if self.settings.sound else _("Sound off"), FLASH_SECONDS)

    # ------------------------------------------------------------------ frame loop
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Take the mute key and clicks on the notice; True if the event was used."""
        top = self.app.top
        if (event.type == pygame.KEYDOWN and event.key == MUTE_KEY and not typing()
                and not (top is not None and top.uses_key(MUTE_KEY))):
            self.toggle_sound()
            return True
        if (event.type == pygame.MOUSEBUTTONDOWN and self._notice_rect is not None
                and self._notice_rect.collidepoint(event.pos)):
            self.dismiss_notice()
            return True
        return False

    def dismiss_notice(self) -> None:
        self.store.dismiss_notice()
        self._notice_age = 0.0
        self._notice_rect = None

    def at_rest(self) -> bool:
        """Nothing of ours moves or times out: no "Sound on/off" flash, no notice counting down."""
        return self.flash is None and not self.store.notice()

    def update_clock(self, dt: float) -> None:
        if self.flash:
            self.flash = (self.flash[0], self.flash[1] - dt) if self.flash[1] > dt else None
        if self.store.notice():
            self._notice_age += dt
            if self._notice_age >= NOTICE_SECONDS:
                self.dismiss_notice()

    def draw(self, surface: pygame.Surface) -> None:
        """The notice panel (top) and the mute flash (bottom), over every scene."""
        art = self.app.art
        notice = self.store.notice()
        self._notice_rect = None
        if notice:
            text = art.text(notice, 24, CREAM, wrap=760)
            hint = art.text(_("Click to close"), 20, GOLD)
            box = pygame.Rect(0, 0, max(text.get_width(), hint.get_width()) + 48,
                              text.get_height() + hint.get_height() + 40)
            box.midtop = (CANVAS[0] // 2, 16)
            surface.blit(panel(box.size, 245, 10), box)
            pygame.draw.rect(surface, (210, 70, 60), box, 3, border_radius=10)
            surface.blit(text, (box.x + 24, box.y + 16))
            surface.blit(hint, hint.get_rect(bottomright=(box.right - 24, box.bottom - 12)))
            self._notice_rect = box
        if self.flash:
            s = art.text(self.flash[0], 30, CREAM, shadow=True)
            box = s.get_rect(midbottom=(CANVAS[0] // 2, CANVAS[1] - 140)).inflate(40, 24)
            surface.blit(panel(box.size, 235, 10), box)
            surface.blit(s, s.get_rect(center=box.center))

    def close(self) -> None:
        """Stop following the settings and close the sound device (the app is ending)."""
        for stop in self._unsubscribe:
            stop()
        self._unsubscribe.clear()
        self.audio.close()
