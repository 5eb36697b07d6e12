"""``jupai history``: past games from the saved transcripts, newest first
(specs/client.md § History)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from jupai_net.fairness.selfplay import play_game
from jupai_net.history import collect, collect_counted, read_entry
from jupai_net.rules import RuleSet


def jupai(*argv, env=None):
    return subprocess.run([sys.executable, "-m", "jupai_net", *argv], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "160", **(env or {})})


@pytest.fixture(scope="module")
def games():
    # fixed seeds: the byte flipped below must land inside a signed body (tampered), not in
    # the outer msgpack framing (malformed), on every run
    return [play_game(RuleSet(players=3, rounds=4), rng_seed=s, game_id=bytes([s]) * 16, host_seed=bytes([s]) * 32,
                      seat_seeds=[bytes([s + 10 + k]) * 32 for k in range(3)]) for s in (1, 2)]


def _write(path, data, mtime):
    path.write_bytes(data)
    os.utime(path, (mtime, mtime))
    return path


def test_one_line_per_game_newest_first(games, tmp_path):
    mine, host = tmp_path / "transcripts", tmp_path / "host-transcripts"
    mine.mkdir()
    host.mkdir()
    old, new = games
    _write(mine / "old-seat1.jupai", old.transcript(1), 1_700_000_000)
    for seat in range(3):  # a host keeps every seat's copy of a game: still one game
        _write(host / f"new-seat{seat}.jupai", new.transcript(seat), 1_800_000_000)
    (mine / "junk.jupai").write_bytes(b"not a transcript")
    entries = collect([mine, host])
    assert [e.game for e in entries] == [new.dealer.game_id.hex(), old.dealer.game_id.hex()]
    assert [e.status for e in entries] == ["verified", "verified"]
    # the winner is the first of the final ranking, also after the last round (specs/rules.md § 8)
    assert entries[0].winner == f"seat {new.dealer.state.ranking[0]}"
    assert entries[0].players == ("seat 0", "seat 1", "seat 2")

    proc = jupai("history", env={"JUPAI_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert lines[0].split()[:2] == ["when", "table"]
    # the verdict names the scheme that dealt the game, as every verdict does
    assert len(lines) == 3 and "verified (trusted dealer)" in lines[1] and "verified (trusted dealer)" in lines[2]
    assert lines[1] < lines[2] or lines[1][:4] == "2027"  # newest (2027) first
    assert lines[1].startswith("2027") and lines[2].startswith("2023")


def test_a_tampered_copy_is_shown(games, tmp_path):
    data = bytearray(games[0].transcript(0))
    data[len(data) // 2] ^= 0x10
    _write(tmp_path / "a-good.jupai", games[0].transcript(1), 1_700_000_000)
    _write(tmp_path / "bad.jupai", bytes(data), 1_700_000_000)
    (entry,) = collect([tmp_path])  # two copies of one game: the tampered one is the news
    assert entry.status == "tampered"
    proc = jupai("history", "--dir", str(tmp_path), "--json")
    (shown,) = json.loads(proc.stdout)
    assert shown["status"] == "tampered" and shown["file"].endswith("bad.jupai")
    assert shown["scheme"] == "trusted" and shown["reason"].startswith("trusted dealer: ")


def test_limit_language_and_empty(games, tmp_path):
    for i, g in enumerate(games):
        _write(tmp_path / f"g{i}.jupai", g.transcript(0), 1_700_000_000 + i)
    proc = jupai("history", "--dir", str(tmp_path), "-n", "1", "--lang", "zh")
    assert proc.returncode == 0
    assert "公平性" in proc.stdout and "已验证（可信庄家）" in proc.stdout and "显示了 2 局中的 1 局" in proc.stdout
    assert "0号位、1号位、2号位" in proc.stdout and "seat" not in proc.stdout  # no names in the file: seats, in zh
    (tmp_path / "none").mkdir()
    empty = jupai("history", "--dir", str(tmp_path / "none"))
    assert empty.returncode == 0 and "No saved game yet" in empty.stdout
    typo = jupai("history", "--dir", str(tmp_path / "nnoe"))  # a folder that is not there: said, not "no game yet"
    assert typo.returncode == 2 and typo.stderr == f"jupai history: {tmp_path / 'nnoe'} is not a folder (--dir)\n"
    bad = jupai("history", "-n", "-1")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_read_entry_skips_what_is_not_a_game(tmp_path):
    p = tmp_path / "x.jupai"
    p.write_bytes(b"")
    assert read_entry(p) is None


def test_meta_names_round_trip_and_bad_meta_is_refused(games, tmp_path):
    from dataclasses import replace

    from jupai_net.fairness.transcript import TranscriptError, decode_transcript
    from jupai_net.fairness.verify import verify_transcript

    t = decode_transcript(games[0].transcript(1))
    meta = {"saved": "2026-11-30T20:00:00", "table": "Ann's table", "names": ["Ann", "\x1b[2JBob", "宝宝"]}
    data = replace(t, meta=meta).encode()
    assert decode_transcript(data).meta == meta
    assert verify_transcript(data).status == "verified"  # meta is unsigned and ignored by the verifier
    _write(tmp_path / "g.jupai", data, 1_700_000_000)
    (entry,) = collect([tmp_path])
    assert entry.players == ("Ann", "[2JBob", "宝宝") and entry.table == "Ann's table"
    assert entry.when == "2026-11-30T20:00:00"
    for bad in ({"names": "x" * 201}, {"names": [1]}, {str(k): "" for k in range(9)}):
        with pytest.raises(TranscriptError, match="meta"):
            decode_transcript(replace(t, meta=bad).encode())


def test_a_series_shows_its_games_and_its_scoreboard_from_the_signed_rankings(games, tmp_path):
    from jupai_net.series import game_points

    folder = tmp_path / "transcripts"
    folder.mkdir()
    sid = "ab" * 16
    for k, g in enumerate(games, 1):
        meta = {"saved": f"2026-11-30T10:0{k}:00", "table": "Ann's table", "names": ["Ann", "Bob", "Cy"],
                "series": sid, "game": str(k)}
        (folder / f"g{k}-seat0.jupai").write_bytes(g.witnesses[0].transcript(meta))
    entries = collect([folder])
    assert [(e.series, e.game_no) for e in entries] == [(sid, 2), (sid, 1)]
    expected = {}
    for g in games:
        for seat, pts in enumerate(game_points(g.dealer.state.ranking, 3)):
            name = ["Ann", "Bob", "Cy"][seat]
            expected[name] = expected.get(name, 0) + pts
    assert sum(expected.values()) == 6  # two finished 3-seat games: 2 + 1 + 0 each
    for lang, head in (("en", "series ababab · 2 games: "), ("zh", "系列赛 ababab · 共 2 局：")):
        proc = jupai("history", "--dir", str(folder), "--lang", lang)
        assert proc.returncode == 0, proc.stderr
        assert "ababab #1" in proc.stdout and "ababab #2" in proc.stdout
        line = next(x for x in proc.stdout.splitlines() if x.startswith(head))
        best = max(expected.values())
        assert line.split(head)[1].split(" · ")[0].endswith(f" {best} pts" if lang == "en" and best != 1 else
                                                             " 1 pt" if lang == "en" else f" {best} 分")
    data = json.loads(jupai("history", "--dir", str(folder), "--json").stdout)
    assert data[0]["series"] == sid and data[0]["game_no"] == 2 and sum(data[0]["points"]) == 3


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [60, 80, 160])
def test_bot_names_in_the_viewers_language_and_an_address_never_broken(games, tmp_path, lang, width):
    """``jupai history --lang zh`` names the bots as the game screen does (贪心机器人 1);
    at 60 and 80 columns the table address (host:port) stays on one line, whole, and no
    line is wider than the terminal (the list turns into one block per game)."""
    address = "127.100.200.200:47474"  # loopback range: only a long address, never dialled
    for k, g in enumerate(games, 1):
        meta = {"saved": f"2026-11-30T10:0{k}:00", "table": address, "names": ["Ann", "greedy bot 1", "random bot 2"]}
        (tmp_path / f"g{k}.jupai").write_bytes(g.witnesses[0].transcript(meta))
    proc = jupai("history", "--dir", str(tmp_path), "--lang", lang, env={"COLUMNS": str(width)})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert sum(address in line for line in lines) == 2, proc.stdout
    assert all(len(line.rstrip()) <= width for line in lines), proc.stdout
    bots = ("贪心机器人 1", "随机机器人 2") if lang == "zh" else ("greedy bot 1", "random bot 2")
    for bot in bots:
        assert bot in proc.stdout, proc.stdout
    if lang == "zh":
        assert "bot" not in proc.stdout
    assert "2026-11-30 10:02" in proc.stdout and "10:02:00" not in proc.stdout  # minutes are enough


def test_no_game_yet_names_each_folder_on_its_own_line(tmp_path):
    folder = tmp_path / ("a-rather-long-folder-name-for-saved-transcripts-" * 2)
    folder.mkdir()
    for lang, said in (("en", "No saved game yet; looked in:"), ("zh", "还没有保存的对局；查找了：")):
        proc = jupai("history", "--dir", str(folder), "--lang", lang, env={"COLUMNS": "60"})
        assert proc.returncode == 0 and proc.stdout.splitlines() == [said, f"  {folder}"], proc.stdout


def test_history_names_the_table_by_its_table_name_not_its_address(tmp_path):
    """Issue 12 (trial of main): ``jupai host --table-name NAME --no-announce`` and a seat
    that joined by address: ``jupai history`` showed ``host:47474``. The host keeps the
    name in its copies whether or not it announces, the game's line takes it from them,
    and the address stays in the file (``--json``) and in the narrow layout."""
    from .test_net_play import Running, env_for, start_host

    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--rounds", "2", "--games", "1",
                                  "--bot-delay", "0", "--table-name", "Friday night", "--no-announce",
                                  "--dealer", "trusted")  # trusted: the three copies verify faster
    try:
        assert "Friday night (not announced on the LAN)" in host.text
        join = Running(["join", addr, "--bot", "random", "--code", code], env_for(tmp_path))
        assert join.finish(60) == 0, join.text + join.stderr
        assert host.proc.wait(30) == 0
    finally:
        host.kill()
    env = {"JUPAI_CONFIG_DIR": str(tmp_path / "config")}
    listed = jupai("history", env=env)
    assert listed.returncode == 0, listed.stderr
    (line,) = [x for x in listed.stdout.splitlines() if "Friday night" in x]
    assert addr not in listed.stdout and "random bot" in line
    narrow = jupai("history", "--lang", "zh", env={**env, "COLUMNS": "40"})  # a block per game: the address too
    assert "  牌桌 Friday night" in narrow.stdout and f"  地址 {addr}" in narrow.stdout, narrow.stdout
    (entry,) = json.loads(jupai("history", "--json", env=env).stdout)
    assert entry["table"] == "Friday night" and entry["address"] == addr


def test_the_newest_n_games_are_read_and_no_others(games, tmp_path, monkeypatch, capsys):
    """`jupai history -n 2` in a folder of 6 games (4 copies each, as a host and a seat
    save them): the 2 newest by file time, newest first, and "2 of 6 games shown" —
    reading only those games' 8 files, not all 24 (it read and verified every file
    before showing 2: slow with a season of games; bench/history.py)."""
    import jupai_net.history as history
    from jupai_net.cli import main

    mine, host = tmp_path / "transcripts", tmp_path / "host-transcripts"
    mine.mkdir()
    host.mkdir()
    ids = []
    for k in range(6):
        g = games[k % 2]
        gid = bytes([0x10 + k]) * 16  # the id in the name: what groups a game's copies unread
        ids.append(gid.hex())
        for seat in range(3):
            _write(host / f"{gid.hex()}-seat{seat}.jupai", g.transcript(seat), 1_700_000_000 + 60 * k)
        _write(mine / f"{gid.hex()[:12]}-seat0.jupai", g.transcript(0), 1_700_000_000 + 60 * k + 1)
    read = []
    real = history.read_entry

    def counted(path):
        read.append(path.name)
        entry = real(path)  # the fixtures are two games: each copy's game is the id its name gives
        return entry and entry._replace(game=path.name[:12])

    monkeypatch.setattr(history, "read_entry", counted)
    assert main(["history", "-n", "2", "--dir", str(mine), "--dir", str(host), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [e["game"] for e in shown] == [ids[5][:12], ids[4][:12]]
    assert len(read) == 8 and {name[:12] for name in read} == {ids[4][:12], ids[5][:12]}, read
    read.clear()
    assert main(["history", "-n", "2", "--dir", str(mine), "--dir", str(host)]) == 0
    assert "2 of 6 games shown; -n 0 shows all." in capsys.readouterr().out
    assert main(["history", "-n", "0", "--dir", str(mine), "--dir", str(host), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 6 and len(read) == 8 + 24


def test_n_counts_games_not_files(games, tmp_path):
    """`-n N` shows N games and "N of M games shown" counts games: not a file that is
    no transcript (skipped), nor a copy of a game under another name (was: every group
    of file names counted, "2 of 4 games shown" for 2 games)."""
    old, new = games
    _write(tmp_path / f"{old.dealer.game_id.hex()[:12]}-seat0.jupai", old.transcript(0), 1_700_000_000)
    _write(tmp_path / f"{new.dealer.game_id.hex()}-seat1.jupai", new.transcript(1), 1_700_000_100)
    _write(tmp_path / "backup-old.jupai", old.transcript(1), 1_600_000_000)  # renamed copy: the same game
    _write(tmp_path / "notes-1.jupai", b"not a transcript", 1_800_000_000)  # newest file, no game
    _write(tmp_path / "empty-2.jupai", b"", 1_500_000_000)

    def listed(n):
        proc = jupai("history", "--dir", str(tmp_path), "-n", str(n), "--lang", "en")
        assert proc.returncode == 0, proc.stderr
        rows = [line for line in proc.stdout.splitlines() if "verified (trusted dealer)" in line]
        more = [line for line in proc.stdout.splitlines() if "games shown" in line]
        return len(rows), more

    assert listed(1) == (1, ["1 of 2 games shown; -n 0 shows all."])
    assert listed(2) == (2, [])  # every game shown: nothing more to say
    assert listed(3) == (2, [])
    assert listed(0) == (2, [])
    assert collect_counted([tmp_path], 1)[1] == 2 and len(collect_counted([tmp_path], 1)[0]) == 1


@pytest.mark.parametrize("lang, said", [("en", "series cdcdcd · 2 games, 1 abandoned: "),
                                        ("zh", "系列赛 cdcdcd · 完成 2 局，中止 1 局：")])
def test_a_series_with_an_abandoned_game_counts_it_apart(games, tmp_path, lang, said):
    """`jupai history` of a series of three games, the last abandoned: its line counts
    2 games played and 1 abandoned (specs/rules.md § 15), not "3 games"."""
    from jupai_net.fairness.selfplay import deliver

    sid = "cd" * 16
    stopped = play_game(RuleSet(players=3, rounds=4), rng_seed=5, max_steps=3, game_id=bytes([5]) * 16)
    deliver(stopped.dealer.abandon("quit"), stopped.witnesses)
    for k, g in enumerate([*games, stopped], 1):
        meta = {"saved": f"2026-11-30T10:0{k}:00", "names": ["Ann", "Bob", "Cy"], "series": sid, "game": str(k)}
        (tmp_path / f"g{k}-seat0.jupai").write_bytes(g.witnesses[0].transcript(meta))
    proc = jupai("history", "--dir", str(tmp_path), "--lang", lang)
    assert proc.returncode == 0, proc.stderr
    assert said in proc.stdout, proc.stdout
    assert "3 games" not in proc.stdout and "共 3 局" not in proc.stdout


#: A dealer-blind game abandoned before any action: seat 0 typed /quit (made with `jupai
#: host` and two `jupai join` on 127.0.0.1; seat 1's copy, which has the host's signed abandon).
BLIND_ABANDONED = os.path.join(os.path.dirname(__file__), "data", "blind-abandoned-seat1.jupai")


@pytest.mark.parametrize("lang, columns, said, why", [
    ("en", "160", "abandoned (dealer-blind)",
     "abandoned 2026-12-01 05:52 at root's table: Ann (seat 0) left the dealer-blind game (they chose to leave); "
     "nobody else can play their cards"),  # signed "its cards" by an older host: said in today's words
    ("zh", "60", "已放弃（庄家盲发）", "原因 Ann（0号位）离开了盲发牌对局（主动离开）；没有人能替其出牌"),
])
def test_an_abandoned_game_says_abandoned_and_why(tmp_path, lang, columns, said, why):
    """Issue 12: `jupai history` called a game the host abandoned "unverified"; it says
    "abandoned" with the host's reason, in the viewer's language (the signed English
    sentence read back to its code), under the table or in the game's block."""
    import shutil

    shutil.copy(BLIND_ABANDONED, tmp_path / "bb38a0a44659-seat1.jupai")
    proc = jupai("history", "--dir", str(tmp_path), "--lang", lang, env={"COLUMNS": columns})
    assert proc.returncode == 0, proc.stderr
    flat = "".join(proc.stdout.split())  # wrapped lines joined (Chinese wraps between characters)
    assert "".join(said.split()) in flat and "".join(why.split()) in flat, proc.stdout
    assert "unverified" not in flat and "未验证" not in flat
    if lang == "zh":
        assert "chose to leave" not in flat
    (entry,) = json.loads(jupai("history", "--dir", str(tmp_path), "--json").stdout)
    assert entry["status"] == "unverified" and entry["abandoned"].startswith("Ann (seat 0) left the dealer-blind game")
