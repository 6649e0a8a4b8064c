"""Synthesise the game's sound effects into ``assets/sounds/*.wav`` (issue 6).

    python assets/make_sounds.py            # rewrite assets/sounds/
    python assets/make_sounds.py OUT_DIR    # write elsewhere (the tests compare the bytes)

Everything is made here from sine waves and seeded noise with the standard
library (``math``, ``array``, ``wave``): no recordings, no downloads, so the files
are ours to ship (see assets/LICENSES.md). Output: 44.1 kHz, 16-bit, mono PCM,
peaks at most -10 dBFS (quiet; the game's volume setting lowers them further).
The same script always writes the same bytes (noise from the project's seeded
:class:`game.roseking.engine.Rng`, no time stamps in WAV files).
"""

from __future__ import annotations

import math
import sys
import wave
from array import array
from pathlib import Path
from typing import Callable, Iterable

RATE = 44_100
PEAK = 0.3  # of full scale: about -10 dBFS
OUT_DIR = Path(__file__).resolve().parent / "sounds"


def _noise(seed: int, n: int) -> list[float]:
    """``n`` samples of white noise in -1..1 from a seeded PCG32 (reproducible everywhere)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from game.rng import Rng
    rng = Rng(seed)
    return [rng.random() * 2.0 - 1.0 for _ in range(n)]


def _lowpass(samples: Iterable[float], cutoff: Callable[[float], float]) -> list[float]:
    """Two cascaded one-pole low-passes (12 dB/octave) whose cutoff (Hz) may change with time (s)."""
    out, y1, y2 = [], 0.0, 0.0
    for i, x in enumerate(samples):
        a = 1.0 - math.exp(-2.0 * math.pi * cutoff(i / RATE) / RATE)
        y1 += a * (x - y1)
        y2 += a * (y1 - y2)
        out.append(y2)
    return out


def _env(t: float, attack: float, decay: float) -> float:
    """Fast linear attack, exponential decay with time constant ``decay`` (s)."""
    return (t / attack if t < attack else 1.0) * math.exp(-max(0.0, t - attack) / decay)


def _tone(freq: float, start: float, attack: float, decay: float, length: float,
          partials: tuple[tuple[float, float], ...] = ((1.0, 1.0),)) -> Callable[[float], float]:
    """A note from ``start`` (s): partials are (frequency ratio, amplitude)."""
    def f(t: float) -> float:
        u = t - start
        if u < 0 or u > length:
            return 0.0
        return _env(u, attack, decay) * sum(a * math.sin(2 * math.pi * freq * r * u) for r, a in partials)
    return f


def _render(duration: float, *voices: Callable[[float], float], extra: list[float] | None = None) -> list[float]:
    n = int(duration * RATE)
    out = [sum(v(i / RATE) for v in voices) for i in range(n)]
    if extra:
        for i, x in enumerate(extra[:n]):
            out[i] += x
    return out


def card_played() -> list[float]:
    """A card slid onto the discard pile: a soft paper swish, then a low tap as it lands."""
    n = int(0.22 * RATE)
    swish = _lowpass(_noise(1, n), lambda t: 700 + 1800 * t / 0.22)
    swish = [x * _env(i / RATE, 0.03, 0.05) * 2.2 for i, x in enumerate(swish)]
    return _render(0.22, _tone(170, 0.09, 0.002, 0.03, 0.12, ((1, 0.5), (2.1, 0.15))), extra=swish)


def stone_placed() -> list[float]:
    """A wooden stone set on the board: a short hollow clack."""
    n = int(0.16 * RATE)
    click = [x * _env(i / RATE, 0.0005, 0.003) * 0.6 for i, x in enumerate(_noise(2, n))]
    return _render(0.16, _tone(520, 0, 0.001, 0.05, 0.16, ((1, 0.6), (2.41, 0.35), (5.2, 0.15))), extra=click)


def hero_flip() -> list[float]:
    """A hero turns a stone over: a quick rising sweep and a bright two-note chime."""
    def sweep(t: float) -> float:
        if t > 0.14:
            return 0.0
        phase = 2 * math.pi * (400 * t + 0.5 * (1400 - 400) / 0.14 * t * t)
        return 0.35 * math.sin(phase) * math.sin(math.pi * t / 0.14)
    bell = ((1, 0.6), (2.0, 0.2), (3.01, 0.1))
    return _render(0.6, sweep, _tone(1046.5, 0.12, 0.004, 0.16, 0.48, bell), _tone(1568.0, 0.2, 0.004, 0.14, 0.4, bell))


def card_drawn() -> list[float]:
    """A card taken from the draw pile: a rising swish and a light tick."""
    n = int(0.18 * RATE)
    swish = _lowpass(_noise(3, n), lambda t: 500 + 2500 * t / 0.18)
    swish = [x * math.sin(math.pi * i / n) * 1.8 for i, x in enumerate(swish)]
    return _render(0.18, _tone(1800, 0.15, 0.001, 0.01, 0.03, ((1, 0.25),)), extra=swish)


def pass_turn() -> list[float]:
    """A player must pass: two soft falling notes."""
    soft = ((1, 0.55), (3, 0.06))
    return _render(0.5, _tone(659.3, 0.0, 0.015, 0.09, 0.2, soft), _tone(493.9, 0.17, 0.015, 0.12, 0.33, soft))


def game_end() -> list[float]:
    """The game is over: a rising C major arpeggio ringing out."""
    bell = ((1, 0.4), (2.0, 0.12), (3.0, 0.05))
    notes = (523.3, 659.3, 784.0, 1046.5)
    return _render(1.3, *(_tone(f, 0.12 * k, 0.006, 0.35, 1.3 - 0.12 * k, bell) for k, f in enumerate(notes)))


# ---------------------------------------------------------------------- Royals & Riots
def _snap(seed: int, start: float, n_total: int, length: float = 0.05, bright: float = 2600.0) -> list[float]:
    """One card snapped down at ``start`` (s): a short burst of filtered noise, placed in ``n_total`` samples."""
    n = int(length * RATE)
    burst = _lowpass(_noise(seed, n), lambda t: bright)
    out = [0.0] * n_total
    at = int(start * RATE)
    for i, x in enumerate(burst):
        if at + i < n_total:
            out[at + i] += x * _env(i / RATE, 0.002, length / 5) * 2.0
    return out


def _mix(*parts: list[float]) -> list[float]:
    n = max(len(p) for p in parts)
    return [sum(p[i] for p in parts if i < len(p)) for i in range(n)]


def _brass(freq: float, start: float, length: float, amp: float = 1.0) -> Callable[[float], float]:
    """A soft brass-like note: odd and even partials with a slower attack."""
    return _tone(freq, start, 0.03, 0.6, length, ((1, 0.5 * amp), (2, 0.25 * amp), (3, 0.15 * amp), (4, 0.06 * amp)))


def royals_deal() -> list[float]:
    """The cards are dealt round the table: eight quick snaps, each a little different."""
    n = int(0.62 * RATE)
    return _mix(*(_snap(20 + k, 0.07 * k, n, 0.05, 1800 + 260 * (k % 3)) for k in range(8)))


def royals_play() -> list[float]:
    """A card played into the trick: a bright flick and a soft landing."""
    n = int(0.2 * RATE)
    flick = _lowpass(_noise(30, n), lambda t: 2400 - 1600 * t / 0.2)
    flick = [x * _env(i / RATE, 0.004, 0.035) * 2.0 for i, x in enumerate(flick)]
    return _render(0.2, _tone(220, 0.05, 0.002, 0.035, 0.12, ((1, 0.45), (2.7, 0.1))), extra=flick)


def royals_draw() -> list[float]:
    """A card drawn from one's own pile: a short rising slide."""
    n = int(0.16 * RATE)
    slide = _lowpass(_noise(31, n), lambda t: 400 + 1800 * t / 0.16)
    return [x * math.sin(math.pi * i / n) * 1.6 for i, x in enumerate(slide)]


def royals_trick_won() -> list[float]:
    """A trick gathered by its winner: the cards swept together, then two rising notes."""
    n = int(0.55 * RATE)
    sweep = _lowpass(_noise(32, int(0.2 * RATE)), lambda t: 900 + 1500 * t / 0.2)
    sweep = [x * math.sin(math.pi * i / len(sweep)) * 1.4 for i, x in enumerate(sweep)]
    bell = ((1, 0.45), (2.0, 0.12), (3.0, 0.04))
    notes = _render(0.55, _tone(784.0, 0.16, 0.004, 0.12, 0.3, bell), _tone(1046.5, 0.26, 0.004, 0.14, 0.29, bell))
    return _mix(sweep + [0.0] * (n - len(sweep)), notes)


def royals_steal() -> list[float]:
    """The Thief takes a card: a quick falling whoosh and two sly plucked notes."""
    n = int(0.5 * RATE)
    whoosh = _lowpass(_noise(33, int(0.22 * RATE)), lambda t: 3000 - 2400 * t / 0.22)
    whoosh = [x * math.sin(math.pi * i / len(whoosh)) * 1.5 for i, x in enumerate(whoosh)]
    pluck = ((1, 0.5), (2.0, 0.2), (3.0, 0.08))
    notes = _render(0.5, _tone(587.3, 0.2, 0.002, 0.06, 0.15, pluck), _tone(466.2, 0.3, 0.002, 0.08, 0.2, pluck))
    return _mix(whoosh + [0.0] * (n - len(whoosh)), notes)


def royals_execution() -> list[float]:
    """The Executioner takes a card out of the trick: a low drum thud and a dull metal ring."""
    def thud(t: float) -> float:
        if t > 0.4:
            return 0.0
        freq = 90 - 40 * min(1.0, t / 0.15)
        return math.sin(2 * math.pi * freq * t) * _env(t, 0.003, 0.09)
    metal = ((1, 0.2), (2.76, 0.12), (5.4, 0.06))
    return _render(0.8, thud, _tone(311.1, 0.05, 0.002, 0.25, 0.75, metal))


def royals_revolution() -> list[float]:
    """The Rebels start a revolution: a rising drum roll into a tense minor chord."""
    n = int(1.3 * RATE)
    roll = _mix(*(_snap(40 + k, 0.045 * k, n, 0.04, 500 + 40 * k) for k in range(12)))
    roll = [x * (0.4 + 0.6 * min(1.0, i / (0.55 * RATE))) for i, x in enumerate(roll)]
    chord = _render(1.3, _brass(220.0, 0.56, 0.74), _brass(261.6, 0.56, 0.74), _brass(311.1, 0.56, 0.74, 0.8))
    return _mix(roll, chord)


def royals_prince() -> list[float]:
    """A Prince restores the order: a short rising fanfare."""
    return _render(1.0, _brass(392.0, 0.0, 0.2), _brass(523.3, 0.16, 0.2), _brass(659.3, 0.32, 0.68),
                   _brass(784.0, 0.32, 0.68, 0.7))


def royals_round_end() -> list[float]:
    """A round is over: a two-chord cadence, settling."""
    soft = ((1, 0.45), (2, 0.12), (3, 0.04))
    return _render(1.1, *(_tone(f, 0.0, 0.01, 0.25, 0.45, soft) for f in (392.0, 493.9, 587.3)),
                   *(_tone(f, 0.4, 0.01, 0.35, 0.7, soft) for f in (261.6, 329.6, 523.3)))


def royals_match_won() -> list[float]:
    """The match is won: a bright fanfare ending on a held major chord."""
    return _render(1.45, _brass(523.3, 0.0, 0.16), _brass(523.3, 0.14, 0.16), _brass(659.3, 0.28, 0.16),
                   *(_brass(f, 0.46, 0.99, 0.8) for f in (523.3, 659.3, 784.0, 1046.5)))


def royals_match_lost() -> list[float]:
    """The match is lost: three slow falling notes in a minor key."""
    soft = ((1, 0.5), (2, 0.1), (3, 0.05))
    return _render(1.4, _tone(392.0, 0.0, 0.02, 0.2, 0.4, soft), _tone(349.2, 0.3, 0.02, 0.2, 0.4, soft),
                   _tone(311.1, 0.6, 0.02, 0.4, 0.8, soft), _tone(196.0, 0.6, 0.02, 0.4, 0.8, soft))


#: Sound name (file stem) -> (synthesiser, peak as a fraction of full scale). Tones sound
#: louder than clicks at the same peak, so the tonal effects peak lower.
#: game.client.audio plays them by these names.
SOUNDS: dict[str, tuple[Callable[[], list[float]], float]] = {
    "card_played": (card_played, PEAK),
    "stone_placed": (stone_placed, PEAK),
    "hero_flip": (hero_flip, 0.8 * PEAK),
    "card_drawn": (card_drawn, PEAK),
    "pass": (pass_turn, 0.6 * PEAK),
    "game_end": (game_end, 0.7 * PEAK),
    # Royals & Riots (issue 35): the table plays them by name through game.client.prefs.Prefs.play
    "royals_deal": (royals_deal, PEAK),
    "royals_play": (royals_play, PEAK),
    "royals_draw": (royals_draw, 0.8 * PEAK),
    "royals_trick_won": (royals_trick_won, 0.8 * PEAK),
    "royals_steal": (royals_steal, 0.8 * PEAK),
    "royals_execution": (royals_execution, PEAK),
    "royals_revolution": (royals_revolution, 0.8 * PEAK),
    "royals_prince": (royals_prince, 0.7 * PEAK),
    "royals_round_end": (royals_round_end, 0.6 * PEAK),
    "royals_match_won": (royals_match_won, 0.7 * PEAK),
    "royals_match_lost": (royals_match_lost, 0.6 * PEAK),
}


def to_pcm(samples: list[float], peak: float = PEAK) -> bytes:
    """Normalise to ``peak`` (fraction of full scale), fade the last 5 ms (no click), and pack as 16-bit little-endian."""
    top = max(abs(x) for x in samples) or 1.0
    fade = int(0.005 * RATE)
    n = len(samples)
    pcm = array("h", (round(32767 * peak * x / top * min(1.0, (n - i) / fade)) for i, x in enumerate(samples)))
    if sys.byteorder == "big":
        pcm.byteswap()
    return pcm.tobytes()


def write_wav(path: Path, samples: list[float], peak: float = PEAK) -> None:
    """A mono 16-bit PCM WAV file at :data:`RATE` Hz peaking at ``peak``."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(to_pcm(samples, peak))


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, (make, peak) in SOUNDS.items():
        samples = make()
        write_wav(out / f"{name}.wav", samples, peak)
        print(f"{name}.wav  {len(samples) / RATE * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
