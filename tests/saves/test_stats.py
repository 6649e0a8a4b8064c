"""Statistics per game and computer level: counted at a match's end, once per match,
kept in the data folder atomically, a bad file tolerated with a clear message and nothing lost."""

from __future__ import annotations

import json
import os

import pytest

from game.roseking.engine import Color
from game.roseking.saves import GameMeta, record_result
from game.royals.saves import record_result as record_royals
from game.stats import BROKEN_NAME, FILE_NAME, LevelStats, StatsStore
from tests.royals.helpers import random_match


def test_played_won_best_score_and_streak_per_level(data_dir):
    s = StatsStore()
    assert s.of("rose-king") == {} and s.notice() is None and not (data_dir / FILE_NAME).exists()
    for won, score in [(True, 40), (True, 90), (False, 120), (True, 60)]:
        assert s.record("rose-king", "hard", won, score)
    s.record("rose-king", "easy", False, 10)
    s.record("royals-riots", "medium", True, 14)
    assert s.of("rose-king") == {"easy": LevelStats(1, 0, 10, 0, 0), "hard": LevelStats(4, 3, 120, 1, 2)}
    assert list(s.of("rose-king")) == ["hard", "easy"] and list(s.of("rose-king", ("easy", "hard"))) == ["easy", "hard"]
    again = StatsStore()  # read back from the file, as the next start would
    assert again.of("rose-king") == s.of("rose-king") and again.of("royals-riots") == {"medium": LevelStats(1, 1, 14, 1, 1)}


def test_a_match_is_counted_once(data_dir):
    s = StatsStore()
    assert s.record("rose-king", "medium", True, 50, match_id="abc")
    assert not s.record("rose-king", "medium", True, 50, match_id="abc")  # an undo and the end again
    assert not StatsStore().record("rose-king", "medium", True, 50, match_id="abc")  # also after a restart
    assert s.of("rose-king")["medium"].played == 1


@pytest.mark.parametrize("bad", [("Chess!", "hard", True, 1), ("rose-king", "", True, 1),
                                 ("rose-king", "../x", True, 1), ("rose-king", "hard", 1, 1),
                                 ("rose-king", "hard", True, 1.5), ("rose-king", "hard", True, True)])
def test_bad_arguments_are_refused_and_nothing_is_written(data_dir, bad):
    s = StatsStore()
    with pytest.raises(ValueError):
        s.record(*bad)
    assert not (data_dir / FILE_NAME).exists()


@pytest.mark.parametrize("content", ["", "{", "[1]", "null", b"\xff\x00", '{"games": 3}', '{"counted": "x"}'])
def test_a_damaged_file_is_kept_aside_and_counting_goes_on(data_dir, content):
    data_dir.mkdir()
    path = data_dir / FILE_NAME
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    original = path.read_bytes()
    s = StatsStore()
    assert s.notice() == ("The statistics file was damaged; what could be read is kept. "
                          f"A copy was kept as {BROKEN_NAME}.")
    assert (data_dir / BROKEN_NAME).read_bytes() == original  # nothing lost
    s.record("rose-king", "easy", True, 3)
    assert StatsStore().of("rose-king") == {"easy": LevelStats(1, 1, 3, 1, 1)} and StatsStore().notice() is None


def test_a_bad_level_entry_drops_alone_and_other_games_are_kept(data_dir):
    data_dir.mkdir()
    good = {"played": 2, "won": 1, "best_score": 9, "streak": 1, "best_streak": 1}
    (data_dir / FILE_NAME).write_text(json.dumps({"version": 1, "games": {
        "rose-king": {"hard": good, "easy": {**good, "won": 5}, "medium": "x", "Hard!": good},
        "chess": {"elo-2000": good}}, "counted": ["m1"]}))
    s = StatsStore()
    assert s.of("rose-king") == {"hard": LevelStats(2, 1, 9, 1, 1)} and "damaged" in s.notice()
    assert not s.record("rose-king", "hard", True, 1, match_id="m1")
    s.record("rose-king", "hard", True, 1)
    data = json.loads((data_dir / FILE_NAME).read_text())
    assert data["games"]["chess"] == {"elo-2000": good} and set(data["games"]["rose-king"]) == {"hard"}


def test_a_failed_write_keeps_the_numbers_and_says_so(data_dir, monkeypatch):
    s = StatsStore()
    s.record("rose-king", "easy", True, 3)
    before = (data_dir / FILE_NAME).read_bytes()

    def full(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    s.record("rose-king", "easy", True, 5)
    assert s.of("rose-king")["easy"].played == 2 and s.notice() == "The statistics could not be saved (the disk is full)."
    assert (data_dir / FILE_NAME).read_bytes() == before and sorted(p.name for p in data_dir.iterdir()) == [FILE_NAME]


def test_a_rose_king_game_against_the_computer_counts_at_its_end(data_dir, game):
    stats = StatsStore()  # the window's own store, handed in (no global one)
    meta = GameMeta.new("computer", red="Ann", computer_level="greedy", computer_color=Color.WHITE)
    unfinished, finished = game(3, upto=10), game(3)
    assert not record_result(stats, meta, unfinished)
    assert record_result(stats, meta, finished) and not record_result(stats, meta, finished)
    out = finished.outcome()
    assert StatsStore().of("rose-king") == stats.of("rose-king") == {"greedy": LevelStats(1, int(out.winner is Color.RED), out.red_score,
                                                                   int(out.winner is Color.RED),
                                                                   int(out.winner is Color.RED))}
    assert not record_result(stats, GameMeta.new("local"), game(4))  # two people: not against the computer


def test_a_royals_match_against_the_computer_counts_for_its_strongest_level(data_dir):
    stats = StatsStore()
    state = random_match(6, 3)
    out = state.outcome()
    assert not record_royals(stats, [None, "easy", "hard"], random_match(6, 3, upto=40), "m")
    assert not record_royals(stats, [None, None, "hard"], state, "m")  # two people: nobody's own result
    assert record_royals(stats, ["easy", None, "hard"], state, "m")
    assert not record_royals(stats, ["easy", None, "hard"], state, "m")
    won = 2 in out.winners
    assert stats.of("royals-riots") == {"hard": LevelStats(1, int(won), out.scores[1], int(won), int(won))}
    teams = random_match(7, 4, teams=True)
    assert record_royals(stats, [None, "easy", "medium", "easy"], teams, "t")
    assert stats.of("royals-riots")["medium"].best_score == teams.outcome().team_scores[0]
