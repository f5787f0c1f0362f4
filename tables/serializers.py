"""Shapes for the tables API. Serializers check shape; the services decide."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from approvals.models import Approval
from casino.core.game_schema import HAND_STATE
from casino.core.roles import DEALER
from casino.rules.contract import registry
from casino.rules.errors import RuleError

from .models import Hand, Seat, Table, TableChange
from .selectors import hand_state, pending_approvals

User = get_user_model()


class SeatSerializer(serializers.ModelSerializer):
    class Meta:
        model = Seat
        fields = ["number", "player", "sitting_out", "in_play"]


class TableSerializer(serializers.ModelSerializer):
    dealer = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    seats = SeatSerializer(many=True, read_only=True)
    rules_in_force = serializers.SerializerMethodField(
        help_text="every rules option as the table plays it: the game's defaults with the "
        "table's own rules (``rules``) read over them, nested options written out (what a "
        "change form shows as the value in force)"
    )

    class Meta:
        model = Table
        fields = [
            "id",
            "name",
            "game",
            "status",
            "dealer",
            "seat_count",
            "limits",
            "smallest_chip",
            "rules",
            "rules_in_force",
            "next_hand_number",
            "seats",
        ]

    @extend_schema_field(serializers.DictField())
    def get_rules_in_force(self, table: Table) -> dict[str, Any]:
        game = registry().get(table.game)
        if game is None:
            return dict(table.rules)
        try:
            return dict(game.parse_rules(table.rules))
        except RuleError:  # valid when set; shown as stored over the defaults
            return {**game.default_rules(), **table.rules}


class JSONObjectField(serializers.DictField):
    """A JSON object whose content the game checks (its limits, rules or a body)."""


class StrictSerializer(serializers.Serializer):
    """An input serializer that refuses fields it does not know (a 400 naming each), so a
    client sending a field that no longer exists hears about it."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {key: [f"unknown field {key!r}"] for key in unknown}
                )
        return super().to_internal_value(data)


class TableCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=100)
    game = serializers.CharField(max_length=40, help_text="a game's code: GET /api/v1/games/")
    seat_count = serializers.IntegerField(min_value=2, max_value=99, default=7)
    dealer = serializers.SlugRelatedField(
        slug_field="username",
        queryset=User.objects.filter(groups__name=DEALER),
        required=False,
        allow_null=True,
    )
    limits = JSONObjectField(help_text="the game's table limits (its limits schema)")
    smallest_chip = serializers.IntegerField(min_value=1, default=1)
    rules = JSONObjectField(
        required=False, default=dict, help_text="overrides of the game's default rules"
    )

    def validate_game(self, value: str) -> str:
        games = registry()
        if value not in games:
            raise serializers.ValidationError(f"unknown game {value!r}; games: {', '.join(games)}")
        return value


class TableStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Table.Status.choices)


class DealerAssignSerializer(serializers.Serializer):
    dealer = serializers.SlugRelatedField(
        slug_field="username",
        queryset=User.objects.filter(groups__name=DEALER),
        allow_null=True,
    )


class SeatUpdateSerializer(StrictSerializer):
    player = serializers.CharField(max_length=100, allow_blank=True)
    sitting_out = serializers.BooleanField(default=False)


class TableChangeSerializer(serializers.ModelSerializer):
    """A change with its request's state (who asked and why, the decision), read from the
    approvals queue where it is kept."""

    reason = serializers.CharField(source="approval.reason", read_only=True)
    status = serializers.ChoiceField(
        source="approval.status", choices=Approval.Status.choices, read_only=True
    )
    requested_by = serializers.CharField(source="approval.requested_by.username", read_only=True)
    requested_at = serializers.DateTimeField(source="approval.requested_at", read_only=True)
    decided_by = serializers.CharField(
        source="approval.decided_by.username", read_only=True, allow_null=True, default=None
    )
    decided_at = serializers.DateTimeField(
        source="approval.decided_at", read_only=True, allow_null=True
    )
    decision_note = serializers.CharField(source="approval.note", read_only=True)

    class Meta:
        model = TableChange
        fields = [
            "id",
            "table",
            "changes",
            "before",
            "reason",
            "status",
            "requested_by",
            "requested_at",
            "decided_by",
            "decided_at",
            "decision_note",
            "applies_from_hand",
        ]


class ChangeFilterSerializer(serializers.Serializer):
    """``GET /api/v1/tables/{id}/changes/`` query parameters; a bad one is a 400 naming it."""

    status = serializers.ChoiceField(choices=Approval.Status.choices, required=False)


class ChangeRequestSerializer(StrictSerializer):
    changes = JSONObjectField(
        help_text="new values for any of the game's limits, smallest_chip, and rules "
        "(merged by key)"
    )
    reason = serializers.CharField(allow_blank=True, required=False, default="")


class PendingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    reason = serializers.CharField()
    requested_by = serializers.CharField(source="requested_by.username")
    requested_at = serializers.DateTimeField()


class HandSerializer(serializers.ModelSerializer):
    table = serializers.PrimaryKeyRelatedField(read_only=True)
    opened_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    voided_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    settlement = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField(
        help_text="an open hand's state: phase, whose turn, legal actions, seats, pots"
    )
    waiting_for = serializers.SerializerMethodField(
        help_text="requests on this hand that wait for a floor manager (a void, a payout sign-off)"
    )

    class Meta:
        model = Hand
        fields = [
            "id",
            "table",
            "number",
            "game",
            "status",
            "rules",
            "seats",
            "config",
            "state",
            "opened_by",
            "opened_at",
            "closed_at",
            "void_reason",
            "voided_by",
            "settlement",
            "waiting_for",
        ]

    @extend_schema_field(HAND_STATE)
    def get_state(self, hand: Hand) -> dict | None:
        return hand_state(hand=hand)

    @extend_schema_field(PendingSerializer(many=True))
    def get_waiting_for(self, hand: Hand) -> list[dict]:
        return PendingSerializer(pending_approvals(hand), many=True).data

    def get_settlement(self, hand: Hand) -> int | None:
        settlement = getattr(hand, "settlement", None)
        return settlement.pk if settlement is not None else None


_SHOWN_AT = serializers.DateTimeField()  # how a hand's times are shown (DRF's format)


def opened_hand_data(hand: Hand) -> dict[str, Any]:
    """What :class:`HandSerializer` shows of a hand its service has just opened (no action,
    settlement or request yet, ``selectors.just_opened``), field for field and in its
    order, without building the serializer's fields on every request (``tests/tables/
    test_hands_api.py`` holds it equal to the serializer's)."""
    return {
        "id": hand.pk,
        "table": hand.table_id,
        "number": hand.number,
        "game": hand.game,
        "status": str(hand.status),
        "rules": hand.rules,
        "seats": hand.seats,
        "config": hand.config,
        "state": hand_state(hand=hand),
        "opened_by": hand.opened_by.username,
        "opened_at": _SHOWN_AT.to_representation(hand.opened_at),
        "closed_at": None,
        "void_reason": hand.void_reason,
        "voided_by": None,
        "settlement": None,
        "waiting_for": [],
    }


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField()


class CorrectionSerializer(StrictSerializer):
    reason = serializers.CharField(help_text="why the settled hand is corrected")
    record = JSONObjectField(
        required=False,
        allow_null=True,
        default=None,
        help_text="the corrected record, for a game whose dealers post one (High Card Flush)",
    )
    actions = serializers.ListField(
        child=JSONObjectField(),
        required=False,
        allow_null=True,
        default=None,
        max_length=1000,
        help_text="the hand's whole corrected list of actions, for the other games",
    )


class GameBodySerializer(serializers.Serializer):
    """A JSON object for the game to check (a hand's opening body, a settle record): its
    shape per game is in the API document; the game names every problem in it."""

    def to_internal_value(self, data: object) -> dict:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"": ["the body must be a JSON object"]})
        return dict(data)


class ActionBodySerializer(GameBodySerializer):
    """One action: ``{"type": ..., ...}``; the game checks the rest."""

    def to_internal_value(self, data: object) -> dict:
        body = super().to_internal_value(data)
        if not isinstance(body.get("type"), str) or not body["type"]:
            raise serializers.ValidationError({"type": ["an action names its type"]})
        return body


class GameStateSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    game = serializers.CharField()
    state = serializers.DictField(help_text="the game's table state between hands")
    actions = serializers.ListField(
        child=serializers.DictField(), help_text="the between-hand actions legal now"
    )
    hand_open = serializers.BooleanField()
    deck = serializers.ListField(
        child=serializers.CharField(), help_text="the cards the next hand is dealt from"
    )
    next_seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="the seats the next hand deals in"
    )
    proposal = serializers.DictField(
        help_text="a partial opening body for the next hand, in the game's opening shape, for "
        "the dealer to confirm or correct: each seat's stack as the last settled hand left it "
        "where the game keeps stacks (a seat with no stack known has none); {} when the game "
        "proposes nothing"
    )
    events = serializers.ListField(child=serializers.DictField(), help_text="recent events")


# ---------------------------------------------------------------- a change's preview


class PreviewProblemSerializer(serializers.Serializer):
    path = serializers.CharField(
        help_text='the option the problem is about ("ante_max", "rules.rake.bands[1].amount")'
    )
    message = serializers.CharField(help_text="what is wrong, in words")
    code = serializers.CharField(required=False, help_text="the message's id, where it has one")
    params = serializers.DictField(required=False, help_text="the message's parameters")


class PreviewOptionSerializer(serializers.Serializer):
    path = serializers.CharField(
        help_text='the option: a limit ("ante_max"), "smallest_chip" or a rule ("rules.rake")'
    )
    title = serializers.CharField(help_text='its name in words ("ante maximum")')
    before = serializers.JSONField(help_text="its value now (minor units for money)")
    after = serializers.JSONField(help_text="its value after the change")
    before_words = serializers.CharField(help_text='its value now in words ("$100.00", "500:1")')
    after_words = serializers.CharField(help_text="its value after the change in words")
    was_default = serializers.BooleanField(
        help_text="a rule the table had not set: its value now is the game's default"
    )


class PreviewFigureSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["computing", "ready", "failed"],
        help_text="computing: still being simulated (ask again in a few seconds)",
    )
    exact = serializers.BooleanField(help_text="worked out exactly (not simulated)")
    value = serializers.FloatField(
        allow_null=True, help_text="the figure as a ratio (0.0245 is 2.45%), once ready"
    )
    low = serializers.FloatField(allow_null=True, help_text="a simulation's 95% interval, low")
    high = serializers.FloatField(allow_null=True, help_text="a simulation's 95% interval, high")
    hands = serializers.IntegerField(allow_null=True, help_text="hands simulated")
    error = serializers.CharField(required=False, help_text="why it could not be computed")


class PreviewPairSerializer(serializers.Serializer):
    measure = serializers.CharField(help_text="which figure (house, flush_bonus, ...)")
    label = serializers.CharField(help_text="what the figure is, in words")
    note = serializers.CharField(help_text="how it is worked out")
    changes = serializers.BooleanField(help_text="the change alters what this figure depends on")
    before = PreviewFigureSerializer(allow_null=True)
    after = PreviewFigureSerializer(allow_null=True)


class PreviewTheorySerializer(serializers.Serializer):
    offered = serializers.BooleanField(
        allow_null=True,
        help_text="false: the game has no theoretical hold; null until the change is valid",
    )
    computing = serializers.BooleanField(help_text="a figure is still being simulated")
    error = serializers.CharField(help_text="why there are no figures for these rules, or ''")
    figures = PreviewPairSerializer(many=True)


class ChangePreviewSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    valid = serializers.BooleanField(help_text="the change would be accepted as asked")
    errors = PreviewProblemSerializer(
        many=True, help_text="why it would be refused, each at the option it is about"
    )
    changes = PreviewOptionSerializer(many=True, help_text="each changed option, before and after")
    applies_from_hand = serializers.IntegerField(
        help_text="the earliest hand it applies from: the table's next hand, if it is approved "
        "before that hand opens (a change applies from the first hand opened after approval)"
    )
    theory = PreviewTheorySerializer(help_text="the theoretical edge before and after")
