"""``jupai verify FILE [--json]``: exit codes and messages (specs/fairness.md §10)."""

from __future__ import annotations

import argparse
import json

import pytest

from jupai_net.fairness import EXIT_CODES, signing_key_from_bytes
from jupai_net.fairness.cli import register
from jupai_net.fairness.selfplay import deliver, play_game
from jupai_net.rules import RuleSet

KEY = signing_key_from_bytes(bytes([8]) * 32)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="jupai")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("transcripts")
    rules = RuleSet(players=3, rounds=4)
    # fixed seeds: the byte flipped below must land inside a signed body (tampered),
    # not in the outer msgpack framing (malformed), on every run
    fixed = dict(game_id=bytes(range(16)), host_seed=bytes([1]) * 32, seat_seeds=[bytes([s + 2]) * 32 for s in range(3)])
    sp = play_game(rules, rng_seed=9, key=KEY, **fixed)
    good = sp.transcript(1)
    out = {"verified": good}
    b = bytearray(good)
    b[len(b) // 2] ^= 0x10
    out["tampered"] = bytes(b)
    unfinished = play_game(rules, rng_seed=9, key=KEY, max_steps=2, **fixed)
    out["unverified"] = unfinished.transcript(0)
    deliver(unfinished.dealer.abandon("quit", reveal_seed=False), unfinished.witnesses)
    out["suspicious"] = unfinished.transcript(0)
    out["malformed"] = good[: len(good) // 2]
    paths = {}
    for name, data in out.items():
        p = d / f"{name}.jupai"
        p.write_bytes(data)
        paths[name] = str(p)
    garbage = d / "garbage.bin"
    garbage.write_bytes(b"\x00\xffnot a transcript at all" * 10)
    paths["garbage"] = str(garbage)
    paths["dir"] = str(d)
    paths["missing"] = str(d / "nope.jupai")
    return paths


def test_exit_codes_are_distinct_and_documented():
    assert EXIT_CODES["verified"] == 0
    assert len(set(EXIT_CODES.values())) == len(EXIT_CODES)
    assert 1 not in EXIT_CODES.values() and 2 not in EXIT_CODES.values()


@pytest.mark.parametrize("status", ["verified", "tampered", "suspicious", "unverified", "malformed"])
def test_verify_exit_code_and_message(files, status, capsys):
    code = run(["verify", files[status]])
    out, err = capsys.readouterr()
    assert code == EXIT_CODES[status]
    assert status.upper() in out and "Traceback" not in out + err


@pytest.mark.parametrize("status", ["verified", "tampered", "suspicious", "unverified", "malformed"])
def test_verify_json(files, status, capsys):
    code = run(["verify", files[status], "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == status and data["exit_code"] == code == EXIT_CODES[status]
    assert data["file"] == files[status] and data["reason"]


def test_tampered_names_the_statement(files, capsys):
    run(["verify", files["tampered"], "--json"])
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data["message"], int) and "signature" in data["reason"]


@pytest.mark.parametrize("name", ["garbage", "missing"])
def test_unreadable_files_never_traceback(files, name, capsys):
    code = run(["verify", files[name]])
    out, err = capsys.readouterr()
    assert code == EXIT_CODES["malformed"]
    if name == "missing":  # a mistyped name: one sentence
        assert err == f"jupai verify: no file {files[name]}\n" and not out
    else:
        assert "MALFORMED" in out and "Traceback" not in out + err


def test_a_folder_is_read_as_its_transcripts(files, capsys):
    code = run(["verify", files["dir"]])
    out, err = capsys.readouterr()
    assert code == EXIT_CODES["tampered"]  # the worst of the five *.jupai files in it
    # the fixtures are all of one game id (fixed above): four transcripts of one game, whose
    # seats were told different endings (tampered), and a file too short to name its game
    assert "1 tampered, 1 malformed (2 games, 5 transcripts)" in out, out
    assert "garbage.bin" not in out and "Traceback" not in out + err


def test_registered_in_the_jupai_command(files, capsys):
    from jupai_net.cli import main

    assert main(["verify", files["verified"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "verified"


# ------------------------------------------------------------------ several files, a folder
def _jupai(*argv):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "jupai_net", *argv], capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "COLUMNS": "100"})


def test_verify_a_folder_prints_one_line_per_game(files, tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    rules = RuleSet(players=3, rounds=4)
    game = play_game(rules, rng_seed=9, key=KEY)  # its own game id: one game, three seats' transcripts
    for seat in range(3):
        (d / f"a-seat{seat}.jupai").write_bytes(game.transcript(seat))
    (d / "b-tampered.jupai").write_bytes(open(files["tampered"], "rb").read())
    stopped = play_game(rules, rng_seed=9, key=KEY, max_steps=2, game_id=bytes([7]) * 16)
    deliver(stopped.dealer.abandon("quit", reveal_seed=False), stopped.witnesses)
    (d / "c-suspicious.jupai").write_bytes(stopped.transcript(0))
    (d / "notes.txt").write_text("not a transcript, not read")
    proc = _jupai("verify", str(d))
    assert all(len(line) <= 100 for line in proc.stdout.splitlines())  # COLUMNS=100: a long reason wraps
    lines = [line for line in proc.stdout.splitlines() if line.strip() and not line.startswith(" ")]
    assert len(lines) == 5, proc.stdout  # the folder, three games and the count (reasons wrapped below them)
    assert lines[0] == f"in {d}:"
    assert [line.split()[:3] for line in lines[1:4]] == [
        ["verified", game.dealer.game_id.hex()[:8], "3"], ["tampered", "00010203", "b-tampered.jupai"],
        ["suspicious", "07070707", "c-suspicious.jupai"]], proc.stdout
    assert "3 transcripts (seats 0, 1, 2)" in lines[1]
    assert "1 verified, 1 tampered, 1 suspicious (3 games, 5 transcripts)" in lines[4]
    assert proc.returncode == EXIT_CODES["tampered"]  # the worst verdict


@pytest.mark.parametrize("columns", [60, 80, 200])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_verify_a_folder_wraps_a_long_reason_and_never_drops_its_end(tmp_path, columns, lang):
    """`jupai verify FOLDER` at COLUMNS=60, 80 and 200 (a wide terminal cut the reason's
    end): each game's reason is printed whole — beside the file when it fits, else on
    the lines below it, broken between words (between characters in Chinese) — and no
    line is wider than the terminal."""
    d = tmp_path / "games"
    d.mkdir()
    rules = RuleSet(players=3, rounds=2)
    game = play_game(rules, rng_seed=3, key=KEY)
    for seat in range(3):  # a fair game: the longest reason ("… and the replay gives every outcome …")
        (d / f"a-seat{seat}.jupai").write_bytes(game.transcript(seat))
    stopped = play_game(rules, rng_seed=9, key=KEY, max_steps=2, game_id=bytes([7]) * 16)
    deliver(stopped.dealer.abandon("quit", reveal_seed=False), stopped.witnesses)
    (d / ("c-" + "x" * 20 + ".jupai")).write_bytes(stopped.transcript(0))
    import os
    import subprocess
    import sys

    def verify(*argv):
        return subprocess.run([sys.executable, "-m", "jupai_net", "--lang", lang, "verify", *argv],
                              capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": str(columns)})

    proc = verify(str(d))
    assert proc.returncode == EXIT_CODES["suspicious"], proc.stderr
    out = proc.stdout.splitlines()
    from rich.cells import cell_len

    assert all(cell_len(line) <= columns for line in out[1:]), proc.stdout  # cells (CJK: 2); out[0] names the folder
    flat = "".join("".join(out).split())  # the lines joined, white space left out
    if lang == "en":  # each reason whole, as --json gives it
        for verdict in json.loads(verify(str(d), "--json").stdout):
            assert "".join(verdict["reason"].split()) in flat, (verdict["reason"], proc.stdout)
    else:  # the Chinese sentences to their last characters
        assert "重放得出的每个结果都与主机公布的相同" in flat and "且没有公开它的种子（quit）" in flat, proc.stdout
    assert "c-" + "x" * 20 + ".jupai" in flat  # the file's name whole too


def test_two_games_of_four_seats_are_two_lines_of_four_transcripts(tmp_path):
    d = tmp_path / "evening"
    d.mkdir()
    for g in range(2):
        game = play_game(RuleSet(players=4, rounds=2), rng_seed=g, key=KEY)
        for seat in range(4):
            (d / f"g{g}-seat{seat}.jupai").write_bytes(game.transcript(seat))
    proc = _jupai("verify", str(d))
    lines = [line for line in proc.stdout.splitlines() if line.strip() and not line.startswith(" ")]
    assert len(lines) == 4 and proc.returncode == 0, proc.stdout  # (a reason too long wraps below its line)
    assert all("4 transcripts (seats 0, 1, 2, 3)" in line for line in lines[1:3])
    assert lines[3] == "2 verified (2 games, 8 transcripts)"
    zh = _jupai("--lang", "zh", "verify", str(d))
    assert "已验证 2 局（共 2 局，8 份对局记录）" in zh.stdout, zh.stdout


def test_a_host_that_tells_two_seats_different_games_is_caught_across_their_transcripts(tmp_path):
    """Equivocation: the host signs one game (one game id, one key, the same seeds) for
    seat 0 and another for seat 1. Each transcript verifies on its own; side by side
    they disagree, and the game is tampered."""
    fixed = dict(game_id=bytes([9]) * 16, host_seed=bytes([1]) * 32, seat_seeds=[bytes([s + 2]) * 32 for s in range(3)])
    rules = RuleSet(players=3, rounds=3)
    told_0, told_1 = play_game(rules, rng_seed=1, key=KEY, **fixed), play_game(rules, rng_seed=2, key=KEY, **fixed)
    a, b = tmp_path / "seat0.jupai", tmp_path / "seat1.jupai"
    a.write_bytes(told_0.transcript(0))
    b.write_bytes(told_1.transcript(1))
    assert run(["verify", str(a)]) == 0 and run(["verify", str(b)]) == 0  # each alone: fair
    proc = _jupai("verify", str(a), str(b))
    assert proc.returncode == EXIT_CODES["tampered"], proc.stdout
    assert "tampered" in proc.stdout and "2 transcripts (seats 0, 1)" in proc.stdout
    assert "seats 0 and 1 were signed different games" in proc.stdout, proc.stdout
    data = json.loads(_jupai("verify", str(a), str(b), "--json").stdout)
    assert [v["status"] for v in data] == ["tampered", "tampered"]
    assert data[0]["details"]["disagrees_at"].startswith("step ")
    # the same seat's transcript twice (a copy) is no disagreement
    assert run(["verify", str(a), str(a)]) == 0


def test_verify_several_files_exit_with_the_worst(files):
    assert run(["verify", files["verified"], files["verified"]]) == 0
    assert run(["verify", files["verified"], files["unverified"]]) == EXIT_CODES["unverified"]
    assert run(["verify", files["suspicious"], files["unverified"], files["garbage"]]) == EXIT_CODES["malformed"]


def test_verify_json_of_several_files_is_a_list(files, capsys):
    run(["verify", files["verified"], files["tampered"], "--json"])
    out = json.loads(capsys.readouterr().out)
    assert [o["status"] for o in out] == ["verified", "tampered"]
    assert [o["file"] for o in out] == [files["verified"], files["tampered"]]


def test_verify_an_empty_folder(tmp_path):
    proc = _jupai("verify", str(tmp_path))
    assert proc.returncode == 6
    assert "no transcript" in proc.stderr and "Traceback" not in proc.stderr


def test_a_seed_used_in_two_games_is_suspicious_across_the_files_of_a_folder(tmp_path):
    """Issue 7 item 1 through the command: each file alone verifies, the folder shows that
    seat 0 played two games with one seed, so neither is trusted (exit 4)."""
    from pathlib import Path

    vectors = json.loads((Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "fairness.json").read_text())
    faults = {c["name"]: c for c in vectors["faults"]}
    (tmp_path / "a.jupai").write_bytes(bytes.fromhex(faults["honest"]["file"]))
    (tmp_path / "b.jupai").write_bytes(bytes.fromhex(faults["seed_reuse_second_game"]["file"]))
    assert _jupai("verify", str(tmp_path / "b.jupai")).returncode == EXIT_CODES["verified"]
    both = _jupai("verify", "--json", str(tmp_path))
    assert both.returncode == EXIT_CODES["suspicious"], both.stderr
    out = json.loads(both.stdout)
    assert [o["status"] for o in out] == ["suspicious", "suspicious"]
    assert "seed was also used in game" in out[1]["reason"]
