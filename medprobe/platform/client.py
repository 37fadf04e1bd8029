"""``medprobe submit``: upload answers to a platform server over its HTTP API."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from medprobe.errors import MedprobeError

FINAL = ("done", "failed")


def _check(response: httpx.Response) -> dict[str, Any]:
    """The JSON body of a successful reply; otherwise a MedprobeError with the server's message and,
    for a rejected upload, its bad lines."""
    try:
        body = response.json()
    except ValueError:
        body = {"error": response.text[:200]}
    if response.is_success:
        return body
    lines = "".join(f"\n  line {row['line']}: {row['error']}" for row in body.get("lines", []))
    more = f"\n  … and {body['more_errors']} more" if body.get("more_errors") else ""
    raise MedprobeError(f"the server refused ({response.status_code}): {body.get('error', 'no message')}{lines}{more}")


def submit(
    server: str, benchmark: str, answers: Path, *, token: str, model: str, organisation: str = "", prompt_style: str = "chat",
    public: bool = False, wait: float = 0.0,
) -> dict[str, Any]:
    """Upload ``answers`` for ``benchmark``; with ``wait`` > 0, wait that many seconds at most for its score."""
    if not answers.is_file():
        raise MedprobeError("file not found", file=answers)
    if not token:
        raise MedprobeError("an API token is needed", field="--token", hint="create one on the server's account page; or set MEDPROBE_TOKEN")
    headers = {"authorization": f"Bearer {token}"}
    base = server.rstrip("/")
    try:
        with httpx.Client(base_url=base, headers=headers, timeout=httpx.Timeout(120, connect=5)) as client:
            with answers.open("rb") as handle:
                reply = client.post(f"/api/benchmarks/{benchmark}/submissions", files={"file": (answers.name, handle)},
                                    data={"model": model, "organisation": organisation, "prompt_style": prompt_style,
                                          "public": "true" if public else "false"})
            submission = _check(reply)
            deadline = time.monotonic() + wait
            while submission["status"] not in FINAL and time.monotonic() < deadline:
                time.sleep(1)
                submission = _check(client.get(f"/api/submissions/{submission['id']}"))
    except httpx.HTTPError as exc:
        raise MedprobeError(f"cannot reach {base}: {exc}", field="--server") from None
    submission["url"] = f"{base}/submissions/{submission['id']}"
    return submission
