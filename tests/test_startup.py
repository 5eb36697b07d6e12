"""Fast start-up (issue 10 aim 2, specs/performance.md § Start-up): `jupai --help` and
`jupai verify` do not load trio, rich, the host or the client. Each check runs in a
fresh interpreter and looks at ``sys.modules``; the timings are in bench/startup.py."""

from __future__ import annotations

import json
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
    assert "jupai_net.fairness.verify" in modules and "rich.console" in modules
    assert heavy_in(modules, ("trio", "jupai_net.host", "jupai_net.client", "jupai_net.protocol")) == []
    # nor what a transcript without a certificate does not need (each costs milliseconds at every start):
    # X.509 parsing, a rules file's TOML, the settings' checks, a seed generator, rich's emoji table
    assert heavy_in(modules, ("cryptography.x509", "tomllib", "jupai_net.config", "jupai_net.textfile", "secrets",
                              "json", "rich._emoji_codes")) == []


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
