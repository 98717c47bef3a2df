"""Words that are no value where a label points at one, a line per language.

``values.plausible`` reads these: after ``password:`` or ``das Passwort ist``, a
word that says where the value is or what it is like (``see vault``, ``gültig``,
``expiré``) is prose, not the password. A word in a new language is one more word
on its line, with a case in tests/neverstore/data/benign.tsv.
"""

from __future__ import annotations

# Words that sit where a value would but say where it is or what it is like,
# per language (a line each: a word in a new language is one more word here).
NOT_VALUE_WORDS = (
    (
        "en",
        """none null nil empty blank n/a na tbd todo unknown unset redacted hidden
    masked required optional see in at on from stored kept saved ask check via use
    using with without reset rotate rotated changed expired invalid valid wrong correct
    incorrect weak strong long short too not never always set the a an this that it its
    my your our their his her what which who where when how if and or but is are was be
    been must should will can could would may might only also still now here there
    below above same true false yes no off str string bytes int bool text any dict
    secretstr env environment vault keychain keyring 1password bitwarden lastpass
    manager case protected encrypted hashed managed shared known provided generated
    random different unchanged available missing password passwords passwd pass pwd
    secret token key xxx placeholder example sample dummy fake flag flags option
    options argument arg args parameter param switch prompt instead value values
    policy policies rules requirements length strength hint field done gone fine ok
    okay changeme change_me change-me replaceme replace_me changeit""",
    ),
    (
        "de",
        """erforderlich gültig ungültig falsch richtig abgelaufen geändert gesperrt
    leer unbekannt geheim sicher unsicher schwach stark neu alt hier dort siehe im
    nicht noch immer zu kurz lang""",
    ),
    (
        "fr",
        """obligatoire valide invalide faux incorrect expiré changé modifié vide
    inconnu ici voir dans fort faible nouveau ancien pas toujours normal normale
    masqué masquée caché cachée""",
    ),
    (
        "es",
        """requerida requerido válida válido inválida inválido incorrecta
    incorrecto correcta correcto caducada caducado cambiada cambiado vacía vacío
    aquí ver en fuerte débil nueva nuevo vieja no""",
    ),
    (
        "pt",
        """obrigatória válida inválida incorreta correta expirada alterada vazia
    aqui ver em forte fraca nova antiga não""",
    ),
    (
        "it",
        """obbligatoria valida non corretta errata scaduta cambiata vuota qui
    vedi nel forte debole nuova vecchia""",
    ),
    ("nl", "vereist geldig ongeldig verlopen gewijzigd leeg hier zie sterk zwak"),
    ("da", "roteret ændret skiftet udløbet nulstillet ny gammel her se"),
    ("cs", "ve v změněno změněné nové nový správci správce zde viz"),
    (
        "ru",
        """неверный верный правильный истёк истек изменён изменен пустой
    здесь см в надёжный надежный слабый новый старый не""",
    ),
)
