"""The sign-off fixtures for the approvals tests."""

from tests.approvals.signoff_fixtures import shift, shift2  # noqa: F401
