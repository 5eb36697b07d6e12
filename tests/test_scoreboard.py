"""The series scoreboard's text (client/scoreboard.py): both languages, 60 and 80 columns."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from jupai_net.client.i18n import MESSAGES, fields
from jupai_net.client.scoreboard import scoreboard_lines
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


def test_series_keys_exist_in_both_languages_with_the_same_placeholders():
    for key, (en, zh) in MESSAGES.items():
        if key.startswith("series."):
            assert en and zh and fields(en) == fields(zh), key
