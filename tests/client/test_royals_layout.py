"""Royals & Riots' set-up and table at the smallest window the app allows and a large one, in
every catalogue and with the widest names a player can type: no text runs off its plate or
panel or over another text, a field or a button, and the prompt keeps clear of the seats, the
trick and the scores. (The window scales the fixed 1280x800 canvas as a whole; the layout must
hold on the canvas.)"""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.royals.art import card_name, royals_art
from game.client.royals.scene import RoyalsTableScene
from game.client.royals.setup import RoyalsSetup
from game.royals.match import Seat, TableConfig, TableMatch
from game.client.theme import CANVAS
from game.royals.engine import Phase
from net.framing import MAX_NAME

from .test_end_screens import LANGUAGES, SHADOW, WINDOWS, overlaps, set_window

#: The widest names a table can show (a network player's, net.framing.MAX_NAME characters, more than
#: the settings' MAX_NAME_LENGTH), every letter the widest one.
WIDE = ["W" * MAX_NAME, "M" * MAX_NAME, "Ö" * MAX_NAME, "W" * MAX_NAME]


def drawn(button) -> pygame.Rect:
    """A button's rect with its drop shadow."""
    return button.rect.inflate(0, SHADOW).move(0, SHADOW // 2)


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_royals_set_up_texts_fields_and_buttons_never_overlap(app, window, language):
    i18n.set_language(language)
    set_window(app, window)
    setup = RoyalsSetup(app)
    app.push(setup)
    setup.set_count(4)
    setup.teams = True
    setup.starter = 4
    setup.levels = [None, "greedy", None, "random"]
    for f in setup.fields:
        f.set_text("W" * f.max_len)
    app.run_frames(2)
    canvas = pygame.Rect(0, 0, *CANVAS)
    box = setup.rect
    assert canvas.contains(box)
    inner = box.inflate(-12, -12)
    shown = [b for b in setup.buttons if b.enabled() or b not in setup.seat_buttons]
    rects = [r for _t, _s, r in setup.labels()] + [f.rect for f in setup.fields] + [drawn(b) for b in shown]
    assert all(inner.contains(r) for r in rects), [r for r in rects if not inner.contains(r)]
    assert not overlaps(rects)
    bad = [b.text() for b in shown if not b.fits(app.art)]
    assert not bad, bad


def table(app, players: int, names: list[str]) -> RoyalsTableScene:
    seats = [Seat(names[0])] + [Seat(names[i], "greedy" if i % 2 else "random") for i in range(1, players)]
    match = TableMatch(TableConfig(seats, teams=players == 4, seed=5))
    scene = RoyalsTableScene(app, match, lambda: None, lambda: None)
    app.push(scene)
    app.run_frames(3)
    return scene


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_royals_table_plates_scores_and_prompt_keep_apart(app, window, language, players):
    i18n.set_language(language)
    set_window(app, window)
    app.options.anim_speed = 0.0
    scene = table(app, players, WIDE)
    canvas = pygame.Rect(0, 0, *CANVAS)
    seats = range(1, players + 1)
    plates = [scene.layout.plate_rect(s) for s in seats]
    scores = scene.layout.scores_rect()
    assert not overlaps(plates + [scores])
    assert all(canvas.contains(r) for r in plates + [scores])
    # each plate's texts (level, name, pile, loot) inside the plate, apart
    for s, plate in zip(seats, plates):
        items = scene.layout.plate_texts(s)
        rects = [r for _t, _i, r in items]
        assert all(plate.inflate(-8, -8).contains(r) for r in rects), (s, items)
        assert not overlaps(rects), (s, [t for t, _i, _r in items])
        name = next(t for t, _i, r in items if r.left == plate.x + 12)
        assert name.endswith("…") and name[:-1] == WIDE[s - 1][:len(name) - 1]  # cut, not dropped
    # the other seats' face-down cards (a full hand and one more) clear of the plates, the scores,
    # the rank card, the trick and the buttons
    fixed = plates + [scores, royals_art(app).sides[0].get_rect(topleft=(20, 16))]
    fixed += [scene.layout.trick_rect(s) for s in seats] + [drawn(b) for b in scene.buttons]
    for s in seats[1:]:
        backs = scene.layout.back_rects(s, scene.state.hand_size() + 1)
        assert all(canvas.contains(r) for r in backs)
        hit = [(r, f) for r in backs for f in fixed if r.colliderect(f)]
        assert not hit, (s, hit)
    # the score panel's texts inside it, apart
    rects = [r for _t, _i, r in scene.layout.score_texts()]
    assert all(scores.inflate(-8, -8).contains(r) for r in rects)
    assert not overlaps(rects)
    # every prompt the table can show, with the longest hint, keeps clear of seats, trick, scores, buttons
    taken = plates + [scores] + [royals_art(app).sides[0].get_rect(topleft=(20, 16))]
    taken += [scene.layout.trick_rect(s) for s in seats] + [b.rect for b in scene.buttons]
    for s in seats[1:]:  # a full hand, and one more while a Thief's victim takes a card back
        taken += scene.layout.back_rects(s, scene.state.hand_size() + 1)
    from game.royals.engine import Card
    hints = (i18n._("Hint: rob {victim}: the trick then goes to {name}.").format(victim=WIDE[1], name=WIDE[2]),
             i18n._("Hint: don't steal: the trick stays with {name}.").format(name=WIDE[2]),
             i18n._("Thinking about a hint…"),
             i18n._("Hint: keep the marked cards, the strongest for the first tricks and the Beggar, to give it "
                    "away when you choose."),
             i18n._("Hint: execute {card}: the trick goes to {name}.").format(
                 card=card_name(Card.from_name("K4")), name=WIDE[1]),
             i18n._("Hint: {name} leads, the partner with fewer points last round.").format(name=WIDE[2]),
             *(i18n._("Hint: play {card}, because {why}.").format(card=card_name(Card.from_name("R4")),
                                                                  why=i18n._(why))
               for why in ("the Executioner can remove the best card of the trick",
                           "the trick is lost anyway, and it gives away the least",
                           "it wins while the Guildmaster is not out",
                           "it cannot win here and gives away the fewest points",
                           "it is your weakest card; the strong ones wait",
                           "the hard computer's trial games favour it")))
    for phase in (Phase.KEEP, Phase.PLAY, Phase.STEAL, Phase.EXECUTE, Phase.START):
        for target in ((0, 2) if phase is Phase.STEAL else (0,)):
            scene.steal_target = target
            text = scene.decision_prompt(1, phase)
            for shown in (text, *(f"{text}  {hint}" for hint in hints)):
                _img, where = scene.layout.prompt_layout(shown)
                assert canvas.contains(where), shown
                hit = [r for r in taken if r.colliderect(where)]
                assert not hit, f"{shown!r} at {where} over {hit}"
    scene.steal_target = 0


def test_royals_last_trick_names_are_cut_to_their_card(app):
    app.options.anim_speed = 0.0
    scene = table(app, 4, WIDE)
    from game.royals.match import choose_for, computer_player
    bots = {s: computer_player("random", seed=s) for s in range(1, 5)}
    m = scene.match
    while m.last_trick is None:
        seat = m.decider()
        m.apply(choose_for(m.state, seat, bots[seat]))
    texts: list[str] = []
    real = app.art.text

    def spy(text, *a, **k):
        texts.append(text)
        return real(text, *a, **k)
    scene.show_last = True
    app.art.text = spy  # type: ignore[method-assign]
    try:
        scene.painter.draw_last_trick(app.screen)
    finally:
        app.art.text = real  # type: ignore[method-assign]
    cut = [t for t in texts if t.endswith("…") and t[:1] in "WMÖ"]
    assert len(cut) == len(m.last_trick.plays)
    assert all(app.art.font(20).size(t)[0] <= 160 for t in cut)


@pytest.mark.parametrize("language", LANGUAGES)
def test_royals_toast_stays_over_the_hand_between_the_plate_and_the_buttons(app, language):
    i18n.set_language(language)
    scene = table(app, 4, WIDE)
    plate = scene.layout.plate_rect(1)
    buttons = [b.rect for b in scene.buttons]
    long_reason = scene.explain("x" * 30 + " " + "y" * 30 + " the card is not in the hand")
    from game.fsutil import OS_ERROR_PHRASES
    save_failed = i18n._("The match could not be saved: {reason}").format(
        reason=max((i18n._(p) for p in OS_ERROR_PHRASES.values()), key=len))
    for text in (scene.explain("must follow"), long_reason,
                 i18n._("Your hand holds {n} cards: put one back first.").format(n=5), save_failed):
        _img, where = scene.layout.toast_layout(text)
        box = where.inflate(40, 20)  # its panel
        assert box.left > plate.right and not any(box.colliderect(b) for b in buttons), (text, box)
        assert pygame.Rect(0, 0, *CANVAS).contains(box)


@pytest.mark.parametrize("language", LANGUAGES)
def test_royals_table_buttons_fit_and_keep_clear_of_the_seats_and_the_hand(app, language):
    i18n.set_language(language)
    app.options.anim_speed = 0.0
    scene = table(app, 4, WIDE)  # one person against computers: Undo is offered
    for _i in range(600):
        if scene.my_turn() and scene.state.phase is Phase.KEEP:
            break
        app.run_frames(1)
    app.run_frames(1)
    buttons = scene.buttons + scene.controls.action_buttons
    assert [b.text() for b in scene.controls.action_buttons] == [i18n._("Keep these"), i18n._("Choose for me")]
    assert len(scene.buttons) == 4
    bad = [b.text() for b in buttons if not b.fits(app.art)]
    assert not bad, bad
    dealt = list(scene.state.observation(1).dealt)
    taken = [scene.layout.plate_rect(s) for s in range(1, 5)] + [scene.layout.scores_rect()] + scene.layout.keep_rects(dealt)
    rects = [drawn(b) for b in buttons]
    assert not overlaps(rects)
    assert not [(r, t) for r in rects for t in taken if r.colliderect(t)]


#: Why a table cannot be opened: a short reason of the system, and the longest the set-up can meet
#: (the record's folder cannot be written, with its path).
SHORT_REASON = "[Errno 99] Cannot assign requested address"
LONG_REASON = ("[Errno 13] Permission denied: '/home/someone-with-a-long-name/.local/share/rose-king/lan/"
               "royals-riots-2026-11-24T02-53-50-4f3a9c.json' (the folder is not writable)")


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_royals_host_set_up_error_has_room_under_the_teams_switch(app, window, language):
    """The shell's "Host a game" of Royals & Riots, four seats and teams: an error, short or long,
    sits between the teams switch and the bottom buttons, clear of both, inside the panel."""
    from game.client.lan.host import ERROR_INK, HostSetup
    i18n.set_language(language)
    set_window(app, window)
    setup = HostSetup(app, "royals-riots", port=0, bind="127.0.0.1")
    app.push(setup)
    setup.set_count(4)
    setup.toggle("teams")
    canvas = pygame.Rect(0, 0, *CANVAS)
    inner = setup.rect.inflate(-12, -12)
    assert canvas.contains(setup.rect)
    shown = [drawn(b) for b in setup.buttons if b.enabled() or b not in setup.seat_buttons] + [setup.field.rect]
    assert not overlaps(shown)
    switch = setup.buttons[-3]
    assert switch.enabled() and switch.selected()
    for reason in (SHORT_REASON, LONG_REASON):
        setup.error = i18n._("The table cannot be opened: {reason}").format(reason=reason)
        app.run_frames(2)
        img, where = setup.error_layout()
        assert inner.contains(where), where
        assert not [r for r in shown if r.colliderect(where)], (reason, where)
        below = min(drawn(b).top for b in setup.buttons[-2:])
        assert where.top - drawn(switch).bottom >= 10 and below - where.bottom >= 10, (reason, where)
        if reason == SHORT_REASON:  # shown whole, at its size
            assert img is app.art.text(setup.error, 22, ERROR_INK, shadow=True, wrap=setup.error_room().w)


@pytest.mark.parametrize("language", LANGUAGES)
def test_royals_news_and_revolution_panels_hold_their_texts(app, language):
    """The widest names in every language: "since your last turn" (at most its nine lines) and
    the revolution's announcement keep their texts inside their panels, apart, on the canvas."""
    from game.client.royals.news import MAX_LINES
    from game.royals.match import Beat
    from game.royals.engine import Card
    i18n.set_language(language)
    try:
        app.options.anim_speed = 0.0
        scene = table(app, 4, WIDE)
        c = Card.from_name
        beats = [Beat("steal", 2, c("R3"), 1, c("K4")), Beat("steal", 3, c("M4"), 2, None),
                 Beat("execute", 4, c("P7")), Beat("revolution", 2, c("P7")), Beat("restore", 3, c("R5")),
                 Beat("void"), Beat("trick", 4)] + [Beat("play", s, c("K4")) for s in (2, 3, 4)] * 2
        scene.news = (1, beats)
        assert len(scene.news_text()) == MAX_LINES
        canvas = pygame.Rect(0, 0, *CANVAS)
        panels = [scene.layout.news_layout()] + [scene.layout.announcement_layout(b) for b in beats[3:5]]
        for box, items in panels:
            assert canvas.contains(box)
            rects = [r for _t, _i, r in items]
            assert all(box.inflate(-8, -8).contains(r) for r in rects), [t for t, _i, r in items
                                                                        if not box.inflate(-8, -8).contains(r)]
            assert not overlaps(rects)
    finally:
        i18n.set_language("en")
