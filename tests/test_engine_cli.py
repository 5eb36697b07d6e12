"""`jupai simulate`, `python -m jupai_net`, and the one-distribution packaging (issue 2)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from jupai_net.cli import main
from jupai_net.rules import RuleSet
from jupai_net.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def test_simulate_json_figures_are_consistent(capsys):
    assert main(["simulate", "--games", "40", "--players", "3", "--seed", "5", "--bot", "greedy", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 40 and d["players"] == 3 and d["rules"]["rounds"] == 12
    assert abs(sum(d["win_rate_by_seat"]) - 1.0) < 1e-9
    assert abs(d["emptied_share"] + d["ranked_share"] - 1.0) < 1e-9
    assert 0 <= d["emptied_before_last_round_share"] <= d["emptied_share"]
    assert set(d["win_rate_by_identity"]) == {"L", "F"}
    assert 1 <= d["rounds"]["p50"] <= d["rounds"]["p95"] <= 12


def test_simulate_is_reproducible_from_its_seed():
    a = simulate(RuleSet(), 30, seed=9).summary()
    b = simulate(RuleSet(), 30, seed=9).summary()
    c = simulate(RuleSet(), 30, seed=10).summary()
    assert a == b and a != c


def test_simulate_table_output(capsys):
    assert main(["simulate", "--games", "10", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "win rate seat 0" in out and "won by emptying a hand" in out and "10 games" in out


def test_simulate_bad_arguments_are_clear(capsys):
    with pytest.raises(SystemExit) as stop:  # argparse: checked while the command line is read
        main(["simulate", "--games", "5", "--players", "9"])
    assert stop.value.code == 2
    assert "--seats/--players: must be 2-6, got 9" in capsys.readouterr().err  # errors go to stderr


def test_python_dash_m_is_the_same_command():
    out = subprocess.run([sys.executable, "-m", "jupai_net", "rules"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "round-value" in out.stdout


def test_wheel_has_one_import_namespace(tmp_path):
    """protocol/, host/, client/ install as jupai_net.*; nothing else at top level."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path)], check=True, timeout=240, capture_output=True)
    wheel = next(tmp_path.glob("jupai_net-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"jupai_net", next(t for t in tops if t.endswith(".dist-info"))}
    for sub in ("protocol", "host", "client", "fairness"):
        assert f"jupai_net/{sub}/__init__.py" in names
    assert "jupai_net/engine.py" in names


def test_ctrl_c_inside_trio_is_one_line_and_exit_130(monkeypatch, capsys):
    """Ctrl-C reaches main() wrapped in trio's exception groups: one line, exit 130."""
    import argparse

    import trio

    from jupai_net import cli

    async def boom():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.sleep_forever)
            raise KeyboardInterrupt

    def run(args):
        trio.run(boom, strict_exception_groups=True)

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    sub.add_parser("boom").set_defaults(func=run)
    monkeypatch.setattr(cli, "build_parser", lambda commands=None: parser)
    assert cli.main(["boom"]) == 130
    assert capsys.readouterr().err.strip() == "jupai: interrupted"
    assert cli.is_interrupt(BaseExceptionGroup("x", [KeyboardInterrupt()]))
    assert not cli.is_interrupt(BaseExceptionGroup("x", [KeyboardInterrupt(), ValueError()]))
    assert not cli.is_interrupt(ValueError())
