"""The host console in Chinese (issue 12; specs/host.md § Console): what ``jupai host
--lang zh`` prints — the banner, the commands and their answers, joins, kicks, the
game, its end and the scoreboard — holds no English word outside an allow-list
(names, paths, commands, codes, cards, the rules' letters), says a kick once (the
notice, not the answer again), and no line ends in spaces (a table's padding)."""

from __future__ import annotations

import re

import pytest

from .test_net_hardening import HostProcess
from .test_net_play import Running, env_for

#: What may be written in Latin letters on a Chinese line, taken out before looking
#: for English words: commands (in backticks, the join/watch/verify commands), paths,
#: the join code, the host key, the certificate's and game's hex, cards, players' names.
ALLOWED = [
    r"`[^`\n]*`",  # commands: `start`, `kick N`, `jupai verify FILE`
    r"jupai (?:join|watch) \S+ --code \S+",
    r"(?:/[\w.\-]+)+/?",  # paths
    r"\b[0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}\b",  # the join code
    r"\b[0-9a-f]{4}(?:-[0-9a-f]{4}){4}\b",  # the host key
    r"\bsha256\b", r"\b[0-9a-f]{12,16}\b",  # the certificate's fingerprint, a game's id
    r"(?:10|[2-9AJQK])[♠♥♦♣]",  # cards
    r"'[^'\n]*'",  # what the person typed, said back (未知命令 'dance')
    r"\bjupai host\b", r"剧牌 Jupai",  # the banner's title, the game's name
    r"\b(?:Ann|Bob)\b",  # the players' names
    r"\b(?:start|kick|help|TLS|Enter|Ctrl-C|N)\b",  # commands and key names said bare
    r"\b[RiImwv]\b",  # the rules' letters (R = 1, i, m)
]


def english_words(text: str) -> list[str]:
    """The lines of ``text`` that still hold Latin letters once :data:`ALLOWED` is
    taken out, each with the words found."""
    found = []
    for line in text.splitlines():
        rest = line
        for pattern in ALLOWED:
            rest = re.sub(pattern, " ", rest)
        words = re.findall(r"[A-Za-z]+", rest)
        if words:
            found.append(f"{words} in {line!r}")
    return found


def test_the_allow_list_finds_english_words():
    """The check itself: an English reason inside a Chinese line is found; names,
    paths, codes and commands are not."""
    assert english_words("无法移出：seat 0 is empty") == ["['seat', 'is', 'empty'] in '无法移出：seat 0 is empty'"]
    assert english_words("已移出：the host removed Ann from seat 0")
    assert not english_words("主机已关闭：对局记录在 /tmp/x/host-transcripts（用 `jupai verify FILE` 检查）")
    assert not english_words("加入命令     jupai join 127.0.0.1:4747 --code KWC6-WMS1-DPRQ-G8Z3")
    assert not english_words("0号位（Ann）进攻 A♦ + 10♠：1 + 1 = 2 · 回合数 R = 1")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_kick_answers_come_from_the_catalog(lang):
    """``kick N``: a refusal in the console's language (it was the table's English
    sentence: ``无法移出：seat 0 is empty``); a done kick answers only when the screen
    does not show the table's notices (``--quiet``), else its notice said it."""
    from jupai_net.host.cli import host_command
    from jupai_net.host.table import KickRefused
    from jupai_net.messages import use_lang

    class Server:
        def __init__(self, refuse: KickRefused | None = None):
            self.refuse = refuse

        def kick(self, seat):
            if self.refuse:
                raise self.refuse
            return "greedy bot 2"

    refusals = {KickRefused("no-seat", "x", seat=9, seats=3): ("无法移出：这张 3 人牌桌没有9号位",
                                                                 "cannot kick: there is no seat 9 at this 3-seat table"),
                KickRefused("empty", "x", seat=0): ("无法移出：0号位是空位", "cannot kick: seat 0 is empty"),
                KickRefused("bot", "x", seat=2): ("无法移出：2号位是主机自己的机器人",
                                                  "cannot kick: seat 2 is the host's own bot")}
    with use_lang(lang):
        for refusal, said in refusals.items():
            assert host_command(Server(refusal), "kick 1") == said[lang == "en"]
        assert host_command(Server(), "kick 2", notices=True) is None
        assert host_command(Server(), "kick 2") == ("已移出：主机把 贪心机器人 2 请出了2号位" if lang == "zh"
                                                    else "kicked: the host removed greedy bot 2 from seat 2")


def test_the_host_console_in_chinese_has_no_english_words(tmp_path):
    """A real ``jupai host --lang zh`` (100 columns, its console on a pipe): the commands and their refusals,
    two players joining, one kicked, ``start`` filling the table with the host's bots,
    a one-round game to its end and the final scoreboard. No English word outside the
    allow-list (``无法移出：seat 0 is empty`` and ``已移出：the host removed …`` before),
    the kick said once, ``start``'s answer before the game it started, no line ending
    in spaces (the players table's padding)."""
    host = HostProcess(tmp_path, "--lang", "zh", "--seats", "3", "--games", "1", "--rounds", "1", "--bot-delay", "0",
                       "--no-announce", "--table-name", "张三的牌桌")
    procs = [host]
    try:
        for line in ("help", "kick 9", "kick 0", "start", "dance"):
            mark = len(host.lines)
            host.type(line)
            host.wait_for(r"\S", after=mark)
        for name in ("Ann", "Bob"):
            procs.append(Running(["join", host.addr, "--bot", "random", "--code", host.code, "--lang", "zh",
                                  "--name", name], {**env_for(tmp_path), "COLUMNS": "80"}))
            host.wait_for(rf"{name}（机器人）坐上了")
        mark = len(host.lines)
        host.type("kick 1")
        host.wait_for(r"主机把 Bob 请出了1号位", after=mark)
        host.type("start")
        assert host.finish(60) == 0, host.text[-3000:]
    finally:
        for p in procs:
            p.kill()
    text = host.text
    assert "最终积分榜" in text and "无法移出：0号位是空位" in text, text[-3000:]
    assert not english_words(text), "\n".join(english_words(text))
    assert text.count("请出了1号位") == 1, text  # the notice; the answer did not say it again
    # start's answer comes before what it made happen (it followed the game's start)
    assert text.index("机器人坐上 1、2 号位") < re.search(r"对局 \w+ 开始", text).start(), text
    assert not [line for line in text.splitlines() if line != line.rstrip()], text
    assert "Traceback" not in host.stderr


@pytest.mark.parametrize("lang, said", [("zh", "[聊天] 张三：你好"), ("en", "[chat] Ann: hi")])
def test_the_line_by_line_chat_mark_is_in_the_language(lang, said):
    """``jupai join/watch --plain``: a chat line's mark is the language's (it was
    ``[chat] 张三：你好`` on a Chinese screen)."""
    import io
    from types import SimpleNamespace

    from jupai_net.play import PlainPlayer

    out = io.StringIO()
    name, text = ("张三", "你好") if lang == "zh" else ("Ann", "hi")
    PlainPlayer(out, lang, width=0).on_update(SimpleNamespace(
        seat=0, change="chat", chat=[{"seat": 1, "name": name, "text": text}], notices=(), events=()))
    assert out.getvalue() == said + "\n"


def test_why_the_port_cannot_be_opened_is_said_in_the_language():
    """``jupai host`` exits 3 when it cannot listen: the common reasons come from the
    catalog (``无法监听端口 0：Cannot assign requested address`` before); any other is the
    system's English, marked as such in Chinese."""
    import errno
    import os

    from jupai_net.host.cli import listen_why

    def error(code: int) -> OSError:
        return OSError(code, os.strerror(code))

    assert listen_why(error(errno.EADDRINUSE), "zh").startswith("端口已被占用")
    assert listen_why(error(errno.EADDRINUSE), "en").startswith("it is in use")
    assert listen_why(error(errno.EACCES), "zh").startswith("没有权限")
    assert listen_why(error(errno.EADDRNOTAVAIL), "zh") == "本机没有这个地址（--bind）"
    assert listen_why(error(errno.ENOBUFS), "zh") == os.strerror(errno.ENOBUFS) + "（系统的英文原话）"
    assert listen_why(error(errno.ENOBUFS), "en") == os.strerror(errno.ENOBUFS)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_compact_notices_line_breaks_between_notices(lang):
    """The client's compact notices line (``通知：a · b``) too long for the screen
    breaks between its notices: no line ends in ``· `` (a trailing separator and space,
    ``通知：root 开始旁观（共 1 位旁观者） · `` before), each notice whole."""
    from jupai_net.client.layout import lines_panel, to_text

    notices = (["root 开始旁观（共 1 位旁观者）", "庄家盲发：主机看不到你的牌"] if lang == "zh"
               else ["root started watching (1 spectator)", "dealer-blind: the host cannot see your cards"])
    title = "通知" if lang == "zh" else "Notices"
    rows = to_text(lines_panel(notices, title, "blue", compact=True, lang=lang), 60).rstrip("\n").split("\n")
    assert rows == [title + ("：" if lang == "zh" else ": ") + notices[0], notices[1]], rows
    one = to_text(lines_panel(notices, title, "blue", compact=True, lang=lang), 120).rstrip("\n")
    assert one == title + ("：" if lang == "zh" else ": ") + " · ".join(notices)
