"""Chinese and English text of the command line: every ``--help``, the errors a person
can cause, the host console, ``jupai verify``, ``simulate``, ``rules`` and ``config``
(one table of the catalog :mod:`jupai_net.messages`; the game screens' table is
:mod:`jupai_net.client.i18n`).

Conventions (specs/client.md § Command line): a range is written ``2-6`` (en) /
``2-6`` (zh); a value a person types is named in capitals (``SECONDS``, ``FILE``,
``HOST[:PORT]``) in both languages; an error starts with ``jupai COMMAND:`` (the
caller adds it: the keys hold the sentence only). Chinese uses the rules' terms
(design/rules.md) and those of the game screens (牌桌 table, 座位/号位 seat, 加入码 join
code, 对局记录 transcript, 公平性 fairness, 机器人 bot).
"""

from __future__ import annotations

#: key -> (English, Chinese). Placeholders (``{name}``) are the same in both.
MESSAGES: dict[str, tuple[str, str]] = {
    # --- jupai (cli.py) ---------------------------------------------------------------------
    "jupai.description": ("Play 剧牌 (Jupai) with friends on a local network, with a provably fair deal.",
                        "在局域网上和朋友玩剧牌（Jupai），发牌公平且可验证。"),
    "jupai.epilog": ("examples:\n"
                   "  jupai play                 # a game against bots in this terminal\n"
                   "  jupai host --players 4     # open a table on the LAN; friends run jupai join\n"
                   "\n"
                   "Run jupai COMMAND --help for the options of a command.",
                   "示例：\n"
                   "  jupai play                 # 在本终端与机器人对局\n"
                   "  jupai host --players 4     # 在局域网开一张牌桌；朋友运行 jupai join 加入\n"
                   "\n"
                   "运行 jupai 命令 --help 查看该命令的选项。"),
    "jupai.commands": ("commands", "命令"),
    "jupai.version_help": ("show the version and exit", "显示版本并退出"),
    "jupai.see_help": ("{prog} --help shows every option.", "{prog} --help 列出全部选项。"),
    "jupai.interrupted": ("{prog}: interrupted", "{prog}：已中断"),
    "opt.lang": ("language of every text: zh or en (default: the settings' lang, else the locale's)",
                 "所有文字的语言：zh 或 en（默认：设置文件的 lang，否则按系统语言）"),
}
