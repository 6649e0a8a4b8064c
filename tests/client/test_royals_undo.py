"""Undo against the computers at the Royals & Riots table never tells a hidden card for free: an
undo that goes back past a card shown since the person's move (a computer's card, the person's
own draw, the Thief's catch) is asked first and marks the match as played with undo, which then
does not count in the statistics (kept in the save); an undo past nothing shown marks nothing."""

from __future__ import annotations

import pytest

from game.client.dialogs import ConfirmDialog
from game.client.royals.saving import RoyalsSave, autosaver, load
from game.client.royals.setup import start_match
from game.royals.match import Seat, TableConfig, TableMatch, choose_for, computer_player
from game.royals.engine import PLAY, Phase
from game.saves import shared_store


def vs_computer(seed: int = 1, starter: int = 1) -> TableMatch:
    return TableMatch(TableConfig([Seat("You"), Seat("Bob", "random"), Seat("Cas", "random")], starter=starter,
                                  seed=seed))


def until(m: TableMatch, stop, seed: int = 0) -> None:
    """Random decisions for every seat until ``stop(m)``."""
    bots = {s: computer_player("random", seed + s) for s in (1, 2, 3)}
    m.advance()
    for _i in range(2000):
        if stop(m):
            return
        seat = m.decider()
        m.apply(choose_for(m.state, seat, bots[seat]))
    raise AssertionError("never got there")


def test_taking_back_the_hand_choice_before_any_card_was_shown_marks_nothing():
    m = vs_computer()
    until(m, lambda mm: mm.state.phase is Phase.PLAY)  # the person starts: nobody played yet
    assert m.state.to_act == 1 and m.can_undo()
    assert not m.undo_shows()
    m.undo()
    assert m.state.phase is Phase.KEEP and m.state.to_act == 1 and not m.undo_marked


def test_an_undo_past_a_computers_card_or_the_persons_own_draw_marks_the_match():
    m = vs_computer()
    until(m, lambda mm: mm.state.phase is Phase.PLAY and mm.state.to_act == 1)
    m.apply(next(a for a in m.state.legal_actions() if a.kind is PLAY))  # the person draws their pile's top
    assert m.state.to_act == 2 and m.undo_shows()  # the drawn card was hidden until now
    until(m, lambda mm: mm.state.to_act == 1 and mm.state.phase is Phase.PLAY)  # the computers answer
    assert m.undo_shows()
    m.undo()
    assert m.undo_marked


def test_a_late_play_without_a_draw_can_be_taken_back_until_a_computer_answers():
    m = vs_computer(seed=4)
    until(m, lambda mm: mm.state.phase is Phase.PLAY and mm.state.to_act == 1 and not mm.state.piles[0]
          and not mm.state.trick)
    m.apply(next(a for a in m.state.legal_actions() if a.kind is PLAY))  # no pile left: nothing drawn
    assert m.state.to_act == 2 and not m.undo_shows()
    ply = m.state.ply
    m.undo()
    assert m.state.ply == ply - 1 and not m.undo_marked


@pytest.fixture
def instant(app):
    app.options.anim_speed = 0.0
    return app


def test_the_table_asks_before_such_an_undo_and_the_save_and_statistics_know(instant, tmp_path):
    from game.stats import StatsStore
    stats = StatsStore(tmp_path)
    cfg = TableConfig([Seat("You"), Seat("Bob", "random"), Seat("Cas", "random")], starter=1, seed=2)
    scene = start_match(instant, cfg, min_delay=0, use_process=False)
    for _i in range(3000):
        if scene.my_turn() == 1 and scene.state.phase is Phase.PLAY and scene.match.undo_shows():
            break
        if scene.my_turn() == 1:
            scene.act(choose_for(scene.state, 1, computer_player("random", 5)))
        instant.step(1 / 60)
    ply = scene.state.ply
    scene.undo()
    assert isinstance(instant.top, ConfirmDialog) and scene.state.ply == ply  # asked first
    instant.top._no()
    assert instant.top is scene and scene.state.ply == ply and not scene.match.undo_marked
    scene.undo()
    instant.top._yes()
    assert scene.state.ply < ply and scene.match.undo_marked
    assert "statistics" in scene.toast
    scene.saver.saver.flush(10)
    match, save = load(shared_store().path_for(scene.saver.save.game_id))
    assert match.undo_marked  # resumed, it stays marked
    # played to the end, the marked match is not counted
    bots = {s: computer_player("random", s) for s in (1, 2, 3)}
    match.advance()
    while not match.state.is_over():
        seat = match.decider()
        match.apply(choose_for(match.state, seat, bots[seat]))
    hook = autosaver(match, save, stats)
    hook(match)
    hook(None)
    assert stats.of("royals-riots") == {}
    unmarked = TableMatch.resume(match.config, match.state)
    autosaver(unmarked, RoyalsSave.new(unmarked), stats)(unmarked)
    assert sum(s.played for s in stats.of("royals-riots").values()) == 1

