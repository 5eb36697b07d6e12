"""Chinese and English text of the terminal client (specs/client.md § Languages).

Every string the client shows comes from :data:`MESSAGES` through :func:`t`, in the
terms of design/rules.md (进攻 attack, 防守 defense, 补给 supply, 丢弃 discard,
意图牌 intent card, 质量 mass, 武器 weapon, 装备 equipment, 收牌 collect, 回收的牌
recovered cards, 身份 identity, 地主 landlord, 协调员 coordinator, 农民 farmer,
旁白 narrator, 简单/精致/高级 simple/fine/advanced).

The default language comes from the locale (:func:`detect_lang`: ``LC_ALL``, then
``LC_MESSAGES``, then ``LANG``; a value starting with ``zh`` gives Chinese), and
``--lang zh|en`` overrides it.
"""

from __future__ import annotations

import os
import string
from collections.abc import Mapping

LANGS = ("en", "zh")
DEFAULT_LANG = "en"

#: key -> (English, Chinese). Placeholders (``{name}``) are the same in both.
MESSAGES: dict[str, tuple[str, str]] = {
    # --- people and things -------------------------------------------------------------
    "app.title": ("剧牌 Jupai", "剧牌 Jupai"),
    "seat": ("seat {n}", "{n}号位"),
    "seat.named": ("seat {n} ({name})", "{n}号位（{name}）"),
    "seat.you": ("seat {n} (you)", "{n}号位（你）"),
    "seat.you_named": ("seat {n} ({name}, you)", "{n}号位（{name}，你）"),
    "you": ("you", "你"),
    "bot.name": ("{kind} bot {n}", "{kind}机器人 {n}"),
    "bot.name_only": ("{kind} bot", "{kind}机器人"),
    "bot.greedy": ("greedy", "贪心"),
    "bot.random": ("random", "随机"),
    "identity.L": ("landlord", "地主"),
    "identity.C": ("coordinator", "协调员"),
    "identity.F": ("farmer", "农民"),
    "identity.N": ("narrator", "旁白"),
    "identity.hidden": ("hidden", "未公开"),
    "identity.valued": ("{identity} (I={value})", "{identity}（身份值 {value}）"),
    "identity.short": ("{identity} {value}", "{identity} {value}"),
    "quality.simple": ("simple", "简单"),
    "quality.fine": ("fine", "精致"),
    "quality.advanced": ("advanced", "高级"),
    "round.attack": ("attack", "进攻"),
    "round.defense": ("defense", "防守"),
    "round.supply": ("supply", "补给"),
    "round.discard": ("discard", "丢弃"),
    "face.up": ("face-up", "明置"),
    "face.down": ("face-down", "暗置"),
    "face.up_short": ("up", "明"),
    "face.down_short": ("down", "暗"),
    "card.joker": ("JK", "小王"),
    "cards.none": ("no card", "无牌"),
    "plus_weapon": (" + weapon", " + 武器"),
    "ordinal.1": ("1st", "第1次"),
    "ordinal.2": ("2nd", "第2次"),
    "ordinal.3": ("3rd", "第3次"),
    # --- header ---------------------------------------------------------------------------
    "header.round": ("Round {round}/{rounds}", "第 {round}/{rounds} 回合"),
    "header.round_card": ("round card {card}", "回合牌 {card}"),
    "header.type": ("{type} round", "{type}回合"),
    "header.R": ("R = {R}", "回合数 R = {R}"),
    "header.leader": ("{who} leads", "{who} 先手"),
    "header.last_round": ("LAST ROUND: every play uses all your hand cards (and your weapon)",
                          "最后一回合：每次出牌都打出全部手牌（有武器必须使用）"),
    "header.specials": ("supply number {supply} · discard number {discard} · coordinator {coordinator} · farmer {farmer}",
                        "补给数字 {supply} · 丢弃数字 {discard} · 协调员 {coordinator} · 农民 {farmer}"),
    "header.piles": ("stock {stock} · round pile {pile} · discard pile {discard}",
                     "牌堆 {stock} 张 · 回合牌堆 {pile} 张 · 弃牌堆 {discard} 张"),
    "header.compact": ("supply on {supply} · discard on {discard} · stock {stock} · discard pile {pile}",
                       "补给数字 {supply} · 丢弃数字 {discard} · 牌堆 {stock} 张 · 弃牌堆 {pile} 张"),
    "header.same_identity.shared-role": ("same identity = same role", "同身份 = 身份相同"),
    "header.same_identity.matching-card": ("same identity = intent card matches own identity card",
                                            "同身份 = 意图牌与自己的身份牌同点"),
    "header.spectator": ("spectator view", "旁观视角"),
    # --- your side ------------------------------------------------------------------------
    "hand.title": ("Your hand (intent cards)", "你的手牌（意图牌）"),
    "hand.title_short": ("Hand", "手牌"),
    "hand.empty": ("(no cards)", "（没有手牌）"),
    "hand.legend": ("* = recovered card", "* = 回收的牌"),
    "equip.title": ("Your equipment", "你的装备"),
    "equip.title_short": ("Equipment", "装备"),
    "equip.none": ("no equipment", "没有装备"),
    "equip.rearm": ("may draw a new pair from round {n}", "第 {n} 回合起可从牌堆抽新装备"),
    "equip.rearm_now": ("may draw a new pair from the stock on your turn", "轮到你时可从牌堆抽一副新装备"),
    "equip.desc": ("mass {mass} + weapon {weapon} · {quality} weapon · {uses} · {face}",
                   "质量 {mass} + 武器 {weapon} · {quality}武器 · {uses} · {face}"),
    "uses_left.one": ("1 use left", "剩 1 次"),
    "uses_left.other": ("{count} uses left", "剩 {count} 次"),
    "cards_left.one": ("1 card left", "剩 1 张"),
    "cards_left.other": ("{count} cards left", "剩 {count} 张"),
    "equip.short": ("{mass}+{weapon} {quality} · {uses} left · {face}", "{mass}+{weapon} {quality} · 剩{uses}次 · {face}"),
    "equip.compact": ("{mass}+{weapon} · {uses} left · {face}", "{mass}+{weapon} · 剩{uses}次 · {face}"),
    "equip.hidden": ("{face}, not shown", "{face}，未亮出"),
    "identity.yours": ("Your identity: {identity}", "你的身份：{identity}"),
    # --- players table --------------------------------------------------------------------
    "col.seat": ("Seat", "座位"),
    "col.identity": ("Identity", "身份"),
    "col.hand": ("Hand", "手牌"),
    "col.recovered": ("Recovered", "回收的牌"),
    "col.equipment": ("Equipment", "装备"),
    "col.left": ("Cards left", "剩余"),
    "col.left_short": ("Left", "剩余"),
    "players.title": ("Players", "玩家"),
    "mark.to_move": ("to move", "行动中"),
    "mark.leader": ("leads", "先手"),
    # --- status ---------------------------------------------------------------------------
    "status.your_turn": ("Your turn", "轮到你了"),
    "status.answer.attack": ("Your turn: answer the attack of {actor}", "轮到你：应战 {actor} 的进攻"),
    "status.answer.defense": ("Your turn: defend against {actor}", "轮到你：防守 {actor} 的出牌"),
    "status.answer.discard": ("Your turn: show a card against {actor}'s attack on your equipment",
                              "轮到你：亮一张牌应对 {actor} 对你装备的攻击"),
    "status.waiting": ("Waiting for {who}", "等待 {who}"),
    "status.over": ("Game over", "游戏结束"),
    "pending.title": ("Contest", "对决"),
    "pending.attack": ("{actor} attacks {target} with {cards}{weapon}{total}; {target} answers",
                       "{actor} 用 {cards}{weapon}{total} 进攻 {target}，等待 {target} 应战"),
    "pending.defense": ("{actor} plays {cards}{total} against {target}; {target} defends",
                        "{actor} 对 {target} 打出 {cards}{total}，等待 {target} 防守"),
    "pending.discard": ("{actor} attacks {target}'s equipment with {cards}{weapon}{total}; {target} shows a card",
                        "{actor} 用 {cards}{weapon}{total} 攻击 {target} 的装备，等待 {target} 亮牌"),
    "pending.total": (": {formula}", "（{formula}）"),
    "help.back": ("Enter: back to the table", "回车：返回牌桌"),
    "pending.total_unknown_short": (": total ?", "：总值 ?"),
    "pending.total_unknown": (" (its total is not known: weapon or identity not shown)",
                              "（总值未知：武器或身份未公开）"),
    # --- legal actions --------------------------------------------------------------------
    "legal.title": ("Your moves", "可选行动"),
    "legal.prompt_one": ("Type 1 and Enter · /chat TEXT to chat · ? for help", "输入编号 1 后回车 · /chat 文字 聊天 · ? 帮助"),
    "legal.prompt": ("Type a number 1–{n} and Enter · /chat TEXT to chat · ? for help",
                     "输入编号 1–{n} 后回车 · /chat 文字 聊天 · ? 帮助"),
    "legal.prompt_short": ("Type a number 1–{n} and Enter · ? help", "输入编号 1–{n} 后回车 · ? 帮助"),
    "legal.prompt_one_short": ("Type 1 and Enter · ? help", "输入编号 1 后回车 · ? 帮助"),
    "legal.legend_weapon": ("+W = with your weapon", "+武 = 使用武器"),
    "matrix.total": ("your total", "你的总值"),
    "matrix.total_here": ("your total here", "对其总值"),
    "matrix.attack": ("attack {target}", "进攻 {target}"),
    "matrix.defense": ("play against {target}", "对 {target} 出牌"),
    "matrix.discard": ("discard {target}'s equipment", "丢弃 {target} 的装备"),
    "legal.legend_total": ("=N your total", "=N 你的总值"),
    "total.wrap": (" ({text})", "（{text}）"),
    "total.formula": ("= {formula}", "= {formula}"),
    "total.if_same": ("if same identity: {formula}", "若同身份：{formula}"),
    "total.plain.win": ("i {i} > m {m}: discards it", "i {i} > m {m}：可丢弃"),
    "total.plain.fail": ("i {i} {rel} m {m}: fails", "i {i} {rel} m {m}：失败"),
    "total.plain.unknown": ("i {i} vs m ?", "i {i} 对 m ?"),
    "group.attack": ("attack {target}:", "进攻 {target}："),
    "group.defense": ("play against {target} (they defend):", "对 {target} 出牌（对方防守）："),
    "group.discard": ("discard {target}'s equipment with:", "丢弃 {target} 的装备，用："),
    "group.answer.attack": ("answer the attack with:", "应战，用："),
    "group.answer.defense": ("defend with:", "防守，用："),
    "group.answer.discard": ("show a card (you keep it):", "亮一张牌（保留）："),
    "group.supply_a": ("supply: discard (+ recovered cards):", "补给：丢弃（+ 回收的牌）："),
    "group.supply_a_more": ("supply: discard one more recovered card (up to {left} more):",
                            "补给：再丢弃一张回收的牌（最多还可丢 {left} 张）："),
    "item.recovered": (" + {cards}", " + {cards}"),
    "item.weapon": ("+W", "+武"),
    "act.attack": ("attack {target} with {cards}{weapon}", "用 {cards}{weapon} 进攻 {target}"),
    "act.defense": ("play {cards} against {target} (they defend)", "对 {target} 打出 {cards}（对方防守）"),
    "act.discard": ("discard {target}'s equipment with {cards}{weapon}", "用 {cards}{weapon} 丢弃 {target} 的装备"),
    "act.discard_none": ("discard {cards} (no opponent has equipment)", "丢弃 {cards}（没有对手有装备）"),
    "act.supply_a": ("supply: discard {cards}", "补给：丢弃 {cards}"),
    "act.supply_a_rec": ("supply: discard {cards} and recovered {recovered}", "补给：丢弃 {cards} 和回收的牌 {recovered}"),
    "act.supply_b": ("supply: discard your equipment, draw a new pair", "补给：丢弃装备，抽一副新装备"),
    "act.supply_b_none": ("supply: draw an equipment pair", "补给：抽一副装备"),
    "act.pass": ("pass", "跳过"),
    "act.supply_a_then": ("supply: discard {cards} (+ up to {k} recovered)", "补给：丢弃 {cards}（+ 最多 {k} 张回收的牌）"),
    "act.supply_a_more": ("supply: discard recovered {recovered} too", "补给：再丢弃回收的牌 {recovered}"),
    "act.supply_a_stop": ("keep your other recovered cards (end the supply)", "保留其余回收的牌（结束补给）"),
    "act.rearm": ("draw a new equipment pair from the stock (then act)", "从牌堆抽一副新装备（然后行动）"),
    "act.answer.attack": ("answer with {cards}{weapon}", "用 {cards}{weapon} 应战"),
    "act.answer.defense": ("defend with {cards}{weapon}", "用 {cards}{weapon} 防守"),
    "act.answer.discard": ("show {cards} (you keep it)", "亮出 {cards}（保留）"),
    "act.answer.none": ("answer with no card", "无牌应对"),
    # --- events (log) ---------------------------------------------------------------------
    "log.title": ("Last outcomes", "最近结果"),
    "log.since": ("Since your last turn", "你上次行动以来"),
    "log.empty": ("(nothing yet)", "（暂无）"),
    "log.hidden.one": ("(1 earlier line not shown)", "（前面还有 1 行未显示）"),
    "log.hidden.other": ("({count} earlier lines not shown)", "（前面还有 {count} 行未显示）"),
    "ev.deal": ("Cards dealt to {players} players", "已向 {players} 名玩家发牌"),
    "ev.deal_you": ("you got {hand}; equipment {equipment}; identity {identity}",
                    "你拿到 {hand}；装备 {equipment}；身份 {identity}"),
    "ev.round": ("Round {round}: round card {card} → {type}, R = {R}, {leader} leads",
                 "第 {round} 回合：回合牌 {card} → {type}，R = {R}，{leader} 先手"),
    "ev.play.attack": ("{actor} attacks {target} with {cards}{weapon}", "{actor} 用 {cards}{weapon} 进攻 {target}"),
    "ev.play.defense": ("{actor} plays {cards} against {target} (defense round)",
                        "{actor} 对 {target} 打出 {cards}（防守回合）"),
    "ev.play.discard": ("{actor} attacks {target}'s equipment with {cards}{weapon}",
                        "{actor} 用 {cards}{weapon} 攻击 {target} 的装备"),
    "ev.contest": ("{a} {ca}: {fa} vs {d} {cd}: {fd} → {result}", "{a} {ca}：{fa} 对 {d} {cd}：{fd} → {result}"),
    "ev.side.attack": ("{who} attack", "{who} 进攻"),
    "ev.side.defense": ("{who} defense", "{who} 防守"),
    "ev.side.response": ("{who} response", "{who} 应对"),
    "ev.weapon": ("{quality} weapon, {ordinal} use, {face}", "{quality}武器，{ordinal}使用，{face}"),
    "ev.weapon_wrap": (" ({text})", "（{text}）"),
    "sep": ("; ", "；"),
    "ev.weapon_spent": (", used up", "，已用完"),
    "ev.weapon_spent_short": ("weapon used up", "武器用完"),
    "res.collect": ("{who} collects", "{who} 收牌"),
    "res.tie": ("tie: both cards discarded", "平局：两张牌都丢弃"),
    "res.attack_valid": ("attack valid: {who} collects", "进攻有效：{who} 收牌"),
    "res.attack_invalid": ("defense wins, attack invalid: {who} collects", "防守成功，进攻无效：{who} 收牌"),
    "res.discard_success": ("{who} collects {cards} and loses its equipment", "{who} 收下 {cards}，失去装备"),
    "res.discard_fail": ("fails: {cards} discarded", "失败：{cards} 丢弃"),
    "ev.discard": ("{actor} vs {target}'s mass with {cards}: {formula} → {result}",
                   "{actor} 用 {cards} 对 {target} 的质量：{formula} → {result}"),
    "ev.discard.success": ("{target}'s equipment {equipment} discarded", "{target} 的装备 {equipment} 被丢弃"),
    "ev.discard.fail": ("fails", "失败"),
    "ev.discard_none": ("{actor} discards {cards} (no target)", "{actor} 丢弃 {cards}（无目标）"),
    "ev.supply_a": ("{actor} supplies: discards {cards}", "{actor} 补给：丢弃 {cards}"),
    "ev.supply_a_rec": ("{actor} supplies: discards {cards} and recovered {recovered}",
                        "{actor} 补给：丢弃 {cards} 和回收的牌 {recovered}"),
    "ev.supply_b": ("{actor} supplies: draws a new equipment pair ({face})", "{actor} 补给：抽一副新装备（{face}）"),
    "ev.supply_b_old": ("{actor} supplies: discards equipment {old}, draws a new pair ({face})",
                        "{actor} 补给：丢弃装备 {old}，抽一副新装备（{face}）"),
    "ev.drew": ("drew {equipment}", "抽到 {equipment}"),
    "ev.pass": ("{actor} passes ({type} round)", "{actor} 跳过（{type}回合）"),
    "ev.supply_a_more": ("{actor} supplies: discards recovered {recovered} too", "{actor} 补给：再丢弃回收的牌 {recovered}"),
    "ev.supply_a_stop": ("{actor} keeps its other recovered cards", "{actor} 保留其余回收的牌"),
    "pending.supply": ("{actor} supplies: discarded {cards} (v = {v}) and may discard up to {left} more recovered cards",
                       "{actor} 补给：已丢弃 {cards}（v = {v}），还可丢弃最多 {left} 张回收的牌"),
    "ev.rearm": ("{actor} draws new equipment from the stock", "{actor} 从牌堆抽新装备"),
    "ev.end.winner": ("Game over: {winner} wins", "游戏结束：{winner} 获胜"),
    "ev.end.rounds": ("Game over after the last round", "最后一回合结束，游戏结束"),
    # --- result ---------------------------------------------------------------------------
    "result.title": ("Final ranking", "最终排名"),
    "result.row": ("{place}. {who}: {left}, {recovered} recovered",
                   "第{place}名 {who}：{left}，回收 {recovered} 张"),
    "result.row_plain": ("{place}. {who}", "第{place}名 {who}"),
    "result.winner": ("{who} wins!", "{who} 获胜！"),
    # --- timer, chat, notices -------------------------------------------------------------
    "timer.left": ("⏱ {s} s left", "⏱ 剩余 {s} 秒"),
    "timer.up": ("⏱ time is up", "⏱ 时间到"),
    "chat.title": ("Chat", "聊天"),
    "chat.line": ("{name}: {text}", "{name}：{text}"),
    "chat.host": ("host", "主机"),
    "notices.title": ("Notices", "通知"),
    "notice.turn-timeout": ("A turn timed out; the default move was played. {text}",
                            "有玩家超时，已自动执行默认行动。{text}"),
    "notice.player-joined": ("A player took a seat. {text}", "有玩家入座。{text}"),
    "notice.player-left": ("A player disconnected; the seat waits for a reconnect. {text}",
                           "有玩家断线，座位等待重连。{text}"),
    "notice.player-back": ("A player reconnected. {text}", "有玩家重新连接。{text}"),
    "notice.bot-seated": ("A bot took over a seat. {text}", "机器人接管了一个座位。{text}"),
    "notice.reconnecting": ("Connection lost; reconnecting… {text}", "连接断开，正在重连…… {text}"),
    "notice.reconnected": ("Reconnected to the host.", "已重新连接主机。"),
    "notice.stale-state": ("Your move came too late (the table had moved on). {text}", "你的行动晚了一步（牌局已变化）。{text}"),
    "notice.illegal-action": ("That move is not allowed now. {text}", "现在不能这样行动。{text}"),
    "notice.not-your-turn": ("It is not your turn. {text}", "还没轮到你。{text}"),
    "notice.fairness": ("FAIRNESS: {text}", "公平性：{text}"),
    "notice.welcome-back.one": ("Welcome back: you were seat {seat}; a bot played {count} move for you.",
                                "欢迎回来：你是{seat}号位；你离开期间机器人替你走了 {count} 步。"),
    "notice.welcome-back.other": ("Welcome back: you were seat {seat}; a bot played {count} moves for you.",
                                  "欢迎回来：你是{seat}号位；你离开期间机器人替你走了 {count} 步。"),
    "notice.connection-stalled": ("Connection to the host lost, retrying… (nothing heard for {seconds} s; "
                                  "your turn timer is paused on screen)",
                                  "与主机的连接中断，正在重试……（已 {seconds} 秒没有收到消息；你的回合计时在屏幕上暂停）"),
    "notice.time-left": ("Your turn kept its deadline across the reconnect: {seconds} s left.",
                         "重连不会重置回合计时：还剩 {seconds} 秒。"),
    "notice.connection-back": ("The host is heard again.", "已重新收到主机的消息。"),
    "notice.other": ("{text}", "{text}"),
    # --- lobby ----------------------------------------------------------------------------
    "lobby.title": ("Lobby", "大厅"),
    "lobby.host": ("host {host}:{port} · join code {code}", "主机 {host}:{port} · 加入码 {code}"),
    "lobby.seats": ("{taken}/{total} seats taken", "已入座 {taken}/{total}"),
    "lobby.ready": ("ready", "已准备"),
    "lobby.bot": ("bot", "机器人"),
    "lobby.away": ("away", "离线"),
    "lobby.open": ("(empty)", "（空位）"),
    "lobby.waiting.one": ("waiting for 1 more player", "还差 1 名玩家"),
    "lobby.waiting.other": ("waiting for {count} more players", "还差 {count} 名玩家"),
    "lobby.empty": ("(no one seated yet)", "（还没有人入座）"),
    "phase.connecting": ("Connecting to the host…", "正在连接主机……"),
    "phase.lobby": ("Waiting for the game to start…", "等待游戏开始……"),
    "phase.seeding": ("Shuffling fairly: every seat commits to a secret, then reveals it…",
                      "公平洗牌中：每个座位先提交承诺，再公开秘密……"),
    "phase.playing": ("Dealing…", "发牌中……"),
    "phase.over": ("Game over", "游戏结束"),
    # --- input (ui.py) --------------------------------------------------------------------
    "input.prompt": ("> ", "> "),
    "input.not_number": ("'{text}' is not a move: type a number 1–{n}, /chat TEXT, or ? for help",
                         "“{text}”不是有效行动：请输入 1–{n} 的编号、/chat 文字，或 ? 查看帮助"),
    "input.out_of_range": ("There is no move {k}: type a number 1–{n}", "没有第 {k} 号行动：请输入 1–{n}"),
    "input.not_number.one": ("'{text}' is not a move: type 1, /chat TEXT, or ? for help",
                             "“{text}”不是有效行动：请输入 1、/chat 文字，或 ? 查看帮助"),
    "input.out_of_range.one": ("There is no move {k}: type 1 (the only move)", "没有第 {k} 号行动：请输入 1（唯一可选）"),
    "input.not_your_turn": ("It is not your turn. You can chat: /chat TEXT", "还没轮到你。可以聊天：/chat 文字"),
    "input.empty_chat": ("Type your message after /chat", "请在 /chat 后输入消息"),
    "input.chat_sent": ("(chat sent)", "（已发送）"),
    "input.chose": ("You chose {k}: {what}", "你选择了 {k}：{what}"),
    "input.timeout": ("Time is up: the host plays the default move for you", "时间到：主机为你执行默认行动"),
    "input.eof": ("Input closed: leaving the table", "输入已关闭：离开牌桌"),
    "help.title": ("Help", "帮助"),
    "help.keys": (
        "1, 2, 3 … Enter: play · /chat TEXT (say TEXT): chat · ? help · /quit: leave",
        "1、2、3 … 回车：行动 · /chat 文字（或 说 文字）：聊天 · ? 帮助 · /quit：离开",
    ),
    "help.play_title": ("how to play", "玩法"),
    "help.win": ("win", "胜利"),
    "help.win.text": ("the first with no cards (hand + equipment) left wins; then fewest",
                      "最先没有任何牌（手牌 + 装备）者获胜；其余按剩牌少者靠前"),
    "help.rounds": ("rounds", "回合"),
    "help.rounds.text": ("the round card's rank sets the type; all act once, leader first",
                         "回合牌的点数决定回合类型；从先手起每人行动一次"),
    "help.symbols": ("symbols", "符号"),
    "help.symbols.text": ("R round value · i card rank · I identity value · m×w mass×weapon",
                          "R=回合数 · i=你出的牌的点数 · I=你的身份值 · m×w=你的质量×武器"),
    "help.attack": ("a card at a player, who answers; the smaller total collects both",
                    "对一名玩家出一张牌，对方应战一张；总值较小者收下两张牌"),
    "help.attack.formula": ("R×i (+ m×w) · same identity: I×i + R (+ m×w)", "R×i（+ m×w）· 同身份：I×i + R（+ m×w）"),
    "help.defense": ("a card at a player, who must defend (with the weapon if armed); a higher defense: "
                     "the attacker collects both, else the defender",
                     "对一名玩家出一张牌，对方必须防守（有武器必须用）；防守更高则进攻方收下两张牌，否则防守方收下"),
    "help.defense.formula": ("R + i vs w + i · same identity: (I+i) + (R+i) vs (R+i) + (w+i)",
                             "R + i 对 w + i · 同身份：(I + i) + (R + i) 对 (R + i) + (w + i)"),
    "help.supply": ("discard a card of rank v and up to v recovered cards (*), or swap your equipment, or pass",
                    "丢弃一张点数为v的牌和至多v张回收的牌（*），或换一副新装备，或跳过"),
    "help.discard": ("a card at a player's equipment: i > m (their mass) discards it; your card goes to the discard pile",
                     "对一名玩家的装备出一张牌：若i>m（对方质量）则丢弃其装备；你的牌进弃牌堆"),
    "help.discard.formula": ("same identity: I×i + R (+ m×w) vs the card they show",
                             "同身份：I×i + R（+ m×w）对 对方亮出的牌"),
    "help.equipment": ("equipment", "装备"),
    "help.equipment.text": ("1, 2 or 3 uses (mass ≤ 4, 5–8, ≥ 9); lost: redraw a round later",
                            "武器可用1、2或3次（质量≤4、5–8、≥9）；失去后过一整回合可再抽一副"),
    "help.last": ("last round", "最后一回合"),
    "help.last.text": ("every play uses all your cards (and your weapon)",
                       "每次出牌都打出全部手牌（有武器必须用）"),
    # --- end of a game (jupai play and jupai join) -----------------------------------------
    "end.ranking": ("━━ game over · final ranking ━━", "━━ 游戏结束 · 最终排名 ━━"),
    "end.unfinished": ("✘ game not finished ({why})", "✘ 游戏未完成（{why}）"),
    "end.status.left": ("left the table before the end", "你在结束前离开了牌桌"),
    "end.status.aborted": ("the host abandoned it", "主机放弃了这局"),
    "end.status.error": ("an error", "出错"),
    "end.status.host-gone": ("the connection to the host was lost", "与主机的连接断开"),
    "end.status.refused": ("the host refused", "主机拒绝"),
    "end.verdict_ok": ("✔ fairness: {status} — {reason}", "✔ 公平性：{status} — {reason}"),
    "end.verdict_bad": ("✘ fairness: {status} — {reason}", "✘ 公平性：{status} — {reason}"),
    # the verdict in a sentence (the technical reason, in English, follows it; not shown in English)
    "verdict.sentence.verified": ("fair game", "公平对局：主机的种子与其承诺一致，发牌可复现"),
    "verdict.sentence.tampered": ("the record was tampered with", "记录被篡改：牌或种子与承诺不符"),
    "verdict.sentence.suspicious": ("the host behaved suspiciously", "可疑：主机的行为与记录不一致"),
    "verdict.sentence.unverified": ("could not be verified", "无法验证：对局没有完整结束，或记录不全"),
    "verdict.sentence.malformed": ("the record cannot be read", "记录损坏：无法读取"),
    "verdict.verified": ("verified", "已验证"),
    "verdict.tampered": ("tampered", "被篡改"),
    "verdict.suspicious": ("suspicious", "可疑"),
    "verdict.unverified": ("unverified", "未验证"),
    "verdict.malformed": ("malformed", "记录损坏"),
    "end.transcript": ("Transcript saved to:", "对局记录已保存到："),
    "end.verify": ("Check it again any time with:", "随时可以用下面的命令再次检查："),
    # --- jupai replay (replay_screen.py) ---------------------------------------------------
    "replay.unreadable": ("jupai replay: {reason}", "jupai replay：{reason}"),
    "replay.refused": ("jupai replay: {file} is {status}: {reason}. Not replaying a game that does not verify "
                       "(add --force to see it anyway).",
                       "jupai replay：{file} {status}：{reason}。不回放未通过验证的对局（加 --force 仍然查看）。"),
    "replay.view_seat": ("seat {seat}'s view", "{seat}号位的视角"),
    "replay.view_spectator": ("spectator view", "旁观视角"),
    "replay.at_deal": ("the deal ({total} actions follow)", "发牌（之后共 {total} 步）"),
    "replay.at_step": ("action {step} of {total} · round {round}", "第 {step}/{total} 步 · 第 {round} 回合"),
    "replay.at_end": ("the end", "终局"),
    "replay.header": ("Replay · {where} · {view} · {status}", "回放 · {where} · {view} · {status}"),
    "replay.acted": ("{actor} acted", "{actor} 行动"),
    "replay.no_deck": ("The deck cannot be shown: the host never revealed its seed.",
                       "无法显示整副牌：主机没有公开它的种子。"),
    "replay.deck": ("The whole deck as the seeds made it (position:card):", "由种子生成的整副牌（位置:牌）："),
    "replay.ranking": ("Ranking: {ranking}", "排名：{ranking}"),
    "replay.abandoned": ("The host stopped the game: {reason}", "主机中止了对局：{reason}"),
    "replay.unfinished": ("The game did not finish.", "对局没有结束。"),
    "replay.verdict": ("Fairness: {status} — {reason}", "公平性：{status} — {reason}"),
    "replay.keys": ("Enter/n next · p previous · r next round · NUMBER go to · q quit > ",
                    "回车/n 下一步 · p 上一步 · r 下一回合 · 数字 跳到 · q 退出 > "),
    # --- finding a table on the LAN (discover.py) -----------------------------------------
    "discover.listening": ("Looking for tables on the LAN ({seconds} s)…", "正在局域网中寻找牌桌（{seconds} 秒）…"),
    "discover.line": ("{n}. {name} — {address} · {free}/{seats} seats free · {state} · code {code}",
                      "{n}. {name} — {address} · 空位 {free}/{seats} · {state} · 加入码 {code}"),
    "discover.lobby": ("waiting for players", "等待玩家"),
    "discover.playing": ("game running", "对局进行中"),
    "discover.pick": ("Join which table? [1-{count}, q to quit] ", "加入哪一桌？[1-{count}，q 退出] "),
    "discover.bad_pick": ("Type a number from 1 to {count}, or q.", "请输入 1 到 {count} 的数字，或 q。"),
    "discover.cancelled": ("No table chosen.", "没有选择牌桌。"),
    "discover.nothing": ("No table found on the LAN. Is `jupai host` running on a machine of this network? "
                         "You can also join by address: jupai join HOST[:PORT]",
                         "局域网中没有找到牌桌。本网络中是否有机器在运行 `jupai host`？也可以按地址加入：jupai join 主机[:端口]"),
    "discover.no_such": ("No table called '{name}' on the LAN (heard: {heard}).",
                         "局域网中没有名为“{name}”的牌桌（听到的：{heard}）。"),
    "discover.none_heard": ("none", "无"),
    "discover.name_one": ("Several tables: run jupai join with a table's name or address.",
                          "有多个牌桌：请在 jupai join 后写上牌桌名称或地址。"),
    "discover.no_multicast": ("Cannot look for tables on the LAN: {reason}. Join by address: jupai join HOST[:PORT]",
                              "无法在局域网中寻找牌桌：{reason}。请按地址加入：jupai join 主机[:端口]"),
    "discover.joining": ("Joining '{name}' at {address} (code starts {code}: compare with the host screen)",
                         "加入“{name}”（{address}，加入码开头 {code}：请与主机屏幕核对）"),
    # --- jupai history (history.py) -------------------------------------------------------
    "history.none": ("No saved game yet (looked in {dirs}).", "还没有保存的对局（查找了 {dirs}）。"),
    "history.more": ("{shown} of {total} games shown; -n 0 shows all.", "显示了 {total} 局中的 {shown} 局；-n 0 显示全部。"),
    "history.bad_n": ("jupai history: -n must be 0 (all) or more", "jupai history：-n 必须是 0（全部）或更大"),
    "history.col.when": ("when", "时间"),
    "history.col.table": ("table", "牌桌"),
    "history.col.players": ("players", "玩家"),
    "history.col.winner": ("winner", "赢家"),
    "history.col.fairness": ("fairness", "公平性"),
    # --- command line (cli.py) ------------------------------------------------------------
    "cli.connecting": ("Connecting to {host}:{port} …", "正在连接 {host}:{port} …"),
    "cli.bad_address": ("'{address}' is not HOST[:PORT] (IPv6: [ADDR]:PORT)", "“{address}”不是 HOST[:PORT]（IPv6：[地址]:端口）"),
    "cli.refused": ("Cannot connect to {host}:{port}: {reason}. Is `jupai host` running there, and is the port open?",
                    "无法连接 {host}:{port}：{reason}。对方是否在运行 `jupai host`，端口是否开放？"),
    "cli.wrong_code": ("The host's join code is {actual}, not {expected}: refusing to join. Check the code on the host screen.",
                       "主机的加入码是 {actual}，不是 {expected}：拒绝加入。请核对主机屏幕上的加入码。"),
    "cli.version": ("The host speaks another protocol version: {reason}. Update jupai-net on both sides.",
                    "主机使用的协议版本不同：{reason}。请在双方更新 jupai-net。"),
    "cli.host_closed": ("The host closed the connection: {reason}", "主机关闭了连接：{reason}"),
    "cli.host_lost": ("Connection to the host lost: {reason}.", "与主机的连接已断开：{reason}。"),
    "cli.host_broke": ("The host broke the protocol: {reason}.", "主机违反了协议：{reason}。"),
    "cli.host_error": ("The host refused: {reason}", "主机拒绝：{reason}"),
    "cli.pinned": ("New host {host}: join code {code} pinned in {path}", "新主机 {host}：加入码 {code} 已记录到 {path}"),
    "cli.code_known": ("Host {host}: join code {code} matches the pinned one", "主机 {host}：加入码 {code} 与记录一致"),
    "cli.repinned": ("Host {host}: join code changed to {code} as you asked (--code); pinned in {path}",
                     "主机 {host}：按你的要求（--code）改为加入码 {code}，已记录到 {path}"),
    "cli.changed": (
        "@@@ WARNING: THE HOST'S JOIN CODE HAS CHANGED! @@@\n"
        "Host {host} was pinned with join code {old} (in {path}),\n"
        "but now presents {new}. Someone may be impersonating the host,\n"
        "or the host made a new key. Refusing to join.\n"
        "If the host screen really shows {new}, join again with --code {new}.",
        "@@@ 警告：主机的加入码变了！ @@@\n"
        "主机 {host} 记录的加入码是 {old}（见 {path}），\n"
        "现在却是 {new}。可能有人冒充主机，\n"
        "也可能主机换了密钥。拒绝加入。\n"
        "如果主机屏幕上确实显示 {new}，请用 --code {new} 重新加入。",
    ),
    "cli.changed_old": (
        "Host {host} was pinned by an older jupai with the short join code {old} (in {path}).\n"
        "Join codes are longer now and also vouch for the host's signing key, so this host now\n"
        "presents {new}, and the old pin cannot vouch for it. Refusing to join.\n"
        "Check the code on the host's screen; if it shows {new}, join again with --code {new}.",
        "主机 {host} 是由旧版 jupai 用短加入码 {old} 记录的（见 {path}）。\n"
        "现在的加入码更长，并同时担保主机的签名密钥，所以该主机现在显示 {new}，\n"
        "旧的记录无法为它担保。拒绝加入。\n"
        "请核对主机屏幕上的加入码；如果显示 {new}，请用 --code {new} 重新加入。",
    ),
    "cli.known_hosts_error": ("Cannot use the known hosts file: {reason}", "无法使用已知主机文件：{reason}"),
    "cli.seated": ("Seated at seat {seat} as {name}", "已入座：{seat}号位，名字 {name}"),
    "cli.verdict_detail": ("{detail}", "{detail}"),
    "cli.no_transcript": ("No transcript was saved.", "未保存对局记录。"),
    "cli.interrupted": ("Interrupted: left the table", "已中断：离开牌桌"),
    "cli.failed": ("Error: {reason}", "错误：{reason}"),
    "cli.bad_name": ("--name {name}: {why}: a name is 1..24 characters a person can read (letters, digits, "
                     "punctuation, spaces, emoji), with no tab, line break or control character and no space at "
                     "either end",
                     "--name {name}：名字须为 1..24 个可读的字符（文字、数字、标点、空格、表情），"
                     "不能含制表符、换行或控制字符，首尾不能是空格（{why}）"),
    "cli.bad_bot": ("Unknown bot '{name}': choose one of {names}", "未知机器人“{name}”：可选 {names}"),
    # --- jupai watch (a spectator) -------------------------------------------------------
    "watch.keys": ("watching · q + Enter: leave · ? + Enter: help", "旁观中 · 输入 q 回车：离开 · ? 回车：帮助"),
    "watch.hint": ("A spectator only watches: q + Enter leaves, ? + Enter shows the help.",
                   "旁观者只能观看：输入 q 回车离开，? 回车查看帮助。"),
    "watch.watching": ("Watching {host}:{port} as a spectator (q + Enter leaves).",
                       "正在以旁观者身份观看 {host}:{port}（输入 q 回车离开）。"),
    "watch.lobby": ("Lobby: {taken}/{total} seats: {players}", "大厅：已入座 {taken}/{total}：{players}"),
    "watch.start": ("A game starts: {players}", "新的一局开始：{players}"),
    "watch.left": ("You stopped watching.", "你已停止旁观。"),
    "watch.interrupted": ("Interrupted: stopped watching", "已中断：停止旁观"),
    "notice.spectator-joined": ("Someone is watching. {text}", "有人开始旁观。{text}"),
    "notice.spectator-left": ("A spectator left. {text}", "一位旁观者离开了。{text}"),
    "notice.spectator-readonly": ("Spectators only watch; your line was not sent.", "旁观者只能观看，你的消息未发送。"),
}

_FORMATTER = string.Formatter()


def fields(template: str) -> set[str]:
    """Placeholder names used in a template, e.g. ``{"n", "name"}`` for ``"seat {n} ({name})"``."""
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name}


def normalize_lang(lang: str | None) -> str:
    """``"zh"``/``"en"`` from a language name or locale string (``zh_CN.UTF-8`` → ``zh``);
    anything else, or None, gives the default ``"en"``."""
    if lang and lang.strip().lower().startswith("zh"):
        return "zh"
    return DEFAULT_LANG


def detect_lang(environ: Mapping[str, str] | None = None) -> str:
    """Default language from the locale: the first non-empty of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` (POSIX precedence); ``zh…`` → ``"zh"``, else ``"en"``."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return normalize_lang(value)
    return DEFAULT_LANG


def tn(key: str, count: int | str, lang: str = DEFAULT_LANG, /, **kw: object) -> str:
    """The singular (``key.one``, for a count of exactly 1) or plural (``key.other``)
    text of ``key``, formatted with ``count`` and ``kw``: ``1 use left`` / ``2 uses left``."""
    form = "one" if count == 1 else "other"
    return t(f"{key}.{form}", lang, count=count, **kw)


def t(key: str, lang: str = DEFAULT_LANG, /, **kw: object) -> str:
    """The text of ``key`` in ``lang`` (``"en"`` or ``"zh"``), formatted with ``kw``.

    Raises ``KeyError`` for an unknown key (a bug, caught by the tests)."""
    en, zh = MESSAGES[key]
    template = zh if lang == "zh" else en
    return template.format(**kw) if kw or "{" in template else template
