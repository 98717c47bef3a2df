"""Door codes: the digits that open a door, an alarm, a lock or a safe.

A code is named by what it opens, in the word order of each language (a row
of ``CODE_WORDS`` per language: ``Türcode``, ``Alarmanlagen-Code``, ``code de
la porte``, ``código del garaje``, ``codice dell'allarme``, ``код домофона``,
``门禁密码``); English's ``door code 4829`` is ``weaklabels.CODE_PIN``'s, which
shares ``door_value`` with this frame. After the label a few words may say
which door (``de l'immeuble``, ``zur Garage``, ``for the office``) before ``:``,
``=`` or "is"; a space alone needs the value right after the label.

A value is 4-8 digits (``4829``), digits split by dashes or spaces
(``1-9-7-3``), or a keypad's 4-8 capitals and digits with 3+ digits and at most
two letters (a French digicode: ``4B219``); digits that count or date
something (``1200 lines``, ``2024 firmware``) are none (``values.not_a_pin``).
"""

from __future__ import annotations

import re

from gardener.neverstore.regex import Span
from gardener.neverstore.tables import alts, words_of
from gardener.neverstore.values import not_a_pin

# what a code opens, per language (regex, a row each)
CODE_WORDS = (
    (
        "de",
        r"(?:haus|keller|wohnungs|eingangs|büro|garagen|hof|garten)?(?:t[üu]r|tor)-?code"
        r"|(?:alarm(?:anlagen)?|tresor|schloss|zahlen|garagen|zugangs|tastatur"
        r"|schließfach|safe)-?code",
        "haus keller wohnungs eingangs büro garagen hof garten tür tur tor alarm"
        " tresor schloss zahlen zugangs tastatur schließfach safe",
    ),
    (
        "de",
        r"code[ \t]+(?:der|für[ \t]+die|vom|des)[ \t]+(?:tür|alarmanlage|tor|tresor)\w*",
    ),
    (
        "fr",
        r"digicode|code[ \t]+(?:de[ \t]+la|du|de[ \t]+l['\u2019])[ \t]*"
        r"(?:porte|portail|alarme|garage|cadenas|coffre|immeuble|entrée)",
    ),
    (
        "es",
        r"(?:código|clave)[ \t]+(?:(?:de[ \t]+la|del)[ \t]+"
        r"(?:puerta|portal|alarma|garaje|candado|caja)|de[ \t]+acceso)",
        "código clave",
    ),
    (
        "it",
        r"codice[ \t]+(?:(?:della|del|dello|dell['\u2019])[ \t]*"
        r"(?:porta|portone|allarme|cancello|garage|lucchetto|cassaforte|citofono)"
        r"|d['\u2019]accesso|di[ \t]+accesso)",
    ),
    (
        "pt",
        r"código[ \t]+(?:(?:da|do)[ \t]+"
        r"(?:porta|portão|alarme|garagem|cadeado|cofre|portaria)|de[ \t]+acesso)",
    ),
    (
        "ru",
        r"код[ \t]+(?:от[ \t]+)?(?:домофона|двери|сигнализации|замка|сейфа|подъезда|калитки)",
    ),
    (
        "nl",
        r"(?:deur|poort|alarm|kluis|garage|toegangs|voordeur)[ \t-]?code",
        "deur poort alarm kluis garage toegangs voordeur",
    ),
    (
        "pl",
        r"kod[ \t]+(?:(?:do|od)[ \t]+(?:drzwi|bramy|domofonu|alarmu|sejfu|kłódki"
        r"|garażu)|dostępu)",
    ),
    ("tr", r"(?:kapı|alarm|kasa|garaj|giriş)[ \t]+kodu", "kapı alarm kasa garaj giriş"),
    ("sv", r"portkod|dörrkod|larmkod|kodlås"),
    ("zh", r"门禁密码|门锁密码|银行卡密码|保险箱密码|密码锁"),
    ("ja", r"暗証番号"),
)
# "is" in the languages of the rows
_IS = r"ist|est|es|è|é|это|is"
# the digits, digits split by dashes or spaces, or a keypad's capitals and digits
VALUE = r"(?P<value>\d(?:[- ]\d){3,7}|\d{4,8}|[0-9A-Z]{4,8})(?![\w%]|[.,:/-]\d)"
CODE = (
    # after a hyphen too: "Büro-Türcode"
    rf"(?:(?<![\w.])|(?<=[\u2e80-\u9fff]))(?i:{alts(CODE_WORDS)})"
    # a few words for which door, then ":" or "is"; or a space alone
    r"(?:(?:[ \t]+[^\s:：=,;.!?]{1,24}){0,4}?"
    rf"(?:[ \t]*[:：=][ \t]*|[ \t]+(?i:{_IS})[ \t]+|[ \t]*(?:是|は)[ \t]*)|[ \t]+)#?"
    + VALUE
)
CODE_ROUTE = words_of(CODE_WORDS)


def door_value(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a code's value (see the module docstring)."""
    value = text[start:end]
    digits = sum(c.isdigit() for c in value)
    if digits < len(value.replace("-", "").replace(" ", "")):
        letters = len(value) - digits
        return digits >= 3 and letters <= 2 and value.isascii() and value.isupper()
    return not not_a_pin(text, start, end)


def code(text: str, m: re.Match[str]) -> Span | None:
    """The value after a code that opens something, if it is one."""
    s, e = m.span("value")
    return (s, e) if door_value(text, s, e) else None
