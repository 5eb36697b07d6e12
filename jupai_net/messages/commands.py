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
    # --- jupai watch --help, jupai host --max-spectators (command-line texts: this table) ----------
    "watch.help": ("watch a table on the local network as a spectator", "以旁观者身份观看局域网上的牌桌"),
    "watch.description": (
        "Watch a 剧牌 table live as a spectator: the public view only (no hand, nobody's hidden cards), every "
        "move with its formula and outcome, the ranking at the end; the deal is verified from the public record. "
        "The host's join code is pinned and checked as for `jupai join`. q + Enter or Ctrl-C leaves.",
        "以旁观者身份实时观看剧牌牌桌：只看公开信息（没有手牌，看不到任何人的暗牌），每一步都有公式和结果，"
        "结束时显示排名；发牌由公开记录验证。主机的加入码与 `jupai join` 一样记录并核对。输入 q 回车或按 Ctrl-C 离开。"),
    "watch.epilog": ("examples:\n"
                     "  jupai watch 192.168.1.20:47474 --code 7KQ2-M9XD-PA3F-0RTE\n"
                     "  jupai watch \"Ann's table\" --lang zh\n"
                     "  jupai watch 192.168.1.20 --plain > game.log",
                     "示例：\n"
                     "  jupai watch 192.168.1.20:47474 --code 7KQ2-M9XD-PA3F-0RTE\n"
                     "  jupai watch \"Ann's table\" --lang zh\n"
                     "  jupai watch 192.168.1.20 --plain > game.log"),
    "watch.opt.address": ("the host's name or address, optionally with the port (default {port}), or the name of a "
                          "table announced on the LAN; none: list the tables on the LAN and pick one",
                          "主机的名字或地址，可带端口（默认 {port}），或局域网上公布的牌桌名；"
                          "不填：列出局域网上的牌桌并从中选择"),
    "watch.opt.name": ("the name the players see in 'NAME is watching' (default: the settings' name, else your "
                       "login name)", "玩家在“某某在旁观”中看到的名字（默认：设置中的名字，否则为登录名）"),
    "watch.opt.code": ("the join code shown on the host screen; required to accept a host whose code changed",
                       "主机屏幕上显示的加入码；主机的加入码变了时必须提供"),
    "watch.opt.plain": ("one line per event instead of the table screen (the default when stdout is not a terminal)",
                        "每个事件一行，而不是牌桌画面（标准输出不是终端时默认如此）"),
    "watch.opt.idle_timeout": ("give up on a host that sends nothing for SECONDS seconds, pings unanswered "
                               "(default {seconds})", "主机 SECONDS 秒内没有任何消息且不回应 ping 时放弃（默认 {seconds}）"),
    "host.opt.max_spectators": ("people who may watch the table at once with `jupai watch` (0-64, default 8; "
                                "0 = none)", "可同时用 `jupai watch` 旁观的人数（0-64，默认 8；0 = 不允许旁观）"),
}
