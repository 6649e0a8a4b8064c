"""A Royals & Riots network match in the window's saved games: one that stopped (a failed check,
the host left) or that this player left is kept at once as an unfinished network match, one that
finished likewise; the list shows it with its players and status, never offers to play it on
here, and opens it in the replay viewer up to its last checked round. The table on a fake session
for the details, and the real thing over 127.0.0.1: a host window that leaves mid-match, a joiner
window whose host leaves."""

from __future__ import annotations

import json
import time

import pygame

from game.client.app import STEP
from game.client.royals.lan import LanTableScene, RoyalsJoinScene, keep_record, save_id
from game.client.royals.replay_view import RoyalsReplayScene
from game.client.royals.scene import RoyalsTableScene
from game.client.saved_games import SavedGamesScene, open_file
from game.royals.engine import Record
from game.saves import SaveStore
from net.royals_session import Failed, RoundChecked, RoyalsSession, StatusChanged
from tests.client.test_royals_lan import (FakeSession, WindowPlayer, headless_joiner, open_host_table,
                                          run_until)
from tests.saves.test_network_saves import lan_record


def button(scene, label: str):
    return next(b for b in scene.buttons if b.label == label)


def table_on(app, fake: FakeSession, store: SaveStore) -> LanTableScene:
    fake.others()
    scene = LanTableScene(app, fake, store=store)
    app.reset(scene)
    app.options.anim_speed = 0.0
    for _i in range(5):
        app.step(STEP)
    return scene


def all_actions(record: Record) -> list[str]:
    return [str(a) for a in record.replay().history]


def test_a_stopped_network_match_is_kept_at_once_and_opens_in_the_replay_viewer(app, driver, tmp_path):
    store = SaveStore(tmp_path)
    fake = FakeSession(seat=2)
    fake.record = Record.from_dict(lan_record(5, rounds=1))  # the rounds every seat checked
    scene = table_on(app, fake, store)
    assert store.list() == []  # nothing is kept while the match goes on
    fake.events += [Failed(1, fake.truth.ply, "", "seat 1 (the host) left: the host left", "left"),
                    StatusChanged("failed", "The host left")]
    fake.status = "failed"
    app.step(STEP)  # (draws the stopped table, with the note that the match is kept)
    assert scene.overlay() == ("failed",)
    [entry] = store.list()
    game = lan_record(5)["lan"]["game"]
    assert entry.path.name == f"royals-{game}-2.json" and scene.kept == str(entry.path)
    assert entry.kind == "lan" and entry.status == "in progress" and entry.players() == "Ann – Bo – Cy"
    assert entry.note() == "Unfinished network match: it can only be watched here (Replay)"
    kept = json.loads(entry.path.read_text(encoding="utf-8"))
    assert kept["rounds"] == lan_record(5, rounds=1)["rounds"] and kept["lan"]["end"] == "left"
    assert [s["level"] for s in kept["seats"]] == [None, None, None]  # two network players and us
    scene.leave()  # the table closes: the same match is kept again, in the same file
    assert [e.path for e in store.list()] == [entry.path]

    saved = SavedGamesScene(app, store)
    app.reset(saved)
    app.step(STEP)
    driver.click(saved.row_rect(0).center)
    assert saved.entry.path == entry.path
    assert not button(saved, "Open").enabled() and button(saved, "Replay").enabled()
    driver.key(pygame.K_RETURN)  # Enter on a network match replays it
    viewer = app.top
    assert isinstance(viewer, RoyalsReplayScene)
    assert [str(a) for a in viewer.actions] == all_actions(fake.record)
    assert [s.name for s in viewer.match.config.seats] == ["Ann", "Bo", "Cy"]


def test_leaving_a_network_match_keeps_it_and_its_end_replaces_it(app, tmp_path):
    store = SaveStore(tmp_path)
    fake = FakeSession(seat=2)
    fake.record = Record.from_dict(lan_record(6, rounds=1, end=""))
    scene = table_on(app, fake, store)
    app.pop()  # the player leaves the table (menu, window closed, SIGTERM: every way closes the scene)
    assert fake.closed
    [entry] = store.list()
    assert entry.kind == "lan" and entry.status == "in progress" and entry.path.name == \
        f"{save_id(fake.record, 2)}.json"
    # the same match, rejoined and finished later: its record replaces the unfinished one
    finished = Record.from_dict(lan_record(6, rounds=None, end="finished"))
    assert keep_record(finished, scene.match, store) == str(entry.path)
    [entry] = store.list()
    assert entry.status == "finished" and entry.note() == "Network match"


def test_each_checked_round_is_kept_off_the_frame_loop_and_the_end_replaces_it(app, tmp_path):
    """After each checked round the match so far is in the saved games (a crash of the window
    loses at most the round in play), written by the table's autosaver thread; the finished
    match's record, kept at its end, replaces it and is not overwritten when the table closes."""
    store = SaveStore(tmp_path)
    fake = FakeSession(seat=2)
    scene = table_on(app, fake, store)
    fake.record = Record.from_dict(lan_record(8, rounds=1, end=""))
    fake.events.append(RoundChecked(1))
    app.step(STEP)
    assert scene._saver is not None and scene._saver.flush(10)
    [entry] = store.list()
    assert entry.kind == "lan" and entry.status == "in progress" and scene.kept is None  # (no stop to show)
    finished = Record.from_dict(lan_record(8, rounds=None, end="finished"))
    fake.record = finished
    from net.royals_session import MatchOver
    fake.events += [RoundChecked(3), MatchOver(finished)]
    app.step(STEP)
    assert scene.saved == str(entry.path)  # on disk once the end is shown
    assert store.list()[0].status == "finished"
    app.pop()
    [entry] = store.list()
    assert entry.status == "finished" and entry.note() == "Network match"
    assert scene._saver._thread.is_alive() is False  # the table's autosaver stopped with it


def test_a_table_left_before_the_session_has_a_record_keeps_nothing(app, tmp_path):
    store = SaveStore(tmp_path)
    table_on(app, FakeSession(seat=2), store)  # (a fake session without a record)
    app.pop()
    assert store.list() == []


def test_a_network_match_file_opened_by_path_is_replayed_not_played_on(app, tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(lan_record(7, rounds=1)), encoding="utf-8")
    assert open_file(app, str(path)) is None
    assert isinstance(app.top, RoyalsReplayScene)
    local = lan_record(7, rounds=1)
    local["kind"] = "local"
    path.write_text(json.dumps(local), encoding="utf-8")
    app.pop()
    assert open_file(app, str(path)) is None  # a local match does play on
    assert type(app.top) is RoyalsTableScene


def test_a_host_window_that_leaves_mid_match_keeps_it_in_its_saved_games(app, driver, tmp_path):
    """The real session over 127.0.0.1: once round 1 is checked the host's player leaves the
    table; its saved games hold the match (round 1, ended "left"), which replays; the joiner
    hears that the host left."""
    app.options.anim_speed = 0.0
    lobby = open_host_table(app, 2, {}, tmp_path)
    joiner = RoyalsSession.join("Bo", "127.0.0.1", lobby.session.port)
    bo = headless_joiner(joiner)
    try:
        start = lobby.buttons[-1]
        run_until(app, start.enabled, "the joiner to take seat 2", [bo])
        driver.click(start.rect.center)
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the table", [bo])
        table: LanTableScene = app.top
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.session.record is not None and len(table.session.record.rounds) >= 1,
                  "round 1 checked", [bo, me], limit=120)
        table.leave()
        run_until(app, lambda: any(isinstance(e, Failed) for e in bo.events), "the joiner to hear it", [bo])
        assert [e.code for e in bo.events if isinstance(e, Failed)] == ["left"]
        [entry] = SaveStore(tmp_path).list()
        assert entry.kind == "lan" and entry.status == "in progress" and entry.players() == "Ann – Bo"
        kept = Record.from_json(entry.path.read_text(encoding="utf-8"))
        assert kept.extra["lan"]["end"] == "left" and len(kept.rounds) >= 1
        assert kept.rounds == joiner.record.rounds  # every seat's copy of the checked rounds
        app.reset(SavedGamesScene(app, SaveStore(tmp_path)))
        driver.click(button(app.top, "Replay").rect.center)
        assert isinstance(app.top, RoyalsReplayScene) and [str(a) for a in app.top.actions] == all_actions(kept)
    finally:
        joiner.close()
        while app.scenes:
            app.pop()


def test_a_joiner_window_whose_host_leaves_keeps_the_match_at_once(app, driver, tmp_path):
    from game.client.royals.lan import RoyalsLobby
    app.options.anim_speed = 0.0
    host = RoyalsSession.host("Ann", seats=2, port=0, bind="127.0.0.1")
    ann = headless_joiner(host, seed=3)
    checked: list = []

    def host_plays() -> None:
        if host.can_start:
            host.start()
        ann()
        checked.extend(e for e in ann.events if isinstance(e, RoundChecked))
    try:
        store = SaveStore(tmp_path)
        join = RoyalsJoinScene(app, name="Bo", listen=False, store=store)
        app.push(join)
        driver.post(pygame.TEXTINPUT, text=f"127.0.0.1:{host.port}")
        driver.key(pygame.K_RETURN)
        run_until(app, lambda: isinstance(app.top, RoyalsLobby), "the lobby")
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the host to start", [host_plays])
        table: LanTableScene = app.top
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.session.record is not None and len(table.session.record.rounds) >= 1,
                  "round 1 checked", [host_plays, me], limit=120)
        host.close()  # the host's player leaves: error{left}
        run_until(app, lambda: table.kept is not None, "the stopped match to be kept", [])
        assert table.overlay() == ("failed",) and isinstance(app.top, LanTableScene)  # still at the table
        [entry] = store.list()
        assert entry.kind == "lan" and entry.status == "in progress" and entry.players() == "Ann – Bo"
        assert entry.path.name.endswith("-2.json")
        assert Record.from_json(entry.path.read_text(encoding="utf-8")).rounds == host.record.rounds
    finally:
        while app.scenes:
            app.pop()
        host.close()


def test_sigterm_at_a_joiners_network_table_keeps_the_match_and_says_goodbye(app, driver, tmp_path):
    """The window turns SIGTERM into a clean exit (App.install_signal_handlers): every scene
    closes, so the table leaves the match with a goodbye (the host sees the seat away at once)
    and keeps the match so far in the saved games."""
    import os
    import signal
    app.options.anim_speed = 0.0
    host = RoyalsSession.host("Ann", seats=2, port=0, bind="127.0.0.1")
    ann = headless_joiner(host, seed=4)

    def host_plays() -> None:
        if host.can_start:
            host.start()
        ann()
    old = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        store = SaveStore(tmp_path)
        app.push(RoyalsJoinScene(app, name="Bo", listen=False, store=store))
        driver.post(pygame.TEXTINPUT, text=f"127.0.0.1:{host.port}")
        driver.key(pygame.K_RETURN)
        run_until(app, lambda: isinstance(app.top, LanTableScene), "the host to start", [host_plays])
        table: LanTableScene = app.top
        me = WindowPlayer(app, driver)
        run_until(app, lambda: table.session.record is not None and len(table.session.record.rounds) >= 1,
                  "round 1 checked", [host_plays, me], limit=120)
        app.install_signal_handlers()
        os.kill(os.getpid(), signal.SIGTERM)
        app.step(STEP)
        assert not app.running and app.signalled == signal.SIGTERM
        while app.scenes:  # what App.run does once its loop ends
            app.pop()
        [entry] = store.list()
        kept = Record.from_json(entry.path.read_text(encoding="utf-8"))
        assert entry.kind == "lan" and entry.status == "in progress" and len(kept.rounds) >= 1
        seen: list = []
        end = time.monotonic() + 10
        while not any(getattr(e, "seats", None) and not e.seats[1].connected for e in seen):
            assert time.monotonic() < end, "the host never saw seat 2 leave"
            seen += host.wait(0.1)
        assert host.status == "playing"  # the host's match waits for seat 2 (it may come back)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        while app.scenes:
            app.pop()
        host.close()


def test_the_plies_column_counts_a_match_as_its_replay_viewer_does(app, driver, tmp_path):
    """One definition of a Royals & Riots match's plies (docs/royals-record-format.md, "Plies"):
    the engine's, every action of its history, the set-up's included. The saved-games list showed
    the written trick actions only (38 for a round its viewer steps through in 46); now the list's
    column, the viewer's "Replay · n / total" and the engine agree, for a network match that
    stopped, one that stopped before any round, a finished one and a whole match of two teams."""
    from game.registry import game_by_key
    from tests.royals.helpers import random_match
    store = SaveStore(tmp_path)
    store.folder.mkdir(parents=True)
    whole = Record.from_state(random_match(9, 4, teams=True), ["Ann", "Bo", "Cy", "Di"]).to_dict()
    records = {"stopped": lan_record(5, rounds=1), "none": lan_record(6, rounds=0),
               "finished": lan_record(7, rounds=None, end="finished"), "teams": whole}
    for name, d in records.items():
        (store.folder / f"{name}.json").write_text(json.dumps(d), encoding="utf-8")
    saved = SavedGamesScene(app, store)
    app.reset(saved)
    app.step(STEP)
    by_name = {e.path.stem: i for i, e in enumerate(saved.entries)}
    assert set(by_name) == set(records)
    for name, d in records.items():
        i = by_name[name]
        entry = saved.entries[i]
        engine = Record.from_dict(d).replay().ply
        assert entry.plies == engine == game_by_key("royals-riots").plies(d)
        if d["rounds"]:
            assert entry.plies > sum(len(r["actions"]) for r in d["rounds"])  # the set-up counts too
        saved.selected = i
        saved.replay()
        viewer = app.top
        assert isinstance(viewer, RoyalsReplayScene) and len(viewer.actions) == entry.plies, name
        app.pop()
