"""Fairness verdicts in words, from their codes (specs/fairness.md §9.1): one table of the
common catalog :mod:`jupai_net.messages`.

A :class:`~jupai_net.fairness.verify.Verdict` carries a stable ``code`` and its
``args``; its English ``reason`` is :func:`verdict_sentence` of them in English, and
every screen (the client's ending, ``jupai verify``, ``jupai replay``, ``jupai
history``) says the same verdict in its own language from the code and the args. The
catalog key of a code is ``verdict.reason.CODE``; every code the verifiers can give is
one (tests/test_verdict_words.py enumerates them).

The args (every value a string, a whole number, None, a list, or a nested reason):

- a nested reason ``{"code": CODE, "args": {…}}``: said in the same language (the
  check of a lower layer: a seed, a reveal, a dealer-blind message, the file);
- ``kind``, ``last``, ``found_kind``: a statement kind (``step``), said as
  ``verdict.kind.KIND`` (``出牌``); ``allowed``: a list of kinds (``… or …``);
- ``who``, ``culprit``, ``author``, ``expected_pid``: a dealer-blind participant id
  (0-5 a seat, 255 the host, None unknown), ``names``: a list of them;
- ``to``: a seat the statement or reveal is addressed to (None: a spectator);
  ``viewer``: this transcript's seat (None: a spectator);
- ``scope``: ``private`` or ``public``;
- ``why``: the host's own reason for abandoning a game (its signed words: jupai's own
  are said in the language, :func:`~jupai_net.messages.notices.reason_sentence`);
- ``gone``, ``left``: the seat's own note of why the game stopped
  (:func:`note_sentence`);
- ``illegal``: why an action is not legal, ``{"code": CODE, "args": {…}}`` of an
  :class:`~jupai_net.engine.IllegalAction` (:mod:`jupai_net.messages.illegal`): every
  language appends it after a colon;
- ``detail``: a library's technical words (an exception's message): never inside a
  sentence's template; English appends it after a colon, other languages leave it
  to the technical-detail line (:func:`technical_details`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from jupai_net.printable import printable

#: The participant id of the host in a dealer-blind game (fairness.primitives.HOST_SEAT).
HOST_PID = 0xFF

#: key -> (English, Chinese)
MESSAGES: dict[str, tuple[str, str]] = {
    # --- small words of the sentences below ---------------------------------------------------------------
    "verdict.kind.start": ("start", "开局"),
    "verdict.kind.commitments": ("commitments", "种子承诺"),
    "verdict.kind.seeds": ("seeds", "种子公开"),
    "verdict.kind.deal": ("deal", "发牌"),
    "verdict.kind.step": ("step", "出牌"),
    "verdict.kind.end": ("end", "结束"),
    "verdict.kind.abandon": ("abandon", "放弃"),
    "verdict.kind.hellos": ("hellos", "问候"),
    "verdict.kind.claim": ("claim", "出牌申报"),
    "verdict.kind.blind": ("blind", "盲发消息"),
    "verdict.kind.hello": ("hello", "问候"),
    "verdict.kind.shuffle": ("shuffle", "洗牌"),
    "verdict.kind.relock": ("relock", "重新加锁"),
    "verdict.kind.keys": ("keys", "密钥"),
    "verdict.kind.seed": ("seed", "种子"),
    "verdict.kind.opening": ("opening", "开牌"),
    "verdict.kinds.or": (" or ", "或"),
    "verdict.who.host": ("the host", "主机"),
    "verdict.seed_of.host": ("host", "主机"),
    "verdict.who.seat": ("seat {seat}", "{seat}号位"),
    "verdict.who.unknown": ("an unknown participant", "未知参与者"),
    "verdict.to.seat": ("seat {seat}", "{seat}号位"),
    "verdict.to.spectator": ("a spectator", "旁观者"),
    "verdict.viewer.seat": ("seat {seat}", "{seat}号位"),
    "verdict.viewer.spectator": ("spectator", "旁观者"),
    "verdict.point.point": ("point", "点"),
    "verdict.pass.shuffle": ("shuffle pass", "洗牌"),
    "verdict.pass.relock": ("re-lock pass", "重新加锁"),
    "verdict.opened_to.everyone": ("everyone", "所有人"),
    "verdict.phase.hellos": ("hellos", "问候"),
    "verdict.phase.shuffling": ("shuffling", "洗牌"),
    "verdict.phase.relocking": ("relocking", "重新加锁"),
    "verdict.phase.dealt": ("dealt", "已发牌"),
    "verdict.scope.private": ("private", "私下"),
    "verdict.scope.public": ("public", "公开"),
    "verdict.where.statement": ("statement #{n}", "第 {n} 条声明"),
    "verdict.where.statement_kind": ("statement #{n} ({kind})", "第 {n} 条声明（{kind}）"),
    "verdict.where.position": ("position {position}", "位置 {position}"),
    "verdict.where.sep": (", ", "，"),
    # --- the seat's own notes of why a game stopped (client/session.py, kept in the transcript) ---------
    "verdict.note.chose_to_leave": ("the player chose to leave", "玩家自己选择了离开"),
    "verdict.note.terminal_closed": ("the terminal closed", "终端关闭了"),
    "verdict.note.player_left": ("the player left", "玩家离开了"),
    "verdict.note.connection_lost": ("connection lost", "连接中断"),
    "verdict.note.bye": ("the host said bye ({reason})", "主机道别了（{reason}）"),
    "verdict.note.host_error": ("host error {code}", "主机报错：{code}"),
    "verdict.note.protocol_error": ("protocol error", "协议错误"),
    "verdict.note.unusable": ("the host sent a {type} message this client cannot use",
                              "主机发来了一条本客户端无法使用的 {type} 消息"),
    "verdict.note.another_game": ("the host started another game before this one ended",
                                  "主机在这一局结束前开始了另一局"),
    "verdict.note.move_before_start": ("the host asked for a move before the game started",
                                       "主机在对局开始前就要求行动"),
    # the session's end in words (end.status.*: "the connection to the host was lost"), not its code
    "verdict.note.session_ended": ("{status}", "{status}"),
    # --- a client's live note that the host broke the protocol (client/session.py, status_words.verdict_note) ---
    "notice.fairness.broke": ("FAIRNESS: the host broke the fairness protocol: {text}",
                              "公平性：主机违反了公平性协议：{text}"),
    "notice.fairness.tampered": ("FAIRNESS: the host tampered with the game: {text}", "公平性：主机篡改了对局：{text}"),
    "notice.fairness.dropped": ("FAIRNESS: the host dropped the previous game unfinished and started another: {text}",
                                "公平性：主机没有结束上一局就开始了另一局：{text}"),
    # --- the end of a game (conclude) ------------------------------------------------------------------
    "verdict.reason.empty": ("the transcript holds no statement: the game never started",
                             "对局记录中没有任何声明：对局从未开始"),
    "verdict.reason.left_copy": ("this seat left the game before the end ({left}): the statements of this copy check "
                                 "out, but the seat did not receive them itself",
                                 "该座位在结束前离开了对局（{left}）：这份副本中的声明都核对无误，但该座位并没有亲自收到它们"),
    "verdict.reason.verified_seat": ("fair game: the host seed matches its commitment, the deck matches all {deck} "
                                     "commitments and every card this seat saw, and the replay gives every outcome "
                                     "the host announced",
                                     "公平对局：主机种子与其承诺一致，整副牌与全部 {deck} 个承诺及本座位看到的每一张牌一致，"
                                     "重放得出的每个结果都与主机公布的相同"),
    "verdict.reason.turns_cut_short": ("fair deal, but the host cut this seat's turns short: {count} of the time-outs "
                                       "it announced for this seat came before the turn's time was up by this seat's "
                                       "clock, and the host played for it (the deck matches all {deck} commitments and "
                                       "the replay gives every outcome the host announced; the times are this seat's "
                                       "own record)",
                                       "发牌公平，但主机缩短了本座位的回合：按本座位的时钟，主机为本座位宣布的超时中有 "
                                       "{count} 次在回合时间用完之前，随后由主机代为出牌（整副牌与全部 {deck} 个承诺一致，"
                                       "复盘得出主机宣布的每个结果；时间是本座位自己的记录）"),
    "verdict.reason.verified_public": ("fair game: the host seed matches its commitment, the deck matches all {deck} "
                                       "commitments and every card shown in public, and the replay gives every "
                                       "outcome the host announced",
                                       "公平对局：主机种子与其承诺一致，整副牌与全部 {deck} 个承诺及公开亮出的每一张牌一致，"
                                       "重放得出的每个结果都与主机公布的相同"),
    "verdict.reason.abandon_early": ("the host abandoned the game before the seeds were revealed ({why}): no card was "
                                     "dealt, nothing to verify",
                                     "主机在公开种子之前放弃了对局（{why}）：还没有发牌，无需验证"),
    "verdict.reason.abandon_unannounced": ("the host abandoned the game after this seat sent its seed (having received "
                                           "{sent} statements), before it announced the seeds: once every seed is in, "
                                           "the host alone could know the deck, so it may have seen the cards and "
                                           "dropped the deal (its reason, unchecked: {why})",
                                           "主机在本座位发出种子之后（此前已收到 {sent} 条声明）、公布种子之前放弃了对局："
                                           "所有种子一到，只有主机可能知道整副牌，它可能看过牌后放弃了这次发牌（它给的理由未经核实：{why}）"),
    "verdict.reason.abandon_no_seed": ("the host abandoned the game after the player seeds were revealed, when it alone "
                                       "could know the deck, and did not reveal its seed ({why})",
                                       "主机在玩家种子公开之后放弃了对局——此时只有主机可能知道整副牌——且没有公开它的种子（{why}）"),
    "verdict.reason.abandon_checked": ("the host abandoned the game after the player seeds were revealed, when it alone "
                                       "could know the deck ({why}); the deal and the play up to then check out",
                                       "主机在玩家种子公开之后放弃了对局——此时只有主机可能知道整副牌（{why}）；"
                                       "到那时为止的发牌和出牌都核对无误"),
    "verdict.reason.left": ("the transcript stops after statement #{n} ({last}): this seat left the game before the end "
                            "({left}), so the host never revealed its seed to it and the deal cannot be checked (every "
                            "statement received until then checked out)",
                            "对局记录在第 {n} 条声明（{last}）之后中断：该座位在结束前离开了对局（{left}），"
                            "主机没有向它公开种子，无法检查发牌（此前收到的每条声明都核对无误）"),
    "verdict.reason.host_gone": ("the transcript stops after statement #{n} ({last}): the host stopped ({gone}) after "
                                 "the player seeds were revealed, when it alone could know the deck",
                                 "对局记录在第 {n} 条声明（{last}）之后中断：主机在玩家种子公开之后停止了（{gone}），"
                                 "此时只有主机可能知道整副牌"),
    "verdict.reason.host_gone_sent": ("the transcript stops after statement #{n} ({last}): the host stopped ({gone}) "
                                      "after this seat sent its seed (having received {sent} statements), when it "
                                      "alone could know the deck",
                                      "对局记录在第 {n} 条声明（{last}）之后中断：主机在本座位发出种子之后（此前已收到 {sent} 条声明）"
                                      "停止了（{gone}），此时只有主机可能知道整副牌"),
    "verdict.reason.stops": ("the transcript stops after statement #{n} ({last}): the host never revealed its seed, so "
                             "the deal cannot be checked",
                             "对局记录在第 {n} 条声明（{last}）之后中断：主机没有公开它的种子，无法检查发牌"),
    "verdict.reason.stops_gone": ("the transcript stops after statement #{n} ({last}) (the host stopped: {gone}): the "
                                  "host never revealed its seed, so the deal cannot be checked",
                                  "对局记录在第 {n} 条声明（{last}）之后中断（主机停止了：{gone}）：主机没有公开它的种子，"
                                  "无法检查发牌"),
    # --- the end of a dealer-blind game ---------------------------------------------------------------
    "verdict.reason.blind_verified": ("dealer-blind: fair game: the host never saw a card it did not hold, the audit "
                                      "shows every shuffle and re-lock is the one its participant's seed gives, and the "
                                      "replay on the audited deck gives every outcome announced",
                                      "庄家盲发：公平的对局：主机从未看到不属于它的牌，审计表明每一次洗牌和重新加锁都与其参与者的种子一致，"
                                      "在审计所得的牌序上重放得出所宣布的每个结果"),
    "verdict.reason.blind_ended_unaudited": ("dealer-blind: the game ended, but the deal cannot be audited: no seed from "
                                             "{names} (the host never saw a card it did not hold)",
                                             "庄家盲发：对局已结束，但无法审计发牌：{names} 没有公开种子（主机从未看到不属于它的牌）"),
    "verdict.reason.blind_mid_deal": ("dealer-blind: the host abandoned the game during the deal, at '{phase}' ({why}); "
                                      "no card was opened",
                                      "庄家盲发：主机在发牌过程中（{phase} 阶段）放弃了对局（{why}）；没有打开任何牌"),
    "verdict.reason.blind_audited": ("dealer-blind: the host abandoned the game ({why}); the host never saw a card it "
                                     "did not hold, and the audit of the deal checks out: every shuffle and re-lock is "
                                     "the one its participant's seed gives",
                                     "庄家盲发：主机放弃了对局（{why}）；主机从未看到不属于它的牌，发牌审计核对无误："
                                     "每一次洗牌和重新加锁都与其参与者的种子一致"),
    "verdict.reason.blind_abandoned_unaudited": ("dealer-blind: the host abandoned the game ({why}); the deal cannot be "
                                                 "audited: no seed from {names}",
                                                 "庄家盲发：主机放弃了对局（{why}）；无法审计发牌：{names} 没有公开种子"),
    "verdict.reason.blind_left": ("dealer-blind: the transcript stops after statement #{n} ({last}): this seat left the "
                                  "game before the end ({left}); every statement received until then checked out",
                                  "庄家盲发：对局记录在第 {n} 条声明（{last}）之后中断：该座位在结束前离开了对局（{left}）；"
                                  "此前收到的每条声明都核对无误"),
    "verdict.reason.blind_stops": ("dealer-blind: the transcript stops after statement #{n} ({last}): the game did not "
                                   "end, so the deal cannot be audited (every statement received until then checked out)",
                                   "庄家盲发：对局记录在第 {n} 条声明（{last}）之后中断：对局没有结束，无法审计发牌"
                                   "（此前收到的每条声明都核对无误）"),
    "verdict.reason.blind_stops_gone": ("dealer-blind: the transcript stops after statement #{n} ({last}) (the host "
                                        "stopped: {gone}): the game did not end, so the deal cannot be audited (every "
                                        "statement received until then checked out)",
                                        "庄家盲发：对局记录在第 {n} 条声明（{last}）之后中断（主机停止了：{gone}）：对局没有结束，"
                                        "无法审计发牌（此前收到的每条声明都核对无误）"),
    "verdict.reason.blind_left_copy": ("dealer-blind: this seat left the game before the end ({left}): the statements of "
                                       "this copy check out, but the seat did not receive them itself",
                                       "庄家盲发：该座位在结束前离开了对局（{left}）：这份副本中的声明都核对无误，但该座位并没有亲自收到它们"),
    "verdict.reason.blind_no_replay": ("dealer-blind: the game does not replay on the audited deck",
                                       "庄家盲发：在审计所得的牌序上无法重放这局"),
    "verdict.reason.blind_other_outcome": ("dealer-blind: the replay on the audited deck gives another outcome than the "
                                           "host announced",
                                           "庄家盲发：在审计所得的牌序上重放，结果与主机公布的不同"),
    "verdict.reason.blind_audit": ("dealer-blind audit after the game: {why}", "庄家盲发赛后审计：{why}"),
    "verdict.reason.blind_audit_by": ("dealer-blind audit after the game: {why} (culprit: {culprit})",
                                      "庄家盲发赛后审计：{why}（责任方：{culprit}）"),
    # --- several transcripts, a join code ----------------------------------------------------------------
    "verdict.reason.disagree": ("seats {a} and {b} were signed different games: their transcripts part at {where}",
                                "{a}号位和 {b}号位收到的是主机签的两局不同的牌：对局记录从{where}开始不一致"),
    "verdict.reason.seed_reused": ("this seat's seed was also used in game {game}: the host may have known it before it "
                                   "committed its own seed, and chosen the deal (a seed must be new for every game); "
                                   "{reason}",
                                   "本座位的种子也用在了对局 {game} 中：主机可能在承诺自己的种子之前就知道它，从而选择了发牌"
                                   "（每局的种子都必须是新的）；{reason}"),
    "verdict.reason.code_unpinned": ("{reason}; but this transcript records no pinned host certificate, so nothing ties "
                                     "the key that signed it ({key}) to the host with join code {code}",
                                     "{reason}；但这份对局记录没有保存固定的主机证书，没有什么能把签名它的密钥（{key}）"
                                     "与加入码为 {code} 的主机联系起来"),
    "verdict.reason.code_differs": ("the statements are signed by the key of the host with join code {found}, not of "
                                    "the host with join code {expected} (a transcript of another host, or re-signed)",
                                    "这些声明由加入码为 {found} 的主机的密钥签名，而不是加入码为 {expected} 的主机"
                                    "（另一台主机的对局记录，或被重新签名）"),
    # --- the file ------------------------------------------------------------------------------------
    "verdict.reason.cannot_read": ("cannot read {path}: {file_why}", "无法读取 {path}：{file_why}"),
    "verdict.reason.cannot_read_other": ("cannot read {path}", "无法读取 {path}"),
    "verdict.reason.too_large": ("{path} is larger than {limit} bytes: not a transcript",
                                 "{path} 大于 {limit} 字节：不是对局记录"),
    "verdict.reason.file_not_bytes": ("a transcript must be bytes", "对局记录必须是字节"),
    "verdict.reason.file_empty": ("the file is empty", "文件是空的"),
    "verdict.reason.file_cut": ("the file is cut short (truncated msgpack)", "文件不完整（被截断）"),
    "verdict.reason.file_not_msgpack": ("not a transcript file (not readable msgpack)",
                                        "不是对局记录文件（内容无法解析）"),
    "verdict.reason.file_no_format": ("not a transcript file (no \"format\": \"{format}\")",
                                      "不是对局记录文件（没有 \"format\": \"{format}\"）"),
    "verdict.reason.file_version": ("transcript version {found} is not supported (this verifier reads {version})",
                                    "不支持第 {found} 版对局记录（本验证程序读取第 {version} 版）"),
    "verdict.reason.file_fields": ("transcript fields wrong", "对局记录的字段不对"),
    "verdict.reason.file_field": ("transcript '{field}' is malformed", "对局记录的“{field}”字段格式错误"),
    "verdict.reason.file_seat_seed": ("a seat's transcript has both 'seat' and 'seed'; a spectator's neither",
                                      "座位的对局记录同时有 seat 和 seed；旁观者的两者都没有"),
    "verdict.reason.not_checked": ("the transcript could not be checked", "无法检查这份对局记录"),
    "verdict.reason.statement_unreadable": ("statement #{n} cannot be read", "无法读取第 {n} 条声明"),
    "verdict.reason.statement_not_checked": ("statement #{n} could not be checked", "无法检查第 {n} 条声明"),
    "verdict.reason.unexplained": ("the check failed", "检查未通过"),
    # --- a statement's bytes and shape (fairness.statements) ------------------------------------------------
    "verdict.reason.stmt_not_bytes": ("a signed statement must be bytes", "签名的声明必须是字节"),
    "verdict.reason.stmt_cut": ("signed statement is cut short", "签名的声明不完整"),
    "verdict.reason.stmt_not_msgpack": ("signed statement is not valid msgpack", "签名的声明无法解析"),
    "verdict.reason.stmt_not_pair": ("a signed statement must be the msgpack array [body bytes, 64-byte signature] "
                                     "(or an empty signature, deferred)",
                                     "签名的声明必须是 [内容字节, 64 字节签名]（或延后签名的空签名）的 msgpack 数组"),
    "verdict.reason.body_not_msgpack": ("statement body is not valid msgpack", "声明内容无法解析"),
    "verdict.reason.body_cut": ("statement body is cut short", "声明内容不完整"),
    "verdict.reason.body_not_map": ("statement body must be a map", "声明内容必须是映射"),
    "verdict.reason.unknown_kind": ("unknown statement kind {found}", "未知的声明类型 {found}"),
    "verdict.reason.first_not_start": ("the first statement must be 'start', found '{found_kind}'",
                                       "第一条声明必须是“开局”，这里是“{found_kind}”"),
    "verdict.reason.signature_refused": ("the host key or the signature is refused", "主机密钥或签名不被接受"),
    "verdict.reason.signature_refused_why": ("the host key or the signature is refused: {weakness}",
                                             "主机密钥或签名不被接受：{weakness}"),
    # why (fairness/keys.py Weakness codes, nested as signature_refused_why's ``weakness``)
    "verdict.reason.key_size": ("an Ed25519 public key is {size} bytes", "Ed25519 公钥必须是 {size} 字节"),
    "verdict.reason.key_non_canonical": ("the host key is a non-canonical Ed25519 encoding (y ≥ 2^255 − 19)",
                                         "主机密钥不是规范的 Ed25519 编码（y ≥ 2^255 − 19）"),
    "verdict.reason.key_small_order": ("the host key is an Ed25519 point of small order: with it a constant signature "
                                       "verifies for any message, so nothing it signs proves anything",
                                       "主机密钥是一个小阶的 Ed25519 点：用它时，一个固定的签名对任何消息都能通过验证，"
                                       "所以它签的东西什么也证明不了"),
    "verdict.reason.signature_size": ("an Ed25519 signature is {size} bytes", "Ed25519 签名必须是 {size} 字节"),
    "verdict.reason.signature_s_not_canonical": ("the signature is non-canonical (its S is not below the group order "
                                                 "L)", "签名不规范（其 S 不小于群的阶 L）"),
    "verdict.reason.signature_r_not_canonical": ("the signature is non-canonical (its R is not a canonical point "
                                                 "encoding)", "签名不规范（其 R 不是规范的点编码）"),
    "verdict.reason.field_bad": ("field '{field}' is malformed", "字段“{field}”格式错误"),
    "verdict.reason.lacks_fields": ("'{kind}' statement lacks field(s) {fields}", "“{kind}”声明缺少字段 {fields}"),
    "verdict.reason.unknown_fields": ("'{kind}' statement has unknown field(s) {fields}",
                                      "“{kind}”声明有未知字段 {fields}"),
    "verdict.reason.body_version": ("statement version {found} is not supported (this verifier reads {plain}, "
                                    "{chained} and {deferred})",
                                    "不支持第 {found} 版声明（本验证程序读取第 {plain}、{chained} 和 {deferred} 版）"),
    # --- a statement (signature, order, addressee) --------------------------------------------------------
    "verdict.reason.statement": ("statement #{n}: {why}", "第 {n} 条声明：{why}"),
    "verdict.reason.statement_kind": ("statement #{n} ({kind}): {why}", "第 {n} 条声明（{kind}）：{why}"),
    "verdict.reason.start_bad_signature": ("statement #0 (start): the signature does not verify with the host key it "
                                           "announces",
                                           "第 0 条声明（开局）：签名与它公布的主机密钥对不上"),
    "verdict.reason.bad_signature": ("statement #{n}: the signature does not verify with the host key {key} (changed "
                                     "bytes or a broken signature)",
                                     "第 {n} 条声明：签名与主机密钥 {key} 对不上（字节被改动或签名损坏）"),
    "verdict.reason.unsigned": ("statement #{n} ({kind}) carries no signature, which only a step of a version-3 "
                                "stream may (its signature deferred to the next signed statement)",
                                "第 {n} 条声明（{kind}）没有签名，而只有第 3 版声明流中的出牌步骤可以这样（签名延后到下一条有签名的声明）"),
    "verdict.reason.signed_malformed": ("statement #{n}: signed by the host but malformed: {why}",
                                        "第 {n} 条声明：有主机签名，但格式错误：{why}"),
    "verdict.reason.other_game": ("statement #{n} ({kind}) belongs to another game (replayed from another game)",
                                  "第 {n} 条声明（{kind}）属于另一局（从另一局重放而来）"),
    "verdict.reason.misaddressed": ("statement #{n} ({kind}) is addressed to {to}, not to this transcript's {viewer}",
                                    "第 {n} 条声明（{kind}）是发给{to}的，不是发给这份对局记录的{viewer}"),
    "verdict.reason.out_of_order": ("statement #{n} ({kind}) is out of order: its sequence number is {found}, expected "
                                    "{n} (messages reordered, dropped or inserted)",
                                    "第 {n} 条声明（{kind}）顺序不对：它的序号是 {found}，应为 {n}（消息被重排、丢弃或插入）"),
    "verdict.reason.mixed_versions": ("statement #{n} ({kind}) has body version {found}, but this stream began with "
                                      "version {began} (formats mixed in one stream)",
                                      "第 {n} 条声明（{kind}）的内容版本是 {found}，但这个声明流以版本 {began} 开始（一个流中混用了格式）"),
    "verdict.reason.not_chained": ("statement #{n} ({kind}) is not chained to statement #{previous}: its 'prev' is not "
                                   "the hash the chain gives (a statement changed, dropped, inserted or taken from "
                                   "another stream)",
                                   "第 {n} 条声明（{kind}）没有链接到第 {previous} 条声明：它的 prev 不是哈希链给出的值"
                                   "（有声明被改动、丢弃、插入，或取自另一个流）"),
    "verdict.reason.not_chained_start": ("statement #{n} ({kind}) is not chained to the start of this seat's stream: its "
                                         "'prev' is not the hash the chain gives (a statement changed, dropped, inserted "
                                         "or taken from another stream)",
                                         "第 {n} 条声明（{kind}）没有链接到本座位声明流的开头：它的 prev 不是哈希链给出的值"
                                         "（有声明被改动、丢弃、插入，或取自另一个流）"),
    "verdict.reason.not_chained_spectators": ("statement #{n} ({kind}) is not chained to the start of the spectators' "
                                              "stream: its 'prev' is not the hash the chain gives (a statement changed, "
                                              "dropped, inserted or taken from another stream)",
                                              "第 {n} 条声明（{kind}）没有链接到旁观者声明流的开头：它的 prev 不是哈希链给出的值"
                                              "（有声明被改动、丢弃、插入，或取自另一个流）"),
    "verdict.reason.blind_without_hellos": ("statement #{n} ({kind}): a participant message of a dealer-blind deal, but "
                                            "this game has no hellos (statement #1)",
                                            "第 {n} 条声明（{kind}）：这是庄家盲发的参与者消息，但这局没有问候声明（第 1 条）"),
    "verdict.reason.cannot_follow": ("statement #{n} ({kind}) cannot follow a '{last}' statement; expected {allowed}",
                                     "第 {n} 条声明（{kind}）不能跟在“{last}”声明之后；应为{allowed}"),
    "verdict.reason.cannot_follow_end": ("statement #{n} ({kind}) cannot follow a '{last}' statement; expected nothing "
                                         "(the game is over)",
                                         "第 {n} 条声明（{kind}）不能跟在“{last}”声明之后；对局已结束，不应再有声明"),
    "verdict.reason.start_unreadable": ("statement #0: the body is not readable msgpack",
                                        "第 0 条声明：内容无法解析"),
    "verdict.reason.start_no_kind": ("statement #0: the body is not a statement (no kind)",
                                     "第 0 条声明：内容不是声明（没有类型）"),
    "verdict.reason.start_not_first": ("statement #0 must be the 'start' statement, found '{found_kind}' (reordered or "
                                       "cut at the front)",
                                       "第 0 条声明必须是“开局”声明，这里是“{found_kind}”（顺序被打乱或开头被截掉）"),
    "verdict.reason.start_no_key": ("statement #0 (start): it names no 32-byte host key",
                                    "第 0 条声明（开局）：没有给出 32 字节的主机密钥"),
    "verdict.reason.pin_unreadable": ("statement #0 (start): the pinned host certificate cannot be read",
                                      "第 0 条声明（开局）：无法读取固定的主机证书"),
    "verdict.reason.pin_no_key": ("statement #0 (start): the pinned host certificate (join code {code}) names no "
                                  "statement key, so nothing binds the key that signs the statements to the host (a "
                                  "host made by an older jupai?)",
                                  "第 0 条声明（开局）：固定的主机证书（加入码 {code}）没有给出声明密钥，没有什么能把签名这些声明的"
                                  "密钥与主机绑定（是旧版 jupai 生成的主机？）"),
    "verdict.reason.pin_other_key": ("statement #0 (start): the statements are signed by the key {key}, but the pinned "
                                     "host (join code {code}) signs with {pinned}: another key re-signed them",
                                     "第 0 条声明（开局）：这些声明由密钥 {key} 签名，但固定的主机（加入码 {code}）用 {pinned} "
                                     "签名：另一个密钥重新签了它们"),
    # --- the start ------------------------------------------------------------------------------------
    "verdict.reason.bad_rules": ("statement #{n} (start): the host announced invalid rules",
                                 "第 {n} 条声明（开局）：主机公布的规则无效"),
    "verdict.reason.seats_for_rules": ("statement #{n} (start): {seats} seats announced for rules of {players} players",
                                       "第 {n} 条声明（开局）：按 {players} 人的规则公布了 {seats} 个座位"),
    "verdict.reason.seat_not_at_table": ("statement #{n} (start): this transcript's seat {seat} is not at a "
                                         "{seats}-seat table",
                                         "第 {n} 条声明（开局）：这份对局记录的 {seat}号位不在这张 {seats} 人牌桌上"),
    # --- dealer-blind statements ----------------------------------------------------------------------
    "verdict.reason.hellos_count": ("statement #{n} (hellos): {found} hellos for {expected} participants (the host "
                                    "and {seats} seats)",
                                    "第 {n} 条声明（问候）：{expected} 个参与者（主机和 {seats} 个座位）却有 {found} 个问候"),
    "verdict.reason.blind_check": ("statement #{n} ({kind}): dealer-blind check failed: {why}",
                                   "第 {n} 条声明（{kind}）：庄家盲发检查未通过：{why}"),
    "verdict.reason.blind_check_by": ("statement #{n} ({kind}): dealer-blind check failed: {why} (culprit: {culprit})",
                                      "第 {n} 条声明（{kind}）：庄家盲发检查未通过：{why}（责任方：{culprit}）"),
    "verdict.reason.hellos_order": ("the hellos are not one hello per participant in pass order (found a {found_kind} of "
                                    "{author} where {who} belongs)",
                                    "问候不是按传递顺序每个参与者一个（在{who}的位置上是{author}的{found_kind}消息）"),
    "verdict.reason.hello_replaced": ("the hello of seat {seat} relayed to it is not the one it sent: it does not commit "
                                      "to this seat's seed (replaced by the host, which relays it)",
                                      "转给 {seat}号位的问候不是它自己发出的那条：它没有承诺本座位的种子（被负责转发的主机替换了）"),
    "verdict.reason.blind_unplayable": ("a dealer-blind game with rules it cannot be played with",
                                        "这局庄家盲发的规则无法进行"),
    "verdict.reason.claim_without_hellos": ("statement #{n} (claim): a dealer-blind claim, but this game has no hellos",
                                            "第 {n} 条声明（出牌申报）：这是庄家盲发的出牌申报，但这局没有问候声明"),
    "verdict.reason.claim_before_deal": ("statement #{n} (claim): a claim before the dealer-blind deal was done",
                                         "第 {n} 条声明（出牌申报）：庄家盲发的发牌完成之前就有出牌申报"),
    "verdict.reason.claim_not_action": ("statement #{n} (claim): the claimed action is not an action",
                                        "第 {n} 条声明（出牌申报）：申报的行动不是一个行动"),
    "verdict.reason.claim_refused": ("statement #{n} (claim): the host relayed a claim it must refuse (culprit: the host)",
                                     "第 {n} 条声明（出牌申报）：主机转发了一个它必须拒绝的出牌申报（责任方：主机）"),
    "verdict.reason.blind_end_not_over": ("statement #{n} (end): the host ended the dealer-blind game, but it is not over",
                                          "第 {n} 条声明（结束）：主机结束了这局庄家盲发，但对局并没有结束"),
    "verdict.reason.blind_end_ranking": ("statement #{n} (end): the announced ranking differs from the game",
                                         "第 {n} 条声明（结束）：公布的名次与对局不符"),
    "verdict.reason.after_end": ("after the '{last}' statement only the participants' seeds are relayed",
                                 "在“{last}”声明之后只应转发参与者的种子"),
    # --- trusted statements -----------------------------------------------------------------------------
    "verdict.reason.commitments_count": ("statement #{n} (commitments): {found} seed commitments for {seats} seats",
                                         "第 {n} 条声明（种子承诺）：{seats} 个座位却有 {found} 个种子承诺"),
    "verdict.reason.commitment_not_mine": ("statement #{n} (commitments): the commitment announced for seat {seat} is "
                                           "not this seat's",
                                           "第 {n} 条声明（种子承诺）：为 {seat}号位公布的承诺不是本座位的"),
    "verdict.reason.seeds_count": ("statement #{n} (seeds): {found} seeds for {seats} seats",
                                   "第 {n} 条声明（种子公开）：{seats} 个座位却有 {found} 个种子"),
    "verdict.reason.private_to_spectator": ("statement #{n} ({kind}): a private reveal was sent to a spectator",
                                            "第 {n} 条声明（{kind}）：旁观者收到了私下亮出的牌"),
    "verdict.reason.revealed_twice": ("statement #{n} ({kind}): position {position} was already revealed in statement "
                                      "#{first}",
                                      "第 {n} 条声明（{kind}）：位置 {position} 已经在第 {first} 条声明中亮出过"),
    "verdict.reason.card_twice": ("statement #{n} ({kind}): {card} revealed at position {position} was already revealed "
                                  "at position {first}: the deck is not a permutation",
                                  "第 {n} 条声明（{kind}）：在位置 {position} 亮出的 {card} 已经在位置 {first} 亮出过："
                                  "这副牌不是一个排列"),
    "verdict.reason.step_version": ("statement #{n} (step): state version {found}, expected {expected}",
                                    "第 {n} 条声明（出牌）：状态版本是 {found}，应为 {expected}"),
    "verdict.reason.deck_commitment": ("statement #{n} (deal): the commitment to position {position} is for {hidden} (id "
                                       "{hidden_id}), but the seeds give {card} there",
                                       "第 {n} 条声明（发牌）：位置 {position} 的承诺是 {hidden}（编号 {hidden_id}），"
                                       "但种子给出的是 {card}"),
    "verdict.reason.deck_commitment_none": ("statement #{n} (deal): the commitment to position {position} is for no card "
                                            "with this position's salt, but the seeds give {card} there",
                                            "第 {n} 条声明（发牌）：位置 {position} 的承诺不对应任何带这个位置的盐的牌，"
                                            "但种子给出的是 {card}"),
    "verdict.reason.revealed_other_card": ("statement #{n}: position {position} was revealed as {found}, the seeds give "
                                           "{card}",
                                           "第 {n} 条声明：位置 {position} 亮出的是 {found}，种子给出的是 {card}"),
    "verdict.reason.salt_mismatch": ("statement #{n}: the salt revealed for position {position} is not the one derived "
                                     "from the host seed",
                                     "第 {n} 条声明：位置 {position} 亮出的盐不是由主机种子导出的那个"),
    # --- the replay -----------------------------------------------------------------------------------
    "verdict.reason.no_engine": ("the rules engine is not available, the game cannot be replayed",
                                 "规则引擎不可用，无法重放这局"),
    "verdict.reason.setup_fails": ("the replayed game cannot be set up", "重放的对局无法开局"),
    "verdict.reason.deal_view": ("statement #{n} (deal): the initial view announced by the host differs from the "
                                 "replayed game at '{path}'",
                                 "第 {n} 条声明（发牌）：主机公布的初始局面与重放的对局在“{path}”处不同"),
    "verdict.reason.step_after_over": ("statement #{n} (step): an action after the replayed game was over",
                                       "第 {n} 条声明（出牌）：重放的对局结束之后还有行动"),
    "verdict.reason.step_actor": ("statement #{n} (step): seat {found} acted, but in the replayed game seat {expected} "
                                  "is to move",
                                  "第 {n} 条声明（出牌）：行动的是 {found}号位，但在重放的对局中轮到 {expected}号位"),
    "verdict.reason.step_not_action": ("statement #{n} (step): the announced action is not an action",
                                       "第 {n} 条声明（出牌）：公布的行动不是一个行动"),
    "verdict.reason.step_illegal": ("statement #{n} (step): the announced action is illegal in the replayed game",
                                    "第 {n} 条声明（出牌）：公布的行动在重放的对局中不合规则"),
    "verdict.reason.step_rejected": ("statement #{n} (step): the replayed game rejects the announced action",
                                     "第 {n} 条声明（出牌）：重放的对局不接受公布的行动"),
    "verdict.reason.step_version_replay": ("statement #{n} (step): state version {found}, the replay is at {expected}",
                                           "第 {n} 条声明（出牌）：状态版本是 {found}，重放到了 {expected}"),
    "verdict.reason.step_action_form": ("statement #{n} (step): the announced action is not written as the replayed "
                                        "game records it, at '{path}'",
                                        "第 {n} 条声明（出牌）：公布的行动与重放的对局记录的写法在“{path}”处不同"),
    "verdict.reason.step_outcome": ("statement #{n} (step): the announced outcome differs from the replayed game at "
                                    "'{path}'",
                                    "第 {n} 条声明（出牌）：公布的结果与重放的对局在“{path}”处不同"),
    "verdict.reason.end_not_over": ("statement #{n} (end): the host ended the game, but the replayed game is not over",
                                    "第 {n} 条声明（结束）：主机结束了对局，但重放的对局并没有结束"),
    "verdict.reason.end_ranking": ("statement #{n} (end): the announced ranking differs from the replayed game",
                                   "第 {n} 条声明（结束）：公布的名次与重放的对局不同"),
    "verdict.reason.end_winner": ("statement #{n} (end): the announced winner differs from the replayed game",
                                  "第 {n} 条声明（结束）：公布的赢家与重放的对局不同"),
    "verdict.reason.reveal_scope": ("statement #{n} ({kind}): {scope} reveals: position {position} ({card}) is opened "
                                    "as {other}, but the replayed game shows it to this seat only",
                                    "第 {n} 条声明（{kind}）：{scope}亮牌：位置 {position}（{card}）被{other}亮出，"
                                    "但重放的对局只给本座位看"),
    "verdict.reason.reveal_scope_public": ("statement #{n} ({kind}): {scope} reveals: position {position} ({card}) is "
                                           "opened as {other}, but the replayed game shows it to everyone",
                                           "第 {n} 条声明（{kind}）：{scope}亮牌：位置 {position}（{card}）被{other}亮出，"
                                           "但重放的对局给所有人看"),
    "verdict.reason.reveal_missing": ("statement #{n} ({kind}): {scope} reveals: position {position} ({card}) should "
                                      "have been revealed to this seat and was not",
                                      "第 {n} 条声明（{kind}）：{scope}亮牌：位置 {position}（{card}）应当亮给本座位，却没有"),
    "verdict.reason.reveal_extra": ("statement #{n} ({kind}): {scope} reveals: position {position} was revealed "
                                    "although the replayed game does not show it to this seat",
                                    "第 {n} 条声明（{kind}）：{scope}亮牌：位置 {position} 被亮出，但重放的对局并不给本座位看"),
    "verdict.reason.reveal_order": ("statement #{n} ({kind}): {scope} reveals: the reveals are not in increasing "
                                    "position order",
                                    "第 {n} 条声明（{kind}）：{scope}亮牌：亮牌没有按位置从小到大排列"),
    # --- dealer-blind messages (fairness.blind_ledger) -----------------------------------------------------
    "verdict.reason.blind_abandoned": ("the game was abandoned ({why})", "对局被放弃了（{why}）"),
    "verdict.reason.blind_stopped": ("the deal stopped ({why_stopped}): no {what} now, only the seeds for the audit",
                                     "发牌已经中止（{why_stopped}）：现在不应再有{what}，只应有供审计的种子"),
    "verdict.reason.blind_not_participant": ("a blind message comes from {found}, who is not a participant",
                                             "一条盲发消息来自 {found}，它不是参与者"),
    "verdict.reason.blind_before_hello": ("a {kind} message of {who} comes before its hello",
                                          "{who}的{kind}消息出现在它的问候之前"),
    "verdict.reason.blind_bad_signature": ("the signature of a {kind} message of {who} does not verify (forged or "
                                           "altered by {relay}, which relays it)",
                                           "{who}的{kind}消息签名对不上（被负责转发的{relay}伪造或改动了）"),
    "verdict.reason.blind_other_game": ("a {kind} message of {who} belongs to another game (replayed)",
                                        "{who}的{kind}消息属于另一局（被重放）"),
    "verdict.reason.blind_number": ("a {kind} message of {who} is number {found}, expected {expected} (replayed or "
                                    "reordered)",
                                    "{who}的{kind}消息序号是 {found}，应为 {expected}（被重放或顺序被打乱）"),
    "verdict.reason.blind_out_of_turn": ("a {kind} message of {who} comes out of turn (the deal is at '{phase}')",
                                         "{who}的{kind}消息来得不是时候（发牌正处于“{phase}”阶段）"),
    "verdict.reason.blind_hello_twice": ("{who} says hello twice", "{who}问候了两次"),
    "verdict.reason.blind_commitment_size": ("the seed commitment of {who} is not 32 bytes",
                                             "{who}的种子承诺不是 32 字节"),
    "verdict.reason.blind_hello_replaced": ("the hello of {who} relayed to it is not the one it sent (replaced by "
                                            "{relay}, which relays it)",
                                            "转给{who}的问候不是它自己发出的那条（被负责转发的{relay}替换了）"),
    "verdict.reason.blind_not_turn": ("{who} sent a {kind} pass, but it is {expected_pid}'s turn",
                                      "{who}发来了{kind}，但现在轮到{expected_pid}"),
    "verdict.reason.blind_deck_size": ("the {pass_name} of {who} is not one point of {point} bytes per position "
                                       "({size} positions)",
                                       "{who}的{pass_name}不是每个位置一个 {point} 字节的点（共 {size} 个位置）"),
    "verdict.reason.blind_deck_repeats": ("the {pass_name} of {who} repeats a value (a duplicated card)",
                                          "{who}的{pass_name}有重复的值（一张牌出现了两次）"),
    "verdict.reason.blind_off_curve": ("the {pass_name} of {who} has a value off the curve at position {position}",
                                       "{who}的{pass_name}在位置 {position} 有一个不在曲线上的值"),
    "verdict.reason.blind_no_proof": ("the shuffle pass of {who} has no proof", "{who}的洗牌没有附证明"),
    "verdict.reason.blind_locks_size": ("the lock commitments of {who} are not {size} × 32 bytes",
                                        "{who}的加锁承诺不是 {size} × 32 字节"),
    "verdict.reason.blind_keys_empty": ("the keys message of {who} is not a non-empty list",
                                        "{who}的密钥消息不是非空列表"),
    "verdict.reason.blind_key_shape": ("a key reveal of {who} is not [position, to, key]",
                                       "{who}公开的一个密钥不是 [位置, 对象, 密钥] 的形式"),
    "verdict.reason.blind_key_wrong_seat": ("{who} revealed its lock of position {position} to {opened_to}, but that card "
                                            "is not being opened to {opened_to} (a key revealed to the wrong seat)",
                                            "{who}向{opened_to}公开了位置 {position} 的锁，但这张牌并不是要亮给{opened_to}的"
                                            "（密钥给错了座位）"),
    "verdict.reason.blind_own_lock": ("{who} revealed its own lock of position {position} privately",
                                      "{who}私下公开了它自己在位置 {position} 的锁"),
    "verdict.reason.blind_key_twice": ("{who} revealed its lock of position {position} to {opened_to} twice",
                                       "{who}向{opened_to}公开了两次位置 {position} 的锁"),
    "verdict.reason.blind_wrong_key": ("{who} revealed a lock key for position {position} that does not match its "
                                       "commitment (a wrong key)",
                                       "{who}为位置 {position} 公开的锁密钥与它的承诺不符（密钥不对）"),
    "verdict.reason.blind_seed_twice": ("{who} revealed its seed twice", "{who}公开了两次种子"),
    "verdict.reason.blind_seed_mismatch": ("the seed of {who} does not open its commitment", "{who}的种子与它的承诺不符"),
    "verdict.reason.blind_withheld": ("{who} withheld its lock key for position {position} (to {opened_to})",
                                      "{who}扣住了位置 {position} 的锁密钥（应给{opened_to}）"),
    "verdict.reason.blind_no_card": ("position {position} does not open to a card (a wrong pass; the audit names who)",
                                     "位置 {position} 打开后不是一张牌（某次传递有误；审计会指出是谁）"),
    "verdict.reason.blind_same_card": ("position {position} opens to the same card as position {first} (a duplicated "
                                       "card; the audit names who)",
                                       "位置 {position} 打开后与位置 {first} 是同一张牌（一张牌出现了两次；审计会指出是谁）"),
    "verdict.reason.blind_no_seed": ("{who} did not reveal its seed", "{who}没有公开种子"),
    "verdict.reason.blind_stopped_at": ("the deal stopped at '{phase}'", "发牌停在了“{phase}”阶段"),
    "verdict.reason.blind_wrong_shuffle": ("the shuffle pass of {who} is not the one its seed gives (a wrong shuffle "
                                           "pass)",
                                           "{who}的洗牌与它的种子给出的不一致（洗牌有误）"),
    "verdict.reason.blind_wrong_locks": ("the lock commitments of {who} are not the ones its seed gives",
                                         "{who}的加锁承诺与它的种子给出的不一致"),
    "verdict.reason.blind_wrong_relock": ("the re-lock pass of {who} is not the one its seed gives (a wrong re-lock)",
                                          "{who}的重新加锁与它的种子给出的不一致（重新加锁有误）"),
    "verdict.reason.blind_not_permutation": ("the recomputed deck is not a permutation of the cards",
                                             "重新算出的牌序不是全部牌的一个排列"),
    "verdict.reason.blind_opened_other": ("position {position} was opened as card {found}, but the deck has {card} there",
                                          "位置 {position} 打开的是第 {found} 号牌，但牌序中那里是第 {card} 号牌"),
    "verdict.reason.participant_key_size": ("a participant key is 32 bytes", "参与者密钥是 32 字节"),
    "verdict.reason.participant_key_bad": ("a participant key is not an Ed25519 public key",
                                           "参与者密钥不是 Ed25519 公钥"),
    "verdict.reason.msg_cut": ("a blind message is cut short", "一条盲发消息不完整"),
    "verdict.reason.msg_malformed": ("a blind message is malformed", "一条盲发消息格式错误"),
    "verdict.reason.msg_no_kind": ("a blind message has no known kind", "一条盲发消息没有已知的类型"),
    "verdict.reason.msg_fields": ("a blind {kind} message does not have the fields of scheme v{version}",
                                  "一条{kind}盲发消息的字段不符合第 {version} 版方案"),
    "verdict.reason.msg_game_id": ("a blind message has no 16-byte game id", "一条盲发消息没有 16 字节的对局编号"),
    "verdict.reason.msg_author": ("a blind message has a bad author or sequence number",
                                  "一条盲发消息的作者或序号不对"),
    "verdict.reason.open_before_locked": ("no card opens before the deal is locked", "发牌锁定之前不能开任何牌"),
    "verdict.reason.open_no_position": ("no position {found}", "没有位置 {found}"),
    "verdict.reason.open_no_seat": ("no seat {found} at this table", "这张牌桌没有座位 {found}"),
    "verdict.reason.open_not_requested": ("position {position} is not being opened to {opened_to}",
                                          "位置 {position} 并不是要亮给{opened_to}的"),
    "verdict.reason.point_size": ("a {point_what} is {size} bytes", "{point_what}是 {size} 字节"),
    "verdict.reason.point_off_curve": ("the {point_what} is not the x-coordinate of a P-256 point",
                                       "{point_what}不是 P-256 曲线上某点的 x 坐标"),
    "verdict.reason.key_size": ("a key is {size} bytes", "密钥是 {size} 字节"),
    "verdict.reason.key_range": ("a key is a scalar in 1 … n−1", "密钥是 1 … n−1 之间的标量"),
    "verdict.reason.proof_size": ("the shuffle proof of {who} has the wrong size", "{who}的洗牌证明大小不对"),
    "verdict.reason.proof_round": ("the shuffle proof of {who}: round {round} does not give a permutation",
                                   "{who}的洗牌证明：第 {round} 轮没有给出一个排列"),
    "verdict.reason.proof_fails": ("the shuffle pass of {who} is not a re-encrypted permutation of its input (its proof "
                                   "does not verify: a replaced, duplicated or dropped card)",
                                   "{who}的洗牌不是其输入重新加密后的排列（证明不成立：有牌被替换、重复或丢弃）"),
    # --- what a seat's client checks live against the signed stream (client/session.py, client/signed_view.py) ---
    "verdict.reason.resent_other": ("statement #{n} ({kind}) was resent after the reconnect with other content than "
                                    "before: the host rewrote the game's history",
                                    "第 {n} 条声明（{kind}）在重新连接后再次发来时内容变了：主机改写了对局历史"),
    "verdict.reason.start_other_game": ("the signed start statement names another game than the host's start message",
                                        "签名的开局声明与主机的开局消息说的不是同一局"),
    "verdict.reason.trusted_sent_blind": ("the host announced a trusted deal and sent a dealer-blind one",
                                          "主机宣布由可信庄家发牌，发来的却是庄家盲发"),
    "verdict.reason.blind_sent_trusted": ("the host announced a dealer-blind deal, then asked for seed commitments as in "
                                          "a trusted deal, where it could see every card",
                                          "主机宣布庄家盲发，却又像可信庄家发牌那样要种子承诺——那样它能看到每一张牌"),
    "verdict.reason.seed_sent_before": ("refusing to send a seed that was already sent for another game",
                                        "拒绝发送已经在另一局用过的种子"),
    "verdict.reason.blind_own": ("dealer-blind: {why}", "庄家盲发：{why}"),
    "verdict.reason.applied_other": ("the host applied another action than the one this seat sent for this seat at "
                                     "state {state} ({action}) and did not announce a time-out",
                                     "主机在状态 {state} 替本座位执行了与它发出的不同的行动（{action}），且没有宣布超时"),
    "verdict.reason.applied_unsent": ("the host applied an action this seat never sent for this seat at state {state} "
                                      "({action}) and did not announce a time-out",
                                      "主机在状态 {state} 替本座位执行了它从未发出的行动（{action}），且没有宣布超时"),
    "verdict.reason.blind_view_early": ("the host showed state {state} before its cards were open",
                                        "主机在牌打开之前就显示了状态 {state}"),
    "verdict.reason.blind_view_state": ("the host showed state {state}, but the game is at state {game}",
                                        "主机显示的是状态 {state}，但对局在状态 {game}"),
    "verdict.reason.blind_view_hidden": ("the host's view names deck position {position}, which is not open to this seat",
                                         "主机的画面提到了牌堆位置 {position}，而它并没有向本座位打开"),
    "verdict.reason.blind_view_unreadable": ("the host's view of the table cannot be read", "无法读取主机显示的牌桌"),
    "verdict.reason.blind_view_differs": ("the host's view of the table differs from this seat's own game",
                                          "主机显示的牌桌与本座位自己算出的对局不同"),
    "verdict.reason.blind_prompt_uncalled": ("the host asked for a move at state {state} that this seat's own game does "
                                             "not call for",
                                             "主机在状态 {state} 要求行动，但本座位自己的对局并不需要它行动"),
    "verdict.reason.blind_prompt_none": ("the host asked for a move at state {state}, but this seat has none",
                                         "主机在状态 {state} 要求行动，但本座位没有可走的行动"),
    "verdict.reason.views_not_replayed": ("the views the host showed could not be replayed",
                                          "无法重放主机显示过的画面"),
    "verdict.reason.view_before_deal": ("the host showed state {state} before the signed deal",
                                        "主机在签名的发牌之前就显示了状态 {state}"),
    "verdict.reason.view_other_state": ("the host showed state {state}, but its signed statements are at state {signed}",
                                        "主机显示的是状态 {state}，但它签名的声明在状态 {signed}"),
    "verdict.reason.view_not_map": ("the host's view of the table is not a map", "主机显示的牌桌不是映射"),
    "verdict.reason.view_says_state": ("the host's view says state {found} in a sync of state {state}",
                                       "在状态 {state} 的同步中，主机的画面说是状态 {found}"),
    "verdict.reason.view_deal_differs": ("the host's view of the deal differs from the signed deal (hand, equipment or "
                                         "table)",
                                         "主机显示的发牌与签名的发牌不同（手牌、装备或牌桌）"),
    "verdict.reason.view_events_differ": ("the events on screen differ from the signed events",
                                          "屏幕上的事件与签名的事件不同"),
    "verdict.reason.view_card_not_opened": ("the host shows card id {card} in the {place}, which was never opened to "
                                            "this seat",
                                            "主机在 {place} 显示了第 {card} 号牌，而它从未向本座位打开"),
    "verdict.reason.view_card_not_opened_public": ("the host shows card id {card} in the {place}, which was never opened "
                                                   "to the spectators",
                                                   "主机在 {place} 显示了第 {card} 号牌，而它从未向旁观者打开"),
    "verdict.reason.view_card_twice": ("the host shows card id {card} twice (in the {first} and in the {place})",
                                       "主机把第 {card} 号牌显示了两次（在 {first} 和 {place}）"),
    "verdict.reason.view_hand_count": ("the host shows a hand with another number of cards than this seat's hand count",
                                       "主机显示的手牌张数与本座位的手牌数不同"),
    "verdict.reason.view_recovered": ("the host shows recovered cards of this seat that are not in its hand",
                                      "主机显示本座位有回收的牌，但它们不在手牌中"),
    "verdict.reason.view_replay_differs": ("the view the host showed at state {state} differs from the game the signed "
                                           "statements prove",
                                           "主机在状态 {state} 显示的画面与签名声明证明的对局不同"),
    "verdict.reason.prompt_none": ("the host asks for a move at state {state} but offers none",
                                   "主机在状态 {state} 要求行动，却没有给出任何可走的行动"),
    "verdict.reason.prompt_other_state": ("the host asks for a move at state {state}, but its signed statements are at "
                                          "state {signed}",
                                          "主机在状态 {state} 要求行动，但它签名的声明在状态 {signed}"),
    "verdict.reason.prompt_not_to_move": ("the host asks this seat to move at state {state}, but its view says seat "
                                          "{seat} is to move",
                                          "主机在状态 {state} 要求本座位行动，但它的画面说轮到 {seat}号位"),
    "verdict.reason.prompt_unsigned": ("the host asks this seat to move at state {state} before signing the statements "
                                       "it showed: the last one, #{n}, carries no signature (a step after which this "
                                       "seat is to move must be signed)",
                                       "主机在状态 {state} 要求本座位行动，却还没有为它发来的声明签名：最后一条（第 {n} 条）"
                                       "没有签名（轮到本座位行动之前的那一步必须签名）"),
    "verdict.reason.prompt_cards": ("the host offers a move with cards this seat does not hold ({move})",
                                    "主机给出的行动用到了本座位没有的牌（{move}）"),
    # --- the positions due to a seat (fairness.positions) ------------------------------------------------
    "verdict.reason.owner_equipment": ("seat {seat}'s equipment", "{seat}号位的装备"),
    "verdict.reason.owner_hand": ("seat {seat}'s hand", "{seat}号位的手牌"),
    "verdict.reason.owner_round_pile": ("the round pile", "回合牌堆"),
    "verdict.reason.owner_stock": ("the stock", "牌堆"),
    "verdict.reason.pos_not_own": ("position {position} is {owner}, not this seat's: it may not be shown to this seat",
                                   "位置 {position} 是{owner}，不是本座位的：不能给本座位看"),
    "verdict.reason.pos_own_public": ("position {position} was dealt to this seat face down, but is opened to everyone",
                                      "位置 {position} 是暗发给本座位的，却向所有人亮出了"),
    "verdict.reason.pos_own_missing": ("position {position} was dealt to this seat and was not opened to it",
                                       "位置 {position} 发给了本座位，却没有向它亮出"),
    "verdict.reason.pos_only_round_card": ("position {position} is {owner}: only the first round card (position {first}) "
                                           "is shown to everyone at the deal",
                                           "位置 {position} 是{owner}：发牌时只有第一张回合牌（位置 {first}）向所有人亮出"),
    "verdict.reason.pos_round_card_missing": ("position {position}, the first round card, was not shown",
                                              "第一张回合牌（位置 {position}）没有亮出"),
    "verdict.reason.pos_wrong_drawer": ("a stock pair is drawn by seat {drawer} in a step of seat {actor}: only the seat "
                                        "to move draws",
                                        "在 {actor}号位的一步中，{drawer}号位从牌堆摸了一对牌：只有行动的座位可以摸牌"),
    "verdict.reason.pos_hidden_private": ("position {position} is a stock card seat {seat} drew face down: it may not be "
                                          "shown to this seat",
                                          "位置 {position} 是 {seat}号位暗摸的牌堆牌：不能给本座位看"),
    "verdict.reason.pos_stock_not_drawn": ("position {position} is a stock card this seat did not draw: it may not be "
                                           "shown to it",
                                           "位置 {position} 是本座位没有摸的牌堆牌：不能给它看"),
    "verdict.reason.pos_never_alone": ("position {position} is {owner}: after the deal it is never shown to this seat "
                                       "alone",
                                       "位置 {position} 是{owner}：发牌之后它从不单独给本座位看"),
    "verdict.reason.pos_hidden_public": ("position {position} is a stock card seat {seat} drew face down, but is opened "
                                         "to everyone",
                                         "位置 {position} 是 {seat}号位暗摸的牌堆牌，却向所有人亮出了"),
    "verdict.reason.pos_mine_missing": ("position {position} is a stock card this seat drew face down and was not opened "
                                        "to it",
                                        "位置 {position} 是本座位暗摸的牌堆牌，却没有向它亮出"),
    "verdict.reason.pos_shown_missing": ("position {position} is a stock card drawn face up and was not shown",
                                         "位置 {position} 是明摸的牌堆牌，却没有亮出"),
    # --- seeds and reveals (fairness.primitives) ------------------------------------------------------------
    "verdict.reason.seed_size": ("the {seed_of} seed must be {size} bytes, got {got}",
                                 "{seed_of}的种子必须是 {size} 字节，这里是 {got}"),
    "verdict.reason.seed_mismatch": ("the {seed_of} seed does not match its commitment (a changed seed, or a commitment "
                                     "from another game)",
                                     "{seed_of}的种子与它的承诺不符（种子被改动，或承诺来自另一局）"),
    "verdict.reason.reveal_no_position": ("{scope} reveal of position {position}: no such deck position",
                                          "位置 {position} 的{scope}亮牌：牌堆中没有这个位置"),
    "verdict.reason.reveal_mismatch": ("{scope} reveal of position {position} ({card}) does not match the commitment to "
                                       "that position (a swapped card or a changed salt)",
                                       "位置 {position} 的{scope}亮牌（{card}）与该位置的承诺不符（牌被调换或盐被改动）"),
    "verdict.reason.reveal_misaddressed": ("private reveal of position {position} is addressed to {to}, not to this seat",
                                           "位置 {position} 的私下亮牌是发给{to}的，不是发给本座位的"),
}

#: The seat's own notes (client/session.py) as patterns: (regex, key, args from the match).
_NOTES: tuple[tuple[str, str], ...] = (
    (r"the player chose to leave", "verdict.note.chose_to_leave"),
    (r"the terminal closed", "verdict.note.terminal_closed"),
    (r"the player left", "verdict.note.player_left"),
    (r"connection lost", "verdict.note.connection_lost"),
    (r"the host said bye \((?P<reason>.*)\)", "verdict.note.bye"),
    (r"host error (?P<code>[a-z0-9-]+)(?:: .*)?", "verdict.note.host_error"),
    (r"protocol error(?:: .*)?", "verdict.note.protocol_error"),
    (r"the host sent a (?P<type>\S+) message this client cannot use", "verdict.note.unusable"),
    (r"the host started another game before this one ended", "verdict.note.another_game"),
    (r"the host asked for a move before the game started", "verdict.note.move_before_start"),
    (r"session ended: (?P<status>\S+)", "verdict.note.session_ended"),
)


def said(code: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """A reason as a verdict's args carry a nested one: ``{"code": code, "args": args}``."""
    return {"code": code, "args": dict(args or {})}


def note_sentence(note: str, lang: str = "en") -> str:
    """A seat's own note of why a game stopped (``host_gone``/``left`` of a transcript,
    written in English by client/session.py) in ``lang``; a note it does not know is
    said as written (printable). English: the note itself, but for ``session ended:
    host-gone``, whose status code is said in words (``the connection to the host was
    lost``) in either language."""
    from . import t

    if lang == "en" and not note.startswith("session ended: "):
        return printable(note)
    for pattern, key in _NOTES:
        m = re.fullmatch(pattern, note)
        if m:
            args = m.groupdict()
            if "reason" in args:
                from .notices import reason_sentence

                args["reason"] = reason_sentence(args["reason"], lang)
            if "code" in args:
                from . import catalog

                if f"host_error.{args['code']}" in catalog():
                    args["code"] = t(f"host_error.{args['code']}", lang)
            if "status" in args:
                from . import catalog

                if f"end.status.{args['status']}" not in catalog():
                    return printable(note)  # a status without words: as written
                args["status"] = t(f"end.status.{args['status']}", lang)
            return t(key, lang, **{k: printable(str(v)) for k, v in args.items()})
    return printable(note)


def participant_words(pid: Any, lang: str = "en") -> str:
    """A dealer-blind participant in words: ``the host`` / ``seat 2`` / ``an unknown
    participant`` (``主机``, ``2号位``, ``未知参与者``)."""
    from . import t

    if pid == HOST_PID:
        return t("verdict.who.host", lang)
    if isinstance(pid, int) and not isinstance(pid, bool):
        return t("verdict.who.seat", lang, seat=pid)
    return t("verdict.who.unknown", lang)


def kind_words(kind: Any, lang: str = "en") -> str:
    """A statement (or dealer-blind message) kind as the catalog says it, else as written."""
    from . import t

    key = f"verdict.kind.{kind}"
    return t(key, lang) if isinstance(kind, str) and key in MESSAGES else printable(str(kind))


def _arg(name: str, value: Any, lang: str) -> str:
    from . import names_text, t

    if isinstance(value, Mapping) and "code" in value:
        return verdict_sentence(value["code"], value.get("args") or {}, lang)
    if name in ("kind", "last", "found_kind", "what"):
        return kind_words(value, lang)
    if name == "allowed":
        return t("verdict.kinds.or", lang).join(kind_words(k, lang) for k in value)
    if name == "point_what":  # what a 32-byte value of a dealer-blind message is
        return t(f"verdict.point.{value}", lang) if f"verdict.point.{value}" in MESSAGES else printable(str(value))
    if name == "pass_name":
        return t(f"verdict.pass.{value}", lang)
    if name == "opened_to":
        return t("verdict.opened_to.everyone", lang) if value is None else participant_words(value, lang)
    if name == "phase":
        return t(f"verdict.phase.{value}", lang) if f"verdict.phase.{value}" in MESSAGES else printable(str(value))
    if name == "file_why":  # why a file cannot be read (jupai_net.textfile.cannot_read's words)
        return t(f"file.why.{value}", lang)
    if name == "seed_of":
        return t("verdict.seed_of.host", lang) if value == HOST_PID else t("verdict.who.seat", lang, seat=value)
    if name == "where":  # where two transcripts part (fairness.agree): "deal", "step 12"
        text = str(value)
        if text.startswith("step "):
            return t("agree.where.step", lang, n=text.split()[-1])
        from .commands import MESSAGES as COMMANDS

        return t(f"agree.where.{text}", lang) if f"agree.where.{text}" in COMMANDS else printable(text)
    if name in ("who", "culprit", "author", "expected_pid", "relay"):
        return participant_words(value, lang)
    if name == "names":
        return names_text((participant_words(p, lang) for p in value), lang)
    if name == "to":
        return t("verdict.to.spectator", lang) if value is None else t("verdict.to.seat", lang, seat=value)
    if name == "viewer":
        return t("verdict.viewer.spectator", lang) if value is None else t("verdict.viewer.seat", lang, seat=value)
    if name in ("scope", "other"):
        return t(f"verdict.scope.{value}", lang) if value in ("private", "public") else printable(str(value))
    if name == "why":
        from .notices import reason_sentence

        return reason_sentence(str(value), lang) if lang != "en" else printable(str(value))
    if name in ("gone", "left"):
        return note_sentence(str(value), lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(printable(str(v)) for v in value)
    return printable(str(value))


def verdict_sentence(code: str, args: Mapping[str, Any], lang: str = "en") -> str:
    """The sentence of verdict reason ``code`` with ``args`` (see the module's
    docstring) in ``lang``. English ends with the ``detail`` after a colon when there
    is one; ``unexplained`` in English is its detail itself (a lower layer's words
    that have no code yet). Raises ``KeyError`` for an unknown code and ``IndexError``
    / ``KeyError`` / ``ValueError`` for args that do not fit it (a newer verifier's)."""
    from . import t

    detail = args.get("detail")
    if code == "unexplained" and lang == "en" and detail:
        return printable(str(detail))
    said = t(f"verdict.reason.{code}", lang, **{k: _arg(k, v, lang) for k, v in args.items()
                                                  if k not in ("detail", "illegal")})
    illegal = args.get("illegal")
    if isinstance(illegal, Mapping):  # why the action is illegal, in the same language
        from .illegal import illegal_sentence

        said += t("colon", lang) + illegal_sentence(illegal.get("code"), illegal.get("args") or {}, lang)
    if detail and lang == "en":
        said += f": {printable(str(detail))}"
    return said


def technical_details(args: Mapping[str, Any]) -> list[str]:
    """Every ``detail`` in ``args`` and its nested reasons (English technical words a
    Chinese sentence leaves out), in order."""
    out = []
    for name, value in args.items():
        if name == "detail" and value:
            out.append(str(value))
        elif isinstance(value, Mapping) and "code" in value:
            out += technical_details(value.get("args") or {})
    return out
