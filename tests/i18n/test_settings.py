"""Settings: round trip, atomic save, listeners, and every kind of bad file."""

import json
from pathlib import Path
import os

import hypothesis as settings_
import pytest
from hypothesis import strategies as st

from game import i18n, settings
from game.settings import BROKEN_NAME, FILE_NAME, Settings, SettingsStore

ENV = {"LANG": "nl_NL.UTF-8"}  # the "system" of these tests: Dutch


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "config"


def _write(folder, content) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE_NAME
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")


def test_first_start_uses_the_system_language_and_writes_nothing(folder):
    store = SettingsStore(folder, ENV)
    assert store.settings.language == "nl"
    assert store.settings.volume == 0.35 and store.settings.sound and not store.settings.of("rose-king").tutorial_seen
    assert store.notice() is None
    assert not folder.exists()


def test_round_trip_of_every_field(folder):
    store = SettingsStore(folder, ENV)
    store.update(language="fr", animation_speed=2, sound=False, volume=0.8, fullscreen=True, game="royals-riots")
    store.update_game("rose-king", show_legal_targets=False, red_name="Anne", white_name="Bruno",
                      computer_level="random", tutorial_seen=True)
    store.update_game("royals-riots", computer_level="hard", computer_speed="slow", hold_trick=True, table=ROYALS)
    again = SettingsStore(folder, {"LANG": "de_DE"})
    assert again.settings == Settings("fr", 2.0, False, 0.8, True, "royals-riots", {
        "rose-king": {"show_legal_targets": False, "red_name": "Anne", "white_name": "Bruno",
                      "computer_level": "random", "tutorial_seen": True},
        "royals-riots": {"computer_level": "hard", "computer_speed": "slow", "hold_trick": True, "table": ROYALS}})
    assert again.notice() is None
    data = json.loads((folder / FILE_NAME).read_text())
    assert data["version"] == settings.VERSION == 2 and data["language"] == "fr"
    assert data["games"]["royals-riots"]["hold_trick"] is True and "red_name" not in data


def test_update_notifies_listeners_with_what_changed(folder):
    store = SettingsStore(folder, ENV)
    heard = []
    unsubscribe = store.on_change(lambda s, changed: heard.append((s.volume, changed)))
    store.update(volume=0.5, sound=True)  # sound was already on
    store.update(volume=0.5)  # no change: no call
    unsubscribe()
    store.update(volume=0.1)
    assert heard == [(0.5, frozenset({"volume"}))]


def test_a_bad_update_changes_and_writes_nothing(folder):
    store = SettingsStore(folder, ENV)
    store.update(volume=0.5)
    before = (folder / FILE_NAME).read_bytes()
    heard = []
    store.on_change(lambda s, c: heard.append(c))
    for bad in [dict(volume=1.5), dict(volume="loud"), dict(language="es"), dict(sound=1),
                dict(red_name="Anne"), dict(colour="red"),
                dict(game="chess"), dict(game=1),
                dict(volume=0.2, animation_speed=-1), dict(animation_speed=9)]:
        with pytest.raises(ValueError):
            store.update(**bad)
    for game, bad in [("rose-king", dict(red_name="x" * 21)), ("rose-king", dict(computer_level="godlike")),
                      ("rose-king", dict(computer_level="alphabeta")),  # a match baseline, not a level to play
                      ("royals-riots", dict(computer_level="expert")),  # Rose King's level, not Royals'
                      ("royals-riots", dict(computer_speed="ludicrous")), ("royals-riots", dict(hold_trick="yes")),
                      ("royals-riots", dict(red_name="Anne")), ("chess", dict(level="hard"))]:
        with pytest.raises(ValueError):
            store.update_game(game, **bad)
    assert store.settings.volume == 0.5 and (folder / FILE_NAME).read_bytes() == before and heard == []


def test_names_are_tidied(folder):
    store = SettingsStore(folder, ENV)
    store.update_game("rose-king", red_name="  Anne\n  Marie ", white_name="")
    section = store.settings.of("rose-king")
    assert (section.red_name, section.white_name) == ("Anne Marie", "")


def test_follow_language_applies_now_and_on_change(folder):
    _write(folder, {"language": "de"})
    store = SettingsStore(folder, ENV)
    heard = []
    i18n.on_language_change(heard.append)
    settings.follow_language(store)
    assert i18n.language() == "de" and i18n._("Settings") == "Einstellungen"
    store.update(language="fr")
    assert i18n._("Settings") == "Paramètres" and heard == ["de", "fr"]
    store.update(volume=0.2)
    assert heard == ["de", "fr"]


@pytest.mark.parametrize("content", [
    "", "{", '{"language": "de", "volume": 0.5', "null", "[1, 2, 3]", '"settings"', "42",
    b"\xff\xfe\x00garbage\x80", b"\x00" * 100, "[" * 100_000, '{"a": "' + "x" * 70_000 + '"}',
])
def test_a_damaged_file_gives_defaults_a_notice_and_a_kept_copy(folder, content):
    _write(folder, content)
    original = (folder / FILE_NAME).read_bytes()
    store = SettingsStore(folder, ENV)
    assert store.settings == settings.defaults(ENV)
    assert store.notice() == ("The settings file was damaged and the defaults are used. "
                              f"A copy was kept as {BROKEN_NAME}.")
    assert (folder / BROKEN_NAME).read_bytes() == original  # nothing lost
    store.update(volume=0.6)  # the first change writes a good file
    assert SettingsStore(folder, ENV).settings.volume == 0.6
    assert (folder / BROKEN_NAME).read_bytes() == original


def test_wrong_typed_fields_fall_back_one_by_one(folder):
    _write(folder, {"language": "fr", "volume": "loud", "sound": "yes", "animation_speed": float("nan"),
                    "red_name": ["Anne"], "white_name": "Bruno", "fullscreen": 1, "tutorial_seen": True,
                    "computer_level": "godlike", "show_legal_targets": None})
    store = SettingsStore(folder, ENV)
    s, d = store.settings, settings.defaults(ENV)
    rk, drk = s.of("rose-king"), d.of("rose-king")
    assert (s.language, rk.white_name, rk.tutorial_seen) == ("fr", "Bruno", True)  # the good ones are kept
    assert (s.volume, s.sound, s.animation_speed, rk.red_name, s.fullscreen, rk.computer_level,
            rk.show_legal_targets) == (d.volume, d.sound, d.animation_speed, drk.red_name, d.fullscreen,
                                       drk.computer_level, drk.show_legal_targets)
    notice = store.notice()
    assert notice.startswith("Some settings were not valid and were reset: Animation speed, Sound, Volume, "
                             "Full screen, Show legal targets, Red player's name, Default computer level.")
    assert (folder / BROKEN_NAME).exists()
    i18n.set_language("fr")  # the notice is worded when shown, in the language of the moment
    assert store.notice().startswith("Certains paramètres n'étaient pas valides et ont été réinitialisés\u00a0: "
                                     "Vitesse des animations, Son, Volume")


@pytest.mark.parametrize("value", [-0.1, 1.01, True, "0.5", None, float("inf")])
def test_volume_out_of_range_or_type(folder, value):
    _write(folder, {"volume": value, "fullscreen": True})
    store = SettingsStore(folder, ENV)
    assert store.settings.volume == 0.35 and store.settings.fullscreen is True
    assert "Volume" in store.notice()


def test_an_older_file_missing_keys_takes_their_defaults_silently(folder):
    _write(folder, {"version": 1, "language": "de", "volume": 0.1})
    store = SettingsStore(folder, ENV)
    assert (store.settings.language, store.settings.volume, store.settings.sound) == ("de", 0.1, True)
    assert store.notice() is None and not (folder / BROKEN_NAME).exists()


def test_a_newer_file_keeps_what_it_does_not_know(folder):
    _write(folder, {"version": 3, "language": "de", "colour_blind_mode": "deuteranopia", "window": [800, 600]})
    store = SettingsStore(folder, ENV)
    assert store.settings.language == "de"
    assert "newer version" in store.notice()
    store.dismiss_notice()
    assert store.notice() is None
    store.update(volume=0.2)
    data = json.loads((folder / FILE_NAME).read_text())
    assert data["colour_blind_mode"] == "deuteranopia" and data["window"] == [800, 600]
    assert data["volume"] == 0.2 and data["version"] == settings.VERSION


def test_an_unreadable_file_gives_defaults_and_a_notice(folder):
    (folder / FILE_NAME).mkdir(parents=True)  # a folder where the file should be: reading fails
    store = SettingsStore(folder, ENV)
    assert store.settings == settings.defaults(ENV)
    assert store.notice().startswith("The settings file could not be read (")


def test_a_failed_write_keeps_the_old_file_and_leaves_no_litter(folder, monkeypatch):
    store = SettingsStore(folder, ENV)
    store.update(volume=0.5)
    before = (folder / FILE_NAME).read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(settings.os, "replace", broken_replace)
    heard = []
    store.on_change(lambda s, c: heard.append(c))
    store.update(volume=0.9)  # no exception: the game goes on
    assert store.settings.volume == 0.9 and heard == [frozenset({"volume"})]  # applies for this session
    assert store.notice() == ("The settings could not be saved (the disk is full); "
                              "they apply until the game is closed.")
    assert (folder / FILE_NAME).read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == [FILE_NAME]
    monkeypatch.undo()
    store.update(volume=0.7)
    assert store.notice() is None and SettingsStore(folder, ENV).settings.volume == 0.7


def test_a_failed_fsync_leaves_no_temporary_file(folder, monkeypatch):
    folder.mkdir()

    def broken_fsync(fd):
        raise OSError(5, "I/O error")
    monkeypatch.setattr(settings.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        settings.save(folder / FILE_NAME, settings.defaults(ENV))
    assert list(folder.iterdir()) == []


def test_the_folder_comes_from_the_argument_then_the_environment_then_platformdirs(tmp_path, monkeypatch):
    assert settings.config_dir(tmp_path / "a", {settings.ENV_CONFIG_DIR: str(tmp_path / "b")}) == tmp_path / "a"
    assert settings.config_dir(None, {settings.ENV_CONFIG_DIR: str(tmp_path / "b")}) == tmp_path / "b"
    monkeypatch.setattr(settings.platformdirs, "user_config_dir", lambda app, appauthor: f"/cfg/{app}")
    assert str(settings.config_dir(None, {})) == "/cfg/rose-king"
    monkeypatch.setenv(settings.ENV_CONFIG_DIR, str(tmp_path / "env"))
    store = SettingsStore(environ=None)
    store.update(volume=0.3)
    assert (tmp_path / "env" / FILE_NAME).exists()


def test_every_field_has_a_label_for_the_settings_screen():
    assert set(settings.FIELD_LABELS) == {f for f in Settings.__dataclass_fields__} - {"games"}
    for schema in settings.schemas().values():
        assert all(f.label and f.control in ("text", "choice", "switch", "reset", "hidden") for f in schema.values())
    assert list(settings.ANIMATION_SPEEDS) == [0.6, 1.0, 2.0, 0.0]  # slow, normal, fast, instant


def test_save_writes_a_complete_readable_file_in_one_step(folder, monkeypatch):
    """Between the temporary file and the rename, the old file is whole (what a crash would leave)."""
    store = SettingsStore(folder, ENV)
    store.update(volume=0.4)
    seen = []
    real_replace = os.replace

    def spy(src, dst):
        seen.append((json.loads(open(src).read())["volume"], json.loads(open(dst).read())["volume"]))
        real_replace(src, dst)
    monkeypatch.setattr(settings.os, "replace", spy)
    store.update(volume=0.6)
    assert seen == [(0.6, 0.4)]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=10)
V1_KEYS = [f.v1 for schema in settings.schemas().values() for f in schema.values() if f.v1]
field_names = st.sampled_from([f for f in Settings.__dataclass_fields__] + V1_KEYS + ["version", "extra"])
section_names = st.sampled_from(sorted({n for schema in settings.schemas().values() for n in schema}) + ["x"])
sections = st.dictionaries(st.sampled_from([*settings.schemas(), "chess"]),
                           st.dictionaries(section_names, json_values, max_size=6) | json_values, max_size=3)


@settings_.given(data=st.dictionaries(field_names, json_values, max_size=12), games=st.none() | sections)
@settings_.settings(max_examples=80, deadline=None,
                    suppress_health_check=[settings_.HealthCheck.function_scoped_fixture])
def test_any_json_object_loads_into_valid_settings(folder, data, games):
    if games is not None:
        data["games"] = games
    _write(folder, data)
    loaded = settings.load(folder / FILE_NAME, ENV)
    for name in Settings.__dataclass_fields__:
        if name != "games":
            value = getattr(loaded.settings, name)
            assert settings.validate(name, value) == value  # every field valid, whatever the file said
    for game, schema in settings.schemas().items():
        section = loaded.settings.of(game)
        assert set(section) == set(schema)
        for name, value in section.items():
            assert settings.validate_game(game, name, value) == value
    assert loaded.notice() is None or loaded.notice().strip()


ROYALS = {"seats": [{"name": "Ann", "level": None}, {"name": "Ada", "level": "hard"},
                    {"name": "Bo", "level": None}, {"name": "Dora", "level": "random"}],
          "teams": True, "starter": 3}


def test_royals_last_set_up_survives_a_new_store_on_the_same_folder(folder):
    store = SettingsStore(folder, ENV)
    assert store.settings.of("royals-riots").table == {}  # nothing remembered yet
    store.update_game("royals-riots", table=ROYALS)
    again = SettingsStore(folder, ENV)
    assert again.settings.of("royals-riots").table == ROYALS and again.notice() is None
    again.update_game("royals-riots", table={"seats": [{"name": "  Ann\tLee ", "level": None},
                                                       {"name": "", "level": "easy"}], "teams": False, "starter": 0})
    assert SettingsStore(folder, ENV).settings.of("royals-riots").table["seats"] == [
        {"name": "Ann Lee", "level": None}, {"name": "", "level": "easy"}]


def _royals(**changes):
    table = json.loads(json.dumps(ROYALS))
    table.update(changes)
    return table


@pytest.mark.parametrize("bad", [
    "Ann,Ada", [], None, {"seats": []},
    _royals(seats=ROYALS["seats"][:1]), _royals(seats=ROYALS["seats"] * 2),
    _royals(seats=[{"name": "Ann", "level": "grandmaster"}, {"name": "Ada", "level": None}]),
    _royals(seats=[{"name": "A" * 21, "level": None}, {"name": "Ada", "level": None}]),
    _royals(seats=[{"name": 7, "level": None}, {"name": "Ada", "level": None}]),
    _royals(seats=[["Ann", None], {"name": "Ada", "level": None}]),
    _royals(seats=ROYALS["seats"][:3]),  # teams with 3 seats
    _royals(teams="yes"), _royals(starter=5), _royals(starter=True), _royals(starter=-1),
    {**ROYALS, "extra": 1},
])
def test_a_corrupt_royals_set_up_gives_the_default_and_keeps_the_rest(folder, bad):
    _write(folder, {"language": "fr", "volume": 0.5, "royals_table": bad})  # a version 1 file
    store = SettingsStore(folder, ENV)
    assert store.settings.of("royals-riots").table == {}
    assert (store.settings.language, store.settings.volume) == ("fr", 0.5)
    assert store.notice().startswith("Some settings were not valid and were reset: Royals & Riots' last set-up.")
    assert (folder / BROKEN_NAME).exists()  # nothing lost
    with pytest.raises(ValueError, match="royals-riots.table"):
        store.update_game("royals-riots", table=bad)
    assert store.settings.of("royals-riots").table == {}
    _write(folder, {"version": 2, "games": {"royals-riots": {"table": bad, "hold_trick": True}}})  # version 2
    store = SettingsStore(folder, ENV)
    assert store.settings.of("royals-riots").table == {} and store.settings.of("royals-riots").hold_trick is True
    assert "Royals & Riots' last set-up" in store.notice()


V1_FILE = Path(__file__).with_name("settings_v1.json")  # written by the version before per-game sections, byte for byte


def test_a_file_written_by_the_previous_version_loads_as_it_was(folder):
    """Every field of a version 1 file lands in its place (app-wide, Rose King's
    section, Royals & Riots' set-up), nothing is reported, and the next save writes version 2
    without losing any of it."""
    _write(folder, V1_FILE.read_bytes())
    store = SettingsStore(folder, ENV)
    s = store.settings
    assert (s.language, s.animation_speed, s.sound, s.volume, s.fullscreen, s.game) == (
        "de", 2.0, False, 0.6, True, "royals-riots")
    assert dict(s.of("rose-king")) == {"show_legal_targets": False, "red_name": "Anne", "white_name": "Bruno",
                                       "computer_level": "hard", "tutorial_seen": True}
    royals = s.of("royals-riots")
    assert royals.table == json.loads(V1_FILE.read_text())["royals_table"]
    assert (royals.computer_level, royals.computer_speed, royals.hold_trick) == ("medium", "normal", False)
    assert store.notice() is None and not (folder / BROKEN_NAME).exists()
    store.update(volume=0.5)
    data = json.loads((folder / FILE_NAME).read_text())
    assert data["version"] == 2 and not {"red_name", "royals_table", "tutorial_seen"} & set(data)
    again = SettingsStore(folder, ENV)
    assert again.settings == store.settings and again.notice() is None


def test_a_newer_file_keeps_unknown_sections_and_section_keys(folder):
    _write(folder, {"version": 3, "games": {"chess": {"board": "wood"},
                                            "rose-king": {"red_name": "Ann", "board_tint": "dark"}}})
    store = SettingsStore(folder, ENV)
    assert store.settings.of("rose-king").red_name == "Ann" and "newer version" in store.notice()
    store.update_game("royals-riots", hold_trick=True)
    data = json.loads((folder / FILE_NAME).read_text())
    assert data["games"]["chess"] == {"board": "wood"} and data["games"]["rose-king"]["board_tint"] == "dark"
    assert data["games"]["royals-riots"]["hold_trick"] is True


def test_a_game_section_that_is_not_an_object_resets_that_game_only(folder):
    _write(folder, {"version": 2, "volume": 0.2, "games": {"rose-king": "Ann", "royals-riots": {"hold_trick": True}}})
    store = SettingsStore(folder, ENV)
    assert store.settings.volume == 0.2 and store.settings.of("royals-riots").hold_trick is True
    assert store.settings.of("rose-king") == settings.default_section("rose-king")
    assert "Red player's name" in store.notice() and (folder / BROKEN_NAME).exists()


def test_game_fields_are_named_with_their_game_for_listeners(folder):
    store = SettingsStore(folder, ENV)
    heard = []
    store.on_change(lambda s, changed: heard.append(changed))
    store.update_game("royals-riots", computer_speed="fast", hold_trick=False)  # hold_trick was already off
    assert heard == [frozenset({"royals-riots.computer_speed"})]
    assert store.settings.of("royals-riots").computer_speed == "fast"
    assert store.settings.of("rose-king").computer_level == "medium"  # the other game's untouched
    with pytest.raises(AttributeError):
        store.settings.of("royals-riots").red_name
