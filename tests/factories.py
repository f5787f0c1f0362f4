"""Factories for the Django tests, in one place."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tables.models import Seat, Table


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pw-secret-1")

    @factory.post_generation
    def role(self, create: bool, extracted: str | None, **kwargs: object) -> None:
        if extracted:
            self.groups.add(Group.objects.get_or_create(name=extracted)[0])
        self.save()


class TableFactory(factory.django.DjangoModelFactory):
    """A High Card Flush table with seats, closed, no players. Prefer the `open_table`
    fixture, which goes through the services like a floor manager would."""

    class Meta:
        model = Table

    name = factory.Sequence(lambda n: f"HCF-{n}")
    game = "high-card-flush"
    seat_count = 7
    ante_min = 100
    ante_max = 10_000
    bank_min = 5_000
    bank_max = 1_000_000
    smallest_chip = 1

    @factory.post_generation
    def seats(self, create: bool, extracted: object, **kwargs: object) -> None:
        Seat.objects.bulk_create(Seat(table=self, number=n) for n in range(1, self.seat_count + 1))
