"""``medprobe export``: probe sets for lm-evaluation-harness and Hugging Face datasets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from medprobe.cli.common import UNMEASURED_HELP, err_console, user_errors
from medprobe.contract import BuildOptions, get_method
from medprobe.errors import MedprobeError
from medprobe.paths import writable_dir

export_app = typer.Typer(help="Export probe sets for other tools: lm-evaluation-harness tasks, Hugging Face datasets.")


@export_app.command("lm-eval")
@user_errors
def export_lm_eval(
    folder: Annotated[Path, typer.Argument(help="task folder for lm_eval --include_path (created; other tasks in it are kept)")],
    method: Annotated[list[str], typer.Option(help="multifacet, multicog_lowmid, sdak or meddisk (repeatable; default: all four)")] = [],  # noqa: B006
    data: Annotated[str | None, typer.Option(help="as for run (each method's default when omitted)")] = None,
    limit: Annotated[int | None, typer.Option(min=1)] = None,
    seed: Annotated[int, typer.Option()] = 0,
    setting: Annotated[str | None, typer.Option()] = None,
    repeats: Annotated[int | None, typer.Option(min=1, help="multicog_lowmid, sdak: repetitions built as probes of their own")] = None,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help=UNMEASURED_HELP)] = False,
    server_family: Annotated[str, typer.Option(help="names of top-k / repetition penalty in requests: vllm or llamacpp")] = "vllm",
) -> None:
    """Write lm-evaluation-harness tasks (medprobe_<method>) whose metrics are the method's own."""
    from medprobe.integrations.harness import TASKS, build_harness_set
    from medprobe.integrations.lm_eval_tasks import export_task

    writable_dir(folder, "FOLDER")
    for task in method or list(TASKS):
        built = build_harness_set(task, data=data, limit=limit, seed=seed, setting=setting, repeats=repeats,
                                  include_unmeasured=include_unmeasured)
        path = export_task(built, folder, server_family)
        err_console.print(f"{escape(path.stem)}: {len(built.probe_set.probes)} probes")
    print(folder)


@export_app.command("hf")
@user_errors
def export_hf(
    folder: Annotated[Path, typer.Argument(help="dataset folder: test.parquet and README.md (the dataset card)")],
    method: Annotated[str | None, typer.Option(help="the method whose probes to export")] = None,
    pack: Annotated[Path | None, typer.Option(help="a platform pack (pack.jsonl) to export instead: no gold")] = None,
    data: Annotated[str | None, typer.Option()] = None,
    limit: Annotated[int | None, typer.Option(min=1)] = None,
    seed: Annotated[int, typer.Option()] = 0,
    setting: Annotated[str | None, typer.Option()] = None,
    level: Annotated[str | None, typer.Option(help="multicog: low, mid, high or a comma list")] = None,
    include_unmeasured: Annotated[bool, typer.Option("--include-unmeasured", help=UNMEASURED_HELP)] = False,
) -> None:
    """Write a probe set (or a platform pack) as a Hugging Face dataset: Parquet plus a dataset card."""
    from medprobe.integrations.hf_dataset import export_pack, export_probe_set, pyarrow_module
    from medprobe.verification import verified_probe_set

    if (method is None) == (pack is None):
        raise MedprobeError("give either --method (a probe set) or --pack (a platform pack)", hint="e.g. --method multifacet --data builtin:en")
    writable_dir(folder, "FOLDER")
    pyarrow_module()
    if pack is not None:
        export_pack(pack, folder)
    else:
        chosen = get_method(method)
        options = BuildOptions(data=data, limit=limit, seed=seed, setting=setting, level=level, include_unmeasured=include_unmeasured)
        export_probe_set(chosen, options, verified_probe_set(chosen, options), folder)
    print(folder)
