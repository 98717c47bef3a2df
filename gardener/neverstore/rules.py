"""The never-store rule table: which secret shapes exist, in which order they win.

Each ``Rule`` is data: a rule id, a regex, a check (in the family modules:
``labels``, ``weaklabels``, ``codes``, ``tokens``, ``personal``), where the engine
looks for it (``words``, ``runs``, ``need``) and whether it stays within a line.
Earlier rules win where spans overlap. A new token format is a line here; a new
phrasing of a label goes to ``labels`` or ``weaklabels``.

Rule ids: private-key, jwt, aws-access-key, github-token, gitlab-token, slack-webhook,
discord-webhook, slack-token, stripe-key, google-api-key, anthropic-key, openai-key,
npm-token, huggingface-token, pypi-token, twilio-key, sendgrid-key, shopify-token,
digitalocean-token, sourcegraph-token, notion-token, intra42-secret,
onepassword-key, aws-bedrock-key, cloudflare-origin-ca, airtable-token,
alibaba-key, adobe-secret, shippo-token, spectral-token, pganalyze-token,
vault-token, duffel-token, bitbucket-token, atlassian-token, aws-appsync-key,
octopus-key, flyio-token, sonar-token, openshift-token, besttime-key,
bannerbear-key, bundler-credentials, azure-client-secret, connection-string, bearer-token, auth-header, password, pin,
secret, security-answer, recovery-codes, seed-phrase, email, card-number, base64-secret, high-entropy, and
``custom:<name>`` (rules.md). The engine that runs them is ``engine``; the public
calls are in ``redact``.
"""

from __future__ import annotations

import re

from gardener.model.record import Record
from gardener.neverstore import (
    cells,
    codes,
    doors,
    evidence,
    labels,
    near,
    personal,
    seeds,
    tokens,
)
from gardener.neverstore import frames as fr
from gardener.neverstore import weaklabels as weak
from gardener.neverstore.regex import Check


class Rule(Record):
    """``pattern`` is matched where one of ``words`` starts (labels), or searched in
    runs of base64 characters (``runs``), or else searched in the whole text, where
    it should start with a literal so that search is fast."""

    rule: str
    pattern: str
    check: Check | None = None
    words: str = ""  # space-separated lowercase words; and CJK ones after "|"
    runs: bool = False
    need: str = ""  # a text without this literal cannot match
    lines: bool = True  # matches stay within a line and checks look no further
    # "|"-separated lowercase words: a text holding none of them cannot match
    # (a rule searched in the whole text, compiled only for a text with one);
    # such a rule's pattern is searched in the lowercased text (its check gets
    # the text as written, and a match in the lowercased one)
    anyof: str = ""


def _token(rule: str, prefix: str, rest: str, check: Check | None = None) -> Rule:
    """A token that starts with the literal ``prefix`` (so a search for it is fast)
    and not inside a longer token: the look-behind comes after the prefix."""
    lead = rf"(?a){re.escape(prefix)}(?<![\w-]{'.' * len(prefix)})"
    return Rule(rule, lead + rest, check, need=prefix)


_B64 = r"(?a)(?<![\w+/-])[\w+/-]{%d,}={0,2}(?![\w+/=-])"
TABLE: tuple[Rule, ...] = (
    # A key block runs to its END line or, without one, to the next blank line.
    Rule(
        "private-key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
        need="-----BEGIN",
        lines=False,
    ),
    _token("jwt", "eyJ", r"[\w-]{8,}\.[\w-]{8,}\.[\w-]*(?![\w-])"),
    Rule("aws-access-key", r"(?a)A(?<![A-Za-z0-9].)(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16}\b"),
    _token("github-token", "gh", r"[pousr]_[A-Za-z0-9]{36,}"),
    _token("github-token", "github_pat_", r"\w{22,}"),
    _token("gitlab-token", "glpat-", r"[\w-]{20,}"),
    _token(
        "gitlab-token",
        "gl",
        r"(?:dt|rt|ptt|ft|soat|imt|agent|cbt|oas|wt|ffct|ft)-[\w-]{20,}(?![\w-])",
    ),  # fmt: skip
    Rule(
        "slack-webhook",
        r"(?a)hooks\.slack\.com/\w+/[\w/-]{12,}",
        need="hooks.slack.com/",
    ),
    Rule(
        "discord-webhook",
        r"(?a)discord(?:app)?\.com/api/webhooks/\d+/[\w-]{20,}",
        need="/api/webhooks/",
    ),
    _token("slack-token", "xox", r"(?:[abprs]|e(?:\.xox[abp])?)-[A-Za-z0-9-]{10,}"),
    Rule(
        "stripe-key",
        r"(?a)[rs]k_(?<![\w-]...)(?:live|test)_[A-Za-z0-9]{16,}",
        need="k_",
    ),
    _token("google-api-key", "AIza", r"[\w-]{35}(?![\w-])"),
    _token("anthropic-key", "sk-ant-", r"[\w-]{20,}"),
    _token(
        "openai-key",
        "sk-",
        r"(?:proj-|svcacct-|admin-)?(?P<value>[\w-]{20,})",
        tokens.mixed(20),
    ),
    _token("npm-token", "npm_", r"[A-Za-z0-9]{36}\b"),
    _token("huggingface-token", "hf_", r"[A-Za-z0-9]{30,}(?![\w-])", tokens.mixed(33)),
    _token("pypi-token", "pypi-", r"AgE[\w-]{40,}"),
    _token("twilio-key", "SK", r"[0-9a-f]{32}(?![\w-])"),
    _token("sendgrid-key", "SG.", r"[\w-]{22}\.[\w-]{43}(?![\w-])"),
    _token("shopify-token", "shp", r"(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![\w-])"),
    _token("digitalocean-token", "do", r"[opr]_v1_[a-f0-9]{64}(?![\w-])"),
    _token("slack-token", "xapp-", r"\d-[A-Z0-9]{9,}-\d{10,}-[a-f0-9]{32,}(?![\w-])"),
    _token("huggingface-token", "api_org_", r"[A-Za-z0-9]{34}(?![\w-])"),
    _token(
        "sourcegraph-token",
        "sgp_",
        r"(?:local_|[A-Fa-f0-9]{16}_)?[A-Fa-f0-9]{40}(?![\w-])",
    ),  # fmt: skip
    _token("notion-token", "ntn_", r"\d{11}[A-Za-z0-9]{35}(?![\w-])"),
    _token("intra42-secret", "s-s4t2", r"(?:ud|af)-[a-f0-9]{64}(?![\w-])"),
    _token(
        "onepassword-key",
        "A3-",
        r"[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}"
        r"(?![\w-])",
    ),  # fmt: skip
    _token("aws-bedrock-key", "ABSK", r"[A-Za-z0-9+/]{109,269}={0,2}(?![\w+/=-])"),
    _token("cloudflare-origin-ca", "v1.0-", r"[a-f0-9]{24}-[a-f0-9]{146}(?![\w-])"),
    _token("airtable-token", "pat", r"[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![\w-])"),
    _token("alibaba-key", "LTAI", r"[A-Za-z0-9]{20}(?![\w-])"),
    _token("adobe-secret", "p8e-", r"[A-Za-z0-9-]{32}(?![\w-])"),
    _token("shippo-token", "shippo_", r"(?:live|test)_[a-f0-9]{40}(?![\w-])"),
    _token("spectral-token", "spu-", r"[a-z0-9]{32}(?![\w-])"),
    _token("pganalyze-token", "pgar_", r"[A-Za-z0-9]{27}(?![\w-])"),
    _token("vault-token", "hv", r"(?:s\.[\w-]{90,120}|b\.[\w.-]{50,300})(?![\w.-])"),
    _token("duffel-token", "duffel_", r"(?:test|live)_[\w-]{43}(?![\w-])"),
    _token("bitbucket-token", "BBDC-", r"[\w+/@-]{40,50}(?![\w+/@-])"),
    _token("bitbucket-token", "ATBB", r"[\w=.-]{20,}(?![\w=.-])"),
    _token(
        "atlassian-token", "AT", r"(?:ATT|CTT)3xFfG[\w+/=-]+=[A-Za-z0-9]{8}(?![\w-])"
    ),
    _token("aws-appsync-key", "da2-", r"[a-z0-9]{26}(?![\w-])"),
    _token("octopus-key", "API-", r"[A-Z0-9]{29,34}(?![\w-])"),
    _token("flyio-token", "FlyV1 fm", r"\d+_[\w+/=,-]{100,}"),
    _token("sonar-token", "sq", r"[apu]_[A-Za-z0-9]{40}(?![\w-])"),
    _token("openshift-token", "sha256~", r"[\w-]{43}(?![\w-])"),
    _token("besttime-key", "pri_", r"[a-f0-9]{32}(?![\w-])"),
    _token("bannerbear-key", "bb_", r"(?:pr|ma)_[a-f0-9]{30}(?![\w-])"),
    # Bundler's credentials for a gem host, BUNDLE_<HOST>=user:password (the
    # host's dots written "__"): the password, or the user when it is a token
    Rule(
        "bundler-credentials",
        r"(?a)BUNDLE_(?<![\w-]BUNDLE_)(?:[A-Z0-9-]+__)+[A-Z0-9]+[\"']?[ \t]*[:=][ \t]*"
        r"[\"']?(?P<value>[^\s:\"';&]+:[^\s\"';&]+)",
        need="BUNDLE_",
    ),
    Rule(
        "azure-client-secret",
        r"(?a)(?<![\w~.-])[\w~.]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])",
        need="Q~",
    ),
    Rule(
        "connection-string",
        r"(?a)://[^\s:/@]{0,256}:(?P<value>[^\s@/]{1,256})@\w",
        personal.url_password,
        need="://",
    ),
    Rule(
        "bearer-token",
        r"(?a)(?<![\w-])[Bb]earer[ \t]+(?P<value>[\w.~+/-]+=*)",
        tokens.mixed(16),
        "bearer",
    ),
    Rule(
        "auth-header",
        r"(?ai)authorization[ \t]*[:=][ \t]*(?:(?:basic|token|digest)[ \t]+)?"
        r"(?P<value>[\w.~+/-]+=*)",
        tokens.mixed(8),
        "authorization",
    ),
    Rule(
        "password", labels.PASSWORD, labels.labelled("password"), labels.PASSWORD_WORDS
    ),
    Rule(
        "password",
        r"--(?<![\w-]--)(?i:password|passwd)(?P<sep>[ \t]+)(?!-)",
        labels.labelled("password"),
        need="--",
    ),
    Rule("password", weak.WEAK_PASSWORD, weak.weak_password, "pass pw key"),
    Rule("password", weak.WITH_PASSWORD, weak.with_password, "pass pw"),
    Rule("password", weak.SET_PASSWORD, weak.set_password, "set change reset update"),
    Rule("password", weak.LOGIN, weak.login, "login creds credential"),
    Rule("password", weak.MYSQL_P, weak.flag_value, "mysql mariadb"),
    Rule("password", weak.SSHPASS_P, weak.flag_value, "sshpass"),
    Rule("password", weak.REDIS_A, weak.flag_value, "redis-cli"),
    Rule("password", weak.CURL_USER, weak.curl_user, "curl", lines=False),
    Rule("pin", labels.PIN, labels.labelled("pin"), labels.PIN_WORDS),
    Rule("pin", weak.PIN_SPACED, weak.pin_spaced, "pin pass puk"),
    Rule("pin", weak.CODE_PIN, weak.code_pin, weak.CODE_PIN_WORDS),
    Rule("secret", labels.SECRET, labels.labelled("secret"), labels.SECRET_WORDS),
    Rule(
        "secret",
        r"--(?<![\w-]--)(?i:token|api[_-]key)(?P<sep>[ \t]+)(?!-)",
        labels.labelled("secret"),
        need="--",
    ),
    Rule("secret", labels.KEYED, labels.keyed, "key"),
    Rule("secret", fr.KEY, fr.key, "key | キー"),
    Rule(
        "secret",
        fr.ELEMENT,
        fr.element,
        "password passwd secret token apikey api key passphrase",
    ),
    Rule("password", fr.PAIR, fr.pair, fr.PAIR_ROUTE),
    Rule("password", fr.SET_TO, fr.set_to, fr.SET_WORDS),
    Rule(
        "password", fr.SET_AFTER, fr.set_to, "passwort kennwort | パスワード | 暗証番号"
    ),
    Rule("password", fr.ATTRIBUTE, fr.attribute, "key name"),
    Rule("security-answer", fr.ANSWER, fr.answer, fr.ANSWER_WORDS_ROUTE),
    Rule("security-answer", fr.ANSWERED, fr.answered, fr.ANSWER_WORDS_ROUTE),
    Rule("password", near.PGPASS, near.pgpass, "pgpass"),
    Rule("pin", doors.CODE, doors.code, doors.CODE_ROUTE),
    Rule("password", near.NEAR, near.near, near.NEAR_WORDS),
    Rule("pin", near.LOCK, near.lock, near.LOCK_ROUTE),
    Rule("pin", near.DOOR, near.door, near.DOOR_ROUTE),
    Rule("password", near.PASS, near.bare_pass, "pass pw"),
    Rule("recovery-codes", codes.CODES, codes.code_list, codes.CODE_WORDS, lines=False),
    Rule("recovery-codes", codes.SINGLE_CODE, codes.single_code, codes.CODE_WORDS),
    Rule("secret", codes.OTP_SEED, codes.otp_seed, "totp otp 2fa mfa authenticator"),
    Rule("seed-phrase", seeds.PHRASE, seeds.seed_phrase),
    Rule("password", cells.ROW, cells.password, need="|"),
    # evidence scored together: a credential word of any language, anywhere in
    # the clause, and the shape of a token near it (``evidence``); after the
    # label rules, so that where both find a value theirs names it
    Rule("password", evidence.STEMS, evidence.check, anyof=evidence.WORDS),
    Rule("password", evidence.PAIR, evidence.pair, need="/"),
    Rule(
        "email",
        r"(?a)@(?P<domain>(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24})(?![\w-])",
        personal.email,
        need="@",
    ),
    # 13-19 digits in groups split by one kind of separator; ``card`` picks the run.
    Rule(
        "card-number",
        r"(?a)[2-6](?<![\w.,+-].)\d{3}"
        r"(?:(?P<sep>[ -])\d{2,6}(?:(?P=sep)\d{1,6}){1,4}|\d{9,15})(?!\w|-\d)",
        personal.card,
    ),
    Rule("base64-secret", _B64 % 20, runs=True),  # decoded and read again by the engine
    Rule("high-entropy", _B64 % 24, tokens.high_entropy, runs=True),
    # Without "/", so a random segment of a path or URL is judged on its own.
    Rule(
        "high-entropy",
        r"(?a)(?<![\w+-])[\w+-]{24,}={0,2}(?![\w+=-])",
        tokens.high_entropy,
        runs=True,
    ),
)
