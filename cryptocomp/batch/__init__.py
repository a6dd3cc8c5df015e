"""Batch work: many independent items against one read-only index, on all cores or a
Dask cluster, written in order, resumable and lossless.

One execution layer for batch commands (``compose --batch``, ``square``/``fill
--attempts``, the branches of ``compose --from`` (:mod:`.generation`), and the workloads
of the packages above it, such as the arrow-word puzzles of ``swedish --count``): a
:class:`Workload` says what the items are, how to pack them into tasks and what the
client does with each result in order; a backend runs the tasks (this
process, a :class:`ProcessPool`, or a :class:`DaskBackend` on a scheduler or a
LocalCluster); a sink takes the groups in order (a :class:`StreamSink` on stdout, a
:class:`DiscardSink`, or a :class:`Journal` output file that ``--resume`` finishes);
:func:`run_batch` drives them.  The index travels to each worker once
(:class:`IndexShipment`).

A tour on a tiny dictionary, in this process:

>>> import io, tempfile
>>> from pathlib import Path
>>> from cryptocomp import Index
>>> from cryptocomp.index.store import save_index
>>> from cryptocomp.batch import (ComposeJob, ComposeWorkload, IndexShipment, QueryGrid,
...                               SerialBackend, StreamSink, batch_id, run_batch)
>>> tmp = Path(tempfile.mkdtemp())
>>> _ = save_index(Index.from_counts({"money": 9, "nodes": 3}, name="tiny"), tmp / "tiny.ccidx")
>>> shipment = IndexShipment.of_file(tmp / "tiny.ccidx", "tiny")
>>> work = ComposeWorkload(QueryGrid(["send"], "+", ["more", "mere"]), ComposeJob())
>>> out = io.StringIO()
>>> summary = run_batch(work, shipment, SerialBackend(), StreamSink(out),
...                     ident=batch_id(work, shipment.checksum))
>>> print(out.getvalue(), end="")  # doctest: +NORMALIZE_WHITESPACE
# send+more: 2 puzzles
send+more=money	9567+1085=10652	9
send+more=nodes	5619+8346=13965	3
# send+mere: 0 puzzles
>>> summary.computed, summary.tasks
(2, 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .attempts import Attempt, AttemptJob, AttemptsWorkload
    from .cluster import SHIP_MODES, DaskBackend, dask_available
    from .composition import ComposeJob, ComposeWorkload, QueryGrid
    from .journal import DiscardSink, Journal, StreamSink, batch_id
    from .pool import ProcessPool, SerialBackend
    from .progress import BatchProgress, Meter
    from .runner import Summary, run_batch
    from .shipment import IndexShipment
    from .workload import Outcome, Task, Workload

# the layer's modules are imported on first use (PEP 562): a one-shot `compose` that only
# registers the batch options does not pay for the pool, the journal and the runner
_HOME = {
    "Attempt": "attempts", "AttemptJob": "attempts", "AttemptsWorkload": "attempts",
    "SHIP_MODES": "cluster", "DaskBackend": "cluster", "dask_available": "cluster",
    "ComposeJob": "composition", "ComposeWorkload": "composition", "QueryGrid": "composition",
    "DiscardSink": "journal", "Journal": "journal", "StreamSink": "journal",
    "batch_id": "journal", "ProcessPool": "pool", "SerialBackend": "pool", "Meter": "progress",
    "BatchProgress": "progress", "Summary": "runner", "run_batch": "runner",
    "IndexShipment": "shipment", "Outcome": "workload", "Task": "workload",
    "Workload": "workload",
}
__getattr__ = lazy_exports(__name__, _HOME)

__all__ = [
    "run_batch", "Summary", "batch_id",
    "Workload", "Task", "Outcome", "ComposeWorkload", "ComposeJob", "QueryGrid",
    "AttemptsWorkload", "AttemptJob", "Attempt",
    "SerialBackend", "ProcessPool", "DaskBackend", "dask_available", "SHIP_MODES",
    "Journal", "StreamSink", "DiscardSink", "IndexShipment", "BatchProgress", "Meter",
]
