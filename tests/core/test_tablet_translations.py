"""The tablet speaks every language it offers: each of its strings is translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(__file__).resolve().parents[2] / "tablet" / "locale"
UNTRANSLATED_ON_PURPOSE = {"of"}  # "10 of hearts" reads as "10 ♥" where "of" has no word


def entries(path: Path) -> dict[str, str]:
    """Each message and its translation, long ones wrapped over several quoted lines."""

    def joined(lines: str) -> str:
        return "".join(re.findall(r'"(.*)"', lines))

    found = re.findall(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"(?:\n|$))+)', path.read_text(), re.M)
    return {joined(key): joined(value) for key, value in found if joined(key)}


@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES if code != "en"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_tablet_string_is_translated(code, domain):
    path = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
    # A fuzzy entry (a guess by makemessages) is not used: it counts as untranslated.
    assert "#, fuzzy" not in path.read_text().split('msgid "', 2)[-1], (code, domain)
    found = entries(path)
    assert len(found) > (50 if domain == "djangojs" else 2)
    missing = sorted(k for k, v in found.items() if not v and k not in UNTRANSLATED_ON_PURPOSE)
    assert missing == [], (code, missing)


def test_the_catalogues_list_every_string_the_tablet_uses():
    """``makemessages`` was run after the last change: every literal the tablet's scripts pass
    to gettext is in the Greek catalogue."""
    scripts = (LOCALE.parent / "static" / "tablet").glob("*.js")
    used = {m for path in scripts for m in re.findall(r'gettext\("([^"]+)"\)', path.read_text())}
    assert used <= set(entries(LOCALE / "el" / "LC_MESSAGES" / "djangojs.po"))
