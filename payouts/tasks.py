"""Celery tasks: thin, load by id and call one service."""

from celery import shared_task

from . import checkpoints, services


@shared_task(name="payouts.audit_check", time_limit=600, soft_time_limit=540)
def audit_check_task(check_id: int) -> str:
    """Divide an audit check into chunks and queue them (or queue again those not done)."""
    check = services.audit_check_run(check_id=check_id)
    return str(check.status)


# Acknowledged once done: a chunk whose worker is lost goes back to the queue.
@shared_task(
    name="payouts.audit_chunk",
    time_limit=600,
    soft_time_limit=540,
    acks_late=True,
    reject_on_worker_lost=True,
)
def audit_chunk_task(chunk_id: int) -> None:
    services.audit_chunk_run(chunk_id=chunk_id)


@shared_task(name="payouts.audit_check_scheduled", time_limit=60, soft_time_limit=50)
def audit_check_scheduled_task(full: bool = False) -> int:
    """Celery beat: request an audit check (incremental every hour, full every week by
    default), as a compliance officer would; its chunks go to the workers."""
    return services.audit_check_request(user=None, full=full).pk


# Its own limits: the settings' soft limit (540 s) is above this task's hard one, which beat
# refuses ("soft_time_limit must be less than or equal to time_limit").
@shared_task(name="payouts.audit_anchor", time_limit=120, soft_time_limit=100)
def audit_anchor_task() -> int | None:
    """Celery beat: sign a checkpoint of every chain and the settlements' tree when anything
    moved (``payouts/checkpoints.py``); its number, or None when nothing moved."""
    checkpoint = checkpoints.anchor_run()
    return checkpoint.number if checkpoint is not None else None
