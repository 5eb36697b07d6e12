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
    "opt.rules_file": ("TOML file of house rules (see jupai rules)", "房规 TOML 文件（见 jupai rules）"),
    # --- jupai rules (rules_cli.py) and rules-file mistakes (rules.py) ------------------------
    "rules.help": ("show the rule settings in force (defaults or a house-rules file)",
                   "显示生效的规则设置（默认或房规文件）"),
    "rules.description": ("Show every rule setting in force, with its meaning, and the stock it leaves: the "
                          "defaults, or a house-rules file (TOML; keys as shown here). A file with mistakes gets "
                          "all of them listed at once.",
                          "显示每一项生效的规则设置及其含义，以及发牌后剩下的牌堆：默认规则，或房规文件（TOML，"
                          "键名与这里显示的相同）。文件有错误时一次列出全部错误。"),
    "rules.epilog": ("examples:\n"
                     "  jupai rules --players 6\n"
                     "  jupai rules --rules house.toml   # check a house-rules file before hosting with it",
                     "示例：\n"
                     "  jupai rules --players 6\n"
                     "  jupai rules --rules house.toml   # 开桌前检查房规文件"),
    "rules.opt.players": ("table size 2-6 (default 4, or the rules file's)", "牌桌人数 2-6（默认 4，或房规文件中的值）"),
    "rules.title": ("rules in force", "生效的规则"),
    "rules.col.setting": ("setting", "设置"),
    "rules.col.value": ("value", "值"),
    "rules.col.meaning": ("meaning", "含义"),
    "rules.default_identities": ("{letters} (default)", "{letters}（默认）"),
    "rules.meaning.players": ("number of seats at the table (2-6)", "牌桌座位数（2-6）"),
    "rules.meaning.rounds": ("number of rounds N (cards in the round pile); default 12, 11 for 6 players",
                             "回合数 N（回合牌堆的张数）；默认 12，6 人时 11"),
    "rules.meaning.hand-size": ("intent cards dealt to each hand", "每人发的意图牌张数"),
    "rules.meaning.supply-number": ("round-card rank that makes a supply round", "使本回合成为补给回合的回合牌点数"),
    "rules.meaning.discard-number": ("round-card rank that makes a discard round", "使本回合成为丢弃回合的回合牌点数"),
    "rules.meaning.swap-prime-composite": ("house rule: prime ranks make attack rounds, others defense",
                                          "房规：质数点数为进攻回合，其余为防守回合"),
    "rules.meaning.attack-number": ("house rule: a round-card rank that always makes an attack round "
                                   "(2 = the seed's '2 代表的积数为进攻回合' read literally); 0 = none",
                                   "房规：总是进攻回合的回合牌点数（2 = 按字面理解原文“2代表的积数为进攻回合”）；0 = 无"),
    "rules.meaning.random-specials": ("house rule: draw the supply and discard numbers at random at setup",
                                      "房规：开局时随机抽取补给数字和丢弃数字"),
    "rules.meaning.round-value": ("R = 'ordinal' (round number 1…N) or 'rank' (the flipped card's rank)",
                                  "回合数 R = ordinal（第几回合，1…N）或 rank（翻开的回合牌点数）"),
    "rules.meaning.same-identity": ("'shared-role' (actor and target hold the same role) or 'matching-card'",
                                    "同身份：shared-role（双方身份相同）或 matching-card（意图牌与自己的身份牌同点）"),
    "rules.meaning.hidden-identities": ("house rule: identities stay hidden until first used in a formula",
                                        "房规：身份在首次用于公式之前保持未公开"),
    "rules.meaning.identities": ("identity letters by seat order of dealing (L C F N), empty = default for the table size",
                                 "按发牌座位顺序的身份字母（L 地主 C 协调员 F 农民 N 旁白），空 = 该人数的默认设置"),
    "rules.stock.one": ("cards left for drawing equipment after dealing: 1 new pair (supply (b) or rearm) in the whole game",
                        "发牌后留作抽装备的牌：整局共可抽 1 副新装备（补给 (b) 或重新装备）"),
    "rules.stock.other": ("cards left for drawing equipment after dealing: {count} new pairs (supply (b) or rearm) "
                          "in the whole game",
                          "发牌后留作抽装备的牌：整局共可抽 {count} 副新装备（补给 (b) 或重新装备）"),
    "rules.stock.none": ("no new equipment can be drawn in this game: supply (b) and rearm are never possible "
                         "(fewer than 2 cards are left after dealing; use fewer rounds for a stock)",
                         "本局无法抽新装备：补给 (b) 和重新装备都不可能（发牌后剩下不到 2 张；减少回合数才会有牌堆）"),
    "rule.file_mistakes.one": ("{path} has a mistake:", "{path} 有 1 处错误："),
    "rule.file_mistakes.other": ("{path} has {count} mistakes:", "{path} 有 {count} 处错误："),
    "rule.setting": ("rule setting '{setting}': {detail}", "规则设置 {setting}：{detail}"),
    "rule.unknown_near": ("unknown setting (did you mean '{near}'?)", "没有这项设置（是不是“{near}”？）"),
    "rule.unknown": ("unknown setting (known: {known})", "没有这项设置（可用的设置：{known}）"),
    "rule.whole": ("must be a whole number, got {got}", "必须是整数，这里是 {got}"),
    "rule.bool": ("must be true or false, got {got}", "必须是 true 或 false，这里是 {got}"),
    "rule.range": ("must be {low}-{high}, got {got}", "必须在 {low}-{high} 之间，这里是 {got}"),
    "rule.at_least": ("must be at least {low}, got {got}", "至少为 {low}，这里是 {got}"),
    "rule.no_round_pile": ("a {players}-player table with {hand} hand cards deals {dealt} cards and leaves none of "
                           "the {deck} for the round pile (at most {most} hand cards)",
                           "{players} 人牌桌每人 {hand} 张手牌共发出 {dealt} 张，{deck} 张牌中没有剩下回合牌堆的牌"
                           "（手牌最多 {most} 张）"),
    "rule.too_many_rounds": ("at most {most} rounds fit a {players}-player table ({deck} cards - {players}×(2 equipment "
                             "+ {hand} hand)), got {got}",
                             "{players} 人牌桌最多 {most} 个回合（{deck} 张牌 - {players}×(2 张装备 + {hand} 张手牌)），"
                             "这里是 {got}"),
    "rule.rank": ("must be a rank 1-14, got {got}", "必须是点数 1-14，这里是 {got}"),
    "rule.rank_or_0": ("must be a rank 1-14, or 0 for none, got {got}", "必须是点数 1-14，或 0 表示无，这里是 {got}"),
    "rule.differ_supply": ("must differ from supply-number", "必须与 supply-number（补给数字）不同"),
    "rule.differ_specials": ("must differ from supply-number and discard-number",
                             "必须与 supply-number（补给数字）和 discard-number（丢弃数字）不同"),
    "rule.one_of": ("must be one of {choices}, got {got}", "必须是 {choices} 之一，这里是 {got}"),
    "rule.letters": ("must be a string of letters L C F N, got {got}", "必须是由字母 L C F N 组成的字符串，这里是 {got}"),
    "rule.bad_letters": ("unknown identity letter(s) {bad}; use L C F N", "未知的身份字母 {bad}；请用 L C F N"),
    "rule.letter_per_seat": ("needs one letter per seat ({players}), got {got}", "每个座位一个字母（{players} 个），这里是 {got} 个"),
    "rule.one_landlord": ("at most one landlord", "最多一个地主"),
}
