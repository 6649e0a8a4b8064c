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
from game.client.app import MIN_WINDOW, STEP
from game.client.royals.scene import MODAL_NAMES_W, RoyalsTableScene
from game.royals.match import Seat, TableConfig, TableMatch, choose_for, computer_player
from game.client.roseking.result import ResultPanel
from game.client.theme import CANVAS
from game.roseking.ai import RandomPlayer
from game.roseking.engine import DRAW, Rng, State
from net.framing import MAX_NAME

WINDOWS = [MIN_WINDOW, (1920, 1200)]
LANGUAGES = ["en", "de", "nl", "fr"]
#: The widest names a table can show: a network player's name (net.framing.MAX_NAME characters, more
#: than the settings' MAX_NAME_LENGTH) of the widest letter.
NAMES = ["W" * MAX_NAME, "M" * MAX_NAME, "Ö" * MAX_NAME, "W" * MAX_NAME]
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
    box, items = scene.layout.modal_layout()
    buttons = [b.rect for b in scene.modal_buttons]
    assert len(buttons) == (3 if kind == "over" else 1)  # over: Rematch, Analyse the match, Main menu
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
    assert NAMES[0] in scene.layout.modal_title() or NAMES[1] in scene.layout.modal_title()
    box, items = scene.layout.modal_layout()
    title = items[0][2]
    assert box.inflate(-16, -16).contains(title)
    # a name too wide for its column is cut with an ellipsis, not drawn over the scores
    names = [r for _t, _s, r in items[1:] if r.left == box.x + 40]
    assert len(names) == 2 and all(r.w <= MODAL_NAMES_W for r in names)


def finished_rose_king(seed: int) -> tuple:
    """A random game of Rose King one move before its end: (state, the last move)."""
    state = State.random(Rng(seed))
    player = RandomPlayer(seed)
    while not state.is_game_over():
        m = player.choose(state.copy())
        if m.card is None and m.kind is DRAW:
            m = m.with_outcome(state.chance_outcomes()[0])
        state.push(m)
    last = state.pop()
    return state, last


def submit_and_show_result(app, scene, last):
    """Play the game's last move on ``scene`` and step until the result panel is on top; that panel."""
    scene.match.submit(last)
    for _i in range(600):
        app.step(STEP)
        if isinstance(app.top, ResultPanel):
            break
    assert isinstance(app.top, ResultPanel)
    return app.top


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", [3, 11])
def test_rose_king_result_buttons_lie_inside_the_panel_under_its_text(app, new_hotseat, window, language, seed):
    i18n.set_language(language)
    set_window(app, window)
    app.options.anim_speed = 0.0
    state, last = finished_rose_king(seed)
    scene = new_hotseat(1, state)
    result = submit_and_show_result(app, scene, last)
    app.run_frames(2)
    canvas = pygame.Rect(0, 0, *CANVAS)
    box = result.rect
    assert canvas.contains(box)
    inner = box.inflate(-10, -10)
    layout = result.layout()
    items = [r for _t, _s, r in layout]
    assert len(layout) >= 5  # the headline, why it ended, which rule decided, both sides' points
    outside = [t for t, _s, r in layout if not inner.contains(r)]
    assert not outside, f"text outside the panel: {outside}"
    buttons = [b.rect for b in result.buttons]
    for b in result.buttons:
        assert inner.contains(b.rect.inflate(0, SHADOW).move(0, SHADOW // 2)), f"{b.text()!r} leaves the panel"
        assert b.fits(app.art), f"{b.text()!r} does not fit {b.rect.size}"
    assert not overlaps(items + buttons)
    # the board's own buttons (Targets, Menu, Undo, Hint) stay free and usable beside the panel
    assert not any(box.colliderect(b.rect) for b in scene.buttons)


def test_rose_king_result_cuts_a_long_territory_list_with_an_ellipsis_above_the_buttons(app, new_hotseat,
                                                                                        monkeypatch):
    from game.client.roseking import result as result_module
    state, last = finished_rose_king(3)
    many = [f"{n} × {n} = {n * n}: " + " ".join(["a1 b2 c3 d4 e5 f6"] * 3) for n in range(40, 0, -1)]
    monkeypatch.setattr(result_module, "territory_lines", lambda state, colour: many)
    scene = new_hotseat(1, state)
    app.options.anim_speed = 0.0
    result = submit_and_show_result(app, scene, last)
    layout = result.layout()
    texts = [t for t, _s, _r in layout]
    assert texts.count("…") == 2  # each side's list cut, each side's headline shown
    assert sum(t.startswith("Red:") or t.startswith("White:") for t in texts) == 2
    assert 1 <= sum(t in many for t in texts) < len(many)
    assert not overlaps([r for _t, _s, r in layout] + [b.rect for b in result.buttons])


@pytest.mark.parametrize("language", LANGUAGES)
def test_royals_replay_end_and_its_buttons(app, language):
    from game.client.royals.replay_view import RoyalsReplayScene
    i18n.set_language(language)
    app.options.anim_speed = 0.0
    replay = RoyalsReplayScene(app, royals_match(3, "over"), lambda: None)
    app.push(replay)
    replay.seek(len(replay.actions))
    replay.open_modal("over", None)
    app.run_frames(2)
    box, items = replay.layout.modal_layout()
    back, analyse = replay.modal_buttons  # a finished match's replay offers its analysis
    assert back.text() == i18n._("Back") and back.rect.top > box.bottom and back.rect.bottom + SHADOW < CANVAS[1]
    assert analyse.text() == i18n._("Analyse the match") and not back.rect.colliderect(analyse.rect)
    assert all(box.inflate(-16, -16).contains(r) for _t, _s, r in items)
    bad = [b.text() for b in replay.buttons + replay.modal_buttons if not b.fits(app.art)]
    assert not bad, bad
    replay.close_modal()
    replay.playing = False
    assert all(b.fits(app.art) for b in replay.buttons)  # "Play" as well as "Pause"
