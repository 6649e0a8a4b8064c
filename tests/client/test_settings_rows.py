"""The settings' rows of radio buttons (the computer levels above all: six of
them, "Einsteiger", "Gemiddeld") show every label whole on one line at one text size for the
whole row, in every language, for both games, also after the language changes on the screen."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.settings_scene import CONTROL_W, CONTROL_X, SettingsScene


def check_rows(app, scene: SettingsScene) -> None:
    column = pygame.Rect(CONTROL_X, 0, CONTROL_W, 800)
    for row in scene.rows:
        layouts = [b.text_layout(app.art) for b in row]
        assert len({size for size, _wrap in layouts}) == 1, [(b.text(), lay) for b, lay in zip(row, layouts)]
        assert all(wrap == 0 and b.fits(app.art) for b, (_s, wrap) in zip(row, layouts)), [b.text() for b in row]
        assert layouts[0][0] >= 20
        assert all(column.contains(b.rect) for b in row)
        assert not any(a.rect.colliderect(b.rect) for i, a in enumerate(row) for b in row[i + 1:])


@pytest.mark.parametrize("game", ["rose-king", "royals-riots"])
@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_each_row_keeps_one_text_size_and_every_label_whole(app, game, language):
    i18n.set_language(language)
    scene = SettingsScene(app, game=game)
    check_rows(app, scene)


def test_the_rows_are_placed_again_when_the_language_changes(app):
    i18n.set_language("en")
    scene = SettingsScene(app, game="rose-king")
    app.push(scene)
    app.run_frames(1)
    levels = max(scene.rows, key=len)
    before = [b.rect.w for b in levels]
    i18n.set_language("de")
    app.redraw()
    app.run_frames(1)
    assert [b.rect.w for b in levels] != before  # "Einsteiger" needs more room than "Beginner"
    check_rows(app, scene)
