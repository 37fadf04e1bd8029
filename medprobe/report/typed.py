"""A run's metrics read back into its method's results model (``Method.results_model``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from medprobe.errors import MedprobeError

M = TypeVar("M", bound=BaseModel)


def read_metrics(model: type[M], summary: Mapping[str, Any]) -> M:
    """The summary's metrics as ``model``. Metrics that do not fit it (a summary written by a medprobe
    whose metrics differed, or edited by hand) are refused, saying what is wrong and how to get a summary
    that fits, rather than shown in part."""
    try:
        return model.model_validate(summary["metrics"])
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise MedprobeError(
            f"the metrics of this summary.json do not fit {model.__name__}: metrics.{where}: {first['msg']}"
            + (f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""),
            field="summary.json",
            hint=f"score its responses again with this medprobe: medprobe score {summary.get('method', 'METHOD')} --responses RUN_DIR",
        ) from None
