"""The end-of-match screens: Royals & Riots' score table and result (a panel with a row of
buttons under it) and Rose King's result panel. Nothing overlaps, everything lies inside the
canvas, and every label fits, in every catalogue (German, Dutch and French run up to 3.5x the
English) with the longest names a player can type, at the smallest window the app allows and
a large one (the window scales the fixed 1280x800 canvas as a whole, so the layout must hold
on the canvas whatever the window's size)."""

from __future__ import annotations

import warnings

import pygame
import pytest

from game import i18n
from game.client.app import MIN_WINDOW
from game.client.royals.scene import MODAL_NAMES_W, RoyalsTableScene
from game.client.royals.table import Seat, TableConfig, TableMatch, choose_for, computer_player
from game.client.theme import CANVAS
from game.settings import MAX_NAME_LENGTH

WINDOWS = [MIN_WINDOW, (1920, 1200)]
LANGUAGES = ["en", "de", "nl", "fr"]
#: The widest names a player can type (MAX_NAME_LENGTH characters of the widest letter).
NAMES = ["W" * MAX_NAME_LENGTH, "M" * MAX_NAME_LENGTH, "Ö" * MAX_NAME_LENGTH, "W" * MAX_NAME_LENGTH]
#: A button's drop shadow reaches this far below its rect (widgets.Button.draw).
SHADOW = 4

_matches: dict[tuple[int, str], TableMatch] = {}


def royals_match(players: int, until: str) -> TableMatch:
    """A match of ``players`` computer seats (4: in teams) played to the end of round 1
    (``until="round"``) or of the match (``"over"``); made once per test run."""
    key = (players, until)
    if key not in _matches:
        match = TableMatch(TableConfig([Seat(NAMES[i], "random") for i in range(players)],
                                       teams=players == 4, seed=41 + players))
        bots = {seat: computer_player("random", seed=seat) for seat in range(1, players + 1)}
        match.advance()
        while not match.state.is_over() and not (until == "round" and match.state.round_scores):
            seat = match.decider()
            match.apply(choose_for(match.state, seat, bots[seat]))
        assert match.state.is_over() == (until == "over")
        _matches[key] = match
    return _matches[key]


def set_window(app, size: tuple[int, int]) -> None:
    """Resize the window as a player would; the canvas scenes draw on stays 1280x800."""
    with warnings.catch_warnings():  # as App._fit_window: the display module's window
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    window.size = size
    app.run_frames(1)
    assert app.screen.get_size() == CANVAS


def overlaps(rects: list[pygame.Rect]) -> list[tuple[pygame.Rect, pygame.Rect]]:
    return [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] if a.colliderect(b)]


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players,kind", [(2, "over"), (3, "over"), (4, "over"), (2, "round"), (4, "round")])
def test_royals_score_table_and_result_buttons_lie_under_the_panel(app, window, language, players, kind):
    i18n.set_language(language)
    set_window(app, window)
    app.options.anim_speed = 0.0
    match = royals_match(players, kind)
    scene = RoyalsTableScene(app, match, lambda: None, lambda: None, advance=False)
    app.push(scene)
    scene.open_modal(kind, None)
    app.run_frames(2)  # drawn: the layout is the one on the screen
    canvas = pygame.Rect(0, 0, *CANVAS)
    box, items = scene.modal_layout()
    buttons = [b.rect for b in scene.modal_buttons]
    assert len(buttons) == (2 if kind == "over" else 1)
    assert canvas.contains(box)
    # every text inside the panel's gold rim, none over another
    inner = box.inflate(-16, -16)
    outside = [r for _t, _s, r in items if not inner.contains(r)]
    assert not outside, f"text outside {inner}: {outside}"
    assert not overlaps([r for _t, _s, r in items])
    # the buttons: under the panel (not over its edge), on the canvas with their shadow, apart, labels whole
    for b in scene.modal_buttons:
        assert not b.rect.colliderect(box), f"{b.text()!r} {b.rect} overlaps the panel {box}"
        assert b.rect.top > box.bottom
        assert canvas.contains(b.rect.inflate(0, SHADOW).move(0, SHADOW // 2))
        assert b.fits(app.art), f"{b.text()!r} does not fit {b.rect.size}"
    assert not overlaps(buttons)
    # and a click on a button's centre reaches it
    hit = [b for b in scene.modal_buttons if b.rect.collidepoint(buttons[-1].center)]
    assert hit == [scene.modal_buttons[-1]]


def test_royals_result_title_fits_the_panel_even_for_the_widest_name(app):
    match = royals_match(2, "over")
    scene = RoyalsTableScene(app, match, lambda: None, lambda: None, advance=False)
    app.push(scene)
    scene.open_modal("over", None)
    assert NAMES[0] in scene.modal_title() or NAMES[1] in scene.modal_title()
    box, items = scene.modal_layout()
    title = items[0][2]
    assert box.inflate(-16, -16).contains(title)
    # a name too wide for its column is cut with an ellipsis, not drawn over the scores
    names = [r for _t, _s, r in items[1:] if r.left == box.x + 40]
    assert len(names) == 2 and all(r.w <= MODAL_NAMES_W for r in names)
