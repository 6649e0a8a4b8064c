"""Save store: autosave after each move, save as, list, delete, resume, metadata."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from game.roseking.engine import Color, Record, Rng, State
from game.roseking.saves import GameMeta, load_game, read_record
from game.saves import SaveStore, default_data_dir
from game.roseking.undo import DeckChance, UndoHistory


def test_data_dir_comes_from_env_then_argument(data_dir, tmp_path, monkeypatch):
    assert default_data_dir() == data_dir
    assert SaveStore().folder == data_dir / "saves"
    assert SaveStore(tmp_path / "other").folder == tmp_path / "other" / "saves"
    monkeypatch.delenv("ROSE_KING_DATA_DIR")
    assert default_data_dir().name == "rose-king"  # platformdirs' user data folder (not written to)


def test_autosave_after_each_move_holds_the_game_so_far(data_dir):
    """Drive a game against the computer through the API, autosaving after each move
    as the game screen does; after every move the file replays to the live state."""
    store = SaveStore()
    meta = GameMeta.new("computer", red="Ann", computer_level="random", computer_color=Color.WHITE)
    state = State.random(Rng(11))
    history = UndoHistory(state, humans=[Color.RED], chance=DeckChance(meta.chance_seed))
    rng = Rng(12)
    path = store.autosave(state, meta)  # the empty game is saved at once
    assert read_record(path).moves == []
    while not state.is_game_over():
        history.push(rng.choice(state.legal_moves()))
        store.autosave(state, meta)
        saved = read_record(path)
        assert saved.replay() == state
        assert saved.extra["game_id"] == meta.game_id
    assert saved.result == state.outcome().result()
    assert [p.name for p in store.folder.iterdir()] == [f"{meta.game_id}.json"]  # one file, no temp litter


def test_autosave_after_undo_shortens_the_save(game):
    store = SaveStore()
    meta = GameMeta.new("local")
    state = game(3, upto=10)
    history = UndoHistory(state, humans=[Color.RED, Color.WHITE])
    store.autosave(state, meta)
    history.undo()
    store.autosave(state, meta)
    assert len(load_game(store.path_for(meta.game_id))[0].move_stack) == 9


def test_metadata_round_trips_through_the_record(game):
    meta = GameMeta.new("computer", red="Ann", white="Computer (greedy)", computer_level="greedy",
                        computer_color=Color.WHITE, chance_seed=1234)
    state = game(4, upto=20)
    path = SaveStore().autosave(state, meta)
    loaded_state, loaded = load_game(path)
    assert loaded == meta
    assert loaded_state == state
    raw = json.loads(path.read_text("utf-8"))
    assert raw["kind"] == "computer" and raw["computer"] == {"level": "greedy", "color": "white"}
    assert raw["chance_seed"] == 1234 and raw["game_id"] == meta.game_id


def test_a_record_from_elsewhere_opens_as_a_local_game(tmp_path, game):
    path = tmp_path / "from-a-friend.json"
    path.write_text(Record.from_state(game(5, upto=7), red="A", white="B").to_json(), "utf-8")
    state, meta = load_game(path)
    assert (meta.kind, meta.game_id, meta.red, meta.white) == ("local", "from-a-friend", "A", "B")
    assert meta.chance_seed is None
    assert state.ply == 7


def test_malformed_extra_keys_fall_back_instead_of_failing(tmp_path, game):
    rec = Record.from_state(game(5, upto=3))
    rec.extra = {"game_id": "../../etc", "kind": "computer", "computer": {"level": 3}, "chance_seed": "x"}
    path = tmp_path / "odd.json"
    path.write_text(rec.to_json(), "utf-8")
    _state, meta = load_game(path)
    assert (meta.game_id, meta.kind, meta.computer_level, meta.chance_seed) == ("odd", "local", None, None)


def test_bad_metadata_is_refused_when_building_it():
    with pytest.raises(ValueError, match="bad game id"):
        GameMeta("../x")
    with pytest.raises(ValueError, match="bad game kind"):
        GameMeta("abc", kind="online")
    with pytest.raises(ValueError, match="needs computer_level"):
        GameMeta("abc", kind="computer")
    assert GameMeta.new("lan").chance_seed is None


def test_save_as_writes_a_chosen_file(tmp_path, game):
    state = game(6)
    meta = GameMeta.new("local", red="Ann", white="Bob")
    target = tmp_path / "chosen folder" / "my game.json"
    target.parent.mkdir()
    assert SaveStore.save_as(state, meta, target) == target
    assert read_record(target).replay() == state
    assert [p.name for p in target.parent.iterdir()] == ["my game.json"]


def test_list_shows_date_players_result_plies_kind(game):
    store = SaveStore()
    finished = GameMeta.new("computer", red="Ann", white="Computer", computer_level="greedy",
                            computer_color=Color.WHITE)
    running = GameMeta.new("local", red="Ann", white="Bob")
    done_state = game(7)
    store.autosave(done_state, finished)
    store.autosave(game(8, upto=12), running)
    entries = {e.game_id: e for e in store.list()}
    a, b = entries[finished.game_id], entries[running.game_id]
    assert a.ok and a.status == "finished" and a.kind == "computer" and a.date == finished.date
    assert a.plies == done_state.ply and a.result == done_state.outcome().result()
    # the computer's seat is named by its level in the language shown, whatever the file says
    assert a.players() == "Ann – Computer · Casual" and a.game == "rose-king"
    outcome = done_state.outcome()
    score = f"{outcome.red_score}–{outcome.white_score}"
    assert a.status_text() == {Color.RED: f"Ann wins {score}", Color.WHITE: f"Computer · Casual wins {score}",
                               None: f"Draw {score}"}[outcome.winner]  # the winner by name, not by colour
    assert a.note() == "Against the computer (Casual)" and b.note() == "Two people at one screen"
    from game import i18n
    i18n.set_language("fr")
    try:
        assert a.players() == "Ann – Ordinateur · Détendu" and a.note() == "Contre l’ordinateur (Détendu)"
    finally:
        i18n.set_language("en")
    assert a.progress() == f"{done_state.ply} moves"
    mover = {Color.RED: "Ann", Color.WHITE: "Bob"}[Color(game(8, upto=12).turn)]
    assert b.status == "in progress" and b.status_text() == f"in progress · {mover} to move" and b.plies == 12
    assert b.progress() == f"12 moves · {game(8, upto=12).stones_left} stones left"
    assert store.list()[0].game_id == running.game_id  # newest first


def test_list_of_a_missing_folder_is_empty():
    assert SaveStore().list() == []
    assert SaveStore().resumable() is None


def test_delete_removes_one_save(game):
    store = SaveStore()
    keep, drop = GameMeta.new(), GameMeta.new()
    store.autosave(game(1, upto=4), keep)
    store.autosave(game(2, upto=4), drop)
    store.delete(drop.game_id)
    assert [e.game_id for e in store.list()] == [keep.game_id]
    with pytest.raises(FileNotFoundError):
        store.delete(drop.game_id)
    with pytest.raises(ValueError):
        store.delete("../../outside")


def test_delete_a_bad_entry_by_its_entry(tmp_path):
    store = SaveStore()
    store.folder.mkdir(parents=True)
    (store.folder / "broken file.json").write_bytes(b"\x00\x01")
    (entry,) = store.list()
    assert not entry.ok
    store.delete(entry)
    assert store.list() == []
    from game.saves import SaveEntry
    outside = tmp_path / "x.json"
    outside.write_text("{}")
    with pytest.raises(ValueError, match="not a save of this store"):
        store.delete(SaveEntry(outside, "x", 0, error="x"))
    assert outside.exists()


def test_resumable_is_the_newest_unfinished_local_game(game):
    store = SaveStore()
    old = GameMeta.new("local")
    new = GameMeta.new("computer", computer_level="random", computer_color=Color.RED)
    lan = GameMeta.new("lan")
    done = GameMeta.new("local")
    store.autosave(game(1, upto=5), old)
    store.autosave(game(2, upto=5), new)
    store.autosave(game(3, upto=5), lan)
    store.autosave(game(4), done)
    (store.folder / "junk.json").write_text("not json")
    t = 1_700_000_000
    for i, meta in enumerate([old, new, lan, done]):  # write order = age order, explicit
        os.utime(store.path_for(meta.game_id), (t + i, t + i))
    assert store.resumable().game_id == new.game_id
    store.delete(new.game_id)
    assert store.resumable().game_id == old.game_id
    state, meta = load_game(store.path_for(old.game_id))
    assert state == game(1, upto=5) and meta == old


def test_the_list_rereads_only_changed_files(game, monkeypatch):
    import game.saves as saves
    store = SaveStore()
    a, b = GameMeta.new(), GameMeta.new()
    store.autosave(game(1, upto=3), a)
    store.autosave(game(2, upto=3), b)
    reads = []
    real = saves.read_json_record
    monkeypatch.setattr(saves, "read_json_record", lambda p: reads.append(Path(p).stem) or real(p))
    store.list()
    assert sorted(reads) == sorted([a.game_id, b.game_id])
    reads.clear()
    store.list()
    assert reads == []
    store.autosave(game(1, upto=4), a)  # an autosave changes the file: it is read again
    entries = {e.game_id: e for e in store.list()}
    assert reads == [a.game_id] and entries[a.game_id].plies == 4
    store.delete(b.game_id)
    assert [e.game_id for e in store.list()] == [a.game_id]


def test_two_royals_matches_of_the_same_names_read_apart_by_game_and_kind():
    """Hot-seat and against the computer, both "Alice – Bob": the list's game and kind of match tell them apart."""
    from game.client.royals.saving import RoyalsSave
    from game.royals.match import Seat, TableConfig, TableMatch
    from game.client.saved_games import game_title
    store = SaveStore()
    notes = {}
    for kind, bob in (("hot", Seat("Bob")), ("cpu", Seat("Bob", "hard")), ("undo", Seat("Bob", "easy"))):
        m = TableMatch(TableConfig([Seat("Alice"), bob], seed=3))
        m.advance()
        m.undo_marked = kind == "undo"
        save = RoyalsSave.new(m)
        store.write(save.game_id, save.record(m.state).to_json())
        notes[kind] = save.game_id
    entries = {e.game_id: e for e in store.list()}
    assert {entries[g].players() for g in notes.values()} == {"Alice – Bob"}
    assert {game_title(entries[g].game) for g in notes.values()} == {"Royals & Riots"}
    assert entries[notes["hot"]].note() == "People at one screen"
    assert entries[notes["cpu"]].note() == "Against the computer (Hard)"
    assert entries[notes["undo"]].note() == "Against the computer (Easy) · played with undo"
