"""A link's token: made unguessable, and kept only as its hash."""

import hashlib
import secrets

TOKEN_BYTES = 32  # 256 bits of secrets.token_urlsafe: 43 characters
MAX_TOKEN_LENGTH = 64  # anything longer names no link, unread


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
