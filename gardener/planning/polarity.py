"""Polarity: whether a sentence says someone is for or against something
("Sam loves coffee" / "Sam hates coffee", "started" / "stopped", "prefers X"
/ "no longer prefers X"), in en, de, fr, es, ru, zh and ja (pure).

``check`` reports two current entries with the same subject and object and
opposite polarity (``gardener.planning.check``); the classifier may use it to
let the newer supersede the older.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from gardener.model.facts import normalize_value

# the verbs, by sign; a negator before them (or "nicht"/"pas"... after) flips it
_EN_POS = (
    "loves|love|likes|like|enjoys|enjoy|prefers|prefer|adores|adore|started|starts|"
    "start|began|begins|uses|use|is using|wants|want|supports|support|drinks|drink|"
    "eats|eat|plays|play|is into|is a fan of"
)
_EN_NEG = (
    "hates|hate|dislikes|dislike|detests|detest|stopped|stops|stop|quit|quits|"
    "avoids|avoid|gave up|gives up|is done with|can't stand|cannot stand"
)
_EN_NOT = (
    r"no longer|not|never|doesn't|does not|don't|do not|didn't|did not|isn't|"
    r"is not|won't|will not|has stopped|has not|hasn't"
)
_DE_POS = (
    "liebt|mag|bevorzugt|nutzt|benutzt|verwendet|trinkt|isst|spielt|genießt|möchte|will"
)
_DE_NEG = "hasst|verabscheut|meidet|vermeidet|verachtet"
_FR_POS = (
    "aime|adore|préfère|utilise|boit|mange|joue|apprécie|veut|commence|a commencé|"
    "a recommencé"
)
_FR_NEG = "déteste|hait|évite|arrête|abhorre|a arrêté|a cessé|cesse"
_ES_POS = (
    "ama|adora|prefiere|usa|utiliza|toma|bebe|come|juega|disfruta|quiere|empezó|"
    "comenzó|le gusta|le encanta"
)
_ES_NEG = "odia|detesta|evita|dejó|abandonó"
_RU_POS = (
    "любит|обожает|предпочитает|использует|пьёт|пьет|ест|играет|хочет|начал|"
    "начала|начали"
)
_RU_NEG = (
    "ненавидит|терпеть не может|избегает|бросил|бросила|перестал|перестала|"
    "отказался от|отказалась от"
)
_ZH_POS = "更喜欢|喜欢|热爱|爱|偏好|偏爱|使用|在用|用|开始|想要"
_ZH_NEG = "讨厌|厌恶|反感|停止|放弃|戒掉了|戒了|戒掉"
_JA_POS = "大好き|好き|使っています|使っている|使う|始めました|始めた"
_JA_NEG = "大嫌い|嫌い|やめました|やめた|止めた"

_FLAGS = re.IGNORECASE | re.DOTALL
_RULES: tuple[re.Pattern[str], ...] = (
    # en: Sam [no longer] loves coffee [now]
    re.compile(
        rf"^(?P<subject>.+?)\s+(?:(?P<not>{_EN_NOT})\s+)?"
        rf"(?:(?P<pos>{_EN_POS})|(?P<neg>{_EN_NEG}))\s+(?P<object>.+)$",
        _FLAGS,
    ),
    # de: Sam mag [keinen] Kaffee [nicht] [mehr]
    re.compile(
        rf"^(?P<subject>.+?)\s+(?:(?P<pos>{_DE_POS})|(?P<neg>{_DE_NEG}))\s+"
        r"(?:(?P<not>kein(?:e[nmrs]?)?)\s+)?(?P<object>.+?)"
        r"(?:\s+(?P<not2>nicht)(?:\s+mehr)?|\s+mehr)?$",
        _FLAGS,
    ),
    # de: Sam hat angefangen / aufgehört[,] zu joggen (a habit begun or given up)
    re.compile(
        r"^(?P<subject>.+?)\s+(?:hat|hatte)\s+(?:(?P<pos>angefangen|begonnen)|"
        r"(?P<neg>aufgehört)),?\s+(?P<object>(?:.+?\s+)?zu\s+\w+)$",
        _FLAGS,
    ),
    # fr: Sam [n'|ne] aime [pas|plus] le café; Sam a arrêté de fumer
    re.compile(
        rf"^(?P<subject>.+?)\s+(?:(?P<not>n'|ne\s+))?(?:(?P<pos>{_FR_POS})|"
        rf"(?P<neg>{_FR_NEG}))(?:\s+(?P<not2>pas|plus|jamais))?"
        r"(?:\s+(?:de|à)\s+|\s+d'|\s+)(?P<object>.+)$",
        _FLAGS,
    ),
    # es: Sam [ya] [no] toma café
    re.compile(
        rf"^(?P<subject>.+?)\s+(?:(?:ya\s+)?(?P<not>no|nunca)\s+)?"
        rf"(?:(?P<pos>{_ES_POS})|(?P<neg>{_ES_NEG}))(?:\s+(?:de|a))?\s+(?P<object>.+)$",
        _FLAGS,
    ),
    # ru: Сэм [больше] [не] любит кофе
    re.compile(
        rf"^(?P<subject>.+?)\s+(?:(?:больше|уже)\s+)?(?:(?P<not>не)\s+)?"
        rf"(?:(?P<pos>{_RU_POS})|(?P<neg>{_RU_NEG}))\s+(?P<object>.+)$",
        _FLAGS,
    ),
    # zh: 山姆[不再]喜欢咖啡
    re.compile(
        rf"^(?P<subject>.+?)(?P<not>不再|再也不|不|没有|没)?"
        rf"(?:(?P<pos>{_ZH_POS})|(?P<neg>{_ZH_NEG}))(?P<object>.+)$",
        _FLAGS,
    ),
    # ja: サムは[もう]コーヒーが好き[ではない]です
    re.compile(
        rf"^(?P<subject>.+?)は(?:もう)?(?P<object>.+?)(?:が|を)"
        rf"(?:(?P<pos>{_JA_POS})|(?P<neg>{_JA_NEG}))"
        r"(?P<not>ではない|じゃない|ではありません|じゃありません|ではなくなった)?"
        r"(?:です|だ|でした|になった|になりました)?$",
        _FLAGS,
    ),
)
# time words are never part of a subject or an object ("Sam now", "coffee again")
_TIME = re.compile(
    r"\b(?:now|nowadays|these days|lately|again|anymore|any more|currently|today|"
    r"jetzt|inzwischen|mittlerweile|maintenant|désormais|ahora|ya|сейчас|теперь|"
    r"since \w+|still|also|really|too|even|"
    # aspect and focus words say when or how much, not who: "Sam still prefers tea"
    r"immer noch|noch immer|auch|aussi|encore|también|todavía|aún|тоже|также|всё ещё|"
    r"always|immer|toujours|siempre|всегда)\b"
    r"|现在|如今|最近|今は|最近は|もう|仍然|依然",
    re.IGNORECASE,
)
_ARTICLES = frozenset(
    [
        "the",
        "a",
        "an",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "ein",
        "eine",
        "einen",
        "le",
        "la",
        "les",
        "l",
        "un",
        "une",
        "el",
        "los",
        "las",
        "unos",
        "unas",
    ]
)
_END = re.compile(r"[\s.!?。！？、,;:]+$")


@lru_cache(maxsize=4096)
def polarity(text: str) -> tuple[str, str, int] | None:
    """(subject, object, +1 or -1) of a sentence that says someone is for (+1)
    or against (-1) something, compared as values compare (case, spaces,
    punctuation, Unicode form, articles and time words ignored); None when it
    says neither. ``"Sam no longer prefers Ronaldo"`` -> ``("sam", "ronaldo", -1)``.
    """
    found = polar_parts(text)
    if found is None:
        return None
    subject, thing, sign = found
    return _plain(subject), _plain(thing), sign


@lru_cache(maxsize=4096)
def polar_parts(text: str) -> tuple[str, str, int] | None:
    """(subject, object, sign) as ``polarity`` reads them but as written (NFKC,
    time words and end punctuation dropped, case kept): the parts of a key
    ("Sam / coffee"). None when the sentence says neither for nor against."""
    line = _END.sub("", unicodedata.normalize("NFKC", text).strip())
    if not line or len(line) > 300:
        return None
    for rule in _RULES:
        m = rule.match(line)
        if not m:
            continue
        subject, thing = _written(m.group("subject")), _written(m.group("object"))
        if not _plain(subject) or not _plain(thing):
            continue
        sign = 1 if m.group("pos") else -1
        groups = m.groupdict()
        if groups.get("not") or groups.get("not2"):
            sign = -sign
        return subject, thing, sign
    return None


def _written(part: str) -> str:
    """A part as written, without time words, markup and end punctuation."""
    text = " ".join(_TIME.sub(" ", part).replace("**", "").split())
    return _END.sub("", text).strip(" *_`\"'")


def _plain(part: str) -> str:
    """A subject or object as compared: no time words, articles or punctuation."""
    words = normalize_value(_TIME.sub(" ", part)).split()
    return " ".join(w for w in words if w not in _ARTICLES)
