"""The README stays true: its request examples run as written and its links resolve."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def curl_posts() -> list[tuple[str, dict]]:
    """Every ``curl -X POST localhost:8000/<path> ... -d '<json>'`` in the README."""
    found = []
    for match in re.finditer(r"curl -s -X POST localhost:8000(/\S+)(.*?)-d '(.*?)'", README, re.S):
        path, _, body = match.groups()
        found.append((path, json.loads(body)))
    return found


def test_the_readme_has_request_examples():
    paths = [path for path, _ in curl_posts()]
    assert "/api/v1/auth/token/" in paths
    assert any(path.endswith("/evaluate/") for path in paths)


@pytest.mark.django_db
def test_the_readme_evaluate_example_settles_as_written(dealer, client_for):
    for path, body in curl_posts():
        if not path.endswith("/evaluate/"):
            continue
        response = client_for(dealer).post(path, body, format="json")
        assert response.status_code == 200, response.json()
        result = response.json()
        assert sum(s["net"] for s in result["seats"]) + result["rake"] == 0


def test_every_local_link_in_the_readme_exists():
    links = re.findall(r"\]\(((?!https?:)[^)#]+)\)", README)
    assert any(link.startswith("docs/rules/") for link in links)
    for link in links:
        assert (ROOT / link).exists(), link
