"""Fast start-up (issue 10 aim 2, specs/performance.md § Start-up): `jupai --help` and
`jupai verify` do not load trio, rich, the host or the client. Each check runs in a
fresh interpreter and looks at ``sys.modules``; the timings are in bench/startup.py."""

from __future__ import annotations

import json
import os
import pty
import shlex
import subprocess
import sys
import textwrap

import pytest

from jupai_net.cli import SUBCOMMANDS, build_parser, main

HEAVY = ("trio", "rich", "cryptography", "msgpack", "jupai_net.host.server", "jupai_net.host.table",
         "jupai_net.client.session", "jupai_net.client.render", "jupai_net.protocol", "jupai_net.engine")


def loaded_after(code: str) -> set[str]:
    """The top-level names of sys.modules (and jupai_net.* modules) after running ``code``."""
    script = textwrap.dedent(code) + textwrap.dedent("""
        import sys
        loaded = sorted(sys.modules)  # before the json this check itself imports
        import json
        print(json.dumps(loaded))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def heavy_in(modules: set[str], names=HEAVY) -> list[str]:
    return sorted(n for n in names if n in modules or any(m.startswith(n + ".") for m in modules))


def test_importing_the_cli_loads_no_subcommand():
    modules = loaded_after("import jupai_net.cli")
    assert heavy_in(modules, HEAVY + ("jupai_net.host", "jupai_net.client", "jupai_net.fairness")) == []


#: What registering a command needs none of (each costs milliseconds at every start):
#: the bots and the engine's tables, the rules (tomllib), dataclasses (inspect), logging, json.
REGISTER_FREE = ("jupai_net.bots", "jupai_net.equipment", "jupai_net.rules", "jupai_net.simulate", "jupai_net.setup",
                 "jupai_net.client.i18n", "tomllib", "dataclasses", "inspect", "logging", "json", "datetime", "random")


def test_the_full_parser_registers_every_subcommand_without_heavy_imports():
    modules = loaded_after("""
        from jupai_net.cli import build_parser
        build_parser().format_help()
    """)
    assert heavy_in(modules) == []
    assert heavy_in(modules, REGISTER_FREE) == []


def test_the_command_lines_bot_names_are_the_bots():
    from jupai_net.bot_options import BOT_NAMES
    from jupai_net.bots import BOTS

    assert list(BOT_NAMES) == sorted(BOTS)


def test_verify_loads_the_verifier_only(tmp_path):
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    path = tmp_path / "g.jupai"
    path.write_bytes(play_game(RuleSet(players=2, rounds=2), rng_seed=3).transcript(0))
    modules = loaded_after(f"""
        import contextlib, io
        from jupai_net.cli import main
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert main(["verify", {str(path)!r}]) == 0, out.getvalue()
        assert "VERIFIED" in out.getvalue()
    """)
    # not a terminal: the plain verdict, without rich (the next tests: through the command)
    assert "jupai_net.fairness.verify" in modules and heavy_in(modules, ("rich",)) == []
    assert heavy_in(modules, ("trio", "jupai_net.host", "jupai_net.client", "jupai_net.protocol")) == []
    # nor what a transcript without a certificate does not need (each costs milliseconds at every start):
    # X.509 parsing, a rules file's TOML, the settings' checks, a seed generator, rich's emoji table
    assert heavy_in(modules, ("cryptography.x509", "tomllib", "jupai_net.config", "jupai_net.textfile", "secrets",
                              "json", "rich._emoji_codes")) == []


@pytest.fixture(scope="module")
def transcript(tmp_path_factory):
    from jupai_net.fairness.selfplay import play_game
    from jupai_net.rules import RuleSet

    path = tmp_path_factory.mktemp("verify") / "g.jupai"
    path.write_bytes(play_game(RuleSet(players=2, rounds=2), rng_seed=3).transcript(0))
    return path


def imported(stderr: str) -> set[str]:
    """The modules a run imported, from its ``PYTHONPROFILEIMPORTTIME`` lines on stderr."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def test_verify_piped_prints_plain_lines_without_rich(transcript):
    """What a person types: ``jupai verify FILE | cat`` (specs/fairness.md §10): the
    title, then one ``label  value`` line per row, no box; rich is never imported."""
    from jupai_net.fairness.cli import verdict_rows
    from jupai_net.fairness.verify import verify_transcript
    from jupai_net.messages import use_lang

    cmd = f"{shlex.join([sys.executable, '-m', 'jupai_net'])} verify {shlex.quote(str(transcript))} | cat"
    proc = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1", "FORCE_COLOR": "", "TTY_COMPATIBLE": ""})
    modules = imported(proc.stderr)
    assert "jupai_net.fairness.verify" in modules  # the import lines are there …
    assert heavy_in(modules, ("rich",)) == []  # … and none of rich's
    with use_lang("en"):
        rows = verdict_rows(verify_transcript(transcript.read_bytes()), str(transcript))
    width = max(len(label) for label, _ in rows) + 2
    assert proc.stdout.splitlines() == ["VERIFIED — fair game"] + [label.ljust(width) + value for label, value in rows]
    assert rows[-1] == ("exit code", "0") and not any(c in proc.stdout for c in "╭│╰")


def test_verify_at_a_terminal_draws_the_panel(transcript):
    """At a terminal (a pty here) the verdict is rich's panel, as before."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "jupai_net", "verify", str(transcript)], stdout=slave,
                              stderr=subprocess.PIPE, timeout=60, env={**os.environ, "COLUMNS": "80", "TERM": "dumb"})
        os.close(slave)
        slave = -1
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the writer is gone
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)
    text = out.decode()
    assert proc.returncode == 0, proc.stderr
    lines = text.replace("\r\n", "\n").strip().splitlines()
    assert lines[0].startswith("╭") and "VERIFIED — fair game" in lines[0] and lines[-1].startswith("╰")
    assert all(line.startswith("│") and line.endswith("│") for line in lines[1:-1])


def test_each_module_registers_its_own_command():
    everything = build_parser()
    (sub,) = [a for a in everything._actions if a.dest == "command"]
    assert list(sub.choices) == list(SUBCOMMANDS)
    for command in SUBCOMMANDS:
        (only,) = [a for a in build_parser([command])._actions if a.dest == "command"]
        assert list(only.choices) == [command]


@pytest.mark.parametrize("argv", [["verfy", "x"], []])
def test_an_unknown_or_missing_command_lists_every_command(argv, capsys):
    if argv:
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "invalid choice: 'verfy'" in err and all(c in err for c in SUBCOMMANDS)
    else:
        assert main(argv) == 2
        out = capsys.readouterr().out
        assert all(c in out for c in SUBCOMMANDS)
