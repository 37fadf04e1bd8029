"""Credentials given in URLs are used, never shown or stored.

A model id such as ``openai:m@https://user:password@host/v1?key=…`` carries a secret. Everything
that shows or keeps a model id or a command line (run directory names, config.json, summary.json,
report.md, the terminal, lock files, the response cache) passes it through :func:`redacted` first;
the request itself still uses the real URL. Stdlib only: the command line imports it at start.
"""

from __future__ import annotations

import re
from typing import Any

#: the user information of a URL (``scheme://USER:PASSWORD@``), up to the last '@' before its path
_USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)[^/\s?#\"'\\<>]*@")
#: a query parameter whose name says it holds a secret (``?key=…``, ``&access_token=…``, ``api-key=…``)
_SECRET_PARAM = re.compile(r"(?i)(?P<name>[?&;][^=&#\s]*(?:key|token|secret|passw|pwd|sig|auth)[^=&#\s]*=)[^&#\s\"'\\<>]*")


def redacted(text: str) -> str:
    """``text`` with the credentials of every URL in it replaced by ``***``: user information and the
    values of query parameters named like a key, token, secret, password or signature. Model ids and
    command lines pass through here before they are shown or stored (run directory names, config.json,
    summary.json, report.md, the terminal, lock files, the response cache), so that a secret given in a
    URL never lands in a file or a log; the request itself still uses the real URL."""
    return _SECRET_PARAM.sub(r"\g<name>***", _USERINFO.sub(r"\g<scheme>***@", text))


def redacted_all(value: Any) -> Any:
    """A JSON value with :func:`redacted` applied to every string in it (keys left as they are)."""
    if isinstance(value, str):
        return redacted(value)
    if isinstance(value, dict):
        return {key: redacted_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [redacted_all(item) for item in value]
    return value
