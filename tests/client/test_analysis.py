"""The post-game analysis marks a planted blunder, runs off the frame loop, can be
cancelled, and opens from the result panel and from the replay viewer."""

from __future__ import annotations

import pytest

from game.client.app import STEP
from game.client.roseking import analysis_view
from game.client.roseking.analysis_view import AnalysisJob, AnalysisScene
from game.client.roseking.local_game import GameConfig, LocalGame, play
from game.client.roseking.result import ResultPanel
from game.roseking import analysis
from game.roseking.engine import DRAW, Color, Record, Rng, State


def planted_blunder() -> State:
    """A random game up to the last stone, where the mover has a winning and a losing way to
    place it, and plays the losing one: a blunder by any measure."""
    for seed in range(1000):
        rng = Rng(seed)
        s = State.random(rng)
        while not s.is_game_over():
            if s.stones_placed == 51:
                results = {}
                for m in (m for m in s.legal_moves() if m.kind is not DRAW):
                    t = s.copy()
                    t.push(m)
                    red = analysis.terminal_red(t)
                    results[m] = red if s.turn is Color.RED else 1 - red
                if 1.0 in results.values() and 0.0 in results.values():
                    s.push(next(m for m, v in results.items() if v == 0.0))
                    return s
            m = rng.choice(s.legal_moves())
            if m.card is None:
                m = m.with_outcome(rng.choice(s.chance_outcomes()))
            s.push(m)
    raise AssertionError("no game with a decisive last stone")


@pytest.fixture
def quick_analysis(monkeypatch):
    monkeypatch.setattr(analysis_view, "JOB_OPTIONS", {"seconds": None, "iterations": 60, "thread": True})


def test_the_analysis_marks_a_planted_blunder():
    final = planted_blunder()
    job = AnalysisJob(final, seconds=None, iterations=60, thread=True)
    job.wait(60)
    assert job.done and job.error is None and len(job.red) == final.ply + 1
    last = job.reviews()[-1]
    assert last.ply == final.ply and last.label == "blunder" and last.loss > 0.5
    assert last.best is not None and not analysis.same_move(last.played, last.best)


def test_labels_follow_the_share_of_the_chance_that_was_left():
    assert [analysis.label_for(x) for x in (0.0, 0.099, 0.10, 0.15, 0.30, 1.0)] == \
        ["", "", "inaccuracy", "mistake", "blunder", "blunder"]
    # one move of Red's: the same drop of winning chance (0.04) is a blunder for a side that had 10 %
    # left, nothing near a won game's 98 % (where it is 42 points: the old measure's blunder)
    final = State.random(Rng(1))
    final.push(next(m for m in final.legal_moves() if m.kind is not DRAW))
    for red, label in (([0.98, 0.94], ""), ([0.10, 0.06], "blunder"), ([0.5, 0.42], "mistake"),
                       ([0.5, 0.44], "inaccuracy"), ([0.03, 0.0], "")):
        (review,) = analysis.reviews(final, red, [None, None])
        assert review.label == label, (red, review)
        assert review.share == pytest.approx((red[0] - red[1]) / red[0] if red[0] >= analysis.FLOOR else 0.0)
    (review,) = analysis.reviews(final, [0.98, 0.94], [None, None])
    assert review.points > 40 and analysis.margin_of(0.5) == 0.0


def careless_game(seed: int = 100) -> State:
    """The careless game: Red always plays the first stone move it finds (the first target),
    drawing only when it has none; White is the medium computer."""
    from game.roseking.ai import make_player
    white = make_player("medium", seed, seconds=None, iterations=1500)
    rng = Rng(seed)
    s = State.random(rng)
    while not s.is_game_over():
        if s.turn is Color.RED:
            moves = s.legal_moves()
            m = next((m for m in moves if m.kind is not DRAW), moves[0])
        else:
            m = white.choose(s.copy(stack=False))
        if m.kind is DRAW and m.card is None:
            m = m.with_outcome(rng.choice(s.chance_outcomes()))
        s.push(m)
    return s


def test_a_careless_game_has_its_mistakes_marked(app):
    """After a game of careless moves the analysis said "No inaccuracies found"
    while its graph slid towards White. The careless side's moves are marked, several of them as
    mistakes or worse, it lost far more points than the computer, its points lost add up to about
    the final margin, and the view does not say "well played"."""
    final = careless_game()
    red_points, white_points = final.scores()
    assert white_points - red_points > 50  # the careless play lost clearly
    job = AnalysisJob(final, seconds=None, iterations=600, thread=True)  # (a seeded search: the same marks each run)
    job.wait(300)
    assert job.done and job.error is None
    judged = job.reviews()
    sides = analysis.summary(judged)
    red, white = sides[Color.RED], sides[Color.WHITE]
    serious = [r for r in judged if r.player is Color.RED and r.label in ("mistake", "blunder")]
    assert red.marked >= 5 and len(serious) >= 3, (red, [(r.ply, r.label, round(r.points)) for r in judged if r.label])
    assert red.points > 1.5 * white.points and red.marked > white.marked
    margin = white_points - red_points
    assert 0.4 * margin < red.points - white.points < 2.5 * margin
    view = AnalysisScene(app, final, ("Careless", "Computer"), job=job)
    app.push(view)
    app.step(STEP)
    texts = [t for t, _i, _r in view.side_layout()]
    assert texts[0].startswith(f"Careless: {red.marked} marked, about {round(red.points)} points lost")
    assert view.marked and all(r.share >= analysis.INACCURACY for r in view.marked)


def test_the_result_panel_opens_the_analysis_and_the_window_keeps_drawing(app, driver, quick_analysis):
    final = planted_blunder()
    last = final.pop()
    blunder = final.ply + 1
    game = LocalGame(final, __import__("game.roseking.saves", fromlist=["GameMeta"]).GameMeta.new("local"),
                     GameConfig(None).controllers())
    scene = play(app, game, GameConfig(None))
    scene.match.submit(last)
    for _i in range(600):
        app.step(STEP)
        if isinstance(app.top, ResultPanel):
            break
    panel = app.top
    assert isinstance(panel, ResultPanel)
    analyse = next(b for b in panel.buttons if b.text() == "Analyse the game")
    driver.click(analyse.rect.center)
    view = app.top
    assert isinstance(view, AnalysisScene)
    frames = app.renders
    for _i in range(3000):
        app.step(STEP)
        if view.job.done:
            break
    assert view.job.done and app.renders > frames  # drawn while it ran
    assert any(r.ply == blunder and r.label == "blunder" for r in view.marked)
    row = next(i for i, r in enumerate(view.marked) if r.ply == blunder)
    from game.client.roseking.analysis_view import LIST, ROW_H
    view.top = row
    driver.click((LIST.centerx, LIST.y + 44 + ROW_H // 2))  # the blunder's row
    assert view.selected == blunder
    show = next(b for b in view.buttons if b.text() == "Show the move on the board")
    driver.click(show.rect.center)
    # the board shows the position after the blunder (here the game's last move: the live board)
    assert app.top is panel and (scene.peek or scene.shown.ply) == blunder
    driver.click(scene.movelog.row_center(blunder - 1))  # the log stays clickable under the result
    assert scene.peek == blunder - 1
    driver.key(__import__("pygame").K_ESCAPE)
    assert scene.peek is None and app.top is panel


def test_the_replay_viewer_opens_the_analysis(app, driver, quick_analysis, tmp_path):
    from game.client.saved_games import open_replay
    final = planted_blunder()
    path = tmp_path / "g.json"
    path.write_text(Record.from_state(final, red="Ann", white="Bob").to_json())
    assert open_replay(app, path) is None
    driver.key(__import__("pygame").K_a)
    view = app.top
    assert isinstance(view, AnalysisScene) and view.names == ("Ann", "Bob")
    view.job.wait(60)
    app.step(STEP)
    assert view.marked and view.marked[-1].label == "blunder"
    view.selected = view.marked[-1].ply
    view.show()
    replay = app.top
    assert replay.replay.ply == final.ply  # the replay viewer jumped to the blunder


def test_cancel_stops_the_worker_process_at_once():
    final = planted_blunder()
    job = AnalysisJob(final)  # the real thing: a spawned worker with the hard level's budget
    assert job._proc.is_alive()
    job.cancel()
    assert not job._proc.is_alive()
