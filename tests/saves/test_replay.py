"""The replay model: full games, seeking equals stepping, per-ply info, playback clock, --text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cli import main
from game.roseking.engine import Record, RecordError, Rng, State
from game.roseking.replay import MAX_SPEED, MIN_SPEED, Playback, Replay
from game.roseking.saves import GameMeta
from game.saves import SaveStore

PASS_SEED = 27  # a random game with 4 passes, ending blocked (tests/saves/conftest.random_game)


def _positions(state: State) -> list[State]:
    """Every position of ``state``'s game, by stepping from the deal with checked pushes."""
    s = State(*state.deal)
    out = [s.copy()]
    for m in state.move_stack:
        s.push_checked(m)
        out.append(s.copy())
    return out


@pytest.mark.parametrize("seed", [1, 2, PASS_SEED, 160])
def test_replay_of_a_full_game_reaches_the_same_final_state_and_scores(seed, game):
    live = game(seed)
    replay = Replay(Record.from_json(Record.from_state(live).to_json()))
    assert replay.length == live.ply
    assert replay.to_end() == live
    assert replay.final_state == live
    assert replay.outcome == live.outcome()
    assert replay.scores[-1] == live.scores() == (replay.outcome.red_score, replay.outcome.white_score)


@pytest.mark.parametrize("every", [1, 5, 16, 1000])
def test_seeking_forward_and_back_equals_stepping(every, game):
    live = game(PASS_SEED)
    positions = _positions(live)
    replay = Replay(Record.from_state(live), snapshot_every=every)
    rng = Rng(every)
    for _ in range(150):  # random jumps, near and far, forward and back
        ply = rng.randbelow(replay.length + 1)
        state = replay.seek(ply)
        assert replay.ply == ply and state == positions[ply] and state.passed() == positions[ply].passed()
        assert replay.state_at(ply) == positions[ply]
    replay.to_start()
    for ply in range(1, replay.length + 1):  # step forward all the way...
        info = replay.step_forward()
        assert info.number == ply and replay.state == positions[ply]
    assert replay.step_forward() is None and replay.at_end()
    for ply in range(replay.length - 1, -1, -1):  # ...and back
        info = replay.step_back()
        assert info.number == ply + 1 and replay.state == positions[ply]
    assert replay.step_back() is None and replay.at_start()


def test_seek_clamps_and_state_at_checks_range(game):
    replay = Replay(Record.from_state(game(3, upto=20)))
    assert replay.seek(-5).ply == 0 and replay.seek(999).ply == 20
    with pytest.raises(IndexError):
        replay.state_at(21)
    with pytest.raises(ValueError):
        Replay(Record.from_state(game(3, upto=2)), snapshot_every=0)


def test_state_at_is_a_copy_that_cannot_disturb_the_cursor(game):
    replay = Replay(Record.from_state(game(4, upto=40)))
    replay.seek(30)
    s = replay.state_at(30)
    s.pop()
    assert replay.state.ply == 30 and replay.seek(31).ply == 31


def test_per_ply_info_who_what_passes_and_scores(game):
    live = game(PASS_SEED)
    positions = _positions(live)
    replay = Replay(Record.from_state(live))
    assert replay.scores == [p.scores() for p in positions]
    passes = 0
    for info, before, after in zip(replay.moves, positions[:-1], positions[1:], strict=True):
        assert info.player == before.turn and info.move == after.move_stack[-1]
        assert info.text == str(info.move) and info.scores == after.scores()
        assert (info.crown_from, info.crown_to) == (before.crown, after.crown)
        assert info.stones_left == after.stones_left
        if after.passed():
            passes += 1
            assert info.passed == info.player.other and after.turn == info.player
        else:
            assert info.passed is None
    assert passes == len(replay.passes()) == 4
    assert replay.current() is None
    replay.seek(5)
    assert replay.current() is replay.moves[4]


def test_move_texts_for_the_list():
    s = State.random(Rng(2))
    for text in ["red play N1", "white play E2", "red draw E1"]:
        s.push_str(text)
    r = Replay(Record.from_state(s))
    assert [m.notation() for m in r.moves] == ["N1 e5-e6", "E2 e6-g6", "draw E1"]
    assert r.moves[0].describe() == "Red plays N1 to e6."
    assert r.moves[2].describe() == "Red draws E1."


def test_a_hero_and_a_pass_are_described(game):
    replay = Replay(Record.from_state(game(PASS_SEED)))
    hero = next(m for m in replay.moves if m.flipped)
    assert hero.notation().startswith("hero ") and "turning the stone" in hero.describe()
    passed = replay.passes()[0]
    assert passed.describe().endswith(("Red has to pass.", "White has to pass."))


def test_a_bad_record_is_refused_with_the_move_named(game):
    rec = Record.from_state(game(5, upto=10))
    colour, rest = rec.moves[6].split(" ", 1)
    rec.moves[6] = ("white " if colour == "red" else "red ") + rest
    with pytest.raises(RecordError) as err:
        Replay(rec)
    assert err.value.move_number == 7 and err.value.reason.startswith("wrong player to move")


def test_playback_plays_pauses_and_respects_speed(game):
    replay = Replay(Record.from_state(game(6, upto=10)))
    p = Playback(replay, seconds_per_ply=1.0)
    assert p.update(5.0) == []  # paused at first
    p.toggle()
    assert [i.number for i in p.update(0.99)] == [] and [i.number for i in p.update(0.02)] == [1]
    p.set_speed(4.0)
    assert [i.number for i in p.update(0.5)] == [2, 3]
    assert p.set_speed(99) == MAX_SPEED and p.set_speed(0.01) == MIN_SPEED
    p.set_speed(1.0)
    assert p.faster() == 1.5 and p.slower() == 1.0 and p.slower() == 0.5 and p.slower() == 0.5
    p.set_speed(4.0)
    assert p.faster() == 4.0
    p.toggle()
    assert not p.playing and p.update(10) == []
    p.seek(8)
    p.play()
    assert [i.number for i in p.update(100)] == [9, 10]
    assert not p.playing and replay.at_end()
    p.play()  # play at the end starts again from the beginning
    assert replay.ply == 0 and p.playing


def test_replay_text_command(game, capsys):
    live = game(PASS_SEED)
    path = SaveStore().autosave(live, GameMeta.new())
    assert main(["replay", "--text", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ply", "move", "red", "white"]
    assert lines[1].split() == ["0", "(start)", "0", "0"]
    assert len(lines) == live.ply + 3
    for info, line in zip(Replay(Record.from_state(live)).moves, lines[2:-1], strict=True):
        fields = line.split()
        assert fields[0] == str(info.number) and " ".join(fields[1:4]) == info.text
        assert (int(fields[4]), int(fields[5])) == info.scores
        assert (f"{info.passed} passes" in line) == (info.passed is not None)
    out = live.outcome()
    winner = "draw" if out.winner is None else f"{out.winner} wins"
    assert lines[-1].startswith(f"result: red {out.red_score}, white {out.white_score} - {winner}")


def test_replay_text_of_an_unfinished_game(game, capsys):
    path = SaveStore().autosave(game(8, upto=5), GameMeta.new())
    assert main(["replay", "--text", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("in progress: red ")


def test_replay_without_text_opens_the_window_or_says_why_not(game, capsys, monkeypatch):
    import sys
    import types
    path = SaveStore().autosave(game(8, upto=5), GameMeta.new())
    calls = []
    fake = types.ModuleType("game.client.main")
    fake.run = lambda argv: calls.append(argv) or 0
    monkeypatch.setitem(sys.modules, "game.client.main", fake)
    assert main(["replay", str(path)]) == 0
    assert calls == [["--replay", str(path)]]
    monkeypatch.setitem(sys.modules, "game.client.main", None)  # import fails
    assert main(["replay", str(path)]) == 1
    assert "the game window is not available" in capsys.readouterr().err


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(-3, 200), min_size=1, max_size=30), st.integers(1, 20))
def test_any_seek_sequence_matches_a_fresh_replay(seed, plies, every):
    rng = Rng(seed)
    s = State.random(rng)
    while not s.is_game_over():
        m = rng.choice(s.legal_moves())
        s.push(m if m.card is not None else m.with_outcome(rng.choice(s.chance_outcomes())))
    rec = Record.from_state(s)
    replay = Replay(rec, snapshot_every=every)
    for ply in plies:
        got = replay.seek(ply)
        want = rec.replay(upto=max(0, min(ply, replay.length)))
        assert got == want
