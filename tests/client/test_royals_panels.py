"""What the Royals & Riots table's panels say: the result's scoring cards labelled with their round,
the last trick's review of a theft (the robbed player's card went back to their hand), the caption
of a trick that turned the order, and the revolution's announcement long enough to read."""

from __future__ import annotations

import pytest

from game.client.royals.anims import DURATIONS
from game.client.royals.scene import RoyalsTableScene
from game.royals.match import Seat, TableConfig, TableMatch, choose_for, computer_player
from game.royals.phrases import card_name


def random_match(seed: int, players: int = 3) -> TableMatch:
    return TableMatch(TableConfig([Seat(n, "random") for n in ("Ann", "Bob", "Cas", "Dee")[:players]], seed=seed))


def step_until(m: TableMatch, stop, seed: int) -> bool:
    bots = {s: computer_player("random", seed * 10 + s) for s in range(1, m.players + 1)}
    m.advance()
    while not m.state.is_over():
        if stop(m):
            return True
        seat = m.decider()
        m.apply(choose_for(m.state, seat, bots[seat]))
    return stop(m)


def table(app, m: TableMatch) -> RoyalsTableScene:
    scene = RoyalsTableScene(app, m, on_new_game=lambda: None, on_main_menu=lambda: None, advance=False)
    app.push(scene)
    return scene


def test_the_result_labels_the_scoring_cards_with_their_round(app):
    m = random_match(1)
    step_until(m, lambda mm: False, 1)
    scene = table(app, m)
    scene.round_loot = [[c for c in loot] for loot in scene.view.loot]  # round 3's loots, as the beats leave them
    scene.modal = "over"
    texts = [t for t, _s, _r in scene.layout.modal_layout()[1]]
    with_cards = sum(1 for loot in scene.round_loot if loot)
    assert with_cards and texts.count("Round 3") == 1 + with_cards  # the column head, then one per seat


def test_the_last_trick_says_the_robbed_player_took_their_card_back(app):
    for seed in range(60):
        m = random_match(seed)
        if step_until(m, lambda mm: mm.last_trick is not None and mm.last_trick.robbed
                      and any(s == mm.last_trick.robbed for s, _c in mm.last_trick.plays), seed):
            break
    else:
        raise AssertionError("no theft from a player in the trick in 60 matches")
    lt = m.last_trick
    back = next(c for s, c in lt.plays if s == lt.robbed)
    assert (lt.robbed, back) not in lt.kept  # it lies dimmed in the review ...
    lines = table(app, m).painter.last_trick_lines()
    assert f"{m.name(lt.robbed)} took {card_name(back)} back into their hand." in lines  # ... and the review says why


@pytest.mark.parametrize("kind", ["revolution", "restore"])
def test_a_trick_that_turns_the_order_says_so_in_its_caption(app, kind):
    app.options.anim_speed = 4.0
    for seed in range(80):
        m = random_match(seed)
        beats: list = []
        bots = {s: computer_player("random", s) for s in (1, 2, 3)}
        beats = m.advance()
        while not m.state.is_over() and not any(b.kind == kind for b in beats):
            seat = m.decider()
            beats = m.apply(choose_for(m.state, seat, bots[seat]))
        if any(b.kind == kind for b in beats):
            break
    else:
        raise AssertionError(f"no {kind} in 80 matches")
    scene = table(app, m)
    scene.view = scene.view.__class__.of(m.state)  # (the picture before the beats is not needed here)
    scene._queue_beats(beats)
    notes = set()
    for _i in range(2000):
        scene.update(1 / 60)
        if scene.anim is not None and scene.anim.beat.kind in ("trick", "void"):
            notes.add(scene.painter.trick_note())
        if scene.idle() or scene.modal:
            break
    want = "This trick started a revolution" if kind == "revolution" else "This trick ended the revolution"
    assert any(n.startswith(want) for n in notes), notes
    assert DURATIONS[kind] >= 4.0  # at normal speed, seconds to read the announcement


def test_the_replay_of_a_finished_match_offers_the_analysis_anywhere_and_its_result_at_the_end(app):
    from game.client.royals.analysis_view import JOB_OPTIONS, RoyalsAnalysisScene
    from game.client.royals.replay_view import RoyalsReplayScene
    app.options.anim_speed = 0.0
    m = random_match(3, players=2)
    step_until(m, lambda mm: False, 3)
    replay = RoyalsReplayScene(app, m, on_back=app.pop)
    app.push(replay)
    replay.seek(40)
    assert replay.prompt_text() == ""  # nobody is "thinking" in a replay
    analyse = next(b for b in replay.buttons if b.text() == "Analyse")
    JOB_OPTIONS.update(iterations=4, playouts=1, thread=True)
    try:
        analyse.action()
        assert isinstance(app.top, RoyalsAnalysisScene) and len(app.top.actions) == len(m.state.history)
        app.top.job.cancel()
    finally:
        JOB_OPTIONS.clear()
    app.pop()
    replay.seek(len(replay.actions))  # the end: the result, with the analysis among its buttons
    assert replay.modal == "over" and any(b.text() == "Analyse the match" for b in replay.modal_buttons)
    unfinished = random_match(4, players=2)
    step_until(unfinished, lambda mm: mm.state.ply > 30, 4)
    assert not any(b.text() == "Analyse" for b in RoyalsReplayScene(app, unfinished, on_back=app.pop).buttons)
