"""The host console's table view (the spectator table at the deal) names the dealing
scheme as every client screen does (issue 12, trial of main; specs/host.md § 8)."""

from __future__ import annotations

import re

import pytest

from .test_net_play import Running, env_for, start_host

HEADER = {"en": ("Round 1/2", "supply number"), "zh": ("第 1/2 回合", "补给数字")}
SCHEME = {"trusted": {"en": "trusted dealer", "zh": "可信庄家"}, "blind": {"en": "dealer-blind", "zh": "庄家盲发"}}


@pytest.mark.parametrize("lang, dealer", [("en", "trusted"), ("zh", "blind")])
def test_the_table_view_at_the_deal_names_the_scheme(tmp_path, lang, dealer):
    host, addr, code = start_host(tmp_path, "--seats", "2", "--bots", "1", "--rounds", "2", "--no-announce",
                                  "--lang", lang, "--dealer", dealer, "--bot-delay", "0")
    join = Running(["join", addr, "--bot", "random", "--code", code], env_for(tmp_path))
    first, last = HEADER[lang]
    try:
        host.wait_for(re.escape(first))
        host.wait_for(re.escape(last))
    finally:
        host.kill()
        join.kill()
    # the table's header: from the round line to the line of special numbers (the start's
    # own scheme line comes before it)
    text = host.text
    header = text[text.index(first):text.index(last)]
    assert SCHEME[dealer][lang] in header, header
    other = SCHEME["blind" if dealer == "trusted" else "trusted"][lang]
    assert other not in header, header
