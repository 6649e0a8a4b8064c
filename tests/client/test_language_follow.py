"""A message a screen keeps (a toast, a banner, a hint, the LAN connection line) follows a
language change at once: switching the language in the settings (the store the Settings
screen writes) and drawing the next frame shows it in the new language, never the old one.
Before, each was worded when its event happened and kept that language until the next event."""

from __future__ import annotations

import time

import pygame
import pytest

from game.client.app import STEP
from game.client.roseking.art import art_of
from game.client.roseking.game_scene import color_name
from game.i18n import _

from .test_lan import lan, run_until, start  # noqa: F401  (the fixture)


def drawn(app, art) -> list[str]:
    """Every text the next full frame draws through ``art.text``."""
    seen: list[str] = []
    real = art.text

    def spy(text, *a, **k):
        seen.append(text)
        return real(text, *a, **k)
    art.text = spy
    try:
        app.draw()
    finally:
        art.text = real
    return seen


@pytest.fixture
def speak(app):
    """Switch the language as the Settings screen does (through the settings store); English after."""
    def to(code: str) -> None:
        app.prefs.store.update(language=code)
    yield to
    app.prefs.store.update(language="en")


def test_a_rose_king_toast_shown_in_english_redraws_in_german(app, driver, new_hotseat, speak):
    scene = new_hotseat()
    app.run_frames(2)
    mover = scene.shown.turn
    driver.click_card(mover.other, scene.shown.hand(mover.other)[0])
    english = "Those are White's cards; Red is to move." if mover.name == "RED" else \
        "Those are Red's cards; White is to move."
    assert english in drawn(app, art_of(app))
    speak("de")
    german = _("Those are {colour}'s cards; {mover} is to move.").format(
        colour=color_name(mover.other), mover=color_name(mover))
    assert german != english and "Karten" in german
    texts = drawn(app, art_of(app))
    assert german in texts and english not in texts
    assert scene.toast[0] == german


def test_the_lan_connection_line_follows_the_language(app, lan, speak):
    """The host's window waits for a joiner that went away: the banner's line (the session's
    status) redraws in Dutch as soon as the language is Dutch."""
    scene = start(app, lan)
    _lobby, host, peer, _store, _made = lan
    peer.session.close()
    run_until(app, None, scene.lan.blocked, "the banner")
    app.step(STEP)
    english = "Connection interrupted, waiting for Bob to come back…"
    assert english in drawn(app, app.art)  # (the banner is the shell's: drawn with the shell's theme)
    speak("nl")
    dutch = _("Connection interrupted, waiting for {name} to come back…").format(name="Bob")
    assert dutch != english
    texts = drawn(app, app.art)
    assert dutch in texts and english not in texts
    assert _("Connection interrupted") in texts  # (the banner's title, drawn through _() always)


@pytest.fixture
def instant(app):
    app.options.anim_speed = 0.0
    return app


def test_a_royals_toast_and_hint_redraw_in_the_new_language(instant, speak):
    from game.client.royals.setup import start_match
    from game.royals.match import Seat, TableConfig
    from game.royals.engine import Phase
    cfg = TableConfig([Seat("You"), Seat("Ada", "random")], seed=3, seconds=0.05)
    scene = start_match(instant, cfg, min_delay=0, use_process=False)
    for _i in range(200):
        if scene.my_turn() and scene.state.phase is Phase.KEEP:
            break
        instant.step(STEP)
    n = scene.state.hand_size()
    scene.controls.confirm_keep()  # nothing chosen yet: the table says what to do
    english = f"Choose {n} cards for your hand."
    assert english in drawn(instant, instant.art)
    speak("fr")
    french = _("Choose {n} cards for your hand.").format(n=n)
    assert french != english
    texts = drawn(instant, instant.art)
    assert french in texts and english not in texts
    speak("en")
    # the hint after the prompt (it stays until the next decision)
    scene.controls.suggest_keep()
    scene.controls.confirm_keep()
    for _i in range(600):
        if scene.my_turn() and scene.state.phase is Phase.PLAY and not scene.modal:
            break
        if scene.my_turn() and scene.state.phase is Phase.KEEP:
            scene.controls.suggest_keep()
            scene.controls.confirm_keep()
        instant.step(STEP)
    assert scene.my_turn() and scene.state.phase is Phase.PLAY
    scene.hint()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not scene.hint_text.startswith("Hint: "):
        instant.step(STEP)
        time.sleep(0.005)
    hint = scene.hint_text
    assert hint.startswith("Hint: ") and any(hint in t for t in drawn(instant, instant.art))
    speak("de")
    german = scene.hint_text
    assert german != hint and not german.startswith("Hint")
    texts = drawn(instant, instant.art)
    assert any(german in t for t in texts) and not any(hint in t for t in texts)
