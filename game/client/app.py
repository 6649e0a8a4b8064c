"""The window, the fixed-timestep loop and the scene stack.

``App`` updates the top scene at a fixed 60 Hz from an accumulator of real time
and renders once per frame, interpolated by how far the accumulator is into the
next step (Glenn Fiedler, "Fix Your Timestep!"). A drawn frame is a full redraw of
the 1280x800 logical canvas and a flip. A quiet window: when every drawn
scene says it is :meth:`~game.client.scene.Scene.at_rest` (nothing animates, blinks or
fades), a frame with no event draws nothing and :meth:`App.run` sleeps in
``pygame.event.wait`` for at most :data:`IDLE_WAIT_MS` (timers, network pumps and the
computer's move still run); animations keep their 60 fps. ``bench/idle.py`` measures
it. SIGTERM/SIGINT save and exit. The window is ``SCALED | RESIZABLE`` so
SDL scales the canvas (letterboxed) to any window size and mouse events arrive in
canvas coordinates. F11 toggles full screen. Only the display and font modules
are initialised, so the game runs without a sound device.

Tests drive it deterministically: ``app.step(dt)`` runs one frame as if ``dt``
seconds had passed, ``app.run_frames(n)`` runs ``n`` frames of 1/60 s; neither
sleeps.
"""

from __future__ import annotations

import os
import signal
import time
import warnings
from typing import TYPE_CHECKING, Callable

import pygame

import assets
from game.i18n import N_

from .theme import CANVAS, Theme
from .scene import Scene, ViewOptions

if TYPE_CHECKING:
    from game.settings import SettingsStore

    from .audio import Audio

STEP = 1 / 60
#: While nothing moves, the loop waits this long (ms) at most for an event, then runs the updates
#: (timers, network pumps, the computer's move) without drawing unless something changed.
IDLE_WAIT_MS = 100
MAX_FRAME = 0.25  # seconds; a longer stall (window dragged, debugger) is not caught up
MIN_WINDOW = (960, 600)  # 3/4 of the canvas: the smallest text (20 px) stays 15 px high
EPSILON = 1e-9


class App:
    """Owns the window, the loop and the scene stack (the top scene gets events and updates)."""

    def __init__(self, options: ViewOptions | None = None, vsync: bool = True,
                 store: "SettingsStore | None" = None, audio: "Audio | None" = None) -> None:
        # SCALED would otherwise scale only by whole numbers in a window (a 900x600 window would crop the
        # canvas) and forbid windows smaller than the canvas; pygame-ce reads this (oddly named) variable
        # to allow any scale, and SDL's own variable asks for smooth (linear) filtering.
        os.environ.setdefault("SDL_HINT_RENDER_SCALE_QUALITY", "1")
        os.environ.setdefault("SDL_RENDER_SCALE_QUALITY", "linear")
        # SIGTERM/SIGINT are ours (save and exit, :meth:`install_signal_handlers`), not a window-close QUIT
        os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
        pygame.display.init()
        pygame.font.init()
        from .prefs import show_caption
        show_caption()  # the app's games' titles; Prefs keeps it in the settings' language
        try:
            with assets.open_binary("stone_red.png") as f:
                pygame.display.set_icon(pygame.image.load(f, "stone_red.png"))
        except (OSError, pygame.error):  # an icon is a nicety; the game runs without one
            pass
        flags = pygame.SCALED | pygame.RESIZABLE
        with warnings.catch_warnings():  # "no fast renderer" / "could not enable vsync": the game runs anyway
            warnings.filterwarnings("ignore", message="(no fast renderer|could not enable vsync)")
            try:
                self.screen = pygame.display.set_mode(CANVAS, flags, vsync=1 if vsync else 0)
            except pygame.error:  # no vsync-capable renderer: plain scaled window
                self.screen = pygame.display.set_mode(CANVAS, flags)
        self._fit_window()
        self.art = Theme()
        #: Makes the home scene (the main menu) for :meth:`go_home`; set by whoever builds the window
        #: (:func:`game.client.main.run`); None: home just closes every scene.
        self.home: Callable[[], Scene] | None = None
        #: The game key a scene belongs to (None: a shell scene); set with :attr:`home`
        #: (:func:`game.client.games.game_of_scene`). The settings screen opened over a game shows its section.
        self.game_of_scene: Callable[[Scene], str | None] = lambda scene: None
        self.options = options or ViewOptions()
        self.scenes: list[Scene] = []
        self.running = True
        self.accumulator = 0.0
        self.frame_alpha = 0.0
        self.updates = 0
        self.frames = 0
        #: Frames actually drawn and flipped (a frame with nothing new is not drawn).
        self.renders = 0
        self._idle_drawn = False  # the last drawn frame showed a still window
        #: The window's size and position before full screen (restored when F11 leaves it).
        self._windowed: tuple[tuple[int, int], tuple[int, int]] | None = None
        #: The signal (SIGTERM/SIGINT) that asked the window to save and exit, once one came.
        self.signalled: int | None = None
        from .prefs import Prefs  # settings, language, sound and notices
        self.prefs = Prefs(self, store, audio, sync_options=options is None)
        from game.stats import StatsStore
        #: Statistics per game and computer level, the window's own store: handed to each game's
        #: ``saves.record_result(app.stats, ...)`` at a match's end; the main menu shows them on each game's tab.
        self.stats = StatsStore()

    @staticmethod
    def _fit_window() -> None:
        """Open at the canvas size, shrunk to fit a smaller desktop; allow shrinking to MIN_WINDOW."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                window = pygame.Window.from_display_module()
            window.minimum_size = MIN_WINDOW
            desktops = pygame.display.get_desktop_sizes()
            if desktops:
                dw, dh = desktops[0]
                scale = min(1.0, 0.92 * dw / CANVAS[0], 0.88 * dh / CANVAS[1])
                size = (max(MIN_WINDOW[0], int(CANVAS[0] * scale)), max(MIN_WINDOW[1], int(CANVAS[1] * scale)))
                if tuple(window.size) != size:
                    window.size = size
                    window.position = pygame.WINDOWPOS_CENTERED
        except (AttributeError, pygame.error):  # older pygame-ce or a driver without windows
            pass

    # ------------------------------------------------------------------ scene stack
    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)

    def pop(self) -> Scene:
        """Remove and close the top scene. Raises IndexError on an empty stack."""
        scene = self.scenes.pop()
        scene.close()
        return scene

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.pop()
        self.push(scene)

    def reset(self, scene: Scene) -> None:
        """Close every scene and start over with ``scene`` (e.g. back to the main menu)."""
        while self.scenes:
            self.pop()
        self.push(scene)

    def go_home(self) -> None:
        """Close every scene and show the home scene (the main menu), or quit if there is none."""
        if self.home is None:
            while self.scenes:
                self.pop()
            self.quit()
        else:
            self.reset(self.home())

    def quit(self) -> None:
        self.running = False

    def request_quit(self) -> None:
        """The window's close button: ask first if a game in progress would be lost."""
        from .dialogs import ConfirmDialog

        question = next((q for q in (s.quit_question() for s in reversed(self.scenes)) if q), None)
        if isinstance(self.top, ConfirmDialog):
            self.quit()  # a second close while asking: the person means it
        elif question:
            self.push(ConfirmDialog(self, question, self.quit, yes=N_("Quit"), no=N_("Stay")))
        else:
            self.quit()

    # ------------------------------------------------------------------ signals
    def install_signal_handlers(self) -> None:
        """SIGTERM and SIGINT (Ctrl+C, a session logging out) save and exit without asking:
        the loop stops at the next frame and every scene closes, which writes the game."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                signal.signal(sig, self.on_signal)
            except (ValueError, OSError):  # not the main thread: the default stays
                pass

    def on_signal(self, signum: int, frame: object = None) -> None:
        self.signalled = signum
        try:
            pygame.event.post(pygame.event.Event(pygame.USEREVENT, wake=True))  # end a waiting frame now
        except pygame.error:
            pass

    # ------------------------------------------------------------------ loop
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.request_quit()
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.keep_minimum_size()
            self.redraw()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            self.prefs.remember_fullscreen()
        elif self.prefs.handle_event(event):
            pass
        elif self.top is not None:
            self.top.handle_event(event)

    def toggle_fullscreen(self) -> None:
        """F11 and the full-screen setting: switch between full screen and a window. Back in a
        window, the window takes the size (and place) it had before full screen, not the canvas's
        1280x800 that SDL's SCALED mode would restore."""
        window = self._window()
        going_full = window is not None and not self.is_fullscreen()
        if going_full and window is not None:
            (w, h), (x, y) = window.size, window.position
            self._windowed = ((w, h), (x, y))
        try:
            pygame.display.toggle_fullscreen()
        except pygame.error:  # some drivers (dummy, some WMs) cannot; the game goes on windowed
            pass
        self.keep_minimum_size()  # first: leaving full screen, SCALED makes the canvas the smallest window
        if window is not None and not going_full and not self.is_fullscreen() and self._windowed is not None:
            size, position = self._windowed
            try:
                if tuple(window.size) != size:
                    window.size = size
                    window.position = position
            except pygame.error:
                pass

    @staticmethod
    def is_fullscreen() -> bool:
        """Whether the window fills the screen now (False where the driver cannot tell)."""
        try:
            return bool(pygame.display.is_fullscreen())
        except (AttributeError, pygame.error):
            return False

    @staticmethod
    def _window() -> "pygame.Window | None":
        """The window of the display module, or None (an older pygame-ce, a driver without one)."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return pygame.Window.from_display_module()
        except (AttributeError, pygame.error):
            return None

    @staticmethod
    def keep_minimum_size() -> None:
        """(Re)state the smallest window (:data:`MIN_WINDOW`) and grow a window that got smaller
        (a window manager that ignored the hint, a mode change that dropped it)."""
        window = App._window()
        if window is None:
            return
        try:
            window.minimum_size = MIN_WINDOW
            w, h = window.size
            if (w < MIN_WINDOW[0] or h < MIN_WINDOW[1]) and not App.is_fullscreen():
                window.size = (max(w, MIN_WINDOW[0]), max(h, MIN_WINDOW[1]))
        except (AttributeError, pygame.error):
            pass

    def at_rest(self) -> bool:
        """True when nothing on screen moves: every drawn scene is still and no flash is up.
        Then a frame with no event draws nothing and the real-time loop waits for events."""
        start = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                start = i
                break
        return self.prefs.at_rest() and all(s.at_rest() for s in self.scenes[start:])

    def step(self, dt: float, event: pygame.event.Event | None = None) -> None:
        """One frame: handle ``event`` (if given) and the queued events, run the fixed updates
        ``dt`` seconds of real time call for, and draw interpolated and flip, unless nothing
        changed since the window last showed a still picture."""
        if self.signalled is not None:
            self.quit()
            return
        events = pygame.event.get()
        if event is not None:
            events.insert(0, event)
        for e in events:
            self.handle_event(e)
            if not self.running:
                return
        self.accumulator += min(dt, MAX_FRAME)
        while self.accumulator >= STEP - EPSILON:  # float sums of dt must not lose a step
            scene = self.top
            if scene is not None:
                scene.update(STEP)
            self.accumulator -= STEP
            self.updates += 1
        self.accumulator = max(0.0, self.accumulator)
        self.frame_alpha = self.accumulator / STEP
        self.prefs.update_clock(min(dt, MAX_FRAME))
        self.frames += 1
        still = self.at_rest()
        if events or not still or not self._idle_drawn:
            self.draw()
            pygame.display.flip()
            self.renders += 1
            self._idle_drawn = still and not events

    def redraw(self) -> None:
        """Draw the next frame even if nothing seems to have changed."""
        self._idle_drawn = False

    def draw(self) -> None:
        """Full redraw: every scene from the topmost opaque one upwards."""
        start = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                start = i
                break
        for scene in self.scenes[start:]:
            scene.draw(self.screen, self.frame_alpha)
        self.prefs.draw(self.screen)

    @staticmethod
    def frame_cap() -> int:
        """Frames per second worth drawing: the display's refresh rate (60 if unknown), at most 240."""
        try:
            rate = pygame.display.get_current_refresh_rate()
        except (AttributeError, pygame.error):
            rate = 0
        return max(30, min(240, rate or 60))

    def run_frames(self, n: int, dt: float = STEP) -> None:
        """Run ``n`` frames of ``dt`` seconds each without sleeping (tests, benches)."""
        for _i in range(n):
            if not self.running:
                return
            self.step(dt)

    def run(self) -> int:
        """The real-time loop until quit; returns the exit status."""
        clock = pygame.time.Clock()
        fps = self.frame_cap()
        last = time.perf_counter()
        self.install_signal_handlers()
        while self.running:
            event = None
            if self._idle_drawn and self.signalled is None and self.at_rest():
                # nothing moves: sleep in SDL until an event comes or a timer/network pump is due
                waited = pygame.event.wait(IDLE_WAIT_MS)
                event = waited if waited.type != pygame.NOEVENT else None
            now = time.perf_counter()
            self.step(now - last, event)
            last = now
            if not self._idle_drawn:
                clock.tick(fps)  # vsync paces the loop where available; this stops a busy spin where not
        while self.scenes:
            self.pop()
        self.prefs.close()
        pygame.quit()
        return 0


