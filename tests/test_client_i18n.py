"""client/i18n.py: every text exists in English and Chinese with the same placeholders;
the default language follows the locale (specs/client.md § Languages)."""

from __future__ import annotations

import pytest

from jupai_net.client import i18n
from jupai_net.client.i18n import MESSAGES, detect_lang, fields, normalize_lang, t


def test_every_key_in_both_languages_with_same_placeholders():
    assert len(MESSAGES) > 100
    for key, texts in MESSAGES.items():
        assert isinstance(texts, tuple) and len(texts) == 2, key
        en, zh = texts
        assert en.strip() and zh.strip(), f"{key}: empty text"
        assert fields(en) == fields(zh), f"{key}: placeholders differ: {fields(en)} vs {fields(zh)}"


def test_chinese_uses_the_rules_terms():
    terms = {"round.attack": "进攻", "round.defense": "防守", "round.supply": "补给", "round.discard": "丢弃",
             "identity.L": "地主", "identity.C": "协调员", "identity.F": "农民", "identity.N": "旁白",
             "quality.simple": "简单", "quality.fine": "精致", "quality.advanced": "高级",
             "col.recovered": "回收的牌", "col.equipment": "装备", "hand.title": "意图牌"}
    for key, word in terms.items():
        assert word in MESSAGES[key][1], key
    assert "收牌" in MESSAGES["res.collect"][1] and "质量" in MESSAGES["equip.desc"][1]


def test_every_key_used_by_the_client_exists():
    """Keys written literally in the client sources are all defined (in one of the
    catalog's tables: watch's --help texts are in the command-line table)."""
    import pathlib
    import re

    from jupai_net.messages import catalog

    src = pathlib.Path(i18n.__file__).parent
    used = set()
    for name in [p.name for p in src.glob("*.py")]:
        path = src / name
        if path.exists():
            used |= set(re.findall(r"""\bt\(\s*["']([a-z_.\-]+)["']""", path.read_text(encoding="utf-8")))
    assert used, "no t('key') call found"
    defined = catalog()
    missing = sorted(k for k in used if k not in defined)
    assert not missing, missing


def test_t_formats_and_rejects_unknown_keys():
    assert t("seat.named", "en", n=2, name="Ann") == "seat 2 (Ann)"
    assert t("seat.named", "zh", n=2, name="Ann") == "2号位（Ann）"
    assert t("act.pass", "fr") == "pass"  # unknown language falls back to English
    with pytest.raises(KeyError):
        t("no.such.key", "en")


@pytest.mark.parametrize(
    "env, lang",
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN"}, "zh"),
        ({"LC_ALL": "", "LANG": "zh_HK"}, "zh"),
    ],
)
def test_detect_lang(env, lang):
    assert detect_lang(env) == lang


def test_normalize_lang():
    assert normalize_lang("zh") == "zh" and normalize_lang("ZH_cn") == "zh"
    assert normalize_lang("en") == "en" and normalize_lang(None) == "en" and normalize_lang("de") == "en"
