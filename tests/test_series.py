"""The series scoreboard (specs/rules.md § 15, jupai_net/series.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jupai_net.series import Series, game_points, place_points, totals


def test_places_score_p_minus_one_down_to_zero():
    assert [place_points(4, k) for k in range(4)] == [3, 2, 1, 0]
    assert [place_points(2, k) for k in range(2)] == [1, 0]
    assert game_points([2, 0, 3, 1], 4) == [2, 0, 3, 1]  # seat 2 won: 3 points
    with pytest.raises(ValueError, match="place must be 0..3"):
        place_points(4, 4)
    with pytest.raises(ValueError, match="every seat"):
        game_points([0, 0, 1], 3)


def test_the_worked_example_of_the_spec():
    s = Series(b"\x01" * 16, games=3)
    assert s.record(["Ann", "Bob", "greedy bot 2"], [1, 0, 2]) == [1, 2, 0]
    assert not s.over
    assert s.record(["Ann", "greedy bot 1", "greedy bot 2"], [0, 2, 1]) == [2, 0, 1]
    assert s.record(["Ann", "greedy bot 1", "greedy bot 2"], None) == [None, None, None]
    assert s.over and (s.played, s.finished, s.abandoned) == (3, 2, 1)
    board = s.standings()
    # an abandoned game is nobody's game played: Ann played 2 of the 3 games, not 3
    assert [(b.name, b.points, b.wins, b.played) for b in board] == [
        ("Ann", 3, 1, 2), ("Bob", 2, 1, 1), ("greedy bot 2", 1, 0, 2), ("greedy bot 1", 0, 0, 1)]
    assert all(b.last is None for b in board)  # the last game was abandoned: nobody scored


def test_last_is_the_latest_game_only_and_ties_go_to_wins_then_place():
    s = Series(b"\x02" * 16)
    s.record(["A", "B"], [0, 1])
    s.record(["A", "C"], [1, 0])
    board = {b.name: b for b in s.standings()}
    assert board["B"].last is None and board["A"].last == 0 and board["C"].last == 1
    # A and C: 1 point and 1 win each; C came first in its latest game, A second
    assert [b.name for b in s.standings()] == ["C", "A", "B"]
    s.close()
    assert s.over


@settings(max_examples=40, deadline=None)
@given(st.lists(st.permutations(range(4)), min_size=1, max_size=6))
def test_every_finished_game_gives_out_the_same_total(rankings):
    board = totals([(["a", "b", "c", "d"], r) for r in rankings])
    assert sum(b.points for b in board) == 6 * len(rankings)
    assert sum(b.wins for b in board) == len(rankings)
    assert [b.points for b in board] == sorted((b.points for b in board), reverse=True)


def test_a_bad_ranking_counts_as_abandoned_in_totals():
    board = totals([(["a", "b"], [0, 0]), (["a", "b"], [1, 0])])
    assert {b.name: (b.points, b.played) for b in board} == {"a": (0, 1), "b": (1, 1)}
