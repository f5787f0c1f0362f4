"""The approvals queue's requests in words: ``{% load floor_words %}`` then
``{% correction_steps approval as steps %}`` (the actions a correction changes) and
``{% void_stakes approval as stakes %}`` (what each seat has in the hand a void cancels)."""

from __future__ import annotations

from typing import Any

from django import template

from approvals.models import Approval
from desk.floor import queue

register = template.Library()


@register.simple_tag
def correction_steps(approval: Approval) -> list[Any]:
    return queue.correction_steps(approval)


@register.simple_tag
def void_stakes(approval: Approval) -> list[dict[str, Any]]:
    return queue.void_stakes(approval)
