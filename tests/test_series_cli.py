"""Games in a row through the commands a user types (specs/host.md § 3a): `jupai play
--games 2` with piped answers, `jupai host --games 2` with two `jupai join --bot`
clients, and a person on a terminal who leaves with q after game 1 (exit 0, its
transcript saved) while a bot takes the seat for game 2."""

from __future__ import annotations

import re
import subprocess

from jupai_net.fairness import VERIFIED
from jupai_net.fairness.cli import read_and_verify
from jupai_net.fairness.transcript import decode_transcript

from .test_client_cli import PROMPT, Terminal, _env
from .test_net_play import JUPAI, Running, env_for, start_host


def _two_games(paths):
    files = [decode_transcript(p.read_bytes()) for p in paths]
    assert all(read_and_verify(str(p)).status == VERIFIED for p in paths)
    assert files[0].seed != files[1].seed and files[0].statements[0] != files[1].statements[0]
    assert [f.meta["game"] for f in files] == ["1", "2"] and files[0].meta["series"] == files[1].meta["series"]


def test_jupai_play_games_2_asks_once_and_keeps_two_transcripts(tmp_path):
    mine = tmp_path / "me.jupai"
    out = subprocess.run(JUPAI + ["play", "--plain", "--games", "2", "--seats", "3", "--rounds", "3", "--bot-delay", "0",
                                  "--name", "Ann", "--transcript", str(mine)],
                         input="1\n" * 400, capture_output=True, text=True, timeout=120, env=env_for(tmp_path))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    text = out.stdout
    assert text.count("Play again? [Enter] / q to leave") == 1  # after game 1, not after the last
    assert "━━ scoreboard · after game 1 of 2 ━━" in text and "━━ final scoreboard · 2 games ━━" in text
    board = text[text.index("━━ final scoreboard"):]
    assert re.search(r"1\. \S.*\d+ pts? ", board) and "Ann (you)" in board
    assert text.count("fairness: verified") == 2
    # each start says its game's scheme; what the lobby said of it made way (issue 12)
    assert text.count("[!] dealer-blind: the host cannot see your cards") == 2, text[:600]
    assert "the next game deals" not in text
    _two_games([mine, tmp_path / "me-2.jupai"])


def test_jupai_host_games_2_with_two_joins_and_a_person_who_leaves_with_q(tmp_path):
    host, addr, code = start_host(tmp_path, "--seats", "3", "--bots", "1", "--bot-delay", "0", "--rounds", "3",
                                  "--games", "2", "--turn-timeout", "0", "--transcript-dir", str(tmp_path / "host"))
    procs = [host]
    term = None
    try:
        bot = Running(["join", addr, "--bot", "random", "--code", code, "--transcript", str(tmp_path / "bot.jupai")],
                      env_for(tmp_path))
        procs.append(bot)
        ann = tmp_path / "ann.jupai"
        term = Terminal(JUPAI + ["join", addr, "--code", code, "--name", "Ann", "--transcript", str(ann)],
                        _env(tmp_path, "ann"))
        term.play_until(PROMPT, r"Ready for the next game\? \[Enter\] / q to leave", timeout=60)
        assert "━━ scoreboard · after game 1 of 2 ━━" in term.text
        term.type("q")
        term.expect(r"You left the table after game 1\.")
        assert term.wait() == 0  # a clean exit after a verified game
        assert read_and_verify(str(ann)).status == VERIFIED
        assert bot.finish(60) == 0
        bot_text = " ".join(bot.text.split())
        assert "━━ final scoreboard · 2 games ━━" in bot_text and "Ann" in bot_text
        _two_games([tmp_path / "bot.jupai", tmp_path / "bot-2.jupai"])
        assert host.finish(30) == 0
        text = " ".join(host.text.split())
        assert re.search(r"greedy bot \d takes the seat", text), text[-2000:]  # a bot took Ann's seat
        assert "━━ final scoreboard · 2 games ━━" in text and "host closed: 2 games played" in text
        assert len(list((tmp_path / "host").glob("*.jupai"))) == 6
    finally:
        if term is not None:
            term.close()
        for p in procs:
            p.kill()


def test_a_series_with_two_abandoned_games_counts_one_game_played(tmp_path):
    """`jupai host --games 3` at a dealer-blind table: game 1 is played out, then the
    host kicks a player mid game 2 and mid game 3 (nobody can play a kicked seat's
    cards: each game is abandoned). The final scoreboard says 1 game played and 2
    abandoned — on the host console and on a Chinese spectator's screen — not "3 games"
    (last session's trial read "共 3 局" after one game), and each player's games are
    the finished ones it sat in. The Chinese spectator also reads why game 2 was
    abandoned in Chinese, from the reason's code and args (not the host's English
    words), and the scoreboard after it says game 2 gave no points instead of calling
    everyone "(not in it)" (was tests/test_evening_trial.py's own run of the same table)."""
    from .test_net_hardening import HostProcess

    host = HostProcess(tmp_path, "--seats", "3", "--bots", "1", "--dealer", "blind", "--games", "3", "--rounds", "2",
                       "--bot-delay", "0.2", "--no-announce")
    env = dict(env_for(tmp_path), JUPAI_NO_MULTICAST="1")
    procs: list = [host]
    try:
        watcher = Running(["watch", host.addr, "--code", host.code, "--name", "Wu", "--lang", "zh"], env)
        procs.append(watcher)
        host.wait_for(r"Wu is watching")
        for name in ("Ann", "Bob"):
            procs.append(Running(["join", host.addr, "--code", host.code, "--bot", "random", "--name", name], env))
            host.wait_for(rf"{name} \(a bot\) took seat")
        seats = {name: re.search(rf"{name} \(a bot\) took seat (\d)", host.text)[1] for name in ("Ann", "Bob")}
        for game, name in ((2, "Bob"), (3, "Ann")):
            host.wait_for(r"(?s)" + r".*".join([r"game \w+ starts"] * game), timeout=90)  # game N is dealt
            host.type(f"kick {seats[name]}")
            host.wait_for(r"(?s)" + r".*".join([r"game abandoned"] * (game - 1)), timeout=30)
        host.wait_for(r"final scoreboard · 1 game played, 2 abandoned", timeout=30)
        assert host.proc.wait(timeout=30) == 0
        said = watcher.wait_for(r"最终积分榜 · 完成 1 局，中止 2 局", timeout=30)
        assert said
    finally:
        for p in procs:
            p.kill()
    text = host.text
    assert "final scoreboard · 3 games" not in text
    assert re.search(r"1 game played, 2 abandoned", text[text.rindex("final scoreboard"):]), text[-2000:]
    board = {m[1]: m[2] for m in re.finditer(r"\d\. (\S.*?) +\d+ pts? +(\d+) games?", text[text.rindex("final scoreboard"):])}
    # each player's games: the finished ones it sat in (game 1), not the abandoned ones;
    # the stand-in that took Bob's seat for game 3 (abandoned) played none
    assert board == {"Ann": "1", "Bob": "1", "greedy bot 2": "1", "greedy bot 1": "0"}, text[-2000:]
    assert "共 3 局" not in watcher.text and "参加 3 局" not in watcher.text
    # game 2's abandon, said to the Chinese spectator from its code and args
    out = " ".join(watcher.text.split())
    after_2 = re.search(r"━━ 积分榜 · 第 2/3 局后 ━━(.*?)━━ 最终积分榜", out)
    assert after_2 and "第 2 局被中止：不计分" in after_2[1] and "（未参加）" not in after_2[1], out[-3000:]
    assert f"Bob（{seats['Bob']}号位）离开了盲发牌对局（被请出）；没有人能替其出牌" in out, out[-3000:]
    assert re.search(r"第 2 局被中止.*公平性", out), out[-3000:]  # the verdict names the signed reason too
    # the host's English words stay off the Chinese lines (the verifier's technical
    # detail, labelled 技术细节（英文）, is English by design)
    chinese = [line for line in watcher.text.splitlines() if "技术细节（英文）" not in line]
    assert not any("left the dealer-blind game" in line for line in chinese), watcher.text[-3000:]
