"""Celery tasks: thin, load by id and call one service."""

from celery import shared_task

from . import services


@shared_task(name="payouts.audit_check", time_limit=600, soft_time_limit=540)
def audit_check_task(check_id: int) -> str:
    check = services.audit_check_run(check_id=check_id)
    return str(check.status)
