"""Sentences built from game data: every engine reason worded for the player, results, moves."""

import pytest

from game import i18n
from game.roseking import phrases
from game.roseking.ai import RandomPlayer
from game.roseking.engine import CARDS, DRAW, HERO, PLAY, Card, Color, Move, Outcome, Rng, State, Termination

REASONS = ("game already over", "wrong player to move", "hand full", "not in hand", "off the board",
           "square occupied", "hero needs an opponent's stone", "no hero cards left")


def _positions(games=12):
    """Positions of seeded random games (each game's last position is over)."""
    for seed in range(games):
        state = State.random(Rng(seed))
        player = RandomPlayer(seed)
        while True:
            yield state
            if state.is_game_over():
                break
            move = player.choose(state)
            if move.kind is DRAW:
                move = move.with_outcome(Rng(seed * 1000 + state.ply).choice(state.chance_outcomes()))
            state.push(move)


def _clicks(state):
    for color in Color:
        yield Move(color, DRAW, None)
        for card in CARDS:
            yield Move(color, PLAY, card)
            yield Move(color, HERO, card)


def test_every_engine_reason_has_its_own_sentence_in_every_language():
    seen: dict[str, int] = {}
    for state in _positions():
        for move in _clicks(state):
            reason = state.illegal_reason(move)
            if reason is None or reason.startswith("a draw needs its card"):  # legal (a draw decision)
                assert phrases.illegal_text(state, move) is None
                continue
            kind = next((r for r in REASONS if reason.startswith(r)), reason)
            if seen.get(kind, 0) >= 3:
                continue
            seen[kind] = seen.get(kind, 0) + 1
            texts = {}
            for lang in i18n.LANGUAGES:
                i18n.set_language(lang)
                texts[lang] = phrases.illegal_text(state, move)
                assert texts[lang] != i18n._("That move is not allowed."), (reason, lang)
                assert "{" not in texts[lang] and texts[lang].strip()
            i18n.set_language("en")
            assert len(set(texts.values())) == len(texts), texts  # really translated
    assert set(REASONS) <= set(seen), set(REASONS) - set(seen)


def _state_after(*moves: str) -> State:
    state = State([Card.from_name(n) for n in ("N3", "W1", "N1", "S1", "N2")],
                  [Card.from_name(n) for n in ("E1", "S3", "SE1", "SW1", "NE1")])
    for text in moves:
        state.push_str(text)
    return state


def test_reasons_name_the_card_and_square():
    assert phrases.illegal_text(_state_after(), Move.from_str("red draw")) == (
        "You may draw only with fewer than 5 power cards.")
    state = _state_after("red play N3", "white play E1")  # red e8, white f8, crown f8
    assert phrases.illegal_text(state, Move.from_str("red draw")) is None  # 4 cards: the draw pile may be clicked
    assert phrases.illegal_text(state, Move.from_str("red play W1")) == "e8 already holds your stone."
    assert phrases.illegal_text(state, Move.from_str("red hero W1")) == (
        "A hero card flips an opponent's stone, but e8 holds your own.")
    assert phrases.illegal_text(state, Move.from_str("red play N2")) == "N II would move the crown off the board."
    assert phrases.illegal_text(state, Move.from_str("red play E3")) == "E III is not in your hand."
    assert phrases.illegal_text(state, Move.from_str("white play S3")) == "It is Red's turn."
    assert phrases.illegal_text(state, Move.from_str("white play S3"), ["Ann", "Bob"]) == "It is Ann's turn."


def test_opponent_stone_hints_and_hero_reasons():
    state = _state_after("red play N3", "white play E1", "red play S1", "white draw S2")
    # crown f7 (red), white stone f8: red's N1 targets it
    assert phrases.illegal_text(state, Move.from_str("red play N1")) == (
        "f8 holds an opponent's stone: play a hero card with N I to flip it.")
    assert phrases.illegal_text(state, Move.from_str("red hero N1")) is None
    assert phrases.illegal_text(state, Move.from_str("red hero N2")) == (
        "A hero card flips an opponent's stone, but f9 is empty.")
    i18n.set_language("de")
    assert phrases.illegal_text(state, Move.from_str("red play N1")) == (
        "Auf f8 liegt ein gegnerischer Stein: Spiele eine Heldenkarte mit N I, um ihn umzudrehen.")


def _outcome(winner, red, white, decided_by):
    return Outcome(Termination.STONES, winner, red, white, decided_by)


@pytest.mark.parametrize("outcome, title, text, note", [
    (_outcome(Color.RED, 140, 42, "score"), "Red wins", "Red wins 140 to 42", None),
    (_outcome(Color.WHITE, 50, 50, "largest territory"), "White wins",
     "White and Red both score 50: decided by the larger single territory", "decided by the larger single territory"),
    (_outcome(Color.RED, 50, 50, "stones"), "Red wins",
     "Red and White both score 50 and have equal largest territories: decided by more stones on the board",
     "decided by more stones on the board"),
    (_outcome(None, 34, 34, "draw"), "A draw", "Red 34, White 34: a draw", "a draw"),
])
def test_result_texts_explain_the_tie_break(outcome, title, text, note):
    assert phrases.result_title(outcome) == title
    assert phrases.result_text(outcome) == text
    assert phrases.tie_break_text(outcome) == note


def test_result_in_german_with_player_names():
    i18n.set_language("de")
    outcome = _outcome(Color.WHITE, 50, 50, "largest territory")
    assert phrases.result_title(outcome, ["Anna", "Ben"]) == "Ben gewinnt"
    assert phrases.result_text(outcome, ["Anna", "Ben"]) == (
        "Ben und Anna haben beide 50 Punkte – entschieden durch das größere Einzelgebiet")
    assert phrases.termination_text(Termination.BLOCKED) == "Keiner der beiden kann mehr ziehen."


def test_move_sentences():
    state = _state_after()
    assert phrases.move_text(state, Move.from_str("red play N3")) == "Red plays N III to e8"
    state.push_str("red play N3")
    state.push_str("white play E1")
    state.push_str("red play S1")
    assert phrases.move_text(state, Move.from_str("white draw S2")) == "White draws a card"
    state.push_str("white draw S2")
    assert phrases.move_text(state, Move.from_str("red hero N1"), ["Ann", "Bob"]) == (
        "Ann plays a hero card with N I and flips f8")
    i18n.set_language("fr")
    assert phrases.move_text(state, Move.from_str("red hero N1")) == (
        "Rouge joue une carte héros avec N I et retourne f8")


@pytest.mark.parametrize("lang, labels", [
    ("en", ["N I", "NE II", "E III", "SE I", "S II", "SW III", "W I", "NW II"]),
    ("de", ["N I", "NO II", "O III", "SO I", "S II", "SW III", "W I", "NW II"]),
    ("nl", ["N I", "NO II", "O III", "ZO I", "Z II", "ZW III", "W I", "NW II"]),
    ("fr", ["N I", "NE II", "E III", "SE I", "S II", "SO III", "O I", "NO II"]),
])
def test_card_labels_use_each_languages_compass(lang, labels):
    i18n.set_language(lang)
    names = ["N1", "NE2", "E3", "SE1", "S2", "SW3", "W1", "NW2"]
    assert [phrases.card_label(Card.from_name(n)) for n in names] == labels


def test_counters_and_names():
    assert phrases.stones_text(17) == "Stones 17/52"
    assert phrases.heroes_text(1) == "1 hero card left"
    assert phrases.points_text(69) == "69 points"
    assert phrases.territory_text(1) == "Territory: 1 stone, 1 point"
    assert phrases.territory_text(8) == "Territory: 8 stones, 64 points"
    assert phrases.square_sum_text(8) == "8 × 8 = 64"
    assert phrases.ply_count_text(1) == "1 move" and phrases.replay_position_text(12, 60) == "Move 12 of 60"
    assert phrases.player_names("  Ann ", "") == ("Ann", "White")
    assert phrases.turn_text(Color.WHITE) == "White to move"
    assert phrases.pass_text(Color.RED, ["Ann", "Bob"]) == "Ann cannot move and passes"
    i18n.set_language("nl")
    assert phrases.player_names() == ("Rood", "Wit")
    assert phrases.level_name("hard") == "Moeilijk" and phrases.level_name("mystery") == "mystery"
    assert phrases.territory_text(2) == "Gebied: 2 stenen, 4 punten"
    assert phrases.hero_prompt(Card.from_name("E2"), 41) == (
        "Een heldenkaart spelen met O II en de steen op f5 omdraaien? Klik nog eens om te bevestigen.")


def test_every_label_is_translated_in_every_language():
    for lang in ("de", "nl", "fr"):
        i18n.set_language(lang)
        untranslated = [label for label in phrases.LABELS
                        if i18n._(label) == label and label not in {"OK", "Port", "Volume", "Score", "Pause",
                                                                    "Total", "Start", "Normal", "Replay"}]
        assert untranslated == [], lang


def test_settings_values():
    from game import schema as phrases  # the app-wide settings' values are worded by the shell
    assert (phrases.on_off_text(True), phrases.on_off_text(False)) == ("On", "Off")
    assert (phrases.speed_text(2.0), phrases.speed_text(0.0), phrases.speed_text(1.5)) == ("Fast", "Instant", "×1.5")
    assert phrases.volume_text(0.35) == "35%"
    i18n.set_language("fr")
    assert (phrases.on_off_text(True), phrases.speed_text(0.6), phrases.volume_text(1)) == (
        "Activé", "Lente", "100\u00a0%")


def test_lan_stops_read_as_whole_sentences():
    i18n.set_language("de")
    try:
        stops = {code: phrases.stop_text(code, "Bob", 7) for code in
                 ("illegal", "coin", "forfeit", "desync", "sync", "left", "version", "game", "seat", "role",
                  "internal", "order", "eof")}
        assert len(set(stops.values())) == len(stops) and "Zug 7" in stops["illegal"]
        assert phrases.stop_text("bye") == stops["left"] and phrases.stop_text("schema") == stops["order"]
        i18n.set_language("en")
        assert all(phrases.stop_text(code, "Bob", 7) != text for code, text in stops.items())
    finally:
        i18n.set_language("en")


def test_join_errors_read_as_whole_sentences_naming_the_address():
    """What probe_host and the sessions' join raise (net/session.py's JoinError codes) reads,
    in German, as its own sentence naming the address, chosen by the code: the English detail
    is neither shown nor read (the same detail under another code reads differently)."""
    from game.lan import join_error_text
    from net.session import JoinError
    errors = [OSError(111, "Connection refused")] + [
        JoinError(code, "the same English detail") for code in
        ("version", "no-hello", "not-host", "name", "journal", "protocol")]
    i18n.set_language("de")
    try:
        texts = [join_error_text(e, "10.0.0.7:4455") for e in errors]
        assert len(set(texts)) == len(texts)
        assert all("connection" not in t and "hello" not in t for t in texts)
        assert texts[0] == "Zu 10.0.0.7:4455 konnte keine Verbindung aufgebaut werden."
    finally:
        i18n.set_language("en")


#: The closing codes both games word (docs/protocol.md), and the words each game's LAN
#: sentences must not use in each language: Rose King has a game on a board (German "Partie",
#: as its LAN screens say elsewhere), Royals & Riots a match at a table.
STOP_CODES = ("illegal", "coin", "forfeit", "desync", "sync", "left", "bye", "version", "game", "seat", "role",
              "internal", "order", "eof")
FOREIGN_WORDS = {
    "rose-king": {"en": r"\b(match|table)\b", "de": r"\b(Spiel|Tisch)\b", "nl": r"\b(spel|tafel)\b",
                  "fr": r"\btable\b"},
    "royals": {"en": r"\bgame\b", "de": r"\bSpiel\b", "nl": r"\bspel\b", "fr": r"\bjeu\b"},
}


def _lan_sentences(game: str) -> list[str]:
    if game == "rose-king":
        out = [phrases.stop_text(c, who, move) for c in STOP_CODES for who in ("", "Bob") for move in (0, 7)]
        return out + [i18n._("The game was stopped"), i18n._("The game cannot go on"),  # the panels' titles
                      i18n._("Wait: the other player's move or the connection comes first.")]
    from game.royals import phrases as royals
    out = [royals.stop_text(c, who, r, t) for c in STOP_CODES for who in ("", "Cy") for r, t in ((0, 0), (2, 0), (2, 3))]
    out += [royals.table_error_text(e) for e in (OSError(), ValueError("seats"))]
    return out + [i18n._("The match was stopped")]


@pytest.mark.parametrize("game", ["rose-king", "royals"])
@pytest.mark.parametrize("lang", ["en", "de", "nl", "fr"])
def test_each_games_lan_sentences_use_its_own_words(game, lang):
    """A stopped LAN game, a refusal, a turned-away player: Rose King's sentences never speak of a
    table or (in German) mix "Spiel" with the "Partie" of its LAN screens; Royals & Riots' never
    call the match a game (German "Partie", as its panel's title)."""
    import re
    i18n.set_language(lang)
    try:
        sentences = _lan_sentences(game)
        bad = [s for s in sentences if re.search(FOREIGN_WORDS[game][lang], s)]
        assert not bad, bad
        if lang == "de":
            assert sum("Partie" in s for s in sentences) >= 10
    finally:
        i18n.set_language("en")
