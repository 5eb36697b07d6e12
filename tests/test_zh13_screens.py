"""Small screen defects of issue 12: a rejoin's welcome back on a squeezed 60-column
screen, the host console's words for a stale session, a spectator's final ranking with
the cards left."""

from __future__ import annotations

import io
import itertools

import pytest
from rich.console import Console

from jupai_net.client.render import render_view, to_text
from jupai_net.client.screen_parts import render_result
from jupai_net.client.session import NoticeLine
from jupai_net.host.cli import HostScreen

from .test_client_polish_screen import BOTS, screens

WELCOME = {"en": "Welcome back: you are seat", "zh": "欢迎回来：你仍是"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rejoins_welcome_back_is_on_a_squeezed_screen(lang):
    """A dealer-blind rejoin at 60×24: the notices did not fit with the outcomes, and
    the welcome back was dropped (it showed at 80 columns). The newest urgent notices
    now keep their line at the cost of outcomes (one stays); a notice that is not urgent
    still gives way."""
    older = NoticeLine("player-joined", "Bob took seat 1", 0.0, False, {"name": "Bob", "seat": 1})
    shown = dropped = 0
    for st, seat, history in itertools.islice(screens(6, 3, every=5), 1, 40):
        if st.is_over or len(st.legal_actions(seat)) < 8:
            continue
        obs, legal = st.observation(seat), st.legal_actions(seat)
        back = NoticeLine("welcome-back", "welcome back", 1.0, False, {"seat": seat, "moves": 0, "waited": True})
        text = to_text(render_view(obs, legal=legal, names=BOTS, events=history, lang=lang, width=60, height=23,
                                   notices=[older, back], dealer="blind"), width=60)
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 23, text
        assert WELCOME[lang].replace(" ", "") in "".join(text.split()), text
        plain = to_text(render_view(obs, legal=legal, names=BOTS, events=history, lang=lang, width=60, height=23,
                                    notices=[back, older], dealer="blind"), width=60)  # not the newest: no priority
        dropped += "Bob" not in plain
        shown += 1
        if shown >= 2:
            break
    assert shown >= 2 and dropped >= 1  # squeezed screens, where notices give way but the welcome back does not


@pytest.mark.parametrize("lang, line", [
    ("en", "Ann came back with a session that has ended (its game is over, or the seat was freed while they "
           "were away): they join again as a new player"),
    ("zh", "Ann 回来了，但其会话已失效（那局已结束，或离开期间座位已被释放）：对方将作为新玩家重新加入"),
])
def test_a_stale_session_on_the_host_console_says_what_happens(lang, line):
    """'refused Ann: session token unknown or expired' read as an attack; jupai's client
    then joins again without its token: the console says so, not 'refused'."""
    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=300, color_system=None), lang=lang)
    screen(0, "refused", {"code": "bad-token", "why": "bad-token", "text": "this session token is unknown",
                          "name": "Ann", "watch": False, "version": 8, "args": {}})
    said = out.getvalue().strip()
    assert said == line, said
    assert "refused" not in said and "已拒绝" not in said
    screen(0, "refused", {"code": "name-taken", "why": "name-taken", "text": "x", "name": "Bob", "watch": False,
                          "version": 8, "args": {}})
    assert ("refused Bob" if lang == "en" else "已拒绝 Bob") in out.getvalue()  # a real refusal still says so


@pytest.mark.parametrize("lang, rows", [
    ("en", ["1. seat 1 (greedy bot 1): 0 cards left", "2. seat 0 (greedy bot 0): 3 cards left"]),
    ("zh", ["第1名 1号位（贪心机器人 1）：剩 0 张", "第2名 0号位（贪心机器人 0）：剩 3 张"]),
])
def test_the_squeezed_ranking_keeps_the_cards_left(lang, rows):
    """A spectator's last screen is squeezed (the verdict, the transcript and the command
    under it): its ranking named places only, the seats' gave the cards left. The
    squeezed ranking keeps them, for a spectator as for a seat."""
    obs = {"seat": None, "result": {"ranking": [1, 0], "winner": 1},
           "players": [{"seat": 0, "cards_left": 3, "recovered": [5]}, {"seat": 1, "cards_left": 0, "recovered": []}]}
    names = {0: "greedy bot 0", 1: "greedy bot 1"}
    text = " ".join(to_text(render_result(obs, names, lang, compact=True, counts=False), width=200).split())
    for row in rows:
        assert row in text, text
    assert "recovered" not in text and "回收" not in text  # the players table above gives those


@pytest.mark.parametrize("what, zh", [("choose", "无法选择行动；将使用默认行动。"), ("send", "无法发送行动；主机将替你走默认的一步。")])
def test_the_sessions_own_trouble_with_a_move_is_said_in_chinese(what, zh):
    """'could not choose a move; the default one will be played' was English on a Chinese screen."""
    from jupai_net.client.status_words import notice_text

    note = NoticeLine("player-error", "could not …", 0.0, False, {"what": what})
    assert notice_text(note, "zh") == zh
    assert notice_text(note, "en").startswith("Could not ")


def test_a_transcript_that_cannot_be_saved_is_said_in_chinese():
    import errno

    from jupai_net.client.session import _os_why
    from jupai_net.client.status_words import notice_text

    why = _os_why(PermissionError(errno.EACCES, "Permission denied"), "zh")
    note = NoticeLine("transcript", "cannot save the transcript to /x/t.jupai: [Errno 13] Permission denied", 0.0,
                      False, {"path": "/x/t.jupai", "why": why})
    assert notice_text(note, "zh") == "无法把对局记录保存到 /x/t.jupai：没有写入权限。"
