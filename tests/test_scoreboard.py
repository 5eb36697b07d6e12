"""The series scoreboard's text (client/scoreboard.py): both languages, 60 and 80 columns."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from jupai_net.client.i18n import MESSAGES, fields
from jupai_net.client.scoreboard import scoreboard_lines, scoreboard_title
from jupai_net.series import Series


def _board():
    s = Series(b"\x01" * 16, games=3)
    s.record(["Ann", "王小明的超长名字王小明的超长名字王小明", "greedy bot 2"], [1, 0, 2])
    s.record(["Ann", "greedy bot 1", "greedy bot 2"], [0, 2, 1])
    return s.standings()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [60, 80])
def test_the_scoreboard_fits_and_names_everyone(lang, width):
    lines = scoreboard_lines(_board(), game=2, games=3, final=False, lang=lang, me="Ann", width=width)
    assert all(cell_len(line) <= width for line in lines), "\n".join(lines)
    assert len(lines) == 5
    text = "\n".join(lines)
    if lang == "en":
        assert lines[0] == "━━ scoreboard · after game 2 of 3 ━━"
        assert lines[1].startswith("  1. Ann (you)") and "3 pts" in lines[1] and "+2" in lines[1]
        assert "(not in it)" in text and "1 win" in text
    else:
        assert lines[0] == "━━ 积分榜 · 第 2/3 局后 ━━"
        assert lines[1].startswith("  1. Ann（你）")
        assert "3 分" in lines[1] and "（未参加）" in text and "胜 1 局" in text
        assert "贪心机器人 2" in text and "greedy" not in text  # bot names in Chinese, as on the game screen
    assert "王小明" in text  # a long CJK name is cut, never dropped
    assert ("1 pt " in text) if lang == "en" else ("1 分" in text)


def test_final_and_open_titles():
    board = _board()
    assert scoreboard_lines(board, game=3, games=3, final=True, lang="en")[0] == "━━ final scoreboard · 3 games ━━"
    assert scoreboard_lines(board, game=1, games=None, final=True, lang="zh")[0] == "━━ 最终积分榜 · 共 1 局 ━━"
    assert scoreboard_lines(board, game=4, games=None, final=False, lang="en")[0] == "━━ scoreboard · after game 4 ━━"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_final_scoreboard_shows_the_totals_not_the_last_games_points(lang):
    """specs/rules.md § 15 worked example: after three games the totals are Ann 3 (1 win,
    2 games), Bob 2 (1 win, 1 game), greedy bot 2 1, greedy bot 1 0 — the last game
    (abandoned) gave nobody a point, so its "+0" must not stand in for them, and it is
    nobody's game played: the title says 2 games played, 1 abandoned (it said "3 games")."""
    s = Series(b"\x02" * 16, games=3)
    s.record(["Ann", "Bob", "greedy bot 2"], [1, 0, 2])
    s.record(["Ann", "greedy bot 1", "greedy bot 2"], [0, 2, 1])
    s.record(["Ann", "greedy bot 1", "greedy bot 2"], None)
    lines = scoreboard_lines(s.standings(), game=3, games=3, final=True, lang=lang, width=60, abandoned=s.abandoned)
    rows = [line.split() for line in lines[1:]]
    if lang == "en":
        assert lines[0] == "━━ final scoreboard · 2 games played, 1 abandoned ━━"
        assert rows[0] == ["1.", "Ann", "3", "pts", "2", "games", "1", "win"], lines
        assert rows[1] == ["2.", "Bob", "2", "pts", "1", "game", "1", "win"], lines
        assert rows[2][:4] == ["3.", "greedy", "bot", "2"] and rows[2][4:8] == ["1", "pt", "2", "games"], lines
        assert rows[3][:4] == ["4.", "greedy", "bot", "1"] and rows[3][4:8] == ["0", "pts", "1", "game"], lines
    else:
        assert lines[0] == "━━ 最终积分榜 · 完成 2 局，中止 1 局 ━━"
        assert lines[1].split()[:4] == ["1.", "Ann", "3", "分"] and "参加 2 局" in lines[1] and "胜 1 局" in lines[1]
    assert not any("+" in line for line in lines), lines  # no per-game deltas on the final board
    # without abandoned games the title counts the games as before
    assert scoreboard_title(3, 3, True, "en") == "━━ final scoreboard · 3 games ━━"
    assert scoreboard_title(3, None, True, "en", abandoned=2) == "━━ final scoreboard · 1 game played, 2 abandoned ━━"


def test_series_keys_exist_in_both_languages_with_the_same_placeholders():
    for key, (en, zh) in MESSAGES.items():
        if key.startswith("series."):
            assert en and zh and fields(en) == fields(zh), key


@pytest.mark.parametrize("lang, said", [("en", ("No game finished, so there is no scoreboard.",
                                                 "No game finished yet, so there is no scoreboard so far.")),
                                        ("zh", ("没有完成的对局，所以没有积分榜。", "还没有完成的对局，所以暂时没有积分榜。"))])
def test_with_no_finished_game_there_is_no_scoreboard_but_a_sentence(lang, said):
    """Only abandoned games (Ctrl-C before any game ended): nothing to rank, so no
    "final scoreboard · 1 game" with everyone at 0 points or "(not in it)"."""
    s = Series(b"\x02" * 16, games=None)
    s.record(["Ann", "greedy bot 1"], None)  # abandoned
    final = scoreboard_lines(s.standings(), game=1, games=None, final=True, lang=lang)
    assert final == [said[0]]
    assert scoreboard_lines(s.standings(), game=1, games=None, final=False, lang=lang) == [said[1]]
    s.record(["Ann", "greedy bot 1"], [1, 0])  # then one finishes: the scoreboard is back
    lines = scoreboard_lines(s.standings(), game=2, games=None, final=True, lang=lang)
    assert lines[0].startswith("━━") and len(lines) == 3


@pytest.mark.parametrize("lang, note, absent", [("en", "game 2 was abandoned: no points", "(not in it)"),
                                                ("zh", "第 2 局被中止：不计分", "（未参加）")])
def test_after_an_abandoned_game_the_players_keep_their_series_line(lang, note, absent):
    """Issue 12: the latest game was abandoned after a finished one: nobody got points
    from it, so nobody reads "(not in it)"; one line says the game gave no points."""
    from types import SimpleNamespace as S

    standings = [S(name="Ann", points=3, wins=1, played=2, last=None), S(name="小明", points=0, wins=0, played=2,
                                                                      last=None)]
    lines = scoreboard_lines(standings, game=2, games=3, final=False, lang=lang, width=60)
    assert lines[1].strip() == note
    assert not any(absent in line for line in lines), lines
    assert "Ann" in lines[2] and "小明" in lines[3]
    finished = [S(name="Ann", points=3, wins=1, played=2, last=2), S(name="Bob", points=0, wins=0, played=1,
                                                                     last=None)]
    assert absent in scoreboard_lines(finished, game=2, games=3, final=False, lang=lang)[2]
