"""Royals & Riots' refusals in the player's language (game/royals/phrases.py).

Two ways of making sure no English reason of the engine reaches a German screen: every
refusal code of the kernel (``kernel.TEXTS``, so a code added later without a phrase fails
here) and every reason that random matches actually produce for wrong decisions of every kind.
"""

from __future__ import annotations

from itertools import islice

import pytest

from game import i18n
from game.royals import phrases
from game.royals.engine import CARDS, Action, Card, IllegalMoveError, Rng, State, cards_of
from game.royals.engine.kernel import TEXTS, reason

#: A sample value for each param of a refusal code's text (a new param fails until it has one).
SAMPLES = {"kind": "keep", "seat": 3, "rank": 3, "size": 6, "players": 3, "want": 12, "got": 11, "card": "K4"}


def _reasons() -> list:
    """One Reason of every refusal code of the kernel, its params from SAMPLES."""
    import re
    out = []
    for code, text in TEXTS.items():
        params = {f: SAMPLES[f] for f in re.findall(r"\{(\w+)\}", text) if f != "rank_title"}
        if "{rank_title}" in text:
            params["rank"] = SAMPLES["rank"]
        out.append(reason(code, **params))
    return out


NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}


@pytest.fixture
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("en")


def _templates(function) -> list[str]:
    """Every string a function returns (f-string placeholders filled from SAMPLES)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        values = node.value.values if isinstance(node.value, ast.BoolOp) else [node.value]
        for v in values:
            if isinstance(v, ast.IfExp):
                values.extend([v.body, v.orelse])
            elif isinstance(v, ast.Constant) and isinstance(v.value, str):
                out.append(v.value)
            elif isinstance(v, ast.JoinedStr):
                parts = []
                for p in v.values:
                    if isinstance(p, ast.Constant):
                        parts.append(p.value)
                    else:
                        expr = ast.unparse(p.value)
                        assert expr in SAMPLES, f"give the placeholder {{{expr}}} of {function.__name__} a sample"
                        parts.append(SAMPLES[expr])
                out.append("".join(parts))
    return out


REASONS = _reasons()


def test_the_kernel_gives_every_reason_family_a_code():
    assert len(REASONS) >= 30 and len({r.code for r in REASONS}) == len(REASONS)
    for expected in ("must follow Knights", "not in hand", "the Thief must choose first",
                     "cannot steal from yourself", "card not in the trick", "draw piles come first",
                     "wrong hand size: a hand holds 6 different cards", "no theft is pending",
                     "bad pile: it must hold exactly the dealt cards not kept in hand"):
        assert expected in REASONS


def test_reasons_carry_codes_through_the_error_and_pickling():
    import pickle
    from game.errors import IllegalMoveError as Shared
    from game.roseking.engine import IllegalMoveError as RoseKingError
    s = State(3)
    with pytest.raises(IllegalMoveError) as e:
        s.push_str("2 play K4")
    assert e.value.code == "starter_first" and str(e.value) == "the round's starter comes first"
    assert IllegalMoveError is Shared is RoseKingError
    back = pickle.loads(pickle.dumps(e.value))
    assert back.code == "starter_first" and str(back) == str(e.value)
    r = reason("must_follow", rank=2)
    assert pickle.loads(pickle.dumps(r)).params == {"rank": 2} and r == "must follow Royals"
    # Rose King raises the same error, with its kernel's code (game/roseking/engine/kernel.py)
    from game.roseking.engine import InvalidMoveError, State as RoseKingState
    rk = RoseKingState.random(Rng(1))
    with pytest.raises(IllegalMoveError) as e:
        rk.push_str("red draw N1")  # each hand holds 5 cards at the start: no draw
    assert e.value.code == "hand_full" and str(e.value).startswith("red draw N1: hand full")
    with pytest.raises(InvalidMoveError) as e:
        rk.push_str("red jump N1")
    assert e.value.code == "unknown_action" and e.value.params == {"verb": "jump"}


@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_reads_as_its_own_german_sentence(german, reason):
    fallback = i18n._("That is not allowed now.")
    german_text = phrases.illegal_text(reason, NAMES.get)
    i18n.set_language("en")
    english_text = phrases.illegal_text(reason, NAMES.get)
    assert german_text != english_text, f"{reason!r} has no German sentence"
    assert reason not in german_text and english_text not in german_text
    assert german_text != fallback, f"{reason!r} falls back to the general sentence: give it a phrase"


def test_figures_and_names_are_read_from_the_reasons_params(german):
    from game.royals.engine import Rank
    assert phrases.illegal_text(reason("must_follow", rank=int(Rank.KNIGHTS))) == "Du musst Ritter bedienen."
    assert phrases.illegal_text(reason("wrong_seat", seat=3), NAMES.get) == "Cy ist am Zug."
    assert phrases.illegal_text(reason("wrong_seat", seat=3)) == "Platz 3 ist am Zug."
    assert phrases.illegal_text(reason("thief_chose_seat", seat=2), NAMES.get) == \
        "Wer den Dieb gespielt hat, bestiehlt Bo."
    assert phrases.illegal_text(reason("keep_size", size=1)) == "Deine Hand muss genau 1 Karte enthalten."
    assert phrases.illegal_text(reason("keep_size", size=5)) == "Deine Hand muss genau 5 verschiedene Karten enthalten."
    # the English text alone (no code) is never parsed: it reads as the general sentence
    assert phrases.illegal_text("must follow Knights") == "Das ist jetzt nicht erlaubt."


def test_an_unknown_reason_reads_as_the_general_sentence_not_english(german):
    assert phrases.illegal_text("a rule added tomorrow") == "Das ist jetzt nicht erlaubt."
    assert phrases.illegal_text("") == "Das ist jetzt nicht erlaubt."
    assert phrases.illegal_text("x: y: z") == "Das ist jetzt nicht erlaubt."


def _wrong_decisions(s: State):
    """Decisions of every kind for every seat, most of them not allowed now."""
    n = s.players
    for seat in range(1, n + 1):
        for c in islice(CARDS, 0, None, 5):
            yield Action.play(seat, c)
            yield Action.execute(seat, c)
        yield Action.play(seat, Card.from_name("EXECUTIONER"))
        yield Action.execute(seat, Card.from_name("EXECUTIONER"))
        yield Action.steal(seat, None)
        for t in range(1, n + 1):
            yield Action.steal(seat, t)
            yield Action.steal(seat, t, CARDS[(seat * 7 + t) % 36])
        yield Action.start(seat)
        dealt = list(cards_of(s.dealt[seat - 1])) if s.dealt[seat - 1] else list(CARDS[:12])
        yield Action.keep(seat, dealt[:2])
        yield Action.keep(seat, [CARDS[35], CARDS[34]] + dealt[:s.hand_size() - 2])
        yield Action.pile(seat, dealt[:1])
    yield Action.deal([CARDS[:3]])


@pytest.mark.parametrize("players, teams, seed", [(2, False, 1), (3, False, 2), (4, True, 3)])
def test_every_reason_random_matches_produce_has_a_german_sentence(german, players, teams, seed):
    rng = Rng(seed)
    s = State(players, teams)
    fallback = i18n._("That is not allowed now.")
    seen: set[str] = set()
    while not s.is_over():
        for a in _wrong_decisions(s):
            reason = s.illegal_reason(a)
            if reason is not None and reason not in seen:
                seen.add(reason)
                assert phrases.illegal_text(reason, NAMES.get) != fallback, reason
        ev = s.chance()
        s.push(ev.sample(rng) if ev is not None else rng.choice(s.legal_actions()))
    families = {r.split(":")[0].split(" seat")[0] for r in seen}
    assert len(families) >= 18, sorted(families)
    assert any(r.startswith("must follow") for r in seen)


def test_failure_sentences_of_a_stopped_lan_game(german):
    stop_text = phrases.stop_text
    assert stop_text("illegal", "Cy", 2, 4) == \
        "Cy hat in Runde 2, Stich 4 gegen die Regeln verstoßen: Die Partie wurde abgebrochen."
    assert stop_text("desync", round=3).startswith("Die Prüfung ergab") and "Runde 3" in stop_text("desync", round=3)
    sentences = {code: stop_text(code, "Cy", 1, 3) for code in
                 ("illegal", "coin", "forfeit", "desync", "sync", "left", "version", "game", "seat", "role", "internal",
                  "order", "eof")}
    assert len(set(sentences.values())) == len(sentences)
    assert len({stop_text("illegal", who, 1, t) for who in ("", "Cy") for t in (0, 2)} |
               {stop_text("illegal", who) for who in ("", "Cy")}) == 6
    i18n.set_language("en")
    for code, text in sentences.items():
        assert stop_text(code, "Cy", 1, 3) != text, code



