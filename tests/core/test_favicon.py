"""Every page names the house icon, and /favicon.ico answers (no 404 on every page)."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_icon():
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content if icon.streaming else [icon.content])


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/tablet/"])
def test_the_pages_name_the_icon(path):
    response = Client().get(path, follow=True)
    assert response.status_code == 200
    assert b'rel="icon"' in response.content and b"core/favicon" in response.content


@pytest.mark.django_db
def test_a_desk_page_names_the_icon(make_user):
    client = Client()
    client.force_login(make_user("floor_manager"))
    response = client.get("/desk/floor/")
    assert response.status_code == 200
    assert b"desk/desk.css" in response.content  # the desk's own layout
    assert b'rel="icon"' in response.content
