"""``jupai host`` tells its console whom it refused and why, in its language (issue 12,
trial of main: ``jupai host --dealer blind`` refused an old client without a line;
specs/host.md § Console)."""

from __future__ import annotations

import pytest
import trio

from jupai_net.protocol import ErrorMessage, Hello

from .test_net_play import start_host
from .test_net_support import RawClient

LINES = {
    "en": ["refused Old: their jupai speaks protocol 3, and this table always deals blind (needs protocol 4): "
           "they must update jupai, or restart the host with --dealer auto",
           "refused ann: another player at the table has that name",
           "refused Bob: there is no seat 5 at this 2-seat table"],
    "zh": ["已拒绝 Old：对方的 jupai 使用协议 3，而本桌总是盲发牌（需要协议 4）：对方需更新 jupai，或用 --dealer auto 重启主机",
           "已拒绝 ann：桌上已有同名玩家",
           "已拒绝 Bob：本桌共 2 个座位，没有 5号位"],
}


def squeezed(text: str) -> str:
    """``text`` without any white space (the console wraps long lines)."""
    return "".join(text.split())


async def refused(port: int, hello: Hello) -> str:
    client = await RawClient.connect(port)
    try:
        await client.send(hello)
        msg = await client.recv()
        assert isinstance(msg, ErrorMessage), msg
        return msg.code
    finally:
        await client.aclose()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_host_console_says_whom_it_refused_and_why(tmp_path, lang):
    host, addr, _ = start_host(tmp_path, "--seats", "2", "--bots", "0", "--dealer", "blind", "--no-announce",
                               "--lang", lang, "--quiet")
    port = int(addr.rsplit(":", 1)[1])
    try:
        async def main():
            assert await refused(port, Hello("Old", version=3, min_version=1)) == "blind-unsupported"
            seated = await RawClient.connect(port)
            await seated.join("Ann")
            assert await refused(port, Hello("ann")) == "name-taken"
            assert await refused(port, Hello("Bob", seat=5)) == "seat-taken"
            await seated.aclose()

        trio.run(main)
        host.wait_for("Bob", timeout=10)
        for line in LINES[lang]:
            assert squeezed(line) in squeezed(host.text), host.text
        assert "Traceback" not in host.stderr_now()
    finally:
        host.kill()
