"""The shuffle is uniform (specs/fairness.md §4): a chi-square test over many fixed
seeds on the position of each card of a small deck, with a threshold that a
modulo-biased shuffle fails."""

from __future__ import annotations

import hashlib

from jupai_net.cards import CANONICAL_DECK
from jupai_net.fairness.primitives import Drbg, drbg_key, fisher_yates, shuffle_deck

DECK = 6  # small deck: cards 0..5
TRIALS = 6000
# Chi-square critical value for (DECK-1)^2 = 25 degrees of freedom at p = 0.001.
CRITICAL_25_DF = 52.62
GAME_ID = bytes(16)


class ModuloBiased(Drbg):
    """The classic bug: the same DRBG bits as the rejection sampler, reduced modulo n."""

    def randrange(self, n: int, /) -> int:
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        x = int.from_bytes(self.read((bits + 7) // 8), "big") & ((1 << bits) - 1)
        return x % n


def seeds(t: int) -> tuple[bytes, list[bytes]]:
    host = hashlib.sha256(b"chi-square host %d" % t).digest()
    return host, [hashlib.sha256(b"chi-square seat %d %d" % (t, s)).digest() for s in range(4)]


def chi_square(cls) -> float:
    counts = [[0] * DECK for _ in range(DECK)]  # counts[card][position]
    for t in range(TRIALS):
        host, seat_seeds = seeds(t)
        rng = cls(drbg_key(GAME_ID, host, seat_seeds, "deck"))
        for pos, card in enumerate(fisher_yates(range(DECK), rng)):
            counts[card][pos] += 1
    expected = TRIALS / DECK
    return sum((c - expected) ** 2 / expected for row in counts for c in row)


def test_shuffle_is_uniform_by_chi_square():
    stat = chi_square(Drbg)
    assert stat < CRITICAL_25_DF, f"chi-square {stat:.1f} ≥ {CRITICAL_25_DF}: the shuffle is not uniform"


def test_modulo_biased_shuffle_fails_the_same_threshold():
    stat = chi_square(ModuloBiased)
    assert stat > 10 * CRITICAL_25_DF, f"the biased shuffle should fail clearly, chi-square was {stat:.1f}"


def test_randrange_values_are_uniform():
    rng = Drbg(bytes(range(32)))
    n, draws = 7, 7000
    counts = [0] * n
    for _ in range(draws):
        counts[rng.randrange(n)] += 1
    stat = sum((c - draws / n) ** 2 / (draws / n) for c in counts)
    assert stat < 22.46  # 6 degrees of freedom, p = 0.001


def test_full_deck_shuffle_is_a_permutation_and_depends_on_every_seed():
    host, seat_seeds = seeds(0)
    deck = shuffle_deck(GAME_ID, host, seat_seeds)
    assert sorted(deck) == list(CANONICAL_DECK) and deck != list(CANONICAL_DECK)
    assert shuffle_deck(GAME_ID, host, seat_seeds) == deck
    for s in range(len(seat_seeds)):
        changed = list(seat_seeds)
        changed[s] = bytes(32)
        assert shuffle_deck(GAME_ID, host, changed) != deck
    assert shuffle_deck(GAME_ID, bytes(32), seat_seeds) != deck
    assert shuffle_deck(b"\x01" * 16, host, seat_seeds) != deck
