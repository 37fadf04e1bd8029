"""``replay:FILE``: answers read back from a responses file.

FILE is a medprobe ``responses.jsonl`` (or a run directory holding one) — for instance answers
produced elsewhere from exported probes. A probe with no recorded answer is reported as a
per-request error, never invented. Before anything runs, :meth:`ReplayBackend.matching` says how many
of the file's answers belong to the run's probes, and stops the run when none does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
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

    def matching(self, probe_ids: Iterable[str]) -> str:
        """One line saying how the file's answers match the run's probes (the ids that match none named);
        a MedprobeError when none matches, rather than a run of failed requests."""
        probes = set(probe_ids)
        answered = {response.probe_id for response in self.answers.values()}
        matched, stray = answered & probes, sorted(answered - probes)
        if not matched:
            raise MedprobeError(
                f"none of the {len(answered)} probe ids answered in the file is a probe of this run "
                f"(the file's: {_some(stray)}; the run's: {_some(sorted(probes))})", file=self.path,
                hint="answer the probes that `medprobe build` writes with this run's method and options",
            )
        line = f"replay: {self.path} answers {len(matched)} of this run's {len(probes)} probes"
        if stray:
            line += f"; {len(stray)} of its probe ids match no probe and are not used ({_some(stray)})"
        if len(matched) < len(probes):
            line += f"; {len(probes) - len(matched)} probes have no answer there (recorded as failed requests)"
        return line

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


def _some(ids: list[str], shown: int = 5) -> str:
    """The first few of ``ids``, and how many more."""
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return (", ".join(ids[:shown]) or "none") + more
