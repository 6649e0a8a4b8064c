"""The pure LAN records of both games (game/roseking/lan/record.py, game/royals/lan/record.py):
a match machine's record becomes a saved game with no window and no network, and the saved-games
list says how a network game ended (who resigned, who left)."""

from __future__ import annotations

import json

from game.roseking.lan import record as rk
from game.roseking.engine import Color, Record, State
from game.roseking.saves import summarize as rk_summary
from game.royals.lan import record as rr
from game.royals.engine import Record as RoyalsRecord
from game.royals.saves import summarize as rr_summary

GAME = "0123456789abcdef0123456789abcdef"


def rose_king_record(moves: int, resigned: Color | None = None) -> dict:
    from game.rng import Rng
    st = State.random(Rng(7))
    for _i in range(moves):
        st.push(next(m for m in st.legal_moves() if m.card is not None))
    rec = Record.from_state(st, red="Hostbot", white="Bob", date="2026-01-01T00:00:00Z")
    if resigned is not None:
        rec.set_termination("resigned", resigned, st)
    rec.extra["lan"] = {"game": GAME, "host": "red", "resigned": str(resigned) if resigned else "", "forfeit": ""}
    return rec.to_dict()


def test_a_rose_king_match_without_a_move_or_a_deal_keeps_nothing():
    assert rk.save_text(None) is None
    assert rk.save_text({"format": rk.UNDEALT, "names": ["a", "b"], "date": "", "lan": {}, "result": None}) is None
    assert rk.save_text(rose_king_record(0)) is None


def test_a_rose_king_save_carries_the_lan_id_and_kind_and_says_who_resigned():
    game_id, text = rk.save_text(rose_king_record(3, resigned=Color.RED))
    d = json.loads(text)
    assert game_id == GAME and d["game_id"] == GAME and d["kind"] == "lan"
    summary = rk_summary(d, "x")
    assert summary.status() == "Hostbot resigned · Bob wins"


def test_a_royals_match_left_in_its_first_round_is_kept_and_says_who_left():
    rec = RoyalsRecord(["Ann", "Bo", "Computer (hard)"]).to_dict()
    rec["lan"] = {"game": GAME, "end": "left", "seat": 1, "code": "", "evidence": []}
    game_id, text = rr.save_text(rec, 0, computers=(2,))
    d = json.loads(text)
    assert game_id == f"royals-{GAME}-1" and d["kind"] == "lan"
    assert [s.get("computer", False) for s in d["seats"]] == [False, False, True]
    summary = rr_summary(d, "x")
    assert summary.status() == "stopped · Bo left"
    assert rr.save_id(None, 1) != rr.save_id(None, 1)  # no game id: a fresh one each time
