from __future__ import annotations

from rest_framework import serializers

from payouts.serializers import SettlementResultSerializer, id_filter

from .models import Approval


class ApprovalSerializer(serializers.ModelSerializer):
    kind_label = serializers.CharField(source="get_kind_display", read_only=True)
    table_name = serializers.CharField(source="table.name", read_only=True)
    hand_number = serializers.IntegerField(source="hand.number", read_only=True, allow_null=True)
    requested_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    decided_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Approval
        fields = [
            "id",
            "kind",
            "kind_label",
            "status",
            "table",
            "table_name",
            "hand",
            "hand_number",
            "change",
            "reason",
            "detail",
            "requested_by",
            "requested_at",
            "decided_by",
            "decided_at",
            "note",
        ]


class ApprovalFilterSerializer(serializers.Serializer):
    """The queue's query parameters; an unknown value is a 400 naming it, never ignored."""

    kind = serializers.ChoiceField(choices=Approval.Kind.choices, required=False)
    status = serializers.ChoiceField(choices=Approval.Status.choices, required=False)
    table = id_filter("a table")
    hand = id_filter("a hand")


class DecisionSerializer(serializers.Serializer):
    note = serializers.CharField(allow_blank=True, required=False, default="")


class HeldSettlementSerializer(SettlementResultSerializer):
    """A settlement above the sign-off limits, held: the request that waits for the floor and
    the settlement that signing it stores."""

    hand = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending_signoff"])
    approval = ApprovalSerializer()
