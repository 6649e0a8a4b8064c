"""The settings screen, run-time language switching, the settings notice, sound and the mute key."""

from __future__ import annotations

import json

import pygame
import pytest

from game import i18n
from game.i18n import _
from game.client.main import open_window
from game.client.audio import Audio
from game.client.dialogs import PauseMenu
from game.client.roseking.game_scene import GameScene
from game.client.menus import MainMenu
from game.client.roseking.setup import ComputerSetup
from game.client.roseking.result import ResultPanel
from game.client.scene import ViewOptions
from game.client.settings_scene import SettingsScene
from game.roseking.engine import DRAW, HERO, PLAY, Color
from game.settings import BROKEN_NAME, FILE_NAME, SettingsStore

from .conftest import Driver, hotseat
from .test_play import find, pass_move


def button(scene, text):
    """The button of ``scene`` showing ``text`` now (in the current language)."""
    found = [b for b in scene.buttons if b.text() == text]
    assert found, f"no button {text!r} among {[b.text() for b in scene.buttons]}"
    return found[0]


def open_settings(app, driver) -> SettingsScene:
    app.reset(MainMenu(app))
    driver.click(button(app.top, "Settings").rect.center)
    assert isinstance(app.top, SettingsScene)
    return app.top


def type_text(driver, text):
    for ch in text:
        driver.post(pygame.TEXTINPUT, text=ch)
    driver.app.step(1 / 60)


def test_settings_round_trip_through_the_screen(app, driver):
    scene = open_settings(app, driver)
    store = app.prefs.store
    driver.click(button(scene, "Fast").rect.center)
    assert store.settings.animation_speed == 2.0 and app.options.anim_speed == 2.0
    targets_before = store.settings.of("rose-king").show_legal_targets
    off_on = [b for b in scene.buttons if b.text() in ("On", "Off")]
    assert len(off_on) == 3  # sound, full screen, legal targets
    driver.click(off_on[2].rect.center)
    assert store.settings.of("rose-king").show_legal_targets is (not targets_before) and app.options.show_targets is (not targets_before)
    volume = store.settings.volume
    driver.click(button(scene, "+").rect.center)
    assert store.settings.volume == pytest.approx(volume + 0.05)
    driver.click(button(scene, "Hard").rect.center)
    assert store.settings.of("rose-king").computer_level == "hard"
    driver.click(scene.names["red_name"].rect.center)
    assert scene.names["red_name"].focused and scene.uses_key(pygame.K_m)
    type_text(driver, "Anne-Marie M")
    driver.key(pygame.K_BACKSPACE)
    driver.key(pygame.K_BACKSPACE)
    driver.key(pygame.K_m)  # typing: M is a letter here, not the mute key
    assert store.settings.sound is True
    driver.key(pygame.K_RETURN)
    assert store.settings.of("rose-king").red_name == "Anne-Marie"
    assert not scene.names["red_name"].focused
    driver.click(button(scene, "Deutsch").rect.center)
    assert store.settings.language == "de" and i18n.language() == "de"
    # on disk, read back by a fresh store exactly as set
    again = SettingsStore(store.path.parent).settings
    assert again == store.settings
    assert json.loads(store.path.read_text(encoding="utf-8"))["games"]["rose-king"]["red_name"] == "Anne-Marie"
    driver.key(pygame.K_ESCAPE)
    assert isinstance(app.top, MainMenu)
    driver.click(button(app.top, "Gegen den Computer spielen").rect.center)
    assert isinstance(app.top, ComputerSetup) and app.top.level == "hard"


def test_a_name_too_long_is_cut_and_escape_puts_the_old_one_back(app, driver):
    scene = open_settings(app, driver)
    field = scene.names["white_name"]
    driver.click(field.rect.center)
    type_text(driver, "x" * 40)
    assert field.text == "x" * 20
    driver.key(pygame.K_ESCAPE)
    assert field.text == "" and app.prefs.settings.of("rose-king").white_name == ""
    assert isinstance(app.top, SettingsScene)  # Esc left the field, not the screen


def rendered(app):
    app.draw()
    return pygame.image.tobytes(app.screen, "RGB")


def test_switching_language_re_renders_menus_game_and_result_at_once(app, driver):
    app.reset(MainMenu(app))
    english = rendered(app)
    assert [b.text() for b in app.top.buttons][:2] == ["Play a friend (same screen)", "Play the computer"]
    app.prefs.update(language="nl")
    assert rendered(app) != english
    assert app.top.buttons[1].text() == i18n._("Play the computer") != "Play the computer"
    # the game screen and the result panel over it, with no new scene built
    state, _seed = find(lambda s: s.stones_placed >= 51 and any(m.kind is PLAY for m in s.legal_moves()))
    app.options.anim_speed = 0.0
    scene = hotseat(app, 1, state)
    driver.play(next(m for m in state.legal_moves() if m.kind is PLAY), via_square=True)
    app.run_frames(2)
    assert isinstance(app.top, ResultPanel)
    dutch = rendered(app)
    app.prefs.update(language="fr")
    french = rendered(app)
    assert french != dutch and app.top.buttons[0].text() == "Nouvelle partie"
    assert app.scenes[0] is scene


def test_a_broken_settings_file_gives_defaults_and_a_visible_notice(tmp_path, monkeypatch):
    monkeypatch.setenv("ROSE_KING_CONFIG_DIR", str(tmp_path))
    (tmp_path / FILE_NAME).write_text('{"language": "de", "volume": 7, ', encoding="utf-8")
    app = open_window(vsync=False)
    try:
        driver = Driver(app)
        app.push(MainMenu(app))
        assert app.prefs.settings == SettingsStore(tmp_path / "elsewhere").settings  # the defaults
        assert (tmp_path / BROKEN_NAME).exists()
        app.step(1 / 60)
        box = app.prefs._notice_rect
        assert box is not None and "damaged" in app.prefs.store.notice()
        driver.click(box.center)  # clicking the notice closes it, and does not reach the menu
        assert app.prefs.store.notice() is None and app.prefs._notice_rect is None
        assert isinstance(app.top, MainMenu)
    finally:
        app.prefs.close()
        pygame.display.quit()


class Recorder(Audio):
    """Audio that remembers what the game asked to play (and plays nothing)."""

    def __init__(self):
        super().__init__()
        self.played = []

    def play(self, name):
        self.played.append(name)
        return False


@pytest.fixture
def rec_app():
    audio = Recorder()
    a = open_window(ViewOptions(), vsync=False, audio=audio)
    pygame.event.clear()
    yield a, audio
    while a.scenes:
        a.pop()
    a.prefs.close()
    pygame.display.quit()


def test_a_new_volume_is_heard_with_the_shown_games_own_first_effect(rec_app):
    """The shell's settings screen names no sound: at a new volume it plays the first effect the
    game whose settings it shows declares (its client's ``sounds``)."""
    from game.client.audio import effects
    from game.client.games import CLIENT_GAMES
    app, audio = rec_app
    driver = Driver(app)
    for client in CLIENT_GAMES:
        app.push(SettingsScene(app, client.key))
        app.step(1 / 60)
        audio.played.clear()
        driver.click(button(app.top, "+").rect.center)
        assert audio.played == [client.sounds[0]] and client.sounds[0] in effects(client.key), client.key
        app.pop()


def test_game_events_play_their_sounds(rec_app):
    app, audio = rec_app
    driver = Driver(app)
    scene = hotseat(app, 4)
    driver.play(next(m for m in scene.match.state.legal_moves() if m.kind is PLAY))
    assert audio.played == ["card_played", "stone_placed"]
    audio.played.clear()
    while scene.match.state.hands[scene.match.state.turn].bit_count() >= 5:
        driver.play(next(m for m in scene.match.state.legal_moves() if m.kind is PLAY))
    audio.played.clear()
    driver.play(next(m for m in scene.match.state.legal_moves() if m.kind is DRAW))
    assert audio.played == ["card_drawn"]
    state, _seed = find(lambda s: any(m.kind is HERO for m in s.legal_moves()))
    hotseat(app, 1, state)
    audio.played.clear()
    driver.play(next(m for m in state.legal_moves() if m.kind is HERO))
    assert audio.played == ["card_played", "hero_flip"]
    state, _seed = find(lambda s: pass_move(s) is not None)
    hotseat(app, 1, state)
    audio.played.clear()
    driver.play(pass_move(state), via_square=True)
    assert audio.played[-1] == "pass"
    state, _seed = find(lambda s: s.stones_placed >= 51 and any(m.kind is PLAY for m in s.legal_moves()))
    hotseat(app, 1, state)
    audio.played.clear()
    driver.play(next(m for m in state.legal_moves() if m.kind is PLAY), via_square=True)
    assert audio.played[-1] == "game_end"


def test_mute_key_flips_sound_except_where_m_is_a_button(app, driver):
    scene = hotseat(app, 1)
    left = []
    scene.on_main_menu = lambda: left.append(True)
    assert app.prefs.settings.sound is True and app.prefs.audio.enabled
    driver.key(pygame.K_m)
    assert app.prefs.settings.sound is False and not app.prefs.audio.enabled
    assert app.prefs.flash is not None and app.prefs.flash[0] == "Sound off"
    assert SettingsStore(app.prefs.store.path.parent).settings.sound is False  # remembered
    driver.key(pygame.K_ESCAPE)
    assert isinstance(app.top, PauseMenu)
    driver.key(pygame.K_m)  # the pause menu's own M (main menu) wins
    assert app.prefs.settings.sound is False
    assert left == [True]


def test_no_audio_device_plays_silently(app, driver, monkeypatch):
    def no_device(*args, **kwargs):
        raise pygame.error("No available audio device")
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    scene = hotseat(app, 2)
    driver.play(next(m for m in scene.match.state.legal_moves() if m.kind is PLAY))
    assert app.prefs.audio.available is False and "audio device" in app.prefs.audio.error
    assert scene.match.state.ply == 1 and isinstance(app.top, GameScene)


def test_sound_off_never_opens_the_mixer(app, driver):
    app.prefs.update(sound=False)
    scene = hotseat(app, 2)
    driver.play(next(m for m in scene.match.state.legal_moves() if m.kind is PLAY))
    assert app.prefs.audio.available is None  # never tried
    assert scene.match.state.ply == 1


def test_legal_and_hero_targets_differ_in_shape_not_only_colour(app):
    scene = hotseat(app, 1)
    dot, ring = (pygame.mask.from_surface(scene.drawing.tiles[k]) for k in ("play", "hero_ring"))
    size = scene.drawing.tiles["play"].get_width()
    c = size // 2
    assert dot.get_at((c, c)) and not ring.get_at((c, c))  # a dot is full in the middle, a ring is empty
    assert not dot.get_at((c, 2)) and ring.get_at((c, 1))  # a ring reaches the rim, a dot does not


def test_first_start_follows_the_system_language(tmp_path, monkeypatch):
    monkeypatch.setenv("ROSE_KING_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("LANGUAGE", "de_AT:en")
    app = open_window(vsync=False)
    try:
        app.push(MainMenu(app))
        assert app.prefs.settings.language == "de" and i18n.language() == "de"
        assert button(app.top, "Einstellungen")
        assert app.prefs.store.notice() is None  # no file yet is not a problem
    finally:
        app.prefs.close()
        pygame.display.quit()


def test_names_take_any_letters_and_a_click_elsewhere_keeps_them(app, driver):
    scene = open_settings(app, driver)
    field = scene.names["white_name"]
    driver.click(field.rect.center)
    type_text(driver, "Jörg Ĳsselmeer\x07")  # a control character is dropped
    driver.key(pygame.K_HOME)
    driver.key(pygame.K_DELETE)
    type_text(driver, "j")
    driver.click((20, 20))  # outside: editing ends and the name is kept
    assert not field.focused and app.prefs.settings.of("rose-king").white_name == "jörg Ĳsselmeer"
    hotseat(app, 1)
    from game.client.roseking.game_scene import player_name
    assert player_name(app.prefs, Color.WHITE) == "jörg Ĳsselmeer"
    assert player_name(app.prefs, Color.RED) == "Red"


def test_settings_from_a_game_tab_show_that_games_names_and_levels_only(app, driver):
    """Royals & Riots' settings show its own levels, computer speed and "keep the trick"
    switch, never Rose King's Red/White names or its "Expert" level; and the other way round."""
    from game.client.games import CLIENT_GAMES
    app.reset(MainMenu(app))
    app.top.choose([c.key for c in CLIENT_GAMES].index("royals-riots"))
    driver.click(button(app.top, "Settings").rect.center)
    scene = app.top
    assert isinstance(scene, SettingsScene) and scene.game == "royals-riots"
    texts = [b.text() for b in scene.buttons]
    assert not scene.names and "Expert" not in texts  # no Red/White name fields, no Rose King level
    assert {"Beginner", "Casual", "Easy", "Medium", "Hard", "Slow", "Normal", "Fast"} <= set(texts)
    store = app.prefs.store
    driver.click(button(scene, "Hard").rect.center)
    driver.click([b for b in scene.buttons if b.text() == "Slow"][-1].rect.center)  # the computer speed's
    switches = [b for b in scene.buttons if b.text() in ("On", "Off")]
    assert len(switches) == 3  # sound, full screen, keep the trick
    driver.click(switches[2].rect.center)
    royals = store.settings.of("royals-riots")
    assert (royals.computer_level, royals.computer_speed, royals.hold_trick) == ("hard", "slow", True)
    assert store.settings.of("rose-king").computer_level == "medium"  # Rose King's own default is untouched
    assert store.settings.animation_speed == 1.0  # the app-wide "Slow" was not the one clicked
    app.prefs.update(language="de")
    assert "Den Stich liegen lassen, bis ich klicke" in [_(scene.schema[f].label) for f in scene.game_rows]
    app.prefs.update(language="en")
    driver.key(pygame.K_ESCAPE)
    app.top.choose([c.key for c in CLIENT_GAMES].index("rose-king"))
    driver.click(button(app.top, "Settings").rect.center)
    scene = app.top
    assert scene.game == "rose-king" and set(scene.names) == {"red_name", "white_name"}
    assert "Expert" in [b.text() for b in scene.buttons] and scene.game_rows[-1] == "computer_level"
    assert "computer_speed" not in scene.game_rows and "hold_trick" not in scene.game_rows


def test_every_row_of_each_games_settings_fits_above_the_bottom_buttons(app):
    from game.registry import GAMES
    for game in GAMES:
        scene = SettingsScene(app, game.key)
        bottom = min(b.rect.top for b in scene.buttons if b.text() == "Back")
        rows = [b for b in scene.buttons if b.text() != "Back" and b.rect.top < bottom - 10]
        assert rows and max(b.rect.bottom for b in rows) <= bottom - 8, game.key
        for a in scene.buttons:
            for b in scene.buttons:
                assert a is b or not a.rect.colliderect(b.rect), (game.key, a.text(), b.text())


def test_settings_from_a_games_pause_menu_show_that_game(app, driver):
    """Opened over a game's screen (its pause menu), the settings show that game's section, whatever
    tab the main menu showed last; over the shell's screens, the tab's game."""
    from game.client.royals.setup import RoyalsSetup
    app.prefs.update(game="rose-king")
    app.reset(RoyalsSetup(app))
    app.push(PauseMenu(app, lambda: None, lambda: False))
    driver.click(button(app.top, "Settings").rect.center)
    assert isinstance(app.top, SettingsScene) and app.top.game == "royals-riots"
    app.reset(hotseat(app))
    app.push(PauseMenu(app, lambda: None, lambda: False))
    app.top.settings()
    assert app.top.game == "rose-king" and set(app.top.names) == {"red_name", "white_name"}
    app.prefs.update(game="royals-riots")
    app.reset(MainMenu(app))
    app.push(SettingsScene(app))
    assert app.top.game == "royals-riots"
