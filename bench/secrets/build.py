"""Build the outside corpus once, from local copies of gitleaks (MIT) and
detect-secrets (Apache-2.0): ``python -m bench.secrets.build GITLEAKS DS``,
each a git folder (a clone or a mirror). Writes ``data/gitleaks.jsonl`` and
``data/detect-secrets.jsonl``; the benchmark itself reads only those.

gitleaks: the ``tps`` (true positives) and ``fps`` (false positives) of each
rule in ``cmd/generate/config/rules/*.go``. Literal strings are taken as they
are; a secret gitleaks generates at test time (``secrets.NewSecret(regex)``)
is generated here once from the same regex with a fixed seed, and put in the
sample lines ``utils.GenerateSampleSecret(s)`` makes (three of its forms).
Elements built otherwise (``fmt.Sprintf``, variables) are skipped.

detect-secrets: every ``(str, bool)`` case of ``tests/plugins/*_test.py``'s
``pytest.mark.parametrize`` lists (the line, and whether the plugin must flag
it).

Each row: ``{"source", "where", "text", "secret", "value", "guess"}``;
``where`` is ``path@commit`` in the upstream repository; ``value`` is the
generated secret when known, else null; ``guess`` the longest token of 8+
characters holding a letter and a digit, or null (the direct-write count
takes it for the value only where a finding covers it).
"""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"
_RNG = random.Random(20260301)


def _git(repo: str, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", *args], capture_output=True, text=True, check=True
    ).stdout


# -- a value's guess -------------------------------------------------------------

_TOKENS = re.compile(r"[^\s'\"`,;()<>\[\]{}=]+")


def guess_value(text: str) -> str | None:
    """The longest token of 8+ characters with a letter and a digit."""
    best = None
    for m in _TOKENS.finditer(text):
        tok = m.group().strip(":.")
        mixed = re.search(r"\d", tok) and re.search(r"[A-Za-z]", tok)
        if len(tok) >= 8 and mixed and (best is None or len(tok) > len(best)):
            best = tok
    return best


# -- gitleaks: a small reader of Go expressions ------------------------------------

_GO_TOKEN = re.compile(
    r"""(?P<raw>`[^`]*`)|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<num>\d+)"""
    r"""|(?P<name>[A-Za-z_][\w.]*)|(?P<op>:=|\.\.\.|[{}()\[\],+:=])|(?P<skip>//[^\n]*|\s+)"""
    r"""|(?P<other>.)""",
    re.DOTALL,
)


def _go_tokens(src: str) -> list[tuple[str, str]]:
    out = []
    for m in _GO_TOKEN.finditer(src):
        kind = m.lastgroup or "other"
        if kind != "skip":
            out.append((kind, m.group()))
    return out


def _go_string(kind: str, text: str) -> str:
    if kind == "raw":
        return text[1:-1]
    return json.loads(text) if "\\x" not in text else ast.literal_eval(text)


_HELPERS = {
    "utils.Numeric": "[0-9]{%s}",
    "utils.Hex": "[a-f0-9]{%s}",
    "utils.AlphaNumeric": "[a-z0-9]{%s}",
    "utils.AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
    "utils.AlphaNumericExtended": "[a-z0-9=_\\-]{%s}",
    "utils.AlphaNumericExtendedLong": "[a-z0-9\\/=_\\+\\-]{%s}",
}
_SAMPLE_FORMS = ('{i}_api_token = "{s}"', "{i}Token={s}", '{i}_token: "{s}"')


def generate(regex: str) -> str:
    """One string the regex matches: classes, literals, escapes, ``{n}``,
    ``{n,m}``, ``{n,}``, ``?`` (a subset: enough for gitleaks' secrets)."""
    out: list[str] = []
    i = 0
    while i < len(regex):
        c = regex[i]
        if c == "[":
            j = regex.index("]", i + 2)
            body, i = regex[i + 1 : j], j + 1
            chars: list[str] = []
            k = 0
            while k < len(body):
                a = body[k]
                if a == "\\":
                    chars.append(body[k + 1])
                    k += 2
                elif k + 2 < len(body) and body[k + 1] == "-":
                    chars += [chr(x) for x in range(ord(a), ord(body[k + 2]) + 1)]
                    k += 3
                else:
                    chars.append(a)
                    k += 1
            atom = chars
        elif c == "\\":
            atom, i = [regex[i + 1]], i + 2
        elif c in "()^$":
            i += 1
            continue
        else:
            atom, i = [c], i + 1
        count = 1
        if i < len(regex) and regex[i] == "{":
            j = regex.index("}", i)
            lo, _, hi = regex[i + 1 : j].partition(",")
            low = int(lo)
            high = int(hi) if hi else (low + 8 if _ else low)
            count, i = _RNG.randint(low, high), j + 1
        elif i < len(regex) and regex[i] == "?":
            count, i = _RNG.randint(0, 1), i + 1
        out += [_RNG.choice(atom) for _ in range(count)]
    return "".join(out)


class _Unsupported(Exception):
    pass


class _GoReader:
    """Evaluates the few Go expressions gitleaks' test cases are built from."""

    def __init__(
        self, tokens: list[tuple[str, str]], names: dict[str, str] | None = None
    ) -> None:
        self.t = tokens
        self.names = names or {}  # string variables of the file
        self.i = 0
        self.secrets: list[str] = []  # generated in the expression being read

    def peek(self) -> str:
        return self.t[self.i][1] if self.i < len(self.t) else ""

    def take(self) -> tuple[str, str]:
        self.i += 1
        return self.t[self.i - 1]

    def skip_expr(self) -> None:
        """Pass over one element (to its comma or closing bracket)."""
        depth = 0
        while self.i < len(self.t):
            v = self.peek()
            if v in "({[":
                depth += 1
            elif v in ")}]":
                if depth == 0:
                    return
                depth -= 1
            elif v == "," and depth == 0:
                return
            self.i += 1

    def expr(self) -> list[str]:
        """An expression's strings (a list: GenerateSampleSecrets gives several)."""
        parts = [self.atom()]
        while self.peek() == "+":
            self.take()
            parts.append(self.atom())
        if any(len(p) != 1 for p in parts[1:]) or (
            len(parts) > 1 and len(parts[0]) != 1
        ):
            raise _Unsupported
        return parts[0] if len(parts) == 1 else ["".join(p[0] for p in parts)]

    def args(self) -> list[list[str]]:
        if self.take()[1] != "(":
            raise _Unsupported
        out = []
        while self.peek() != ")":
            out.append(self.expr())
            if self.peek() == ",":
                self.take()
        self.take()
        return out

    def atom(self) -> list[str]:
        kind, v = self.take()
        if kind in ("raw", "str"):
            return [_go_string(kind, v)]
        if kind == "name" and v in self.names and self.peek() != "(":
            return [self.names[v]]
        if v in _HELPERS:
            (n,) = self.args()
            return [_HELPERS[v] % n[0]]
        if v == "utils.Hex8_4_4_4_12":
            self.args()
            return ["[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"]
        if v == "secrets.NewSecret":
            (pattern,) = self.args()
            value = generate(pattern[0])
            self.secrets.append(value)
            return [value]
        if v == "utils.GenerateSampleSecret":
            ident, secret = self.args()
            return [_SAMPLE_FORMS[0].format(i=ident[0], s=secret[0])]
        if v == "utils.GenerateSampleSecrets":
            ident, secret = self.args()
            return [f.format(i=ident[0], s=secret[0]) for f in _SAMPLE_FORMS]
        raise _Unsupported


def _go_cases(src: str) -> list[tuple[bool, str, str | None]]:
    """(true positive?, text, generated secret) of a rule file's cases."""
    tokens = _go_tokens(src)
    out: list[tuple[bool, str, str | None]] = []
    i = 0
    while i < len(tokens) - 2:
        name, op = tokens[i][1], tokens[i + 1][1]
        if name not in ("tps", "fps") or op not in (":=", "="):
            i += 1
            continue
        reader = _GoReader(tokens)
        reader.i = i + 2
        head = reader.peek()
        elements: list[list[str]] = []
        try:
            if head == "[" or head == "map":  # []string{...}
                while reader.take()[1] != "{":
                    pass
                closer = "}"
            elif head == "append":
                reader.take()
                reader.take()  # "("
                reader.take()  # tps
                reader.take()  # ","
                closer = ")"
            else:
                closer = ""
                reader.secrets = []
                elements.append(reader.expr())
        except (_Unsupported, IndexError, ValueError):
            i += 2
            continue
        while closer and reader.i < len(tokens) and reader.peek() != closer:
            start = reader.i
            reader.secrets = []
            try:
                got = reader.expr()
                if reader.peek() == ":":  # a map: the key names the case
                    reader.take()
                    got = reader.expr()
                if reader.peek() == "...":
                    reader.take()
                elements.append(got)
                out += [(name == "tps", text, _one(reader.secrets)) for text in got]
            except (_Unsupported, IndexError, ValueError, SyntaxError):
                reader.i = start
                reader.skip_expr()
            if reader.peek() == ",":
                reader.take()
        if not closer and elements:
            out += [(name == "tps", text, _one(reader.secrets)) for text in elements[0]]
        i = max(reader.i, i + 2)
    return out


def _one(values: list[str]) -> str | None:
    return (
        values[-1] if len(values) == 1 else (max(values, key=len) if values else None)
    )


def gitleaks(repo: str) -> list[dict[str, object]]:
    commit = _git(repo, "rev-parse", "HEAD").strip()
    rows: list[dict[str, object]] = []
    folder = "cmd/generate/config/rules/"
    for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD", folder).split():
        if not path.endswith(".go") or path.endswith("_test.go"):
            continue
        seen: set[tuple[bool, str]] = set()
        for tp, text, secret in _go_cases(_git(repo, "show", f"HEAD:{path}")):
            if (tp, text) in seen or not text.strip():
                continue
            seen.add((tp, text))
            rows.append(
                {
                    "source": "gitleaks",
                    "where": f"{path}@{commit[:12]}",
                    "text": text,
                    "secret": tp,
                    "value": secret if secret and secret in text else None,
                    "guess": guess_value(text),
                }
            )
    return rows


# -- trufflehog: measured on a local copy, never stored (AGPL) ----------------


def _truffle_cases(src: str) -> list[tuple[bool, str, list[str]]]:
    """(secret?, input, wanted values) of one detector's pattern test file."""
    tokens = _go_tokens(src)
    names: dict[str, str] = {}
    for i in range(len(tokens) - 2):  # string variables: name = "..." / `...`
        if tokens[i][0] == "name" and tokens[i + 1][1] in ("=", ":="):
            reader = _GoReader(tokens, names)
            reader.i = i + 2
            try:
                got = reader.expr()
            except (_Unsupported, IndexError, ValueError, SyntaxError):
                continue
            if (
                len(got) == 1
                and reader.peek() in (")", "\n", "")
                or tokens[reader.i][0] == "name"
            ):
                names[tokens[i][1]] = got[0]
    out: list[tuple[bool, str, list[str]]] = []
    for i in range(len(tokens) - 2):
        if tokens[i][1] != "input" or tokens[i + 1][1] != ":":
            continue
        reader = _GoReader(tokens, names)
        reader.i = i + 2
        try:
            (text,) = reader.expr()
        except (_Unsupported, IndexError, ValueError, SyntaxError):
            continue
        j = reader.i
        while j < len(tokens) - 2 and tokens[j][1] not in ("want", "input"):
            j += 1
        if tokens[j][1] != "want" or tokens[j + 1][1] != ":":
            continue
        reader.i = j + 2
        if reader.peek() == "nil":
            out.append((False, text, []))
            continue
        while reader.i < len(tokens) and reader.peek() != "{":
            reader.i += 1
        reader.take()
        wanted: list[str] = []
        while reader.i < len(tokens) and reader.peek() != "}":
            start = reader.i
            try:
                wanted += reader.expr()
            except (_Unsupported, IndexError, ValueError, SyntaxError):
                reader.i = start
                reader.skip_expr()
            if reader.peek() == ",":
                reader.take()
        out.append((bool(wanted), text, wanted))
    return out


def trufflehog(repo: str) -> list[dict[str, object]]:
    """trufflehog's detector pattern tests (``pkg/detectors/**/*_test.go``,
    not the integration tests), read from a local copy at run time."""
    commit = _git(repo, "rev-parse", "HEAD").strip()
    rows: list[dict[str, object]] = []
    for path in _git(
        repo, "ls-tree", "-r", "--name-only", "HEAD", "pkg/detectors/"
    ).split():
        if not path.endswith("_test.go") or "integration" in path:
            continue
        for secret, text, wanted in _truffle_cases(_git(repo, "show", f"HEAD:{path}")):
            value = next((w for w in wanted if w in text), None)
            rows.append(
                {
                    "source": "trufflehog",
                    "where": f"{path}@{commit[:12]}",
                    "text": text,
                    "secret": secret,
                    "value": value,
                    "guess": guess_value(text),
                }
            )
    return rows


# -- detect-secrets ---------------------------------------------------------------


def detect_secrets(repo: str) -> list[dict[str, object]]:
    commit = _git(repo, "rev-parse", "HEAD").strip()
    rows: list[dict[str, object]] = []
    for path in _git(
        repo, "ls-tree", "-r", "--name-only", "HEAD", "tests/plugins/"
    ).split():
        if not path.endswith("_test.py"):
            continue
        tree = ast.parse(_git(repo, "show", f"HEAD:{path}"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Tuple) or len(node.elts) < 2:
                continue
            first, second = node.elts[0], node.elts[1]
            if not (
                isinstance(first, ast.Constant | ast.JoinedStr | ast.BinOp)
                and isinstance(second, ast.Constant)
                and isinstance(second.value, bool)
            ):
                continue
            try:
                text = ast.literal_eval(first)
            except ValueError:
                continue
            if isinstance(text, str) and text.strip():
                rows.append(
                    {
                        "source": "detect-secrets",
                        "where": f"{path}@{commit[:12]}",
                        "text": text,
                        "secret": second.value,
                        "value": None,
                        "guess": guess_value(text),
                    }
                )
    return rows


def main(argv: list[str]) -> None:
    leaks, ds = argv
    DATA.mkdir(exist_ok=True)
    for name, rows in (
        ("gitleaks", gitleaks(leaks)),
        ("detect-secrets", detect_secrets(ds)),
    ):
        with open(DATA / f"{name}.jsonl", "w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        tps = sum(1 for r in rows if r["secret"])
        print(f"{name}: {len(rows)} cases, {tps} secrets")


if __name__ == "__main__":
    main(sys.argv[1:])
