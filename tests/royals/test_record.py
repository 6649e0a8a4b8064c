"""The record: the issue's sample, round trips, the check command's lines, and bad records of every kind."""

import copy
import json
import re

import pytest

from game.cli import main
from game.records import RecordError as BaseRecordError
from game.registry import game_for_record
from game.royals.engine import SAMPLE, Action, Card, Phase, Rank, Record, cards_of, status_line

from .helpers import random_match


def check(d) -> str:
    """The check line of a record dict (``ok ...`` or ``error ...``)."""
    try:
        return game_for_record(d).check(d)
    except BaseRecordError as e:
        return e.check_line()


def write(tmp_path, name, d):
    p = tmp_path / name
    p.write_text(json.dumps(d) if not isinstance(d, str) else d, encoding="utf-8")
    return str(p)


def full(seed=3, players=3, teams=False) -> dict:
    return Record.from_state(random_match(seed, players, teams), date="2026-11-22T10:00:00Z").to_dict()


# ---------------------------------------------------------------- the sample
def test_sample_record_checks_as_described():
    assert check(SAMPLE) == "ok in-progress round=1 trick=4 to-act=3 scores=6,0,1"
    s = Record.from_dict(SAMPLE).replay()
    c = Card.from_name
    # trick 1: Knights led, Rebels: revolution, the Guildmaster K4 makes the best Knight win (seat 1)
    assert s.revolution
    assert {x.name for x in cards_of(s.loot[0])} == {"K4", "K1", "P7", "M3"}  # M3 came from the Thief
    # trick 2: seat 2 took its Prince back; THIEF and BEGGAR left the game
    assert c("R5") in s.hand(2)
    assert {x.name for x in cards_of(s.removed)} == {"THIEF", "BEGGAR", "R3"}
    # trick 3: the executed Prince did not end the revolution; M2 won for seat 3
    assert {x.name for x in cards_of(s.loot[2])} == {"EXECUTIONER", "M2"}
    assert s.to_act == 3 and s.leader == 3 and s.trick_no == 4


def test_sample_record_through_the_check_command(tmp_path, capsys):
    path = write(tmp_path, "sample.json", SAMPLE)
    assert main(["check", path]) == 0
    assert capsys.readouterr().out == f"{path}: ok in-progress round=1 trick=4 to-act=3 scores=6,0,1\n"


def test_sample_step_by_step_partial_records():
    d = copy.deepcopy(SAMPLE)
    d["rounds"][0]["actions"] = SAMPLE["rounds"][0]["actions"][:3]
    assert check(d) == "ok in-progress round=1 trick=2 to-act=1 scores=5,0,0"
    d["rounds"][0]["actions"] = SAMPLE["rounds"][0]["actions"][:6]
    assert check(d) == "ok in-progress round=1 trick=2 to-act=1 scores=5,0,0"  # A6: the Thief to choose
    d["rounds"][0]["actions"] = SAMPLE["rounds"][0]["actions"][:10]
    assert check(d) == "ok in-progress round=1 trick=3 to-act=2 scores=6,0,0"  # the Executioner to choose
    d["rounds"][0]["actions"] = SAMPLE["rounds"][0]["actions"][:10] + ["3 play M6"]
    assert check(d) == 'error round 1 action 11 "3 play M6": the Executioner must choose first'
    d["rounds"][0]["actions"] = SAMPLE["rounds"][0]["actions"][:6] + ["1 play KING"]
    assert check(d) == 'error round 1 action 7 "1 play KING": the Thief must choose first'


# ---------------------------------------------------------------- finished, round trips
@pytest.mark.parametrize("players,teams", [(2, False), (3, False), (4, False), (4, True)])
def test_finished_lines_and_round_trip(players, teams):
    s = random_match(10 + players, players, teams)
    rec = Record.from_state(s, [f"P{i}" for i in range(players)], date="2026-11-22T10:00:00Z")
    text = rec.to_json()
    back = Record.from_json(text)
    assert back.to_dict() == rec.to_dict()
    final = back.replay()
    assert final.scores() == s.scores() and final.outcome() == s.outcome()
    out = s.outcome()
    j = lambda xs: ",".join(map(str, xs))  # noqa: E731
    if teams:
        want = f"ok finished scores={j(out.scores)} teams={j(out.team_scores)} winners={j(out.winners)} rounds=3"
    else:
        want = f"ok finished scores={j(out.scores)} winners={j(out.winners)} rounds=3"
    assert check(json.loads(text)) == want
    assert "result" in rec.to_dict()


def test_A2_record_between_rounds_is_in_progress():
    d = full(5)
    s = Record.from_dict({k: v for k, v in d.items() if k != "result"} | {"rounds": d["rounds"][:1]}).replay()
    d2 = {k: v for k, v in d.items() if k != "result"}
    line = check({**d2, "rounds": d["rounds"][:1]})
    assert line == f"ok in-progress round=2 trick=1 to-act={d['rounds'][1]['starter']} " \
                   f"scores={','.join(map(str, s.round_scores[0]))}"


def test_A2_team_record_between_rounds_names_the_computers_pick():
    d = full(7, 4, True)
    d.pop("result")
    s = Record.from_dict({**d, "rounds": d["rounds"][:1]}).replay()
    assert s.phase is Phase.START
    assert check({**d, "rounds": d["rounds"][:1]}).startswith(f"ok in-progress round=2 trick=1 to-act={s.to_act} ")


def test_A3_in_progress_scores_are_totals_so_far():
    s = random_match(8, 3, upto=None)
    rec = Record.from_state(s)
    d = rec.to_dict()
    d.pop("result")
    d["rounds"][2]["actions"] = d["rounds"][2]["actions"][:12]
    part = Record.from_dict(d).replay()
    want = tuple(a + b + c for a, b, c in zip(s.round_scores[0], s.round_scores[1], part.round_points()))
    assert part.scores() == want
    assert check(d).endswith("scores=" + ",".join(map(str, want)))


def test_A7_missing_keys_defaults_and_unknown_keys_ignored():
    d = copy.deepcopy(SAMPLE)
    del d["teams"]
    del d["rounds"][0]["aside"]
    d["comment"] = {"anything": [1, 2]}
    assert check(d) == "ok in-progress round=1 trick=4 to-act=3 scores=6,0,1"
    assert Record.from_dict(d).to_dict()["comment"] == {"anything": [1, 2]}
    d2 = full(4, 2)
    del d2["rounds"][0]["aside"]
    assert check(d2).startswith("error round 1: bad deal")


# ---------------------------------------------------------------- bad records
def mutated(base, fn):
    d = copy.deepcopy(base)
    fn(d)
    return check(d)


def test_bad_top_level():
    d = full(3)
    assert mutated(d, lambda x: x.update(format="x")).startswith("error: not a record")
    assert mutated(d, lambda x: x.update(version=2)).startswith("error: not a record") or \
        "newer" in mutated(d, lambda x: x.update(version=2))
    assert mutated(d, lambda x: x.update(version="1")) == "error: bad version: '1'"
    assert mutated(d, lambda x: x.update(players=["a"])).startswith("error: bad players")
    assert mutated(d, lambda x: x.update(players=["a"] * 5)).startswith("error: bad players")
    assert mutated(d, lambda x: x.update(teams=True)) == "error: bad teams: teams need 4 players"
    assert mutated(d, lambda x: x.update(rounds={})).startswith("error: bad rounds")
    assert mutated(d, lambda x: x["rounds"].append(x["rounds"][0])) == "error round 4: match already over"


def test_bad_setup_is_reported_per_round():
    d = full(3)
    assert mutated(d, lambda x: x["rounds"][1]["deal"][0].pop()).startswith("error round 2: bad deal: seat 1 must be dealt 12")
    twice = d["rounds"][0]["deal"][1][0]
    assert mutated(d, lambda x: x["rounds"][0]["deal"][0].__setitem__(0, twice)) == \
        f"error round 1: bad deal: {twice} is dealt twice"
    assert mutated(d, lambda x: x["rounds"][0]["deal"][0].__setitem__(0, "K9")) == \
        "error round 1: unknown card 'K9' in the deal of seat 1"
    assert mutated(d, lambda x: x["rounds"][0]["aside"].append("KING")).startswith("error round 1: bad deal")

    def swap_hand(x):
        x["rounds"][0]["hand"][1][0] = x["rounds"][0]["deal"][0][0]
    assert mutated(d, swap_hand) == "error round 1: seat 2: hand is not a subset of the deal"
    assert mutated(d, lambda x: x["rounds"][0]["hand"][0].pop()).startswith("error round 1: seat 1: wrong hand size")

    def bad_pile(x):
        x["rounds"][0]["pile"][2] = x["rounds"][0]["pile"][2][:-1]
    assert mutated(d, bad_pile).startswith("error round 1: bad pile")
    wrong = d["rounds"][1]["starter"] % 3 + 1
    assert mutated(d, lambda x: x["rounds"][1].update(starter=wrong)).startswith("error round 2: wrong starter")
    assert mutated(d, lambda x: x["rounds"][0].update(starter=7)).startswith("error round 1: unknown seat")
    assert mutated(d, lambda x: x["rounds"][0].update(starter="1")).startswith("error round 1: bad starter")


def test_bad_team_starter():
    d = full(7, 4, True)
    s = Record.from_dict({k: v for k, v in d.items() if k != "result"} | {"rounds": d["rounds"][:1]}).replay()
    other = [m for m in range(1, 5) if (m - s.to_act) % 2 == 1][0]
    assert mutated(d, lambda x: x["rounds"][1].update(starter=other)).startswith("error round 2: wrong starter")


def first_action(d, r, pred):
    """Replay round r of d and return (index from 1, state before) of the first action where pred holds."""
    rec = Record.from_dict({k: v for k, v in d.items() if k != "result"} | {"rounds": d["rounds"][:r]})
    s = rec.replay(upto=r - 1)
    Record._setup(s, r, rec.rounds[r - 1])
    for j, text in enumerate(rec.rounds[r - 1].actions, 1):
        a = Action.from_str(text)
        if pred(s, a):
            return j, s
        s.push(a)
    return None, None


def test_bad_actions_name_round_action_and_rule():
    for seed in range(40):
        d = full(seed)
        # must follow: replace a following card by a card of another rank in the same hand
        j, s = first_action(d, 2, lambda s, a: a.kind.value == "play" and s.trick_plays and s.led >= 0
                            and any(c.rank is not None and c.rank != Rank(s.led) for c in s.hand(a.seat))
                            and a.card.rank == Rank(s.led))
        if j is None:
            continue
        a = Action.from_str(d["rounds"][1]["actions"][j - 1])
        other = next(c for c in s.hand(a.seat) if c.rank is not None and c.rank != Rank(s.led))
        text = f"{a.seat} play {other}"
        d["rounds"][1]["actions"][j - 1] = text
        d.pop("result")
        assert check(d) == f'error round 2 action {j} "{text}": must follow {Rank(s.led).title}'
        break
    else:
        pytest.fail("no seed gave a follow")
    d = full(3)
    acts = d["rounds"][0]["actions"]
    first = acts[0]
    seat = int(first.split()[0])
    assert mutated(d, lambda x: x["rounds"][0]["actions"].__setitem__(0, f"{seat % 3 + 1} play KING")) \
        .startswith(f'error round 1 action 1 "{seat % 3 + 1} play KING": wrong seat')
    assert mutated(d, lambda x: x["rounds"][0]["actions"].__setitem__(0, "4 play KING")) == \
        'error round 1 action 1 "4 play KING": unknown seat'
    assert mutated(d, lambda x: x["rounds"][0]["actions"].__setitem__(0, "9 play KING")) == \
        "error round 1 action 1 \"9 play KING\": unknown seat '9'"
    assert mutated(d, lambda x: x["rounds"][0]["actions"].__setitem__(0, f"{seat} play K0")) == \
        f"error round 1 action 1 \"{seat} play K0\": unknown card 'K0'"
    hand = set(d["rounds"][0]["hand"][seat - 1])
    missing = next(n for n in d["rounds"][0]["deal"][seat % 3] if n not in hand)
    assert mutated(d, lambda x: x["rounds"][0]["actions"].__setitem__(0, f"{seat} play {missing}")) == \
        f'error round 1 action 1 "{seat} play {missing}": not in hand'
    assert mutated(d, lambda x: x["rounds"][0]["actions"].insert(0, f"{seat} steal {seat % 3 + 1} KING")) == \
        f'error round 1 action 1 "{seat} steal {seat % 3 + 1} KING": no Thief in this trick'
    assert mutated(d, lambda x: x["rounds"][0]["actions"].insert(0, f"{seat} execute KING")) == \
        f'error round 1 action 1 "{seat} execute KING": no Executioner in this trick'
    assert mutated(d, lambda x: x["rounds"][0]["actions"].__setitem__(0, 5)) == \
        "error round 1 action 1 \"5\": an action must be a string, not int"
    assert mutated(d, lambda x: x["rounds"][2]["actions"].append(x["rounds"][2]["actions"][0])) \
        .endswith(": match already over")
    assert mutated(d, lambda x: x["rounds"][0]["actions"].pop()) == "error round 2: previous round is not finished"


def find_kind(kind, players=3):
    for seed in range(200):
        d = full(seed, players)
        for r, rnd in enumerate(d["rounds"]):
            for j, t in enumerate(rnd["actions"]):
                a = Action.from_str(t)
                if a.kind.value == kind and (kind != "steal" or a.target is not None):
                    return d, r, j, a
    raise AssertionError(kind)


def test_bad_steals_and_executions():
    d, r, j, a = find_kind("steal")
    where = f'round {r + 1} action {j + 1}'

    def put(text):
        return mutated(d, lambda x: x["rounds"][r]["actions"].__setitem__(j, text))
    assert put(f"{a.seat} steal {a.seat} {a.card}") == f'error {where} "{a.seat} steal {a.seat} {a.card}": cannot steal from yourself'
    assert put(f"{a.seat} steal {a.target} THIEF") == f'error {where} "{a.seat} steal {a.target} THIEF": card not in that hand'
    assert put(f"{a.seat} steal {a.target}").startswith(f'error {where} "{a.seat} steal {a.target}": a steal must name')
    assert put(f"{a.seat % 3 + 1} steal none").startswith(f'error {where} "{a.seat % 3 + 1} steal none": wrong seat')
    d, r, j, a = find_kind("execute")
    where = f'round {r + 1} action {j + 1}'

    def put2(text):
        return mutated(d, lambda x: x["rounds"][r]["actions"].__setitem__(j, text))
    assert put2(f"{a.seat} execute EXECUTIONER") == f'error {where} "{a.seat} execute EXECUTIONER": cannot execute itself'
    absent = next(n for n in ("BEGGAR", "KING", "QUEEN", "P1") if
                  not any(t.endswith(f"play {n}") for t in d["rounds"][r]["actions"][max(0, j - 4):j]))
    assert put2(f"{a.seat} execute {absent}") == f'error {where} "{a.seat} execute {absent}": card not in the trick'
    # a missing Executioner's decision: the next action says so (A6)
    acts = d["rounds"][r]["actions"]
    if j + 1 < len(acts):
        nxt = acts[j + 1]
        got = mutated(d, lambda x: x["rounds"][r]["actions"].pop(j))
        assert got == f'error {where} "{nxt}": the Executioner must choose first'


def test_A5_steal_line_in_the_last_trick_is_an_error():
    for seed in range(400):
        s = random_match(seed, 2)
        for r in range(3):
            rec = Record.from_state(s).to_dict()
            acts = rec["rounds"][r]["actions"]
            last = [Action.from_str(t) for t in acts[-2:]]
            if any(a.card is not None and a.card.name == "THIEF" for a in last if a.kind.value == "play"):
                thief = next(a.seat for a in last if a.kind.value == "play" and a.card.name == "THIEF")
                for line in (f"{thief} steal none", f"{thief} steal {3 - thief} KING"):
                    bad = copy.deepcopy(rec)
                    bad.pop("result")
                    bad["rounds"][r]["actions"].append(line)
                    assert check(bad) == (f'error round {r + 1} action {len(acts) + 1} "{line}": '
                                          "the Thief has no function in the round's last trick (A5)")
                return
    pytest.fail("no Thief in a last trick")


def test_result_checks():
    d = full(3)
    assert check(d).startswith("ok finished")
    assert mutated(d, lambda x: x["result"]["scores"].__setitem__(0, 99)).startswith("error: result does not match")
    assert mutated(d, lambda x: x["result"].update(winners=[9])).startswith("error: result does not match")
    assert mutated(d, lambda x: x.update(result={"scores": 1})).startswith("error: bad result")
    assert mutated(d, lambda x: x.update(rounds=x["rounds"][:2])) == "error: result on an unfinished match (A4)"
    t = full(7, 4, True)
    assert check(t).startswith("ok finished")
    assert mutated(t, lambda x: x["result"].update(teams=[0, 0])).startswith("error: result does not match")
    assert mutated(t, lambda x: x["result"].pop("teams")).startswith("ok finished")


def test_check_command_lines_and_exit_codes(tmp_path, capsys):
    good = write(tmp_path, "good.json", full(3))
    bad = copy.deepcopy(SAMPLE)
    bad["rounds"][0]["actions"][2] = "3 play K2"
    badp = write(tmp_path, "bad.json", bad)
    junk = write(tmp_path, "junk.json", "{\"format\": \"royals-riots-record\"")
    assert main(["check", good, badp, junk]) == 1
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(re.escape(good) + r": ok finished scores=-?\d+,-?\d+,-?\d+ winners=[\d,]+ rounds=3", out[0])
    assert out[1] == f'{badp}: error round 1 action 3 "3 play K2": not in hand'
    assert out[2].startswith(f"{junk}: error: the file is cut short")


def test_replay_text_lists_every_action():
    d = full(3)
    lines = game_for_record(d).replay_text(d)
    n = sum(len(r["actions"]) for r in d["rounds"])
    assert sum(1 for ln in lines if re.match(r"\s+\d\.\d+\s+\d ", ln)) == n
    assert lines[-1].startswith("result: scores")
    lines = game_for_record(SAMPLE).replay_text(SAMPLE)
    assert "trick 1: seat 1 wins, revolution" in "\n".join(lines)
    assert "trick 2: nobody wins, seat 1 leads again, revolution" in "\n".join(lines)
    assert lines[-1] == "in progress: round=1 trick=4 to-act=3 scores=6,0,1"


def test_from_state_mid_round_and_mid_setup():
    s = random_match(2, 3, upto=60)
    rec = Record.from_state(s)
    assert status_line(rec.replay()) == status_line(s) or s.phase in (Phase.KEEP, Phase.PILE)
    s = random_match(2, 3, upto=3)  # in the middle of round 1's set-up: no round recorded yet
    assert Record.from_state(s).rounds == []


# ---------------------------------------------------------------- fuzz: never a traceback
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.text(max_size=12),
                  st.lists(st.text(max_size=6), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
                  st.sampled_from(["KING", "P7", "1 play K4", "2 steal 1 M3", "3 execute R3", "1 steal none", "THIEF"]))


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_mutation_gives_a_line_not_a_traceback(data):
    d = copy.deepcopy(SAMPLE)
    paths = [p for p in _paths(d) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        target = d
        try:
            for k in path[:-1]:
                target = target[k]
            target[path[-1]] = data.draw(_junk)
        except (KeyError, IndexError, TypeError):
            pass
    line = check(d)
    assert line.startswith("ok ") or line.startswith("error")


@pytest.mark.parametrize("players,teams", [(2, False), (3, False), (4, True)])
def test_a_replayed_record_is_the_pushed_match(players, teams):
    # The replay applies set-ups and plays without State.push (kernel.replay_plays, the set-up
    # on masks): its state, history and round checkpoints are those of pushing the same
    # actions one by one, so popping it goes back through the same positions.
    s = random_match(players * 7, players, teams)
    t = Record.from_state(s).replay()
    u = type(s)(players, teams)
    positions = []
    for a in t.history:
        positions.append(u.copy())
        u.push(a)
    assert t == u and t._undo == u._undo
    while positions:
        t.pop()
        assert t == positions.pop()
