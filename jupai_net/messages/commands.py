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
    # a label and what it labels: "Notices: …", "通知：…" (a full-width colon in Chinese, no space)
    "colon": (": ", "："),
    # argparse types of the bots' and seats' options (bot_options.py)
    "opt.think.not_number": ("seconds per move expected (e.g. 0.5), got {got}", "应为每步的秒数（如 0.5），这里是 {got}"),
    "opt.think.range": ("must be more than 0 and at most 60 seconds, got {got}", "必须大于 0 且不超过 60 秒，这里是 {got}"),
    "opt.seat.not_number": ("a seat number expected (0-5), got {got}", "应为座位号（0-5），这里是 {got}"),
    "opt.seats.not_number": ("a number of players expected (2-6), got {got}", "应为人数（2-6），这里是 {got}"),
    "opt.seats.range": ("must be {low}-{high}, got {got}", "应为 {low}-{high} 人，这里是 {got}"),
    "opt.seat.range": ("must be 0-{high} (seats are numbered from 0), got {got}",
                       "必须在 0-{high} 之间（座位从 0 开始编号），这里是 {got}"),
    # between the names of a list of people or tables: "Alice, 小明", "Alice、小明" (names_text)
    "names.sep": (", ", "、"),
    # --- jupai (cli.py) ---------------------------------------------------------------------
    "jupai.description": ("Play 剧牌 (Jupai) with friends on a local network, with a provably fair deal.",
                        "在局域网上和朋友玩剧牌（Jupai），发牌公平且可验证。"),
    "jupai.epilog": ("examples:\n"
                   "  jupai play                 # a game against bots in this terminal\n"
                   "  jupai host --seats 4       # open a table on the LAN; friends run jupai join\n"
                   "\n"
                   "Run jupai COMMAND --help for the options of a command.",
                   "示例：\n"
                   "  jupai play                 # 在本终端与机器人对局\n"
                   "  jupai host --seats 4       # 在局域网开一张牌桌；朋友运行 jupai join 加入\n"
                   "\n"
                   "运行 jupai 命令 --help 查看该命令的选项。"),
    "jupai.commands": ("commands", "命令"),
    "jupai.version_help": ("show the version and exit", "显示版本并退出"),
    "jupai.see_help": ("{prog} --help shows every option.", "{prog} --help 列出全部选项。"),
    "jupai.interrupted": ("{prog}: interrupted", "{prog}: 已中断"),
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
                     "  jupai rules --seats 6\n"
                     "  jupai rules --rules house.toml   # check a house-rules file before hosting",
                     "示例：\n"
                     "  jupai rules --seats 6\n"
                     "  jupai rules --rules house.toml   # 开桌前检查房规文件"),
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
    "rule.hyphens": ("write it with hyphens: '{near}'", "请用连字符写作“{near}”"),
    "rule.twice": ("set twice (also as '{other}')", "设置了两次（另一处写作“{other}”）"),
    "rule.twice_table": ("set twice: at the top of the file and under {near}", "设置了两次：文件开头和 {near} 表下各一次"),
    "rule.table_near": ("unknown table (did you mean {near}?)", "没有这个表（是不是 {near}？）"),
    "rule.table_unknown": ("unknown table (settings go at the top of the file or under {near})",
                           "没有这个表（设置写在文件开头或 {near} 表下）"),
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
    # --- options several commands share --------------------------------------------------------
    "opt.name": ("your name at the table (default: the settings' name, else your login name)",
                 "你在牌桌上的名字（默认：设置文件中的 name，否则用登录名）"),
    "opt.code": ("the join code shown on the host screen; required to accept a host whose code changed",
                 "主机屏幕上显示的加入码；主机的加入码变了时必须给出"),
    "opt.think": ("seconds an expert bot thinks per move (default 0.5)", "expert 机器人每步思考的秒数（默认 0.5）"),
    "opt.rounds": ("rounds per game (default: the rules' default)", "每局回合数（默认：规则的默认值）"),
    "opt.seats": ("players at the table, 2-6 (default 4, or the rules file's)", "牌桌人数 2-6（默认 4，或房规文件中的值）"),
    "opt.transcript": ("where to save your transcript of the game (default: transcripts/ in the jupai config folder)",
                       "对局记录保存到哪里（默认：jupai 配置文件夹中的 transcripts/）"),
    "opt.idle_timeout": ("give up on a host that sends nothing for SECONDS, pings unanswered (default {default})",
                         "主机 SECONDS 秒没有任何消息且不回应 ping 时放弃（默认 {default}）"),
    "opt.address": ("the host's name or address, optionally with the port (default {port}; IPv6 as [ADDR]:PORT), or "
                    "the name of a table announced on the LAN; none: list the tables on the LAN and pick one",
                    "主机的名称或地址，可带端口（默认 {port}；IPv6 写作 [ADDR]:PORT），或局域网上公布的牌桌名称；"
                    "不写：列出局域网上的牌桌供你选择"),
    "opt.json": ("print the result as JSON", "以 JSON 输出结果"),
    # --- jupai play --------------------------------------------------------------------------
    "play.bad_games": ("--games must be 0 (until you leave) or more, got {games}",
                       "--games 必须是 0（直到你离开）或更大的数，这里是 {games}"),
    "play.help": ("play a game against bots in this terminal", "在本终端与机器人对局"),
    "play.description": ("Start a local host on 127.0.0.1 with bots in the other seats and play the remaining seat "
                         "here: type the number of a move. The deal is dealer-blind by default (the players' programs shuffle and lock "
                         "the deck in turn, so not even the local host sees your cards; with the hidden-identities house rule, "
                         "or --dealer trusted, a commit-reveal shuffle) and checked at the end.",
                         "在 127.0.0.1 上启动本地主机，其他座位由机器人坐，你坐剩下的座位：输入行动编号出牌。"
                         "默认庄家盲发（各方程序轮流洗牌并给牌堆加锁，连本地主机也看不到你的牌；使用隐藏身份房规或 --dealer trusted "
                         "时改为承诺-公开洗牌），结束时自动验证。"),
    "play.epilog": ("examples:\n"
                    "  jupai play --seats 3 --opponents expert\n"
                    "  jupai play --rules house.toml --lang zh\n"
                    "  jupai play --dealer trusted   # the old scheme: the host sees your cards",
                    "示例：\n"
                    "  jupai play --seats 3 --opponents expert\n"
                    "  jupai play --rules house.toml --lang zh\n"
                    "  jupai play --dealer trusted   # 旧的发牌方式：机器人的主机能看到你的牌"),
    "play.opt.opponents": ("which bot the opponents are (default: the settings' opponents, else greedy)",
                           "对手用哪种机器人（默认：设置文件中的 opponents，否则 greedy）"),
    "play.opt.bot": ("let this bot play your seat too (a demo game)", "让这个机器人替你出牌（演示对局）"),
    "play.opt.turn_timeout": ("seconds per turn before the default move is played for you (default 0 = no limit)",
                              "每回合限时秒数，超时自动执行默认行动（默认 0 = 不限时）"),
    "play.opt.bot_delay": ("seconds each bot waits before moving (default 0.8, or 0 with --bot)",
                           "机器人每步前等待的秒数（默认 0.8；用 --bot 时为 0）"),
    "play.opt.games": ("games in a row (default 0: after each game you are asked \"Play again?\"; Enter plays on, q "
                       "leaves; with --bot, or with stdin not a terminal: 1)",
                       "连续玩多少局（默认 0：每局结束后问“再玩一局？”，回车继续，q 离开；用 --bot 或标准输入不是终端时：1）"),
    "play.opt.transcript": ("where to save your transcript (the 2nd game's goes to FILE-2, and so on)",
                            "对局记录保存到哪里（第 2 局存到 FILE-2，依此类推）"),
    "play.opt.plain": ("use the plain line-by-line player instead of the rich screen", "用逐行文字界面代替全屏界面"),
    # --- jupai join --------------------------------------------------------------------------
    "join.help": ("join a table on the local network", "加入局域网上的牌桌"),
    "join.description": ("Take a seat at a 剧牌 table: the host's join code is pinned on first use (SSH style) and "
                         "checked on every later join; type the number of a move to play; at the end the deal is "
                         "verified and the transcript saved for jupai verify.",
                         "在剧牌牌桌上入座：第一次加入时记录主机的加入码（与 SSH 相同），以后每次加入都核对；"
                         "输入行动编号出牌；结束时验证发牌，并保存对局记录供 jupai verify 检查。"),
    "join.epilog": ("examples:\n"
                    "  jupai join   # list the tables on the LAN and pick one\n"
                    "  jupai join 192.168.1.20 --code 7KQ2-M9XD-PA3F-0RTE --name Ann",
                    "示例：\n"
                    "  jupai join   # 列出局域网上的牌桌并选择\n"
                    "  jupai join 192.168.1.20 --code 7KQ2-M9XD-PA3F-0RTE --name Ann"),
    "join.opt.name": ("your name at the table (default: the settings' name, else your login name; with --bot, "
                      "e.g. 'random bot')",
                      "你在牌桌上的名字（默认：设置文件中的 name，否则用登录名；用 --bot 时如 'random bot'）"),
    "join.opt.seat": ("ask for this seat (default: any free seat)", "要求坐这个座位（默认：任意空位）"),
    "join.opt.bot": ("let a bot play this seat (random, greedy, expert)", "让机器人坐这个座位（random、greedy、expert）"),
    "join.opt.think": ("with --bot expert: seconds it thinks per move (default 0.5)",
                       "配合 --bot expert：每步思考的秒数（默认 0.5）"),
    # --- jupai host --------------------------------------------------------------------------
    "host.help": ("host a table on the local network (others join with jupai join)",
                  "在局域网上开一张牌桌（其他人用 jupai join 加入）"),
    "host.description": ("Host a 剧牌 table: TLS on the LAN, every seat waiting for a person unless --bots N gives "
                         "the host's bots N seats (type start at the host to fill the empty seats with bots and begin), "
                         "a fair deal checked by every "
                         "player: dealer-blind by default where every client can (the players' programs shuffle and "
                         "lock the deck in turn, so the host cannot see anyone's cards), or with --dealer trusted a commit-reveal shuffle "
                         "(checked after the game, but the host sees every hand). Shows the addresses and join code "
                         "to give to the players, then the game as a spectator.",
                         "开一张剧牌牌桌：局域网 TLS 连接，每个座位都等玩家入座，除非用 --bots N 让主机的机器人坐 N 个座位"
                         "（在主机上输入 start 可让机器人坐满空位并开局），每个玩家都会核验发牌是否公平："
                         "默认在每个客户端都支持时庄家盲发（玩家的程序轮流洗牌并给牌堆加锁，主机看不到任何人的牌），"
                         "或用 --dealer trusted 改为承诺-公开洗牌（赛后核验，但主机能看到每一手牌）。"
                         "显示要告诉玩家的地址和加入码，然后以旁观视角显示对局。"),
    "host.epilog": ("examples:\n"
                    "  jupai host --seats 4 --bots 2             # two people, two bots\n"
                    "  jupai host --games 0 --table-name Friday  # game after game until Ctrl-C\n"
                    "  jupai host --dealer blind                 # always blind; no older clients",
                    "示例：\n"
                    "  jupai host --seats 4 --bots 2             # 两名玩家，两个机器人\n"
                    "  jupai host --games 0 --table-name Friday  # 一局接一局，直到按 Ctrl-C\n"
                    "  jupai host --dealer blind                 # 每局盲发；拒绝旧版客户端"),
    "opt.dealer": ("how the cards are dealt: auto (default: each game dealer-blind when every player's jupai-net "
                   "speaks protocol 4 and the house rules allow it, else trusted; the screens say which and why), "
                   "blind (dealer-blind: every player's program encrypts the deck in turn, so the host cannot see "
                   "your cards; older clients are refused, and the hidden-identities house rule is not available) or "
                   "trusted (commit-reveal, checked after the game, but the host's program sees every hand)",
                   "发牌方式：auto（默认：每位玩家的 jupai-net 都支持协议 4 且房规允许时，每局庄家盲发，否则可信庄家发牌；"
                   "屏幕上会说明用哪种以及原因）、blind（庄家盲发：每位玩家的程序依次加密整副牌，主机看不到你的牌；"
                   "拒绝旧版客户端，且不能使用隐藏身份房规）或 trusted（承诺-公开发牌，局后验证，但主机程序能看到"
                   "每一手牌）"),
    "host.opt.bind": ("address to listen on (default: all interfaces)", "监听的地址（默认：所有网络接口）"),
    "host.opt.port": ("TCP port (default {port}; 0 = any free port)", "TCP 端口（默认 {port}；0 = 任意空闲端口）"),
    "host.opt.bots": ("seats the host fills with its own bots (the last N seats); the other seats wait for people "
                      "(default 0, or every seat but one when --opponents is given)",
                      "由主机的机器人坐的座位数（最后 N 个座位）；其余座位等待玩家（默认 0；给出 --opponents 时除一个座位外全是机器人）"),
    "host.opt.opponents": ("which bot plays the host's bot seats: {bots} (default greedy; as in jupai play "
                           "--opponents); without --bots, bots take every seat but one",
                           "主机的机器人座位用哪种机器人：{bots}（默认 greedy；与 jupai play --opponents 相同）；"
                           "不给 --bots 时除一个座位外全是机器人"),
    "host.opt.turn_timeout": ("seconds a player has per turn before the host plays a default move (default 60; "
                              "0 = no limit)",
                              "玩家每回合的限时秒数，超时由主机执行默认行动（默认 60；0 = 不限时）"),
    "host.opt.ready_timeout": ("seconds a player in the lobby has to get ready before the seat is freed for someone "
                               "else (default 120; 0 = no limit)",
                               "大厅中的玩家须在多少秒内准备好，否则让出座位（默认 120；0 = 不限时）"),
    "host.opt.idle_timeout": ("seconds a client may stay silent (a frozen program, a lost network; pinged after a "
                              "quarter of it) before its connection is dropped and its seat counts as away "
                              "(default 60; 1-86400)",
                              "客户端可以沉默多少秒（程序卡住、网络断开；过四分之一时间后会 ping 它），超过后断开连接，"
                              "其座位算作离开（默认 60；1-86400）"),
    "host.opt.bot_delay": ("seconds a host bot waits before moving (default 0.5)", "主机的机器人每步前等待的秒数（默认 0.5）"),
    "host.opt.think": ("seconds an expert bot thinks per move (default 0.5), on top of --bot-delay",
                       "expert 机器人每步思考的秒数（默认 0.5），另加 --bot-delay"),
    "host.opt.games": ("games to play at the table, then exit (default 0: until stopped with Ctrl-C); players who leave "
                       "between games are replaced by bots",
                       "在牌桌上玩多少局后退出（默认 0：直到按 Ctrl-C 停止）；局间离开的玩家由机器人替补"),
    "host.opt.transcript_dir": ("where to save every seat's transcript of each game, as the host sent it (check with "
                                "jupai verify; default: host-transcripts/ in the jupai config folder)",
                                "每局每个座位的对局记录（主机发出的原样）保存到哪里（用 jupai verify 检查；"
                                "默认：jupai 配置文件夹中的 host-transcripts/）"),
    "host.opt.table_name": ("the table's name on the LAN, for jupai join NAME, and in every transcript and jupai "
                            "history (default: \"<your name>'s table\")",
                            "牌桌的名称：局域网上供 jupai join NAME 使用，也记入对局记录和 jupai history"
                            "（默认：“<你的名字> 的牌桌”）"),
    "host.opt.no_announce": ("do not announce the table on the LAN (players then join by address)",
                             "不在局域网上公布牌桌（玩家需按地址加入）"),
    "host.opt.quiet": ("print only the join information and the results", "只显示加入信息和结果"),
    "host.opt.verbose": ("log connections (-v) and protocol details (-vv) to stderr (otherwise warnings go to host.log "
                         "in the jupai config folder)",
                         "把连接（-v）和协议细节（-vv）记录到标准错误（否则警告写入 jupai 配置文件夹中的 host.log）"),
    # --- jupai history / replay / config ----------------------------------------------------------
    "history.help": ("the games played on this machine, newest first, each with its fairness verdict",
                     "本机玩过的对局，最新的在前，每局附公平性结论"),
    "history.description": ("List past games from the saved transcripts (yours and those a host kept), newest first: "
                            "date, table, players, winner and the fairness verdict (each file is verified).",
                            "按保存的对局记录（你自己的和主机保存的）列出过去的对局，最新的在前："
                            "日期、牌桌、玩家、赢家和公平性结论（每个文件都会验证）。"),
    "history.epilog": ("examples:\n"
                       "  jupai history                 # the last 20 games on this machine\n"
                       "  jupai history -n 0 --json     # every game, as JSON\n"
                       "  jupai history --dir ./games   # the transcripts in another folder",
                       "示例：\n"
                       "  jupai history                 # 本机最近 20 局\n"
                       "  jupai history -n 0 --json     # 全部对局，JSON 格式\n"
                       "  jupai history --dir ./games   # 另一个文件夹中的对局记录"),
    "history.opt.dir": ("read the transcripts in DIR instead (may be given several times)",
                        "改为读取 DIR 中的对局记录（可多次给出）"),
    "history.opt.last": ("show the N newest games (0 = all; default 20)", "显示最新的 N 局（0 = 全部；默认 20）"),
    "replay.help": ("step through a saved game, action by action, with every formula", "逐步回放保存的对局，每一步附公式"),
    "replay.description": ("Step through a verified game transcript: every action with its formula and outcome, round "
                           "by round; at the end the whole deck as the seeds made it. Keys: Enter/n next, p previous, "
                           "r next round, a number jumps to that action, q quits.",
                           "逐步查看已验证的对局记录：按回合显示每一步行动及其公式和结果；最后显示由种子生成的整副牌。"
                           "按键：回车/n 下一步，p 上一步，r 下一回合，数字 跳到该步，q 退出。"),
    "replay.epilog": ("examples:\n"
                      "  jupai replay ~/.config/jupai/transcripts/GAME-seat1.jupai\n"
                      "  jupai replay game.jupai --all --lang zh | less -R",
                      "示例：\n"
                      "  jupai replay ~/.config/jupai/transcripts/GAME-seat1.jupai\n"
                      "  jupai replay game.jupai --all --lang zh | less -R"),
    "replay.opt.file": ("transcript file (.jupai) saved by a seat", "座位保存的对局记录文件（.jupai）"),
    "replay.opt.force": ("show a transcript that does not verify (marked as such)", "也显示未通过验证的对局记录（会标明）"),
    "replay.opt.all": ("print every action at once instead of stepping", "一次输出全部行动，不逐步"),
    "replay.opt.plain": ("the same as --all: plain lines, nothing redrawn (for a file, a pipe or a screen reader)",
                         "同 --all：只输出文字行，不重绘屏幕（适合文件、管道或读屏软件）"),
    "config.help": ("show where the settings file is and every setting in force", "显示设置文件的位置和生效的每项设置"),
    "config.description": ("Show the settings file (config.toml in the jupai config folder) and every setting in force, "
                           "with where it comes from. --init writes a commented file to start from.",
                           "显示设置文件（jupai 配置文件夹中的 config.toml）和生效的每项设置及其来源。"
                           "--init 写出一个带注释的文件作为起点。"),
    "config.epilog": ("examples:\n  jupai config\n  jupai config --init   # then edit the file it names",
                      "示例：\n  jupai config\n  jupai config --init   # 然后编辑它给出的文件"),
    "config.opt.init": ("write a commented settings file (never over an existing one)", "写出带注释的设置文件（不会覆盖已有文件）"),
    # --- jupai simulate ----------------------------------------------------------------------
    "simulate.help": ("let bots play many games and show statistics", "让机器人对局多次并显示统计"),
    "simulate.description": ("Bots play N games of 剧牌 against each other (no network); then a table of win rates "
                             "per seat, per position after the leader of round 1, per identity and per bot (each with "
                             "its 95% interval), game length and how games were decided (--json for figures).",
                             "机器人互相对局 N 次（不用网络）；然后列出胜率表：按座位、按第 1 回合先手之后的位置、"
                             "按身份和按机器人（各附 95% 区间），以及对局长度和胜负方式（--json 输出数据）。"),
    "simulate.epilog": ("examples:\n"
                        "  jupai simulate --games 2000 --seed 2026 --bot greedy\n"
                        "  jupai simulate --seats 4 --bot expert,greedy,greedy,greedy --games 200",
                        "示例：\n"
                        "  jupai simulate --games 2000 --seed 2026 --bot greedy\n"
                        "  jupai simulate --seats 4 --bot expert,greedy,greedy,greedy --games 200"),
    "simulate.opt.games": ("number of games (default 1000)", "对局数（默认 1000）"),
    "simulate.opt.seed": ("seed for a reproducible run", "可复现运行的随机种子"),
    "simulate.opt.bot": ("bot in every seat, or one per seat separated by commas, e.g. expert,greedy,greedy,greedy "
                         "({bots}; default: random)",
                         "每个座位用的机器人，或用逗号分隔逐座位指定，如 expert,greedy,greedy,greedy（{bots}；默认 random）"),
    "simulate.opt.think": ("seconds per move for expert bots, counted as playouts so a seed reproduces (default 0.5)",
                           "expert 机器人每步的秒数，按模拟次数计，因此同一种子可复现（默认 0.5）"),
    # --- a join code as typed (--code of join, watch, verify: fairness/pin.JoinCodeError) -------
    "code.bad_chars": ("a join code has only the characters {alphabet} (and dashes), got {got}",
                       "加入码只含字符 {alphabet}（和短横线），这里有 {got}"),
    "code.length": ("a join code has {chars} characters (XXXX-XXXX-XXXX-XXXX), got {got}",
                    "加入码有 {chars} 个字符（XXXX-XXXX-XXXX-XXXX），这里是 {got} 个"),
    "code.old": ("{code} is an old-style join code (10 characters); this jupai's join codes have {chars} characters "
                 "(XXXX-XXXX-XXXX-XXXX): use the code the host's screen shows now",
                 "{code} 是旧式加入码（10 个字符）；本版 jupai 的加入码有 {chars} 个字符（XXXX-XXXX-XXXX-XXXX）："
                 "请使用主机屏幕现在显示的加入码"),
    # --- jupai verify ------------------------------------------------------------------------
    "verify.help": ("check a game transcript: fair deal, no swapped card, every outcome replayed",
                    "检查对局记录：发牌公平、没有换牌、每个结果重放一致"),
    "verify.description": ("Verify a game transcript saved by a seat: host signatures, seed commitments, deck "
                           "commitments, every card seen, and a replay of the whole game with the rules engine. "
                           "Exit 0 only for a fully verified game; 3 tampered, 4 suspicious, 5 unverified, 6 "
                           "unreadable. With several files or a folder: one line per game, and the exit code of the "
                           "worst verdict.",
                           "验证座位保存的对局记录：主机签名、种子承诺、整副牌的承诺、看到的每一张牌，"
                           "并用规则引擎重放整局。只有完全验证通过才以 0 退出；3 被篡改，4 可疑，5 未验证，6 无法读取。"
                           "给出多个文件或一个文件夹时每局一行，退出码取最差的结论。"),
    "verify.epilog": ("examples:\n"
                      "  jupai verify ~/.config/jupai/transcripts/GAME-seat1.jupai\n"
                      "  jupai verify ~/.config/jupai/transcripts/   # one line per game in the folder",
                      "示例：\n"
                      "  jupai verify ~/.config/jupai/transcripts/GAME-seat1.jupai\n"
                      "  jupai verify ~/.config/jupai/transcripts/   # 文件夹中的每一局，每局一行"),
    "verify.opt.file": ("transcript file (.jupai) written by a seat, or a folder of them; several give one line per game",
                        "座位写下的对局记录文件（.jupai）或其文件夹；多个时每局一行"),
    "verify.opt.code": ("the host's join code (from its screen): every game must be signed by that host's key",
                        "主机的加入码（见主机屏幕）：每局都必须由该主机的密钥签名"),
    "verify.opt.json": ("print the verdict as one JSON object", "以一个 JSON 对象输出结论"),
    "verify.opt.all_signatures": ("check every statement's signature (by default, in a hash-chained transcript "
                                  "the last signature vouches for every statement before it)",
                                  "逐条检查每份声明的签名（默认情况下，哈希链式记录中最后一个签名即可担保之前的所有声明）"),
    # --- the host console (host/cli.py) ----------------------------------------------------------
    "host.opponents_unused": ("--opponents {named} has no effect with --bots 0: every seat waits for a person "
                              "(use --bots N to let {named} bots take N seats)",
                              "--opponents {named} 在 --bots 0 时不起作用：每个座位都等待玩家（用 --bots N 让 {named} 机器人坐 N 个座位）"),
    "host.bot_deprecated": ("--bot is deprecated here, use --opponents (as in `jupai play`)",
                            "这里的 --bot 已弃用，请用 --opponents（与 `jupai play` 相同）"),
    "host.seats.people.one": ("1 seat for people", "1 个座位留给玩家"),
    "host.seats.people.other": ("{count} seats for people", "{count} 个座位留给玩家"),
    "host.seats.bots.one": ("1 {bot} bot", "1 个{bot}机器人"),
    "host.seats.bots.other": ("{count} {bot} bots", "{count} 个{bot}机器人"),
    "host.seats.no_bots": ("no bots yet (type start to fill the empty seats)",
                           "暂无机器人（输入 start 补满空位）"),
    "host.seats.line": ("{people}, {bots}", "{people}，{bots}"),
    "host.banner.table": ("剧牌 table for {players}", "剧牌牌桌 · {players} 人"),
    "host.banner.line": (": {seats}; {rounds}", "：{seats}；共 {rounds}"),
    "host.banner.replaced": ("new: it was {old}; players who pinned the old code must join once with --code and "
                             "the new one",
                             "新加入码：原来是 {old}；记录了旧加入码的玩家须用 --code 加新加入码加入一次"),
    "host.banner.announced": (" (announced on the LAN: `jupai join` lists it)", "（已在局域网公布：`jupai join` 会列出）"),
    "host.banner.unannounced": (" (not announced on the LAN)", "（未在局域网公布）"),
    "host.default_table": ("{name}'s table", "{name} 的牌桌"),
    "host.fallback_table": ("jupai table", "剧牌牌桌"),
    "host.banner.not_announced": (" (not announced: this machine has no LAN address, the table is only reachable "
                                  "on this machine)",
                                  "（未在局域网公布：本机没有局域网地址，只能在本机上连到这张牌桌）"),
    "host.banner.not_announced_ipv6": (" (not announced: the LAN announcement carries IPv4 addresses and this host "
                                       "answers on none; join by an address below)",
                                       "（未在局域网公布：局域网公布只带 IPv4 地址，而本主机没有可连的 IPv4 地址；"
                                       "请用下面的地址加入）"),
    "host.label.code": ("join code", "加入码"),
    "host.label.table": ("table name", "牌桌名称"),
    "host.label.join": ("join with", "加入命令"),
    "host.label.watch": ("watch with", "旁观命令"),
    "host.banner.join_below": ("below the box, one line each", "见框下方，每条一行"),
    "host.banner.watch": ("up to {spectators} at once", "最多同时 {spectators}旁观"),
    "host.label.loopback": ("this machine", "本机"),
    "host.label.also": ("also on", "其他地址"),
    "host.banner.link_local_short": (" (link-local)", "（链路本地）"),
    "host.banner.loopback": ("{addresses} (loopback: only from this computer)", "{addresses}（回环地址：只能从本机连接）"),
    "host.banner.link_local": ("an address with %interface is link-local: only from the same network link",
                               "带 %网卡 的地址是链路本地地址：只能从同一网络链路连接"),
    "host.label.certificate": ("certificate", "证书"),
    "host.label.key": ("host key", "主机密钥"),
    "host.label.dealer": ("dealing", "发牌"),
    "host.dealer.blind": ("dealer-blind: this host cannot see the players' cards", "庄家盲发：主机看不到玩家的牌"),
    "host.dealer.auto": ("dealer-blind; a game with an older client is dealt trusted",
                         "庄家盲发；有旧版客户端的局由可信庄家发牌"),
    "host.dealer.auto_hidden": ("trusted dealer: this host can see every hand (the hidden-identities house rule "
                                "needs it)", "可信庄家：主机能看到每一手牌（隐藏身份房规需要可信庄家）"),
    "host.dealer.why_old_client": ("trusted this game: the client of {who} cannot deal blind",
                                   "本局可信庄家发牌：{who} 的客户端不能参与盲发牌"),
    "host.dealer.old_client": ("{name} (seat {seat}, protocol {version})", "{name}（{seat}号位，协议 {version}）"),
    "host.dealer.why_hidden": ("trusted this game: the hidden-identities house rule needs it",
                               "本局可信庄家发牌：隐藏身份房规需要可信庄家"),
    "host.dealer.trusted": ("trusted dealer: this host can see every hand", "可信庄家：主机能看到每一手牌"),
    "host.blind_hidden_identities": ("--dealer blind cannot be used with the hidden-identities house rule (the identity "
                                     "cards would need a blind deal of their own); use --dealer trusted or drop "
                                     "hidden-identities from the rules file",
                                     "--dealer blind 不能与隐藏身份房规同时使用（身份牌需要单独的盲发）；"
                                     "请改用 --dealer trusted，或从房规文件中去掉 hidden-identities"),
    "host.label.commands": ("commands", "命令"),
    "host.no_lan": ("warning: this machine has no LAN address (no network connection?): only players on this "
                    "machine can join",
                    "警告：本机没有局域网地址（没有联网？）：只有本机上的玩家能加入"),
    "host.game_starts": ("game {game} starts", "对局 {game} 开始"),
    "host.game_key": (" · host key {key}", " · 主机密钥 {key}"),
    "host.step": ("seat {seat}: {action}", "{seat}号位：{action}"),
    "host.seat": ("seat {seat}", "{seat}号位"),
    "host.notice": ("notice", "通知"),
    "host.refused": ("refused", "已拒绝"),
    "host.waiting": ("{name} waits for the next game: seat {seat} is kept for them ({stand_in} plays it until then)",
                     "{name} 在等下一局：为其保留{seat}号位（在此之前由 {stand_in} 代打）"),
    "host.refused.spectator": ("{name} (spectator)", "{name}（旁观者）"),
    "host.refused.blind-table": ("their jupai speaks protocol {version}, and this table always deals blind (needs "
                                 "protocol {need}): they must update jupai, or restart the host with --dealer auto",
                                 "对方的 jupai 使用协议 {version}，而本桌总是盲发牌（需要协议 {need}）："
                                 "对方需更新 jupai，或用 --dealer auto 重启主机"),
    "host.refused.blind-game": ("their jupai speaks protocol {version} and cannot take its seat back in this "
                                "dealer-blind game (needs protocol {need})",
                                "对方的 jupai 使用协议 {version}，不能回到这局盲发牌对局中的座位（需要协议 {need}）"),
    "host.refused.chained-game": ("their jupai speaks protocol {version} and cannot take its seat back in this "
                                  "game, whose statements to that seat are hash-chained in a format that needs "
                                  "protocol {need}",
                                  "对方的 jupai 使用协议 {version}，不能回到本局中的座位：发给该座位的声明是哈希链式的，其格式需要协议 {need}"),
    "host.refused.game-running": ("a game is running and they hold no seat in it", "对局进行中，对方在局中没有座位"),
    "host.refused.name-taken": ("another player at the table has that name", "桌上已有同名玩家"),
    "host.refused.no-seat": ("there is no seat {seat} at this {seats}-seat table", "本桌共 {seats} 个座位，没有 {seat}号位"),
    "host.refused.seat-taken": ("seat {seat} is taken", "{seat}号位已有人"),
    "host.refused.table-full": ("every seat is taken ({seats} of {seats})", "座位已满（{seats}/{seats}）"),
    "host.refused.spectators-full": ("the table already has as many spectators as it takes ({count})",
                                     "旁观人数已达上限（{count}）"),
    "host.refused.no-spectators": ("this table takes no spectators", "本桌不接受旁观"),
    "host.refused.bad-token": ("their session token is unknown or expired", "对方的会话令牌未知或已过期"),
    "host.back_expired": ("{name} came back with a session that has ended (its game is over, or the seat was freed "
                          "while they were away): they join again as a new player",
                          "{name} 回来了，但其会话已失效（那局已结束，或离开期间座位已被释放）：对方将作为新玩家重新加入"),
    "host.refused.reconnect-limit": ("seat {seat} reconnected too often", "{seat}号位重连过于频繁"),
    "host.place": ("{place}. {name} ({left} left)", "第{place}名 {name}（剩 {left} 张）"),
    "host.places_sep": (", ", "，"),
    "host.game_over": ("game over", "游戏结束"),
    "host.game_over_line": (": {won}", "：{won}"),
    "host.seed_revealed": ("the host seed is revealed; every player can now verify the deal",
                           "主机种子已公开；每位玩家现在都可以验证发牌"),
    "host.game_abandoned": ("game abandoned", "对局中止"),
    "host.stopping": ("stopping", "正在停止"),
    "host.stopping.running": ("abandoning the running game and telling the players why",
                              "中止进行中的对局并告知玩家原因"),
    "host.stopping.idle": ("no game is running; saying goodbye to whoever is connected",
                           "没有进行中的对局；向已连接的人道别"),
    "host.stopping.auditing": ("the last game is over: waiting a few seconds for the players' seeds so its deal "
                               "can be checked, then saying goodbye",
                               "上一局已结束：等几秒玩家的种子以便核验发牌，然后道别"),
    "host.audit_failed": ("the last game's deal could not be checked (a seat's seed did not come in time): it counts "
                          "as abandoned",
                          "上一局的发牌无法核验（有座位的种子没有及时送到）：按中止计"),
    "host.stopping.again": ("Ctrl-C again", "再按一次 Ctrl-C"),
    "host.stopping.ctrl_c": ("Ctrl-C", "按 Ctrl-C"),
    "host.stopping.line": (": {what} ({again} to quit at once)", "：{what}（{again} 立即退出）"),
    "host.closing.played.one": ("1 game played", "玩了 1 局"),
    "host.closing.played.other": ("{count} games played", "玩了 {count} 局"),
    "host.closing.abandoned": (", {count} abandoned", "，中止 {count} 局"),
    "host.stopped_by.SIGINT": ("with Ctrl-C", "（Ctrl-C）"),
    "host.stopped_by.SIGTERM": ("by SIGTERM", "（SIGTERM）"),
    "host.stopped_by.SIGHUP": ("by SIGHUP (its terminal was closed)", "（SIGHUP：终端已关闭）"),
    "host.stopped_by.signal": ("by signal {signum}", "（信号 {signum}）"),
    "host.closing.stopped": ("host stopped {how}: {games}", "主机已停止{how}：{games}"),
    "host.closing.closed": ("host closed: {games}", "主机已关闭：{games}"),
    "host.closing.who": ("{name} (seat {seat})", "{name}（{seat}号位）"),
    "host.closing.series_top": ("top of the series' scoreboard: {names}, {points}",
                                "系列赛积分榜首：{names}，{points}"),
    # --- counts, singular and plural (tn("count.games", n)), used inside longer texts --------
    "count.games.one": ("1 game", "1 局"),
    "count.games.other": ("{count} games", "{count} 局"),
    "count.rounds.one": ("1 round", "1 回合"),
    "count.rounds.other": ("{count} rounds", "{count} 回合"),
    "count.points.one": ("1 point", "1 分"),
    "count.points.other": ("{count} points", "{count} 分"),
    "count.spectators.one": ("1 spectator", "1 人"),
    "count.spectators.other": ("{count} spectators", "{count} 人"),
    "host.series_over.one": ("every player left: the series is over after 1 game",
                             "所有玩家都已离开：系列赛在 1 局后结束"),
    "host.series_over.other": ("every player left: the series is over after {count} games",
                               "所有玩家都已离开：系列赛在 {count} 局后结束"),
    # what the host does then (specs/host.md § 3a, Everyone left)
    "host.series_next": ("the table stays open: whoever sits down next starts a new series",
                         "牌桌仍然开放：下一位入座的人开始新的系列赛"),
    "host.series_next_left.one": ("the table stays open for the 1 game left: whoever sits down next starts a new "
                                  "series of it",
                                  "牌桌仍然开放，还剩 1 局：下一位入座的人开始新的系列赛"),
    "host.series_next_left.other": ("the table stays open for the {count} games left: whoever sits down next starts "
                                    "a new series of them",
                                    "牌桌仍然开放，还剩 {count} 局：下一位入座的人开始新的系列赛"),
    "host.closing.last_abandoned": ("the last game was abandoned: {reason}", "最后一局被中止：{reason}"),
    "host.closing.sep": ("; ", "；"),
    "host.closing.end": (".", "。"),
    "host.closing.transcripts": (" Every seat's transcript is in {dir} (check one with `jupai verify FILE`).",
                                 "每个座位的对局记录在 {dir}（用 `jupai verify FILE` 检查）。"),
    "host.lobby": ("lobby", "大厅"),
    "host.status.game": ("game {game}", "第 {game} 局"),
    "host.status.game_of": ("game {game} of {games}", "第 {game}/{games} 局"),
    "host.status.round": (", round {round}/{rounds}", "，第 {round}/{rounds} 回合"),
    "host.status.dealing": (": dealing", "：发牌中"),
    "host.status.auditing": (": checking the deal", "：核对发牌中"),
    "host.lobby.empty": ("(empty)", "（空位）"),
    "host.lobby.bot": (" (bot)", "（机器人）"),
    "host.lobby.away": (" (away)", "（离线）"),
    "host.lobby.waiting.one": ("waiting for 1 person", "还差 1 名玩家"),
    "host.lobby.waiting.other": ("waiting for {count} people", "还差 {count} 名玩家"),
    "host.lobby.waiting_start.one": ("waiting for 1 more person — type start to fill with bots",
                                     "还差 1 名玩家 — 输入 start 由机器人补满"),
    "host.lobby.waiting_start.other": ("waiting for {count} more people — type start to fill with bots",
                                       "还差 {count} 名玩家 — 输入 start 由机器人补满"),
    "host.started": ("bots take seat {seats}: the game starts when everyone seated is ready",
                     "机器人坐上 {seats} 号位：所有入座者准备好后开局"),
    "host.start.running": ("cannot start: a game is running", "无法开局：正在游戏中"),
    "host.start.nobody": ("cannot start yet: nobody is seated (start fills the empty seats once a person sat down)",
                          "还不能开局：还没有人入座（有人入座后，start 会让机器人补满空位）"),
    "host.start.full": ("every seat is taken: the game starts when everyone is ready",
                        "座位已满：所有人准备好后开局"),
    "host.no_certificate": ("cannot load or make the host certificate: {reason}", "无法读取或生成主机证书：{reason}"),
    "host.cannot_listen": ("cannot listen on port {port}: {reason}", "无法监听端口 {port}：{reason}"),
    "host.listen_why.in-use": ("it is in use (another program, or another jupai host, listens on it; try --port 0)",
                               "端口已被占用（另一个程序或另一个 jupai host 正在使用；可以试试 --port 0）"),
    "host.listen_why.denied": ("permission denied (ports under 1024 need administrator rights)",
                               "没有权限（1024 以下的端口需要管理员权限）"),
    "host.listen_why.no-address": ("this machine has no such address (--bind)", "本机没有这个地址（--bind）"),
    "host.listen_why.other": ("{reason}", "{reason}（系统的英文原话）"),
    "host.commands_help": ("type `start` and Enter to fill the empty seats with bots and begin; `kick N` frees "
                           "seat N; `help`",
                           "输入 `start` 回车由机器人补满空位并开局；`kick N` 让出 N 号位；`help`"),
    "host.kicked": ("kicked: the host removed {name} from seat {seat}", "已移出：主机把 {name} 请出了{seat}号位"),
    "host.cannot_kick.no-seat": ("cannot kick: there is no seat {seat} at this {seats}-seat table",
                                 "无法移出：这张 {seats} 人牌桌没有{seat}号位"),
    "host.cannot_kick.empty": ("cannot kick: seat {seat} is empty", "无法移出：{seat}号位是空位"),
    "host.cannot_kick.bot": ("cannot kick: seat {seat} is the host's own bot", "无法移出：{seat}号位是主机自己的机器人"),
    "host.unknown_command": ("unknown command {line}: {help}", "未知命令 {line}：{help}"),
    "host.bad_range": ("{option} must be {low}-{high}, got {got}", "{option} 必须在 {low}-{high} 之间，这里是 {got}"),
    "host.bad_bots": ("--bots must be 0-{high} at a {players}-seat table (one seat is yours), got {got}",
                      "{players} 人牌桌的 --bots 必须在 0-{high} 之间（至少留一个座位给人），这里是 {got}"),
    # --- where two transcripts of one game part (verdict.reason.disagree, jupai_net.messages.verdicts) ---
    "agree.where.start": ("the start", "开局"),
    "agree.where.commitments": ("the seed commitments", "种子承诺"),
    "agree.where.seeds": ("the seeds", "种子"),
    "agree.where.deal": ("the deal", "发牌"),
    "agree.where.over": ("the end of the game", "对局结束"),
    "agree.where.step": ("step {n}", "第 {n} 步"),
    "verdict.scheme.trusted": ("trusted dealer", "可信庄家"),
    "verdict.scheme.dealer-blind": ("dealer-blind", "庄家盲发"),
    "verdict.detail": ("technical detail", "技术细节（英文）"),
    "file.cannot_read": ("cannot read {path}: {why}", "无法读取 {path}：{why}"),
    "file.why.missing": ("No such file or directory", "没有这个文件或文件夹"),
    "file.why.denied": ("Permission denied", "没有读取权限"),
    "file.why.folder": ("Is a directory", "这是一个文件夹"),
    "file.why.write-denied": ("Permission denied", "没有写入权限"),
    "file.why.read-only": ("Read-only file system", "文件系统是只读的"),
    "file.why.full": ("No space left on device", "磁盘已满"),
    "file.not_toml": ("{path} is not valid TOML: {why}", "{path} 不是有效的 TOML：{why}"),
    "file.toml_at": ("line {line}, column {column}", "第 {line} 行第 {column} 列"),
    "file.toml_end": ("at the end of the file", "在文件末尾"),
    "file.toml_why": ("there is a mistake {where}", "{where}有错误"),
    "file.not_utf8": ("{path} is not UTF-8 ({why}): save it as UTF-8", "{path} 不是 UTF-8 编码（{why}）：请另存为 UTF-8"),
    "file.not_utf8.looks": ("it looks like {encoding}", "看起来是 {encoding}"),
    "file.not_utf8.byte": ("byte 0x{byte} at offset {offset} is not UTF-8", "偏移 {offset} 处的字节 0x{byte} 不是 UTF-8"),
    "file.too_large": ("{path} is larger than {limit} bytes: not a file jupai reads",
                       "{path} 大于 {limit} 字节：不是 jupai 读取的文件"),
    "verify.missing": ("no file {file}", "没有文件 {file}"),
    "verify.none": ("no transcript (*.jupai) in {files}", "{files} 中没有对局记录（*.jupai）"),
    "verify.in_folder": ("in {folder}:", "在 {folder} 中："),
    "verify.count": ("{n} {status}", "{status} {n} 局"),
    "verify.count_sep": (", ", "，"),
    "verify.games_files": (" ({games}, {files})", "（{games}，{files}）"),
    "verify.n_games.one": ("1 game", "共 1 局"),
    "verify.n_games.other": ("{count} games", "共 {count} 局"),
    "verify.n_transcripts.one": ("1 transcript", "1 份对局记录"),
    "verify.n_transcripts.other": ("{count} transcripts", "{count} 份对局记录"),
    "verify.transcripts.one": ("1 transcript (seat {seats})", "1 份对局记录（{seats}号位）"),
    "verify.transcripts.other": ("{count} transcripts (seats {seats})", "{count} 份对局记录（座位 {seats}）"),
    "verify.of_seat": ("seat {seat}: {reason}", "{seat}号位：{reason}"),
    "verify.games.one": (" (1 game)", "（共 1 局）"),
    "verify.games.other": (" ({count} games)", "（共 {count} 局）"),
    "verify.title.verified": ("VERIFIED — fair game", "已验证 — 公平对局"),
    "verify.title.tampered": ("TAMPERED — the transcript does not match", "被篡改 — 对局记录对不上"),
    "verify.title.suspicious": ("SUSPICIOUS — the host abandoned the game", "可疑 — 主机放弃了对局"),
    # a verdict whose code has its own title (specs/fairness.md §9.3)
    "verify.title.turns_cut_short": ("SUSPICIOUS — fair deal, but the host cut your turns short",
                                     "可疑 — 发牌公平，但主机缩短了你的回合"),
    "verify.row.cut_short": ("turns cut short", "被缩短的回合"),
    "verify.cut_short_entry": ("step {step}: timed out {after} s into a {turn} s turn",
                               "第 {step} 步：{turn} 秒的回合，{after} 秒就判超时"),
    "verify.cut_short_sep": ("; ", "；"),
    "verify.title.unverified": ("UNVERIFIED — the game cannot be checked", "未验证 — 无法检查这局"),
    "verify.title.malformed": ("MALFORMED — not a readable transcript", "记录损坏 — 不是可读的对局记录"),
    "verify.row.file": ("file", "文件"),
    "verify.row.reason": ("reason", "原因"),
    "verify.row.where": ("where", "位置"),
    "verify.row.expected": ("expected", "应为"),
    "verify.row.found": ("found", "实际"),
    "verify.row.game": ("game", "对局"),
    "verify.row.seat": ("seat", "座位"),
    "verify.row.host_key": ("host key", "主机密钥"),
    "verify.row.pinned": ("pinned host", "记录的主机"),
    "verify.row.statements": ("statements", "声明数"),
    # statements after the file's last signature: not evidence (specs/fairness.md §6.6)
    "verify.row.unsigned": ("unsigned", "未签名"),
    "verify.unsigned_tail.one": ("1 statement after the last signature ignored: it carries no signature, so anyone "
                                 "holding the file could have written it",
                                 "忽略了最后一个签名之后的 1 条声明：它没有签名，任何持有这个文件的人都可能写下它"),
    "verify.unsigned_tail.other": ("{count} statements after the last signature ignored: they carry no signature, "
                                   "so anyone holding the file could have written them",
                                   "忽略了最后一个签名之后的 {count} 条声明：它们没有签名，任何持有这个文件的人都可能写下它们"),
    "verify.row.exit": ("exit code", "退出码"),
    "verify.spectator": ("spectator", "旁观者"),
    "verify.pin.matches": ("join code {code}: the host key matches the certificate this seat pinned",
                           "加入码 {code}：主机密钥与本座位记录的证书一致"),
    "verify.pin.matches_both": ("join code {code}: the host key matches the certificate this seat pinned and the code "
                                "you gave",
                                "加入码 {code}：主机密钥与本座位记录的证书及你给出的加入码一致"),
    "verify.pin.differs": ("another host: its join code is {found}, not {expected}", "另一台主机：它的加入码是 {found}，不是 {expected}"),
    "verify.pin.none": ("not recorded: nothing ties the host key to a join code; compare the host key with the one on "
                        "the host's screen",
                        "未记录：没有任何东西把主机密钥与加入码绑定；请与主机屏幕上的主机密钥核对"),
    # --- jupai config (config.py) -------------------------------------------------------------
    "config.where": ("{path}: {key}", "{path}：{key}"),
    "config.bad.not_string": ("{where} must be a string in quotes, e.g. {key} = \"…\"",
                              "{where} 必须是带引号的字符串，例如 {key} = \"…\""),
    "config.bad.lang": ("{where} must be \"zh\" or \"en\", not {value}", "{where} 只能是 \"zh\" 或 \"en\"，这里是 {value}"),
    "config.bad.opponents": ("{where} must be one of {names}, not {value}", "{where} 必须是 {names} 之一，这里是 {value}"),
    "config.bad.name": ("{where} cannot be a name at a table: {why}", "{where} 不能用作牌桌上的名字：{why}"),
    "config.bad.host": ("{where} is not HOST[:PORT]: {why}", "{where} 不是 HOST[:PORT]（主机[:端口]）：{why}"),
    "config.unknown.near": ("{path}: unknown setting {key} (did you mean {near}?)", "{path}：未知设置 {key}（是不是 {near}？）"),
    "config.unknown.known": ("{path}: unknown setting {key} (known: {known})", "{path}：未知设置 {key}（可用的有 {known}）"),
    "config.problems.sep": ("; ", "；"),
    "config.no_host": ("(none: jupai join looks for tables on the LAN)", "（无：jupai join 在局域网中寻找牌桌）"),
    "config.exists": ("{path} exists already; edit it, or remove it first", "{path} 已经存在；请编辑它，或先删除"),
    "config.cannot_write": ("cannot write {path}: {reason}", "无法写入 {path}：{reason}"),
    "config.wrote": ("wrote {path}: remove the # before a setting to use it", "已写入 {path}：去掉某项设置前的 # 即可启用"),
    "config.file": ("settings file: {path}", "设置文件：{path}"),
    "config.none_yet": (" (none yet: `jupai config --init` writes one)", "（还没有：`jupai config --init` 可以写出一个）"),
    "config.from_file": ("settings file", "设置文件"),
    "config.from_default": ("default", "默认"),
    "config.from_flag": ("command line: {flag}", "命令行：{flag}"),
    "config.over_file": ("; the settings file says {value}", "；设置文件中为 {value}"),
    "config.key.name": ("your name at a table (jupai join, jupai play)", "你在牌桌上的名字（jupai join、jupai play）"),
    "config.key.lang": ("language of every screen and command: zh or en", "所有界面和命令的语言：zh 或 en"),
    "config.key.opponents": ("the bots of jupai play and of jupai host's bot seats", "jupai play 的对手和 jupai host 机器人座位用的机器人"),
    "config.key.host": ("the table `jupai join` joins when given no address (HOST[:PORT])",
                        "`jupai join` 不写地址时加入的牌桌（HOST[:PORT]）"),
    # --- jupai simulate (simulate.py) ----------------------------------------------------------
    "sim.bad_games": ("--games must be at least 1", "--games 至少为 1"),
    "sim.title": ("{games} · {players} players · {rounds} · bot {bot}",
                  "{games} · {players} 人 · {rounds} · 机器人 {bot}"),
    "sim.caption": ("fair share {share}; intervals: 95% Wilson", "公平份额 {share}；区间：95% Wilson"),
    "sim.col.figure": ("figure", "指标"),
    "sim.col.value": ("value", "值"),
    "sim.col.interval": ("95% interval", "95% 区间"),
    "sim.win.seat": ("win rate seat {seat}", "{seat}号位胜率"),
    "sim.win.leader": ("win rate the leader of round 1", "第 1 回合先手的胜率"),
    "sim.win.after": ("win rate {k} after the leader", "先手之后第 {k} 位的胜率"),
    "sim.win.identity": ("win rate {letter} ({identity})", "{letter}（{identity}）胜率"),
    "sim.identity.L": ("landlord", "地主"),
    "sim.identity.C": ("coordinator", "协调员"),
    "sim.identity.F": ("farmer", "农民"),
    "sim.identity.N": ("narrator", "旁白"),
    "sim.win.bot": ("win rate per {name} seat", "每个 {name} 座位的胜率"),
    "sim.length.rounds": ("game length (rounds) mean / p50 / p95", "对局长度（回合）平均 / p50 / p95"),
    "sim.length.actions": ("game length (actions) mean / p50 / p95", "对局长度（行动）平均 / p50 / p95"),
    "sim.emptied": ("won by emptying a hand", "出完牌获胜"),
    "sim.emptied_early": ("  … of which before the last round", "  …其中在最后一回合之前"),
    "sim.ranked": ("ranked after the last round", "最后一回合后按排名决出"),
    "sim.collected": ("cards collected per player per game", "每人每局收牌数"),
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
