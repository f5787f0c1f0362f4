"""Celery tasks: thin, load by id and call one service."""

from celery import shared_task

from . import chain, services


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


@shared_task(name="payouts.audit_anchor", time_limit=60)
def audit_anchor_task() -> int | None:
    """Celery beat: anchor the heads of the audit chains that moved, outside the database."""
    anchor = chain.anchor_write()
    return len(anchor["heads"]) if anchor else None
