"""Tokens of the masked code, computed once per text and shared by noqa, validation and layout."""

from __future__ import annotations

import functools
import io
import tokenize


@functools.lru_cache(maxsize=8)
def code_tokens(code: str) -> tuple[tokenize.TokenInfo, ...]:
    """Every token up to the first tokenize error (a broken tail hides nothing above it)."""
    tokens = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code, newline=None).readline):
            tokens.append(token)
    except (tokenize.TokenError, SyntaxError):
        pass
    return tuple(tokens)


def tokenizes_completely(code: str) -> bool:
    tokens = code_tokens(code)
    return bool(tokens) and tokens[-1].type == tokenize.ENDMARKER
