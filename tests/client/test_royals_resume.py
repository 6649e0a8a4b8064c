"""A saved Royals & Riots match opened again ("Saved games" → Open) and played to its end: every
number the round's score table, the result and the score panel beside them show is the saved
record's, from the first frame each is drawn (a property over random matches, seatings and
resume points: people at one screen, against computers, teams)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.client.app import STEP
from game.client.royals.saving import RoyalsSave, autosaver, load
from game.client.royals.setup import play_match
from game.royals.match import Seat, TableConfig, TableMatch, choose_for, computer_player
from game.royals.engine import Phase, Record
from game.saves import shared_store

NUMBER = re.compile(r"-?\d+")


def numbers(items) -> list[int]:
    """The texts of a layout that are whole numbers, in drawing order."""
    return [int(text) for text, _surf, _rect in items if NUMBER.fullmatch(text)]


def expected_table(rounds: list[list[int]], teams: bool) -> list[int]:
    """The numbers the score table of ``rounds`` shows, in its drawing order: per seat each round's
    points then the total, then per team the same."""
    n = len(rounds[0])
    out: list[int] = []
    for i in range(n):
        out += [rs[i] for rs in rounds] + [sum(rs[i] for rs in rounds)]
    if teams:
        for t in (0, 1):
            out += [rs[t] + rs[t + 2] for rs in rounds] + [sum(rs[t] + rs[t + 2] for rs in rounds)]
    return out


def saved_record(save: RoyalsSave, hook) -> Record:
    """The record as the autosave wrote it (waits for the background write)."""
    hook.saver.flush(10)
    path = shared_store().path_for(save.game_id)
    return Record.from_dict(json.loads(path.read_text(encoding="utf-8")))


def random_match(players: int, teams: bool, people: list[bool], seed: int, stop_at: int) -> TableMatch:
    """A match of random decisions, stopped at ``stop_at`` actions (or its end)."""
    names = ["Ann", "Bob", "Cas", "Dee"][:players]
    seats = [Seat(n) if person else Seat(n, "random") for n, person in zip(names, people)]
    m = TableMatch(TableConfig(seats, teams=teams, seed=seed))
    bots = {s: computer_player("random", seed + s) for s in range(1, players + 1)}
    m.advance()
    while not m.state.is_over() and m.state.ply < stop_at:
        seat = m.decider()
        if m.state.phase is Phase.START:  # a team's choice of who leads
            m.apply(m.state.legal_actions()[0])
        else:
            m.apply(choose_for(m.state, seat, bots[seat]))
    return m


@st.composite
def seatings(draw):
    players = draw(st.integers(2, 4))
    teams = players == 4 and draw(st.booleans())
    people = [draw(st.booleans()) for _ in range(players)]
    if not any(people):
        people[draw(st.integers(0, players - 1))] = True
    return players, teams, people


@pytest.fixture
def fast(app):
    app.options.anim_speed = 25.0  # the beats still play (and the score table opens as it does), quickly
    return app


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(seating=seatings(), seed=st.integers(0, 2**31), cut=st.floats(0.0, 0.97), decide=st.integers(0, 999))
def test_a_resumed_match_shows_the_records_numbers_in_every_score_table(fast, tmp_path, seating, seed, cut,
                                                                       decide):
    players, teams, people = seating
    whole = random_match(players, teams, people, seed, 10**6).state.ply
    m = random_match(players, teams, people, seed, int(whole * cut))
    assert not m.state.is_over()
    path = tmp_path / "match.json"
    path.write_text(RoyalsSave.new(m).record(m.state).to_json(), encoding="utf-8")

    match, save = load(path)  # what Saved games → Open does (setup.resume), with a test's thinker
    hook = autosaver(match, save)
    scene = play_match(fast, match, hook, min_delay=0, use_process=False)
    bots = {s: computer_player("random", decide + s) for s in range(1, players + 1)}
    tables = 0
    for _i in range(100000):
        if scene.modal:
            # the first frame of the score table (and each after it) shows the record's numbers
            rec = saved_record(save, hook)
            done = rec.replay()
            rounds = [list(r) for r in done.round_scores]
            assert numbers(scene.layout.modal_layout()[1]) == expected_table(rounds, teams)
            panel = numbers(scene.layout.score_texts())
            totals = [sum(r[i] for r in rounds) for i in range(players)]
            last = rounds[-1]
            want = [x for i in range(players) for x in (totals[i], last[i])]
            if teams:
                want += [x for t in (0, 1) for x in (totals[t] + totals[t + 2], last[t] + last[t + 2])]
            assert panel == want, "the score panel beside the table shows the finished round"
            tables += 1
            if scene.modal == "over":
                assert done.outcome() is not None and rec.result == done.outcome().result()
                assert rec.result["scores"] == totals
                break
            fast.step(STEP)
            assert numbers(scene.layout.modal_layout()[1]) == expected_table(rounds, teams)
            scene.close_modal()
        elif scene.passing:
            scene.hand_to(scene.passing)
        elif scene.news is not None:
            scene.news = None
        elif scene.my_turn():
            seat = scene.my_turn()
            if scene.state.phase is Phase.START:
                scene.act(scene.state.legal_actions()[0])
            else:
                scene.act(choose_for(scene.state, seat, bots[seat]))
        scene.update(STEP)  # the table's own step, without drawing every frame (fast)
    assert scene.modal == "over"
    assert tables == 4 - m.state.round
    scene.close()
