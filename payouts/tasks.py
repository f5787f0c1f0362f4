"""Celery tasks: thin, load by id and call one service."""

from celery import shared_task

from . import chain, services


@shared_task(name="payouts.audit_check", time_limit=600, soft_time_limit=540)
def audit_check_task(check_id: int) -> str:
    check = services.audit_check_run(check_id=check_id)
    return str(check.status)


@shared_task(name="payouts.audit_anchor", time_limit=60)
def audit_anchor_task() -> int | None:
    """Celery beat: anchor the audit chain's head outside the database."""
    anchor = chain.anchor_write()
    return anchor["seq"] if anchor else None
