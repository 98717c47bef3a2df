"""Credential words of every language, as data, for the evidence scorer (``evidence``).

A row is ``(language, kind, alternatives)``: words, "|"-separated, matched
case-insensitively anywhere in a text (``evidence.stems``, as a trie); the word they sit in may carry
an inflection after them (``lösenordet``, ``şifresini``, ``hesla``) and, in the
languages of ``COMPOUNDING``, a noun before them (``Zugangscode``, ``portkoden``,
``WLAN-Schlüssel``); Arabic and Hebrew words may carry a clitic before them
(``CLITICS``: "and", "the", "to"). The kind says what a value after the word is
likely to look like:

- ``pass``: a password (``Passwort``, ``salasana``, ``كلمة السر``): any strong or
  joined shape, a passlike word with digits;
- ``pin``: digits (``PIN``, ``Zugangscode``, ``קוד``): 4-8 digits or dashed groups,
  or a password's shape;
- ``key``: a key or a token (``Schlüssel``, ``avain``, ``مفتاح``): a password's
  shape, a long random run, 32+ hex digits;
- ``login``: a login or an account (``Zugangsdaten``, ``identifiants``, ``账号``):
  a password's strong shape; after ``user /``, any password's shape
  (``admin / Kettle!Drum42``);
- ``network``: a network (``wifi``, ``와이파이``): after ``name /`` only, a
  password's shape (``HomeNet / Kestrel-1984``); the word after it is its name;
- ``lock``: what a code opens (``keypad``, ``Tresor``, ``kluis``, ``金庫``): digits,
  as after a PIN word, but not digits that a noun follows ("the keypad 1234
  layout"), and a date's shape is a combination's code there;
- ``answer``: a security question (``Sicherheitsfrage``, ``first pet``, ``旧姓``):
  the words after a separator to the clause's end (``ANSWERED`` too).

A word in a new language is one row, with a refused case in
tests/neverstore/data/refused.tsv (tests/neverstore/test_tables.py checks it).
What makes such a word no credential word ("key decision", "dress code", "source
code") is ``SENSES``: a row per language of the words before or after it.
"""

from __future__ import annotations

Row = tuple[str, str, str]  # (language, kind, alternatives)

CRED_WORDS: tuple[Row, ...] = (
    ("en", "pass", r"password|passwd|passphrase|passcode|pass phrase|pass-phrase|pwd"),
    ("en", "pass", r"pasword|passwrod|passowrd|psk|pw"),
    ("en", "pin", r"pin|puk"),
    ("en", "pin", r"code|combination|combo"),
    ("en", "lock", r"keypad|lockbox|keybox|padlock|safe"),
    ("en", "key", r"secret|token|apikey|passkey|key"),
    ("en", "login", r"login|logins|log-in|credentials|creds|account|sign-in|user"),
    ("en", "network", r"wifi|wi-fi|wlan|hotspot|ssid"),
    ("en", "answer", r"security question|secret question|security answer|security q"),
    ("en", "answer", r"first pet|maiden name|first school|born in|memorable word"),
    ("de", "pass", r"passwort|kennwort|passphrase"),
    ("de", "pin", r"code|geheimzahl|kombination|zahlenschloss"),
    ("de", "lock", r"tresor|schlüsselkasten|vorhängeschloss"),
    ("de", "key", r"schlüssel|schluessel"),
    ("de", "login", r"zugang|zugangsdaten|anmeldung|konto|benutzer"),
    ("de", "answer", r"sicherheitsfrage|geheimfrage|mädchenname|geburtsort"),
    ("fr", "pass", r"mot de passe|mdp|phrase secrète|phrase de passe"),
    ("fr", "pin", r"code|digicode|combinaison"),
    ("fr", "lock", r"coffre-fort|cadenas"),
    ("fr", "key", r"clé|clef|jeton"),
    ("fr", "login", r"identifiants|identifiant|compte|connexion|utilisateur"),
    ("fr", "answer", r"question secrète|question de sécurité|nom de jeune fille"),
    ("es", "pass", r"contraseña|contrasena"),
    ("es", "pin", r"código|codigo|clave|combinación"),
    ("es", "lock", r"caja fuerte|candado"),
    ("es", "key", r"llave"),
    ("es", "login", r"credenciales|usuario|cuenta|acceso"),
    ("es", "answer", r"pregunta de seguridad|pregunta secreta|apellido de soltera"),
    ("es", "answer", r"respuesta de seguridad"),
    ("it", "pass", r"parola d'ordine|parola d’ordine|passphrase"),
    ("it", "pin", r"codice|combinazione"),
    ("it", "lock", r"cassaforte|lucchetto"),
    ("it", "key", r"chiave"),
    ("it", "login", r"credenziali|utente|accesso|account"),
    ("it", "answer", r"domanda di sicurezza|domanda segreta|nome da nubile"),
    ("pt", "pass", r"senha"),
    ("pt", "pin", r"código|codigo|combinação"),
    ("pt", "lock", r"cofre|cadeado"),
    ("pt", "key", r"chave"),
    ("pt", "login", r"login|credenciais|usuário|utilizador|conta|acesso"),
    ("pt", "answer", r"pergunta de segurança|pergunta secreta|nome de solteira"),
    ("nl", "pass", r"wachtwoord"),
    ("nl", "pin", r"code|pincode|toegangscode"),
    ("nl", "lock", r"kluis|hangslot|cijferslot"),
    ("nl", "key", r"sleutel"),
    ("nl", "login", r"inlog|inloggegevens|gebruiker|account"),
    ("nl", "answer", r"beveiligingsvraag|geheime vraag|meisjesnaam"),
    ("pl", "pass", r"hasło|haslo|hasła|hasłem"),
    ("pl", "pin", r"kod"),
    ("pl", "key", r"klucz"),
    ("pl", "login", r"login|logowanie|konto|użytkownik|dane logowania"),
    ("pl", "answer", r"pytanie pomocnicze|pytanie bezpieczeństwa|nazwisko panieńskie"),
    ("tr", "pass", r"şifre|sifre|parola"),
    ("tr", "pin", r"kod"),
    ("tr", "key", r"anahtar"),
    ("tr", "login", r"kullanıcı|giriş|hesap"),
    ("tr", "answer", r"güvenlik sorusu|gizli soru|kızlık soyadı"),
    ("sv", "pass", r"lösenord|losenord|lösen"),
    ("sv", "pin", r"kod|pinkod|larmet|larmkod"),
    ("sv", "key", r"nyckel|nyckeln"),
    ("sv", "login", r"inloggning|konto|användare"),
    ("sv", "answer", r"säkerhetsfråga|säkerhetsfrågan|flicknamn"),
    ("da", "pass", r"adgangskode|kodeord"),
    ("da", "pin", r"kode|alarmen|alarmkode"),
    ("da", "key", r"nøgle|nøglen"),
    ("da", "login", r"login|konto|bruger"),
    ("da", "answer", r"sikkerhedsspørgsmål|pigenavn"),
    ("no", "pass", r"passord"),
    ("no", "pin", r"kode|alarmen|alarmkode"),
    ("no", "key", r"nøkkel|nøkkelen"),
    ("no", "login", r"innlogging|konto|bruker"),
    ("no", "answer", r"sikkerhetsspørsmål|pikenavn"),
    ("fi", "pass", r"salasana|salasanan|salasanaksi"),
    ("fi", "pin", r"koodi|tunnusluku|pin-koodi"),
    ("fi", "key", r"avain|avaimen"),
    ("fi", "login", r"tunnus|tunnukset|käyttäjä|kirjautuminen"),
    ("fi", "answer", r"turvakysymys|tyttönimi"),
    ("cs", "pass", r"heslo|hesla|heslem"),
    ("cs", "pin", r"kód"),
    ("cs", "lock", r"trezor|kombinace|kombinací|kombinaci"),
    ("cs", "key", r"klíč"),
    ("cs", "login", r"přihlášení|účet|uživatel"),
    ("cs", "answer", r"bezpečnostní otázka|kontrolní otázka|rodné příjmení"),
    ("ru", "pass", r"пароль|пароля|паролем|парол"),
    ("ru", "pass", r"кодовое слово|кодовым словом"),
    ("ru", "pin", r"код|пин"),
    ("ru", "lock", r"сейф|сейфа|навесной замок"),
    ("ru", "key", r"ключ|токен"),
    ("ru", "login", r"логин|вход|учётка|учетка|аккаунт|пользователь"),
    ("ru", "answer", r"контрольный вопрос|секретный вопрос|девичья фамилия"),
    ("uk", "pass", r"пароль|пароля"),
    ("uk", "pin", r"код|пін"),
    ("uk", "key", r"ключ"),
    ("uk", "login", r"вхід|логін|обліковий запис|користувач"),
    ("uk", "answer", r"контрольне питання|секретне питання|дівоче прізвище"),
    ("zh", "pass", r"密码|密碼|口令"),
    ("zh", "pin", r"门禁码|开门码"),
    ("zh", "lock", r"保险箱|保险柜|密码锁"),
    ("zh", "key", r"密钥|密鑰|令牌"),
    ("zh", "login", r"账号|帐号|账户|用户名|登录"),
    ("zh", "network", r"无线"),
    ("zh", "answer", r"密保问题|安全问题|密保答案"),
    ("ja", "pass", r"パスワード|暗証番号|パスフレーズ|パスコード"),
    ("ja", "lock", r"金庫|南京錠|ダイヤル錠"),
    ("ja", "key", r"キー|トークン|秘密鍵"),
    ("ja", "login", r"ログイン|アカウント|ユーザー"),
    ("ja", "answer", r"秘密の質問|秘密の答え|旧姓"),
    ("ko", "pass", r"비밀번호|암호|비번"),
    ("ko", "key", r"토큰"),
    ("ko", "login", r"로그인|계정|아이디"),
    ("ko", "lock", r"출입 번호|출입번호|현관 번호|현관번호|도어락|자물쇠|금고"),
    ("ko", "network", r"와이파이"),
    ("ko", "answer", r"보안 질문|비밀 질문"),
    ("ar", "pass", r"كلمة المرور|كلمة السر|كلمة مرور|كلمة سر|الرقم السري"),
    ("ar", "pass", r"باسورد|الباسورد|باسوورد"),
    ("ar", "pin", r"رمز|الرمز"),
    ("ar", "lock", r"الخزنة|خزنة|الخزينة"),
    ("ar", "key", r"مفتاح|المفتاح"),
    ("ar", "login", r"حساب|الحساب|المستخدم|تسجيل الدخول"),
    ("ar", "answer", r"سؤال الأمان|السؤال السري|سؤال الأمن"),
    ("he", "pass", r"סיסמה|סיסמא|סיסמת"),
    ("he", "pin", r"קוד"),
    ("he", "key", r"מפתח"),
    ("he", "login", r"משתמש|חשבון|כניסה"),
    ("he", "answer", r"שאלת אבטחה|שאלת הביטחון"),
    ("el", "pass", r"κωδικός πρόσβασης|κωδικό πρόσβασης|συνθηματικό"),
    ("el", "pin", r"κωδικός|κωδικό"),
    ("el", "lock", r"συνδυασμός|συνδυασμό|χρηματοκιβώτιο"),
    ("el", "key", r"κλειδί"),
    ("hu", "pass", r"jelszó|jelszava|jelszót|jelszavam"),
    ("hu", "pin", r"kód|kódja|pin-kód"),
    ("hu", "pin", r"kapukód|ajtókód|riasztókód|széfkód|zárkód"),
    ("hu", "key", r"kulcs|kulcsa"),
    ("ro", "pass", r"parola|parolă|parolei"),
    ("ro", "pin", r"cod|codul"),
    ("ro", "key", r"cheie|cheia"),
    ("id", "pass", r"kata sandi|sandi"),
    ("id", "pin", r"kode"),
    ("id", "key", r"kunci"),
    ("vi", "pass", r"mật khẩu"),
    ("vi", "pin", r"mã pin|mã số"),
    ("vi", "lock", r"mã cửa|mã két|mã khóa"),
    ("vi", "pin", r"mã khôi phục|mã dự phòng"),
    ("vi", "key", r"khóa|khoá"),
    ("hr", "pass", r"lozinka|lozinku|šifra|šifru"),
    ("hr", "key", r"ključ"),
    ("bg", "pass", r"парола|паролата"),
    ("fa", "pass", r"رمز عبور|گذرواژه|کلمه عبور"),
    ("fa", "key", r"کلید"),
    ("hi", "pass", r"पासवर्ड|कूटशब्द"),
    ("hi", "pin", r"पिन|कोड"),
    ("th", "pass", r"รหัสผ่าน"),
    ("th", "pin", r"รหัส"),
    ("th", "key", r"คีย์"),
    ("hi", "key", r"कुंजी|चाबी"),
    ("hi", "login", r"लॉगिन|खाता|यूज़र"),
    ("hi", "answer", r"सुरक्षा प्रश्न"),
)

# Languages that write a compound as one word: a noun before the credential
# word stays a credential word ("Zugangscode", "portkoden", "WLAN-Schlüssel")
COMPOUNDING = frozenset({"de", "nl", "sv", "da", "no", "fi", "hu"})
# Scripts written without spaces between words: a credential word there may
# sit inside a run of other words ("รหัสประตูคอนโด"), as a CJK one does
UNSPACED = ("\u0e00-\u0e7f",)  # Thai
# ... and the words there that start with a credential word but are none
UNSPACED_NOT = ("รหัสไปรษณีย์",)  # Thai: a postal code
# Clitics that Arabic and Hebrew write onto a word: "and", "the", "to", "in"
CLITICS = {"ar": ("و", "ب", "ل", "ال", "وال", "بال", "لل", "ف"), "he": tuple("הולבשמכ")}
# Letters an inflection may add after a word, at most (``lösenordet``, ``şifresini``)
INFLECTION = 5

# Words a credential word sits in that are no credential word: "barcode",
# "unicode", "monkey", "tokenizer" (lowercase, whole words)
_NOT_WORDS = """barcode unicode encode decode encoded decoded encoder decoder opcode
    postcode zipcode qrcode bytecode shellcode pseudocode keyboard keynote keyword
    keywords keystroke keystrokes keyframe keyframes monkey hockey turkey donkey
    whiskey jockey keys hotkey hotkeys tokenizer tokenize tokenized tokenization
    tokens secrets secretary secretly pinned pinning pins pinch pinned spinning
    combinations codes codebase codec codecs codegen codeowners codename codex
    coded coder coders coding passwords passwordless keyless keyed keypair
    quellcode programmcode strichcode fehlercode statuscode gutscheincode
    rabattcode ländercode landcode dresscode sourcecode kildekode lähdekoodi
    källkod broncode kodex kodeks kodowanie codice_fiscale
    passkeys keychain keyring keyvault keystore pinboard pinterest"""
NOT_WORDS = frozenset(_NOT_WORDS.split())

# What makes a credential word no credential word, per language: a word right
# before it or right after it ("key decision", "dress code", "token budget",
# "pin the version"). A row is (language, stems, before, after): the stems it
# applies to (as ``CRED_WORDS`` matched them, "|"-separated), and the words
# before and after, space-separated, lowercase.
SENSES: tuple[tuple[str, str, str, str], ...] = (
    (
        "en",
        "code|codes",
        "source dress country area zip postal status error exit return promo"
        " discount qr bar machine byte op morse color colour http response sample"
        " example test legacy production app application client server frontend"
        " backend library verification confirmation otp sms one-time activation",
        "of review reviews base quality style smell smells path paths block blocks"
        " change changes owner owners freeze generation coverage name names"
        " editor editors snippet snippets sample samples point points",
    ),
    (
        "en",
        "key",
        "ssh gpg pgp public primary foreign sort partition cache idempotency"
        " composite unique routing shard lookup index dedup hash map object house"
        " car spare physical",
        "decision decisions point points takeaway takeaways result results"
        " question questions insight insights part factor factors player players"
        " metric metrics stakeholder stakeholders figure figures issue issues"
        " moment moments frame frames finding findings risk risks feature features"
        " date dates term terms idea ideas driver drivers difference benefit"
        " benefits concern concerns lesson lessons learning learnings component"
        " components aspect aspects area areas step steps goal goals milestone"
        " milestones requirement requirements challenge challenges word words"
        " phrase phrases fingerprint fingerprints id ids name names pair pairs"
        " rotation rotations length size sizes type types format features fob",
    ),
    (
        "en",
        "token|tokens",
        "max input output prompt completion context",
        "budget budgets limit limits count counts usage window length cost costs"
        " per expiry expiration expired endpoint endpoints format lifetime ttl",
    ),
    (
        "en",
        "secret",
        "top open trade kubernetes k8s",
        "santa sauce weapon ingredient manager managers name names store stores"
        " mount mounted mounts engine",
    ),
    (
        "en",
        "password|passwd|passphrase|passcode",
        "forgot forgotten reset one-time",
        "policy policies manager managers reset resets rotation requirements"
        " requirement rules rule strength complexity field fields prompt prompts"
        " hint hints length expiry change changes form page hash hashes hashing"
        " protected less",
    ),
    (
        "en",
        "pin",
        "gpio header cert certificate tls ssl hpkp key",
        "pad pads the to it this that a an them versions version dependencies"
        " dependency numpy",
    ),
    (
        "de",
        "code",
        "quell programm fehler status länder post rabatt gutschein bar",
        "richtlinie richtlinien regel regeln frage fragen länge",
    ),
    (
        "de",
        "passwort|kennwort",
        "",
        "richtlinie richtlinien regel regeln länge manager",
    ),
    ("fr", "code", "", "source pénal postal promo barre"),
    ("fr", "mot de passe", "", "oublié"),
    ("es", "código", "", "fuente postal promocional barras"),
    ("it", "codice", "", "sorgente fiscale postale promozionale"),
    ("pl", "kod", "", "źródłowy źródłowego źródłowym pocztowy pocztowego"),
    ("pt", "código", "", "fonte postal promocional barras"),
    # a postal code: "Posta kodu 34710", "الرمز البريدي", "पिन कोड" (India's)
    ("tr", "kod", "posta", ""),
    ("ar", "رمز|الرمز", "", "البريدي"),
    ("hi", "पिन", "", "कोड"),
    ("hi", "कोड", "पिन", ""),
    ("ro", "cod|codul", "", "poștal postal poştal"),
    ("id", "kode", "", "pos"),
    ("en", "safe", "fail thread type memory", "choice mode side bet place to word"),
)

# Verbs that open a lock, per language: cheap to read past between a lock's
# word and its code ("De sleutelkluis gaat open met 2271", "gym locker 212
# opens with 1734")
OPEN_WORDS: tuple[tuple[str, str], ...] = (
    ("en", r"open|opens|opened|unlocks|unlock|unlocked|disarm|disarms|disarmed"),
    ("de", r"öffnet|geht|auf|entsperrt|entschärft"),
    ("fr", r"ouvre|ouvrir|déverrouille|désactive"),
    ("es", r"abre|abrir|desbloquea|desactiva"),
    ("it", r"apre|aprire|sblocca|disattiva"),
    ("pt", r"abre|abrir|desbloqueia|desativa"),
    ("nl", r"open|opent|gaat|ontgrendelt"),
    ("pl", r"otwiera|otworzysz|odblokowuje"),
    ("cs", r"otevřeš|otevře|otevírá|odemkneš"),
    ("sv", r"öppnar|öppnas|låser"),
    ("da", r"åbner|åbnes|låser"),
    ("no", r"åpner|åpnes|låser"),
    ("ru", r"открывается|открывает|открыть|открываешь"),
    ("tr", r"açılır|açar|açılıyor"),
)
# What answers a question in a note ("Q: what's the garage keypad? A: 3947"):
# after a credential word's question mark, a token of these and a colon
ANSWER_MARKS = """a answer antwort réponse respuesta resposta risposta antwoord
    odpowiedź cevap svar vastaus ответ відповідь r 답 答 回答 答え"""

# Verbs that set or change a value, per language: in their clause a plain word
# after "to" is the new value ("set the kiosk password to Ember", "Passwort auf
# Forelle gesetzt", "поменял пароль роутера на Ryabina")
CHANGE_WORDS: tuple[tuple[str, str], ...] = (
    ("en", r"set|sets|changed|change|reset|updated|rotated|switched"),
    ("de", r"geändert|geaendert|gesetzt|geändert|umgestellt|ändern"),
    ("fr", r"changé|changée|mis|modifié|modifiée|remplacé"),
    ("es", r"cambié|cambiado|cambiada|puse|cambiamos|actualicé"),
    ("it", r"cambiata|cambiato|messo|impostato|impostata|modificata"),
    ("pt", r"mudei|alterei|alterada|mudada|trocada|troquei|coloquei"),
    ("nl", r"veranderd|gewijzigd|ingesteld|aangepast"),
    ("pl", r"zmieniłem|zmieniłam|zmienione|ustawiłem|ustawiłam"),
    ("tr", r"değiştirdim|değiştirildi|ayarladım"),
    ("sv", r"ändrade|ändrat|bytte|bytt|satte"),
    ("da", r"ændrede|ændret|skiftede|skiftet|satte"),
    ("no", r"endret|endra|byttet|byttes|satte"),
    ("fi", r"vaihdettu|vaihdoin|vaihtui|asetin|asetettu"),
    ("cs", r"změnil|změnila|změněno|nastavil|nastavila"),
    ("ru", r"поменял|поменяла|сменил|сменила|установил|установила|изменил"),
    ("uk", r"змінив|змінила|встановив|встановила"),
    ("zh", r"改成|改为|设成|设为|换成|修改"),
    ("ja", r"変更|変えた|設定した"),
    ("ko", r"변경|바꿈|바꿨"),
    ("ar", r"غيرت|غيّرت|تغيّر|تغير|تم تغيير"),
    ("he", r"שיניתי|הוחלף|שונה"),
    ("hi", r"बदला|बदल दिया|बदली"),
)
