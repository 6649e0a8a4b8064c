"""Every button's label shows whole and readable at 1280x800 in every catalogue
(German, Dutch and French run up to 3.5x the English), and no screen has two buttons that read the same."""

from __future__ import annotations

import pytest

from game import i18n
from game.client.dialogs import ConfirmDialog, PauseMenu
from game.client.menus import MainMenu
from game.client.roseking.howto import HowToPlay
from game.client.lan.lobby import LayerJoinScene
from game.client.roseking.local_game import GameConfig, LocalPauseMenu, TextEntryDialog
from game.client.roseking.result import ResultPanel
from game.client.roseking.setup import ComputerSetup, start_game
from game.client.roseking.tutorial import TutorialOverlay
from game.client.saved_games import MessageDialog, SavedGamesScene
from game.client.settings_scene import SettingsScene
from game.roseking.engine import Color


def screens(app):
    """(name, scene) of every screen with buttons, built as the player reaches them."""
    start_game(app, GameConfig((Color.WHITE, "hard"), seed=1))
    game = app.top
    yield "game", game
    yield "main menu", MainMenu(app)
    yield "computer set-up", ComputerSetup(app)
    yield "settings", SettingsScene(app, "rose-king")
    yield "settings of Royals & Riots", SettingsScene(app, "royals-riots")
    yield "saved games", SavedGamesScene(app)
    yield "how to play", HowToPlay(app)
    yield "pause", PauseMenu(app, lambda: None, lambda: True)
    yield "local pause", LocalPauseMenu(app, game)
    yield "result", ResultPanel(app, game)
    yield "join", LayerJoinScene(app, key="rose-king", listen=False)
    yield "confirm", ConfirmDialog(app, "Quit and discard the game in progress?", lambda: None,
                                   yes="Quit", no="Stay")
    yield "save as", TextEntryDialog(app, "Save the game as", "/tmp/x.json", lambda p: None, ok="Save")
    yield "message", MessageDialog(app, "This game cannot be opened", "x")
    yield "tutorial", TutorialOverlay(app, game)
    from game.client.roseking.analysis_view import AnalysisJob, AnalysisScene
    from game.client.saved_games import OpenFileDialog
    job = AnalysisJob(game.match.state, seconds=None, iterations=5, thread=True)
    yield "analysis", AnalysisScene(app, game.match.state, ("A", "B"), job=job, on_show=lambda ply: None)
    job.cancel()
    yield "open a file", OpenFileDialog(app, lambda path: None)


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_every_button_label_fits_its_button(app, language):
    i18n.set_language(language)
    art = app.art
    bad = []
    for name, scene in screens(app):
        buttons = [b for b in scene.buttons if b.text()]
        for b in buttons:
            if not b.fits(art):
                bad.append(f"{name}: {b.text()!r} in {b.rect.w}x{b.rect.h}")
        texts = [b.text() for b in buttons]
        dupes = {t for t in texts if texts.count(t) > 1}
        if dupes and not name.startswith("settings"):  # settings: "On"/"Off", "Slow" on rows, each beside its label
            bad.append(f"{name}: two buttons read {sorted(dupes)}")
    assert not bad, "\n".join(bad)


def test_elide_keeps_what_fits_and_cuts_the_rest_with_an_ellipsis(app):
    from game.client.widgets import elide
    font = app.art.font(24)
    assert elide(font, "Ann", 200) == "Ann"
    name = "WolfgangAmadeusMozart"
    cut = elide(font, name, 120)
    assert cut.endswith("…") and font.size(cut)[0] <= 120 and name.startswith(cut[:-1])
    assert font.size(name[:len(cut)] + "…")[0] > 120  # the longest beginning that fits
    assert elide(font, "Anna Maria Louisa", font.size("Anna Maria…")[0]) == "Anna Maria…"
    assert elide(font, "Anna Maria Louisa", font.size("Anna Maria L…")[0] - 1) == "Anna Maria…"  # no space before …
    assert elide(font, "WWWW", 1) == "…"  # not even one letter: only the ellipsis
    assert elide(font, "", 10) == ""


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_the_main_menus_buttons_share_one_type_size(app, language):
    """Each game's tab: no label (say German "Gegen einen Freund (gleicher Bildschirm)") drawn smaller
    than its neighbours; "Continue", which names a saved game's players, spans both columns."""
    from game.client.games import CLIENT_GAMES
    i18n.set_language(language)
    for index in range(len(CLIENT_GAMES)):
        app.reset(MainMenu(app))
        app.top.choose(index)
        menu = app.top
        sizes = {b.text(): b.text_layout(app.art)[0] for b in menu.buttons if b.rect.w < 600}
        assert len(set(sizes.values())) == 1, sizes
