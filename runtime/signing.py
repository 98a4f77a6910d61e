"""An artifact's seal: a signature over its manifest (which holds every section's SHA-256),
with an Ed25519 private key (`cryptography`) or an HMAC-SHA256 shared secret.

Keys are given as key objects of `cryptography` or as bytes: PEM text (`-----BEGIN`) is an
Ed25519 key, any other bytes are an HMAC secret (at least 16 of them). A verify key for
Ed25519 is the public key, or the private key it is derived from. The seal names its
scheme and a key id (a digest of the public key, or an HMAC of a fixed text, which tells
keys apart without revealing a secret), so a wrong key is told from a damaged seal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

ED25519 = "ed25519"
HMAC_SHA256 = "hmac-sha256"
MIN_SECRET = 16
KeyLike = Any  # an Ed25519 key object of `cryptography`, PEM bytes, or an HMAC secret


def read_key_file(path: str | os.PathLike) -> bytes:
    """A key file's bytes (ValueError naming the file when it cannot be read)."""
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise ValueError(f"cannot read key file '{path}': {e.strerror or e}") from None


def _ed25519(key: KeyLike, private: bool) -> Any:
    """The Ed25519 key object `key` stands for, or None when it is an HMAC secret."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    if isinstance(key, ed25519.Ed25519PrivateKey | ed25519.Ed25519PublicKey):
        loaded = key
    elif isinstance(key, bytes | bytearray) and bytes(key).lstrip().startswith(b"-----BEGIN"):
        text = bytes(key)
        try:
            if b"PRIVATE KEY" in text:
                loaded = serialization.load_pem_private_key(text, password=None)
            else:
                loaded = serialization.load_pem_public_key(text)
        except (ValueError, TypeError) as e:
            raise ValueError(f"unreadable PEM key: {e}") from None
        if not isinstance(loaded, ed25519.Ed25519PrivateKey | ed25519.Ed25519PublicKey):
            raise ValueError(f"a {type(loaded).__name__} key: only Ed25519 keys sign artifacts")
    elif isinstance(key, bytes | bytearray):
        if len(key) < MIN_SECRET:
            raise ValueError(f"an HMAC secret of {len(key)} bytes: at least {MIN_SECRET}")
        return None
    else:
        raise ValueError(f"a key must be PEM or secret bytes or an Ed25519 key, not "
                         f"{type(key).__name__}")
    if private and not isinstance(loaded, ed25519.Ed25519PrivateKey):
        raise ValueError("signing needs the Ed25519 private key, not the public one")
    return loaded


def _public_id(public: Any) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def _secret_id(secret: bytes) -> str:
    return hmac.new(secret, b"infer key id", hashlib.sha256).hexdigest()[:16]


def seal(message: bytes, key: KeyLike) -> bytes:
    """The seal of `message` with the signing `key`."""
    private = _ed25519(key, private=True)
    if private is None:
        secret = bytes(key)
        fields = {"scheme": HMAC_SHA256, "key_id": _secret_id(secret),
                  "signature": hmac.new(secret, message, hashlib.sha256).hexdigest()}
    else:
        fields = {"scheme": ED25519, "key_id": _public_id(private.public_key()),
                  "signature": private.sign(message).hex()}
    return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()


def check_seal(data: bytes, message: bytes, key: KeyLike) -> None:
    """Nothing if `data` is a seal of `message` made with the key `key` verifies;
    ValueError with the reason otherwise."""
    if not data:
        raise ValueError("not signed, and a verify key was given")
    try:
        fields = json.loads(data)
        scheme, key_id = str(fields["scheme"]), str(fields["key_id"])
        signature = bytes.fromhex(str(fields["signature"]))
    except (ValueError, TypeError, KeyError) as e:
        raise ValueError(f"malformed signature ({e})") from None
    verify = _ed25519(key, private=False)
    given = HMAC_SHA256 if verify is None else ED25519
    if scheme != given:
        raise ValueError(f"signed with {scheme}, the verify key is for {given}")
    if verify is None:
        secret = bytes(key)
        if key_id != _secret_id(secret):
            raise ValueError("signed with another key")
        if not hmac.compare_digest(signature, hmac.new(secret, message, hashlib.sha256).digest()):
            raise ValueError("bad signature")
        return
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ed25519

    public = verify if isinstance(verify, ed25519.Ed25519PublicKey) else verify.public_key()
    if key_id != _public_id(public):
        raise ValueError("signed with another key")
    try:
        public.verify(signature, message)
    except InvalidSignature:
        raise ValueError("bad signature") from None
