"""The game record: round trips, and every kind of bad record with its clear error."""

import json

import pytest

from game.roseking.engine import Record, RecordError, State

from .helpers import random_game

DEAL = {"red": ["N1", "NE2", "E3", "S1", "W2"], "white": ["SE1", "SW3", "NW1", "N3", "E1"]}


def rec(**over):
    d = {"format": "rose-king-record", "version": 1, "deal": DEAL, "moves": []}
    d.update(over)
    return json.dumps({k: v for k, v in d.items() if v is not ...})


def test_example_from_the_issue_parses():
    text = json.dumps({"format": "rose-king-record", "version": 1, "red": "Alice", "white": "Bob",
                       "date": "2026-11-22T10:00:00Z", "deal": DEAL,
                       "moves": ["red play NE2", "white play SE1", "red draw S3"]})
    r = Record.from_json(text)
    s = r.replay()
    assert (r.red, r.white, r.date) == ("Alice", "Bob", "2026-11-22T10:00:00Z")
    assert s.ply == 3 and str(s.turn) == "white"


def test_unknown_top_level_keys_are_ignored_and_kept():
    r = Record.from_json(rec(kind="local", game_id="abc"))
    assert r.extra == {"kind": "local", "game_id": "abc"}
    assert json.loads(r.to_json())["kind"] == "local"


def test_finished_game_with_result_round_trips_and_result_is_checked():
    s = random_game(5)
    r = Record.from_state(s)
    assert r.result == s.outcome().result()
    Record.from_json(r.to_json()).replay()
    bad = json.loads(r.to_json())
    bad["result"]["red"] += 1
    with pytest.raises(RecordError, match="result does not match"):
        Record.from_json(json.dumps(bad)).replay()
    bad["result"] = {"red": 0, "white": 0, "winner": "draw"}
    s2 = random_game(5, upto=10)
    unfinished = json.loads(Record.from_state(s2).to_json())
    unfinished["result"] = bad["result"]
    with pytest.raises(RecordError, match="result does not match: the record has a result but the game is not over"):
        Record.from_json(json.dumps(unfinished)).replay()


@pytest.mark.parametrize("text,why", [
    (b"", "invalid JSON"),
    (b"\xff\xfe garbage", "not UTF-8"),
    (b"{\"format\": \"rose-king-record\", \"version\": 1, \"deal\"", "invalid JSON"),
    (b"[1, 2, 3]", "top level must be a JSON object"),
    (b"[" * 100_000, "invalid JSON|nested too deeply"),
    (rec(format="chess-pgn"), "format must be 'rose-king-record'"),
    (rec(format=...), "format must be"),
    (rec(version=2), "version 2 is newer than this program reads"),
    (rec(version="1"), "bad version"),
    (rec(version=0), "bad version"),
    (rec(deal=...), "bad deal"),
    (rec(deal={"red": DEAL["red"]}), "bad deal"),
    (rec(deal={"red": DEAL["red"][:4], "white": DEAL["white"]}), "bad deal: red must be dealt exactly 5"),
    (rec(deal={"red": DEAL["red"], "white": ["SE1", "SW3", "NW1", "N3", "N1"]}), "bad deal: both hands hold N1"),
    (rec(deal={"red": ["N1", "N1", "E3", "S1", "W2"], "white": DEAL["white"]}), "same card twice"),
    (rec(deal={"red": ["N9", "NE2", "E3", "S1", "W2"], "white": DEAL["white"]}), "not a power card"),
    (rec(deal={"red": "N1 NE2", "white": DEAL["white"]}), "bad deal"),
    (rec(moves="red play NE2"), "moves"),
    (rec(moves=...), "moves"),
    (rec(red=5), 'bad "red"'),
    (rec(result={"red": 1}), "bad result"),
    (rec(result={"red": 1, "white": 2, "winner": "blue"}), "bad result"),
    (rec(result={"red": "1", "white": 2, "winner": "red"}), "bad result"),
])
def test_files_that_are_not_records(text, why):
    with pytest.raises(RecordError, match=why) as e:
        Record.from_json(text).replay()
    assert e.value.move_number is None


@pytest.mark.parametrize("moves,number,why", [
    (["red play NE2", 7], 2, "move must be a string"),
    (["red fly NE2"], 1, "unknown action"),
    (["green play NE2"], 1, "not a colour"),
    (["red play NE2", "white play XX"], 2, "not a power card"),
    (["red play SE1"], 1, "not in hand: SE1"),
    (["white play SE1"], 1, "wrong player to move"),
    (["red draw N2"], 1, "hand full"),
    (["red play NE2", "white play E1", "red draw E1"], 3, "card not in the draw pile: E1"),
    (["red play N1", "white play N3", "red play N1"], 3, "not in hand: N1"),
    (["red play E3", "white play E1", "red play NE2"], 3, "off the board: NE2 from i5 leaves the board"),
    (["red play E3", "white hero SW3"], 2, "hero needs an opponent's stone: e2 is empty"),
    (["red play W2", "white play E1", "red play N1"], 3, None),
    (["red play W2", "white play E1", "red play NE2", "white play SW3"], 4, None),
])
def test_illegal_moves_name_the_rule_and_the_move(moves, number, why):
    if why is None:  # a legal sequence: it must replay
        assert Record.from_json(rec(moves=moves)).replay().ply == len(moves)
        return
    with pytest.raises(RecordError, match=why) as e:
        Record.from_json(rec(moves=moves)).replay()
    assert e.value.move_number == number
    assert str(e.value).startswith(f"move {number} ")


def test_square_occupied():
    r = Record.from_json(rec(moves=["red play N1", "white play N3", "red play E3", "white play SW3"]))
    with pytest.raises(RecordError, match="square occupied: e6 holds a stone") as e:
        r.replay()
    assert e.value.move_number == 4


def test_no_hero_cards_left():
    s = State.from_position(red=["e5"], white=["e6", "e8"], crown="e5", red_hand=["N1", "N2", "E1"],
                            white_hand=["S1"], heroes=(1, 4))
    s.push_str("red hero N1")
    s.push_str("white draw W1")
    with pytest.raises(Exception, match="no hero cards left"):
        s.push_str("red hero N2")


def test_game_already_over():
    s = random_game(8)
    d = json.loads(Record.from_state(s, with_result=False).to_json())
    d["moves"].append(d["moves"][-1])
    with pytest.raises(RecordError, match="game already over") as e:
        Record.from_json(json.dumps(d)).replay()
    assert e.value.move_number == len(d["moves"])


def test_truncated_files_never_crash():
    text = Record.from_state(random_game(11)).to_json().encode()
    for cut in range(0, len(text), max(1, len(text) // 97)):
        try:
            Record.from_json(text[:cut]).replay()
        except RecordError:
            pass


def test_unfinished_game_is_a_valid_record_and_replay_upto():
    s = random_game(12, upto=25)
    r = Record.from_json(Record.from_state(s).to_json())
    assert r.result is None
    assert r.replay() == s
    assert r.replay(upto=10).ply == 10


def test_new_state_is_the_deal():
    s = Record.from_json(rec()).new_state()
    assert sorted(c.name for c in s.hand(0)) == sorted(DEAL["red"])
    assert sorted(c.name for c in s.hand(1)) == sorted(DEAL["white"])
    assert s.deal[0] == tuple(__import__("game.roseking.engine").roseking.engine.Card.from_name(n) for n in DEAL["red"])
