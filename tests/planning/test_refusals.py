"""An entry that only assigns a redacted secret is not filed (nothing is left
to file); one that says more is filed as it reads."""

from __future__ import annotations

import pytest

from gardener.planning.refusals import REDACTED, refusals
from gardener.store.settings import default_config


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        # a breaker found these three filed as facts
        ("**Authorization**: Bearer [REDACTED:bearer-token]", True),
        ("card [REDACTED:card-number]", True),
        ("パスワードは [REDACTED:password] です", True),
        ("the api key is [REDACTED:secret]", True),
        ("Email: [REDACTED:email]", True),
        # what is said beside the secret is kept
        ("API key: [REDACTED:secret] lives in the gateway's unit file", False),
        ("deploy with [REDACTED:token] tomorrow", False),
        ("Note: see [REDACTED:secret] for more on it", False),
    ],
)
def test_only_a_redacted_secret_is_not_filed(text: str, refused: bool) -> None:
    (why,) = refusals([text], default_config())
    assert (why == REDACTED) is refused, why
