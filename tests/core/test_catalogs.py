"""Every catalog is complete: no .po file in the repository has an untranslated or fuzzy entry.

The check reads the PO files itself (no polib): each entry's flags, msgid, msgid_plural and
msgstr (or msgstr[n]), long strings wrapped over several quoted lines, obsolete entries
(``#~``) left out. The rules engines' catalogs (``casino/locale``) must also hold every
template the engines mark (``_``) in ``casino/rules``, each with its %(name)s placeholders.
"""

from __future__ import annotations

import ast
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
ENGINE_LOCALE = ROOT / "casino" / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
SKIPPED_DIRS = {".venv", "node_modules", ".git", "staticfiles", "test-artefacts"}


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def untranslated(self) -> bool:
        return not self.msgstr or any(not text for text in self.msgstr.values())

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


def _unquote(text: str) -> str:
    return ast.literal_eval(text.strip()) if text.strip() else ""


def read_po(path: Path) -> list[Entry]:
    """The entries of a PO file (its header, msgid "", included), in order."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    flags: set[str] = set()
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#~"):  # obsolete: not in use
            continue
        if line.startswith("#,"):
            if current is not None and target is not None and target[0] == "msgstr":
                finish()
            flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        if line.startswith("msgctxt") or line.startswith("msgid "):
            if current is not None and target is not None and target[0] == "msgstr":
                finish()
            if current is None:
                current = Entry(flags=flags, line=number)
                flags = set()
            if line.startswith("msgctxt"):
                target = ("msgctxt", 0)
                continue
            current.msgid = _unquote(line[len("msgid ") :])
            target = ("msgid", 0)
        elif line.startswith("msgid_plural "):
            assert current is not None, (path, number)
            current.msgid_plural = _unquote(line[len("msgid_plural ") :])
            target = ("msgid_plural", 0)
        elif line.startswith("msgstr"):
            assert current is not None, (path, number)
            match = re.match(r"msgstr(?:\[(\d+)\])?\s+(.*)", line)
            assert match, (path, number)
            index = int(match.group(1) or 0)
            current.msgstr[index] = _unquote(match.group(2))
            target = ("msgstr", index)
        elif line.startswith('"'):
            assert current is not None and target is not None, (path, number)
            kind, index = target
            text = _unquote(line)
            if kind == "msgid":
                current.msgid += text
            elif kind == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + text
            elif kind == "msgstr":
                current.msgstr[index] += text
    finish()
    return entries


def catalogs() -> list[Path]:
    """Every .po file in the repository (the tablet's, the engines', any other)."""
    return sorted(
        path
        for path in ROOT.rglob("*.po")
        if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts)
    )


def incomplete(path: Path) -> list[str]:
    """The entries of ``path`` that are untranslated or fuzzy, in words."""
    found = []
    for entry in read_po(path):
        if not entry.msgid:  # the header
            continue
        if entry.fuzzy:
            found.append(f"line {entry.line}: fuzzy: {entry.msgid!r}")
        elif entry.untranslated:
            found.append(f"line {entry.line}: untranslated: {entry.msgid!r}")
    return found


def translations(code: str) -> dict[str, str]:
    """The engines' catalog for ``code``: each translated, non-fuzzy msgid and its msgstr."""
    path = ENGINE_LOCALE / code / "LC_MESSAGES" / "django.po"
    return {
        entry.msgid: entry.msgstr.get(0, "")
        for entry in read_po(path)
        if entry.msgid and not entry.fuzzy and not entry.untranslated
    }


def test_the_reader_sees_wrapped_fuzzy_plural_and_obsolete_entries(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: el\\n"\n\n'
        '#, fuzzy, python-format\nmsgid "a %(x)s"\nmsgstr "b %(x)s"\n\n'
        'msgid ""\n"long "\n"text"\nmsgstr ""\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "ένα"\nmsgstr[1] ""\n\n'
        '#~ msgid "gone"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    assert incomplete(po) == [
        "line 6: fuzzy: 'a %(x)s'",
        "line 9: untranslated: 'long text'",
        "line 14: untranslated: 'one'",
    ]


def test_the_repository_has_catalogs() -> None:
    found = {path.relative_to(ROOT).as_posix() for path in catalogs()}
    for code in LANGUAGES:
        assert f"casino/locale/{code}/LC_MESSAGES/django.po" in found
        assert f"tablet/locale/{code}/LC_MESSAGES/djangojs.po" in found


@pytest.mark.parametrize("path", catalogs(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_catalog_has_an_untranslated_or_fuzzy_entry(path: Path) -> None:
    problems = incomplete(path)
    assert problems == [], f"{path.relative_to(ROOT)}: {len(problems)} entries:\n" + "\n".join(
        problems
    )


PLACEHOLDER = re.compile(r"%\(\w+\)[-+ #0]*\d*[sdif]")


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_engine_translation_keeps_its_placeholders(code: str) -> None:
    wrong = {
        msgid: text
        for msgid, text in translations(code).items()
        if sorted(PLACEHOLDER.findall(msgid)) != sorted(PLACEHOLDER.findall(text))
    }
    assert wrong == {}


def marked_templates() -> set[str]:
    """Every template ``casino/rules`` marks with ``_`` (xgettext, as makemessages runs it)."""
    sources = sorted(
        str(path)
        for path in (ROOT / "casino" / "rules").rglob("*.py")
        if "theory" not in path.parts
    )
    pot = subprocess.run(
        ["xgettext", "--language=Python", "--keyword=_", "--from-code=UTF-8", "-o", "-", *sources],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "engines.pot"
        path.write_text(pot, encoding="utf-8")
        return {entry.msgid for entry in read_po(path) if entry.msgid}


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_engine_catalogs_hold_every_marked_template(code: str) -> None:
    """``makemessages`` was run (and every entry translated) after the last marked change."""
    missing = sorted(marked_templates() - set(translations(code)))
    assert missing == []
