"""``replay:FILE``: answers read back from a responses file.

FILE is a medprobe ``responses.jsonl`` (or a run directory holding one) — for instance answers
produced elsewhere from exported probes. A probe with no recorded answer is reported as a
per-request error, never invented.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.jsonl import read_records
from medprobe.records import Request, Response


class ReplayBackend:
    max_concurrency = 64
    cacheable = False

    def __init__(self, spec: str, options: dict[str, str]) -> None:
        if not spec:
            raise MedprobeError("replay needs a file", field="--model", hint="use replay:path/to/responses.jsonl")
        path = Path(spec).expanduser()
        if path.is_dir():
            path = path / "responses.jsonl"
        self.path = path
        self.model_id = f"replay:{spec}"
        self.answers: dict[str, Response] = {}
        for response in read_records(path, Response, tolerate_torn_tail=True):
            if response.error is None:
                self.answers[response.request_id] = response

    def identity(self) -> dict[str, Any]:
        return {"backend": "replay", "sha256": hashlib.sha256(self.path.read_bytes()).hexdigest()[:16]}

    async def check(self) -> None:
        return None

    async def complete(self, request: Request) -> Response:
        found = self.answers.get(request.id)
        if found is None:
            return Response(probe_id=request.probe_id, sample=request.sample, error=f"no answer for {request.id} in {self.path}")
        return found.model_copy(update={"cached": False})

    async def aclose(self) -> None:
        return None
