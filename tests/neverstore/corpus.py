"""The never-store corpus: the data files in ``data/`` and the cases built in code.

Each ``data/*.tsv`` file is one shape of case (see ``data/README.md``); ``load``
reads one. The cases below are built from parts: vendor token prefixes are joined
with ``+`` so secret scanners reading this repository see no token literal, and
some values are long constants. Every value is fake and invented for these tests.
"""

from __future__ import annotations

import re
from pathlib import Path

DATA = Path(__file__).parent / "data"
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\", "#": "#"}


def _unescape(field: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES[m.group(1)], field)


def load(name: str, *columns: str, folder: Path = DATA) -> list[tuple[str, ...]]:
    """The rows of ``<folder>/<name>.tsv`` (``data/`` unless told) as tuples of
    its ``columns``, unescaped.

    Comment lines (``#``) and blank lines are skipped; the first other line is
    the header, and it must name ``columns`` in order. Raises KeyError for an
    unknown escape, ValueError for a row of the wrong width.
    """
    rows: list[tuple[str, ...]] = []
    header: list[str] | None = None
    path = folder / f"{name}.tsv"
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if header is None:
            header = fields
            assert header == list(columns), (path, header, columns)
            continue
        if len(fields) != len(columns):
            raise ValueError(
                f"{path}:{number}: {len(fields)} fields, not {len(columns)}"
            )
        rows.append(tuple(_unescape(f) for f in fields))
    return rows


HEX64 = "9c1f0e8d7b6a5f4e3d2c1b0a9f8e7d6c" * 2
UUID = "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0"
B64 = "Zm9vYmFyLWZha2Uta2V5LTAwMDE="  # base64 of "foobar-fake-key-0001"

KEY_BLOCK = "\n".join(
    [
        "-----BEGIN RSA " + "PRIVATE KEY-----",
        "MIIEowIBAAKCAQEAfakeFAKEfakeFAKEfakeFAKEfake0123456789",
        "bm90IGEgcmVhbCBrZXkgYXQgYWxsLCBqdXN0IGZpbGxlcg==",
        "-----END RSA " + "PRIVATE KEY-----",
    ]
)

BUILT_REFUSED: list[tuple[str, str]] = [
    ("| API key | sk-" + "rEqmSM9wCZ7Uw9xfogoEmvnEN5N1aE6P |", "openai-key"),
    # labels ending in _key, _secret, _token, _pass, _password with hex or base64
    ("secret_key_base: " + HEX64, "secret"),
    ("APP_KEY=base64:" + B64, "secret"),
    ("webhook_signing_key = " + B64, "secret"),
    ("license_key: " + UUID, "secret"),
    ("HEROKU_API_KEY=" + UUID, "secret"),
    ("session_secret: " + HEX64[:32], "secret"),
    ("deploy_token=" + B64, "secret"),
    ("smtp_pass: " + HEX64[:24], "password"),
    ("admin_password: " + B64, "password"),
    # key blocks and token formats
    (KEY_BLOCK, "private-key"),
    (
        "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
        "private-key",
    ),
    ("key " + "AKIA" + "90RIC7PHKQDLMTT7" + " in the config", "aws-access-key"),
    ("ASIA" + "NS26LRWBQCAB69M6", "aws-access-key"),
    ("ghp_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d", "github-token"),
    ("gho_" + "KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR", "github-token"),
    ("ghu_" + "IBXuDL7DxtpYlSXpfKtHF4vUCsMehGAkWvj7", "github-token"),
    ("ghs_" + "FAc9QeWJKY40uvSwMFLZDe1f8rESQedUStPK", "github-token"),
    ("ghr_" + "R0CsTy4Qwb8DwkNhFdnXsiVpzz63FfkCzJr4", "github-token"),
    (
        "github_pat_"
        + "i0B3JrTAwR4y9ojfljoQoa_"
        + "F1LlqsajAIxNKu8iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvMdga",
        "github-token",
    ),
    ("token is glpat-" + "xNbe3nNyjOq9wMxEhh2F", "gitlab-token"),
    ("xoxb-" + "1234567890-0987654321-u8jzPde0IgxLd6Gn", "slack-token"),
    ("xoxp-" + "2234567890-1987654321-KLzdocJ2isAj", "slack-token"),
    (
        "https://hooks.slack.com/services/"
        + "T0FAKE123/B0FAKE456/u8jzPde0IgxLd6GncfBAep",
        "slack-webhook",
    ),
    (
        "https://discord.com/api/webhooks/"
        + "123456789012345678/R0CsTy4Qwb8DwkNhFdnXsiVpzz63_FfkCz",
        "discord-webhook",
    ),
    ("sk_live_" + "ZEG8pSH4487q7J58m1CiAhzC", "stripe-key"),
    ("rk_live_" + "ueQpBenQtYh5Xj8TPQxjq4i9", "stripe-key"),
    ("AIza" + "DEEtfjgVvVqE1SkHbn88HxjSI6bWHtP3fS2", "google-api-key"),
    ("sk-" + "rEqmSM9wCZ7Uw9xfogoEmvnEN5N1aE6PwZPf1Qh6yYTWmE4l", "openai-key"),
    ("sk-proj-" + "BYOvfZ8UzDzV8fUkkibjL5DZPjN0MEQ7wjJJibaZUPgHV7iB3m03", "openai-key"),
    (
        "sk-ant-api03-" + "A1id6Vw5DQL05HA064GiIjHGb3CXlMaXZjljENUhJduRHHJ",
        "anthropic-key",
    ),
    ("npm_" + "qHx6kwXoIIXGvOoNZYW2mZp0zVZomHFwUbbY", "npm-token"),
    ("hf_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z", "huggingface-token"),
    (
        "twine upload -p pypi-"
        + "AgEIcHlwaS5vcmcCJGZha2UtZmFrZS1mYWtlLWZha2UtZmFrZQACKlszLCJmYWtlIl0AAAYg",
        "pypi-token",
    ),
    ("xoxe-" + "1-Mi0yLTEyMzQ1Njc4OTAtZmFrZWZha2U", "slack-token"),
    ("xoxe.xoxp-" + "1-Mi0yLTEyMzQ1Njc4OTAtZmFrZQ", "slack-token"),
    ("twilio key SK" + HEX64[:32], "twilio-key"),
    (
        "SG."
        + "fAkEfAkEfAkE0123456789"
        + "."
        + "fAkE0123456789fAkE0123456789fAkE0123456789x",
        "sendgrid-key",
    ),
    ("shpat_" + HEX64[:32], "shopify-token"),
    ("DO token dop_v1_" + HEX64, "digitalocean-token"),
    (
        "eyJhbGciOiJIUzI1NiJ9."
        + "eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLWZha2UtMTIz",
        "jwt",
    ),
    ("Authorization: Bearer " + "u8jzPde0IgxLd6GncfBAep", "bearer-token"),
    # a case for every vendor prefix of the rule table (tests/neverstore/test_tables.py)
    (
        "bedrock key " + "ABSK" + "xEEsAoCaA2QTqpOoast0vQj8VMtbYo9Mqb5jZMQObDDMOTsoYtx"
        "qAYfwFBHPl8KsLcsf1YaHxpFjttuDDekSEU2aC13Fa61ESYhD1NfFPb9jTo6z5xcIcQPz",
        "aws-bedrock-key",
    ),
    ("octopus " + "API-" + "U46EOUGF8HPAZCHDZJQPLAP7PHGJRY0C", "octopus-key"),
    ("bitbucket app " + "ATBB" + "zD4UDDqcdbTmBQq79GygZnhAOgshDBj1", "bitbucket-token"),
    (
        "bitbucket dc " + "BBDC-" + "zpi4i4zBGozlxQF0l3AnQB2bFtKsh2eWYtVFpIPEnLCG",
        "bitbucket-token",
    ),
    (
        "fly deploy token "
        + "FlyV1 fm"
        + "2_iFJfWOQgUQudDfZFUWdGvIkgTxzszeomDnTaOaovzMN"
        "ndr5ObyOdjQ9IS8onGY2O2IQ0OUV86rGbNNZZGnELEwiTDVT6lgmbf7xUsP0P9gjcl7",
        "flyio-token",
    ),
    ("bannerbear " + "bb_" + "pr_37b6d252e214456d1b3cd83c6bebd0", "bannerbear-key"),
    ("appsync " + "da2-" + "wmfny0dn09vc7zwbj0pukzdycz", "aws-appsync-key"),
    (
        "duffel " + "duffel_" + "test_O2VCP7cj59akV4mQLsNQLA91bdh50H0IaiuMNfLItCj",
        "duffel-token",
    ),
    ("pganalyze " + "pgar_" + "MB8sKNZAIf5SX7jNctqtP9SC6Uu", "pganalyze-token"),
    ("besttime " + "pri_" + "28c9f033ac8e9680f062d47ad380a5bd", "besttime-key"),
    (
        "oc login --token=" + "sha256~" + "LsxWnkPmZUHcIfraTbJg2V1rmghFFwba4eTqRA3hvAM",
        "openshift-token",
    ),
    (
        "shippo " + "shippo_" + "live_fc7695755cb24064d289daac6a7e00b0edd24770",
        "shippo-token",
    ),
    ("spectral " + "spu-" + "lckqox5c5ipu40xvps0a0an1janibg6m", "spectral-token"),
    (
        "origin ca key "
        + "v1.0-"
        + "7c80e1a9aa771948ab372f19-78c491bc06b2aabd973624d54"
        "656e764d9137b9713023541cdb9755abcd79d4b3dcfb4c7dd56d2cd307eabe25923ba816d38d7a2"
        "de7b8bae27a072e9b5b2caf443bc961a985b994ddc",
        "cloudflare-origin-ca",
    ),
    (
        "jira "
        + "ATATT3xFfG"
        + "HAZt9xslXTTIQrh6bpy0VAq3GZuO2R8UziJdi0Y4mj4TIJZ9RnvIh4TOe"
        "tAfG82EOMjRZA0G6vbBxKd5WVwd9ExLXa3zphJn9pH9xdreYrmVM1JIJ5iqQt6wukvg6KLYrvadWwbDVrEO"
        "dUmtqeVT6FbNKHRizFU89L0zlmq9jRh6nd1ItZ46=UZUDK7AF",
        "atlassian-token",
    ),
    (
        "vault "
        + "hv"
        + "s.lhQCvpm8FOFlEsD4qmq5ShuHRWYl398ZpkpmVxKGmZR53W1FnTtqavzoXUzI"
        "wLKHr0rMTtJhsEK7GjFRYOYkmnPRZBiAGEK",
        "vault-token",
    ),
    ("sonar " + "sq" + "p_g6TmLqI2vYZ10QIEfFjEjFfpPfIwn76YOzYL0IRW", "sonar-token"),
]

BUILT_BENIGN: list[str] = [
    "hf_" + "transformersmodelcachedirectoryname",
]

BUILT_SPANS: list[tuple[str, str]] = [
    ("secret_key_base: " + HEX64, HEX64),
    ("APP_KEY=base64:" + B64 + " # laravel", "base64:" + B64),
]

# (text, rule id of its one finding)
REFUSED: list[tuple[str, str]] = [
    *((t, r) for t, r in load("refused", "text", "rule")),
    *BUILT_REFUSED,
]
BENIGN: list[str] = [t for (t,) in load("benign", "text")] + BUILT_BENIGN
