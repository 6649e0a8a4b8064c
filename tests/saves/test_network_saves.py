"""Royals & Riots network matches in the saved games (game.saves): kept as kind ``"lan"``, listed
with their players and status, marked as network matches, never offered to be played on here
(not "Continue", not "Open"), and a bad file among them shows its error without breaking the list."""

from __future__ import annotations

import json

from game.royals.engine import Record
from game.saves import RESUMABLE_KINDS, SaveStore
from tests.royals.helpers import random_match

NAMES = ["Ann", "Bo", "Cy"]


def lan_record(seed: int = 5, rounds: int | None = 1, end: str = "left") -> dict:
    """A network match's record as a peer keeps it (docs/protocol.md, "Records"): the rounds every
    seat checked (``rounds`` of them; None: the whole match) and the ``lan`` key."""
    state = random_match(seed, 3)
    d = Record.from_state(state, NAMES, date="2026-11-24T05:00:00Z").to_dict()
    if rounds is not None:
        d["rounds"] = d["rounds"][:rounds]
        d.pop("result", None)
    game = f"{seed:032x}"
    d.update({"game_id": f"royals-{game}-2", "kind": "lan",
              "lan": {"game": game, "end": end, "seat": 1 if end == "left" else 0, "fingerprint": "0" * 16},
              "seats": [{"name": n, "level": None} for n in NAMES]})
    return d


def write(store: SaveStore, d: dict, name: str | None = None) -> None:
    store.folder.mkdir(parents=True, exist_ok=True)
    (store.folder / f"{name or d['game_id']}.json").write_text(json.dumps(d), encoding="utf-8")


def test_an_unfinished_network_match_is_listed_as_one_and_never_resumed():
    store = SaveStore()
    write(store, lan_record(5, rounds=1))
    [e] = store.list()
    assert e.ok and e.game == "royals-riots" and e.kind == "lan" and "lan" not in RESUMABLE_KINDS
    assert e.status == "in progress" and e.players() == "Ann – Bo – Cy"
    assert e.progress() == "round 2 of 3, choosing hands"  # it stopped in round 2: round 1 was checked
    assert e.status_text() == "stopped · Bo left"  # the layer's seat 1 left: it says so, never "to play"
    assert e.note() == "Unfinished network match: it can only be watched here (Replay)"
    # the engine's plies (its history, the set-up's actions included), as the replay viewer counts them
    assert e.plies == Record.from_dict(lan_record(5, rounds=1)).replay().ply
    assert e.plies > len(lan_record(5, rounds=1)["rounds"][0]["actions"])
    assert store.resumable() is None  # never "Continue"


def test_a_network_match_stopped_before_any_round_was_checked_is_listed_at_round_1():
    store = SaveStore()
    write(store, lan_record(6, rounds=0))
    [e] = store.list()
    assert e.ok and e.kind == "lan" and e.status == "in progress" and e.plies == 0
    assert e.progress() == "round 1 of 3, choosing hands"


def test_a_finished_network_match_is_listed_finished_and_marked():
    store = SaveStore()
    write(store, lan_record(7, rounds=None, end="finished"))
    [e] = store.list()
    assert e.ok and e.kind == "lan" and e.status == "finished" and e.note() == "Network match"
    out = Record.from_dict(lan_record(7, rounds=None, end="finished")).replay().outcome()
    winners = " + ".join(NAMES[s - 1] for s in out.winners)
    assert e.status_text() == f"{winners} {'wins' if len(out.winners) == 1 else 'win'} {'–'.join(map(str, out.scores))}"
    assert e.progress() == "all 3 rounds played"


def test_a_local_match_has_no_network_note_and_is_still_resumed():
    store = SaveStore()
    d = lan_record(8, rounds=1)
    d.update({"kind": "local", "game_id": "local1"})
    del d["lan"]
    write(store, d)
    [e] = store.list()
    assert e.kind == "local" and "network" not in (e.note() or "") and store.resumable() == e


def test_bad_network_saves_show_their_error_and_the_others_still_list():
    """A cut-off file, a damaged action and a save claiming kind "computer" without its level (a
    Royals record has none): one line each, the good network match listed beside them."""
    store = SaveStore()
    good = lan_record(9, rounds=1)
    write(store, good)
    text = json.dumps(lan_record(10, rounds=1))
    store.folder.joinpath("cut.json").write_text(text[:len(text) // 2], encoding="utf-8")
    damaged = lan_record(11, rounds=1)
    damaged["rounds"][0]["actions"][3] = "2 play NOPE"
    write(store, damaged, "damaged")
    odd = lan_record(12, rounds=1)
    odd["kind"] = "computer"
    write(store, odd, "odd")
    by_name = {e.path.name: e for e in store.list()}
    assert set(by_name) == {f"{good['game_id']}.json", "cut.json", "damaged.json", "odd.json"}
    assert "truncated" in by_name["cut.json"].error
    assert by_name["damaged.json"].error and "damaged record" in by_name["damaged.json"].error
    assert by_name["cut.json"].note() is None and by_name["damaged.json"].note() is None
    assert by_name["odd.json"].ok and by_name["odd.json"].kind == "local"  # no level: not a computer game
    assert by_name[f"{good['game_id']}.json"].ok and by_name[f"{good['game_id']}.json"].kind == "lan"
