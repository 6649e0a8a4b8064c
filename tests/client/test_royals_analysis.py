"""Royals & Riots' post-match analysis opens from the result of a match and from the
replay of a finished match, runs off the frame loop (a worker; here a thread with a small
budget), marks the costly decisions on a graph of the match, and can be cancelled."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.client.app import STEP
from game.client.royals import analysis_view
from game.client.royals.analysis_view import RoyalsAnalysisJob, RoyalsAnalysisScene, open_analysis
from game.client.royals.replay_view import RoyalsReplayScene
from game.client.royals.setup import start_match
from game.royals.match import Seat, TableConfig
from game.royals.engine import Record, Rng, State


@pytest.fixture
def quick(app, monkeypatch):
    app.options.anim_speed = 0.0
    monkeypatch.setattr(analysis_view, "JOB_OPTIONS", {"iterations": 60, "playouts": 6, "thread": True})
    return app


def click(app, pos) -> None:
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step(STEP)


def finished_match(seed: int = 3) -> State:
    s, rng = State(players=3), Rng(seed)
    while not s.is_over():
        event = s.chance()
        s.push(event.sample(rng) if event is not None else rng.choice(s.legal_actions()))
    return s


def run_analysis(app, view: RoyalsAnalysisScene) -> None:
    frames = app.renders
    for _i in range(20000):
        app.step(STEP)
        if view.job.done:
            break
    assert view.job.done and view.job.error is None
    assert app.renders > frames  # the window kept drawing while it ran


def test_the_result_of_a_match_opens_the_analysis(quick):
    app = quick
    config = TableConfig([Seat("Ada", "random"), Seat("Bram", "random"), Seat("Cato", "greedy")], seed=4)
    table = start_match(app, config, min_delay=0, use_process=False, autosave=False)
    for _i in range(40000):
        app.step(STEP)
        if table.modal == "round":
            table.close_modal()
        if table.modal == "over":
            break
    assert table.modal == "over"
    button = next(b for b in table.modal_buttons if b.text() == "Analyse the match")
    click(app, button.rect.center)
    view = app.top
    assert isinstance(view, RoyalsAnalysisScene) and view.job.total > 50
    assert view.actions == list(table.match.state.history)
    run_analysis(app, view)
    assert len(view.job.verdicts) == view.job.total
    assert {v.seat for v in view.job.verdicts} == {1, 2, 3}
    assert view.marked, "two random players made no costly decision"
    assert all(v.cost >= 1.0 for v in view.marked) and all(v.played != v.best for v in view.marked)
    texts = view.side_texts()
    assert texts[0].startswith("Ada: ") and "points lost in" in texts[0]
    row = view.row_text(view.marked[0])
    assert row.startswith(f"Round {view.marked[0].round}, trick ") and "better:" in row
    # a click on the graph selects the nearest marked decision and scrolls the list to it
    v = view.marked[-1]
    click(app, (view._x(v.index), analysis_view.GRAPH.centery))
    assert view.selected == v.index
    # ... and shows it: that player's hand and the trick then, the better choice as advice
    assert view.showing
    box, items = view.decision_layout()
    shown = [what for what, _img, _where in items if not isinstance(what, str)]
    before = analysis_view.position_before(view.actions, v.index, 3, False)
    assert set(before.hand(v.seat)) <= set(shown) and all(box.contains(r) for _w, _i, r in items)
    assert [c for _s, c in before.observation(v.seat).trick] == [c for c in shown if c not in before.hand(v.seat)]
    assert f"better: {analysis_view.advice_words(v.best, view.names)}" in view.row_text(v)
    assert analysis_view.advice_words(v.best, view.names).split()[0] in ("play", "rob", "don't", "execute")
    click(app, (640, 400))  # any click puts the panel away
    assert not view.showing
    click(app, view.buttons[0].rect.center)  # Back
    assert app.top is table and table.modal == "over"


def test_the_replay_of_a_finished_match_opens_the_analysis(quick, tmp_path):
    app = quick
    final = finished_match()
    path = tmp_path / "m.json"
    path.write_text(Record.from_state(final, players=["Ann", "Bob", "Cy"]).to_json())
    from game.client.royals.saving import open_replay
    assert open_replay(app, path) is None
    replay = app.top
    assert isinstance(replay, RoyalsReplayScene)
    replay.seek(len(replay.actions) - 1)
    replay.step_forward()
    for _i in range(600):
        app.step(STEP)
        if replay.modal == "over":
            break
    assert replay.modal == "over"
    button = next(b for b in replay.modal_buttons if b.text() == "Analyse the match")
    click(app, button.rect.center)
    view = app.top
    assert isinstance(view, RoyalsAnalysisScene) and view.names(1) == "Ann"
    assert view.actions == list(final.history)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    app.step(STEP)
    assert app.top is replay and view.job._stop  # Esc cancels and goes back


def test_only_a_finished_match_is_analysed(app):
    s, rng = State(players=3), Rng(1)
    for _i in range(30):
        event = s.chance()
        s.push(event.sample(rng) if event is not None else rng.choice(s.legal_actions()))
    with pytest.raises(ValueError, match="finished"):
        open_analysis(app, s, lambda seat: f"P{seat}")
    assert app.top is None or not isinstance(app.top, RoyalsAnalysisScene)


def test_cancel_stops_the_worker_process_at_once():
    final = finished_match()
    job = RoyalsAnalysisJob(final.history, 3, False)  # the real thing: a spawned worker
    assert job._proc.is_alive()
    job.cancel()
    assert not job._proc.is_alive()


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr"])
def test_the_analysis_texts_fit_in_every_language(app, language):
    i18n.set_language(language)
    final = finished_match()
    job = RoyalsAnalysisJob(final.history, 3, False, iterations=30, playouts=4, thread=True)
    job.wait(120)
    names = {1: "W" * 32, 2: "Bram", 3: "Cato"}
    view = RoyalsAnalysisScene(app, final.history, 3, False, names.get, job=job)
    app.push(view)
    app.step(STEP)
    rects = [r for _t, _i, r in view.side_layout()]
    half = analysis_view.GRAPH.w // 2
    assert all(r.w <= half - 10 for r in rects) and len(rects) == 3
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(r.bottom < analysis_view.LIST.top for r in rects)
    assert all(b.fits(app.art) for b in view.buttons)
    view.draw(pygame.Surface((1280, 800)))
    view.show(view.marked[-1].index)  # a marked decision's panel: its texts and cards inside it
    box, items = view.decision_layout()
    assert items and all(box.contains(r) for _w, _i, r in items)
    view.draw(pygame.Surface((1280, 800)))
