"""The reports as PDF documents (reportlab's platypus), A4 landscape: the title, the gaming
day or days with the moments they run from and to, the figures table with its TOTAL row and,
in a shift report, the day's chip custody (trays and drop per table, the win both ways, the
slips with any unused number, the variances at close) and its sections (large payouts, voids,
corrections, limit changes). Amounts are written as on the pages (``$1,250.00``,
:func:`casino.core.money.money`).

Text is set in DejaVu Sans where the system has it (names and reasons typed on the tablets in
Greek or Armenian print as typed), else in the Vera font reportlab ships.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from casino.core.money import money

from .selectors import (
    CustodyRow,
    CustodyWindow,
    FigureRow,
    ShiftCustody,
    ShiftReport,
    TableReport,
    local,
    zone_name,
)

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
)
FIGURE_HEADER = ["Hands", "Handle", "Payouts", "Rake", "Win", "Hold %"]
MARGIN = 12 * mm
PADDING = 6  # points: platypus' frame padding on each side
WIDTH = landscape(A4)[0] - 2 * MARGIN - 2 * PADDING  # what a table may take


@functools.cache
def fonts() -> tuple[str, str, str]:
    """The regular and bold fonts registered with reportlab, and the arrow they can print."""
    for folder in FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            pdfmetrics.registerFont(TTFont("ReportSans", str(regular)))
            pdfmetrics.registerFont(TTFont("ReportSans-Bold", str(bold)))
            return "ReportSans", "ReportSans-Bold", "\u2192"
    pdfmetrics.registerFont(TTFont("ReportSans", "Vera.ttf"))  # shipped with reportlab
    pdfmetrics.registerFont(TTFont("ReportSans-Bold", "VeraBd.ttf"))
    return "ReportSans", "ReportSans-Bold", "->"


class Styles:
    def __init__(self) -> None:
        regular, bold, self.arrow = fonts()
        self.regular, self.bold = regular, bold
        self.title = ParagraphStyle("title", fontName=bold, fontSize=17, leading=21, spaceAfter=4)
        self.heading = ParagraphStyle(
            "heading", fontName=bold, fontSize=12.5, leading=16, spaceBefore=10, spaceAfter=4
        )
        self.subheading = ParagraphStyle(
            "subheading", fontName=bold, fontSize=10.5, leading=13.5, spaceBefore=6, spaceAfter=3
        )
        self.body = ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=12.5)
        self.cell = ParagraphStyle("cell", fontName=regular, fontSize=8.5, leading=10.5)


def _p(text: Any, style: ParagraphStyle) -> Paragraph:
    return Paragraph(escape("" if text is None else str(text)), style)


def _lines(lines: Sequence[str], style: ParagraphStyle) -> Paragraph:
    return Paragraph("<br/>".join(escape(line) for line in lines) or "", style)


def _grid(
    styles: Styles,
    rows: list[list[Any]],
    widths: list[float],
    *,
    numeric_from: int = 99,
    total: bool = False,
) -> Table:
    """A table with a header row repeated on every page; columns from ``numeric_from`` on are
    right-aligned; ``total`` sets the last row in bold under a rule."""
    scale = min(1.0, WIDTH / sum(widths))
    table = Table(rows, colWidths=[w * scale for w in widths], repeatRows=1, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), styles.regular),
        ("FONTNAME", (0, 0), (-1, 0), styles.bold),
        ("FONTSIZE", (0, 0), (-1, -1), 8.5),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e4e4ea")),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#bbbbbb")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("ALIGN", (numeric_from, 0), (-1, -1), "RIGHT"),
    ]
    if total:
        commands += [
            ("FONTNAME", (0, -1), (-1, -1), styles.bold),
            ("LINEABOVE", (0, -1), (-1, -1), 1.2, colors.black),
        ]
    table.setStyle(TableStyle(commands))
    return table


def _money(minor: int | None) -> str:
    return "" if minor is None else money(minor)


def _figure_cells(row: FigureRow) -> list[str]:
    f = row.figures
    amounts = [money(value) for value in (f.handle, f.payouts, f.rake, f.win)]
    return [str(f.hands), *amounts, row.hold_pct or "\u2014"]


def _whos(styles: Styles, name: str, moment: Any) -> Paragraph:
    """Who, and when below it."""
    return _lines([name, local(moment)] if name else [], styles.cell)


def _none(styles: Styles, what: str) -> Paragraph:
    return _p(f"No {what} in this gaming day.", styles.body)


def _build(title: str, subtitle: list[str], story: list[Flowable], styles: Styles) -> bytes:
    buffer = BytesIO()
    printed = local(timezone.now())

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(styles.regular, 7.5)
        canvas.drawString(
            MARGIN + PADDING, 7 * mm, f"{title} \u00b7 printed {printed} {zone_name()}"
        )
        canvas.drawRightString(landscape(A4)[0] - MARGIN - PADDING, 7 * mm, f"page {doc.page}")
        canvas.restoreState()

    document = SimpleDocTemplate(
        buffer,
        pagesize=landscape(A4),
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=14 * mm,
        title=title,
        author="Casino table games",
        subject=" ".join(subtitle),
    )
    head: list[Flowable] = [_p(title, styles.title)]
    head += [_p(line, styles.body) for line in subtitle]
    head.append(Spacer(1, 4 * mm))
    document.build(head + story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()


def _bounds(start: Any, end: Any) -> str:
    return f"from {local(start)} to {local(end)} ({zone_name()}); amounts in {settings.CURRENCY}"


def shift_pdf(report: ShiftReport) -> bytes:
    styles = Styles()
    title = f"Shift report, gaming day {report.day.isoformat()}"
    subtitle = [f"Gaming day {report.day.isoformat()}: {_bounds(report.start, report.end)}."]
    story: list[Flowable] = [_p("Figures per table", styles.heading)]
    figures = [["Table", "Game", *FIGURE_HEADER]]
    figures += [
        [_p(r.label, styles.cell), _p(r.game, styles.cell), *_figure_cells(r)] for r in report.rows
    ]
    figures.append([report.total.label, "", *_figure_cells(report.total)])
    story.append(
        _grid(styles, figures, [62 * mm, 52 * mm] + [26 * mm] * 6, numeric_from=2, total=True)
    )

    story += _custody(styles, report.custody)

    story.append(_p("Large payouts signed off", styles.heading))
    if report.payouts:
        rows: list[list[Any]] = [
            [
                "Table",
                "Hand",
                "Over the limit",
                "Limits (line, net)",
                "Asked by",
                "Signed by",
                "Note",
            ]
        ]
        for item in report.payouts:
            over = [f"seat {o.seat}: {o.what} {money(o.amount)}" for o in item.over]
            rows.append(
                [
                    _p(item.table.name, styles.cell),
                    str(item.hand_number or ""),
                    _lines(over, styles.cell),
                    f"{_money(item.line_limit)}, {_money(item.net_limit)}",
                    _whos(styles, item.asked_by, item.asked_at),
                    _whos(styles, item.signed_by, item.signed_at),
                    _p(item.note, styles.cell),
                ]
            )
        story.append(
            _grid(styles, rows, [36 * mm, 14 * mm, 62 * mm, 34 * mm, 38 * mm, 38 * mm, 46 * mm])
        )
    else:
        story.append(_none(styles, "large payout was signed off"))

    story.append(_p("Voids", styles.heading))
    if report.voids:
        rows = [["Table", "Hand", "Reason", "Asked by", "Approved by", "Voided at", "Note"]]
        rows += [
            [
                _p(v.table.name, styles.cell),
                str(v.hand.number),
                _p(v.reason, styles.cell),
                _whos(styles, v.asked_by, v.asked_at),
                _p(v.approved_by, styles.cell),
                local(v.voided_at),
                _p(v.note, styles.cell),
            ]
            for v in report.voids
        ]
        story.append(
            _grid(styles, rows, [40 * mm, 14 * mm, 70 * mm, 38 * mm, 30 * mm, 32 * mm, 49 * mm])
        )
    else:
        story.append(_none(styles, "hand was voided"))

    story.append(_p("Corrections", styles.heading))
    if report.corrections:
        rows = [["Table", "Hand", "Status", "Reason", "Asked by", "Decided by", "Note"]]
        rows += [
            [
                _p(c.table.name, styles.cell),
                str(c.hand_number or ""),
                c.status,
                _p(c.reason, styles.cell),
                _whos(styles, c.asked_by, c.asked_at),
                _whos(styles, c.decided_by, c.decided_at),
                _p(c.note, styles.cell),
            ]
            for c in report.corrections
        ]
        story.append(
            _grid(styles, rows, [40 * mm, 14 * mm, 22 * mm, 70 * mm, 38 * mm, 38 * mm, 51 * mm])
        )
    else:
        story.append(_none(styles, "correction was asked for or decided"))

    story.append(_p("Limit and rule changes decided", styles.heading))
    if report.changes:
        rows = [
            [
                "Table",
                "Status",
                "Before " + styles.arrow + " after",
                "Reason",
                "Asked by",
                "Decided by",
                "From hand",
            ]
        ]
        for change in report.changes:
            changed = [f"{f.name}: {f.before} {styles.arrow} {f.after}" for f in change.fields]
            rows.append(
                [
                    _p(change.table.name, styles.cell),
                    change.status,
                    _lines(changed, styles.cell),
                    _p(change.reason, styles.cell),
                    _whos(styles, change.asked_by, change.asked_at),
                    _whos(styles, change.decided_by, change.decided_at),
                    str(change.applies_from_hand or ""),
                ]
            )
        story.append(
            _grid(styles, rows, [34 * mm, 20 * mm, 74 * mm, 44 * mm, 38 * mm, 38 * mm, 20 * mm])
        )
    else:
        story.append(_none(styles, "limit or rule change was decided"))
    return _build(title, subtitle, story, styles)


def _window(styles: Styles, window: CustodyWindow) -> str:
    start = local(window.start)[11:]
    end = local(window.end)[11:] if window.end else "open"
    hands = f"{window.hands} hand{'' if window.hands == 1 else 's'}"
    return f"{start} {styles.arrow} {end}: {hands}"


def _trays(styles: Styles, row: CustodyRow) -> list[Any]:
    if row.is_total:
        first: list[Any] = [row.label, f"{row.hands} hand{'' if row.hands == 1 else 's'}"]
    else:
        first = [
            _lines([row.label, *row.missing], styles.cell),
            _lines([_window(styles, w) for w in row.windows], styles.cell),
        ]
    amounts = (row.opener, row.fills, row.credits, row.closer, row.drop_cash, row.drop_chips)
    return [*first, *(_money(a) or "–" for a in (*amounts, row.drop))]


def _wins(styles: Styles, row: CustodyRow) -> list[Any]:
    variance = _money(row.tray_variance) or "–"
    return [
        row.label if row.is_total else _p(row.label, styles.cell),
        *(_money(a) or "–" for a in (row.statistical_win, row.hand_win, row.win_difference)),
        f"{variance} {row.line}" if row.line else variance,
        *(
            _money(a) or "–"
            for a in (row.drop_cash, row.drop_chips, row.collection, row.collection_difference)
        ),
    ]


def _custody(styles: Styles, custody: ShiftCustody | None) -> list[Flowable]:
    """The day's chip custody, as the page shows it."""
    story: list[Flowable] = [_p("Chip custody", styles.heading)]
    if custody is None:
        return [*story, _p("No chip custody recorded this day.", styles.body)]
    story.append(
        _p(
            "Drop is the counted contents of a table's drop box (cash and chips), not the "
            "handle (the chips wagered). Statistical win = closer − opener + credits "
            "− fills + drop; Win (hands) is what the hands say the house won. Their "
            "difference = tray variance at close + cash in the drop + (chips in the drop "
            "− collection recorded). A variance above the report line "
            f"({_money(custody.report_above)}) is marked report, above the notify line "
            f"({_money(custody.notify_above)}) notify.",
            styles.body,
        )
    )
    story.append(_p("Trays and drop per table", styles.subheading))
    rows: list[list[Any]] = [
        [
            "Table",
            "Windows: hands",
            "Opener",
            "Fills",
            "Credits",
            "Closer",
            "Drop: cash",
            "Drop: chips",
            "Drop",
        ]
    ]
    rows += [_trays(styles, row) for row in [*custody.rows, custody.total]]
    story.append(
        _grid(styles, rows, [44 * mm, 52 * mm] + [25 * mm] * 7, numeric_from=2, total=True)
    )
    story.append(_p("Win both ways", styles.subheading))
    rows = [
        [
            "Table",
            "Statistical win",
            "Win (hands)",
            "Difference",
            "Tray variance at close",
            "Cash in the drop",
            "Chips in the drop",
            "Collection recorded",
            "Chips − collection",
        ]
    ]
    rows += [_wins(styles, row) for row in [*custody.rows, custody.total]]
    header = ParagraphStyle("wrapped", parent=styles.cell, fontName=styles.bold)
    rows[0] = [rows[0][0], *(_p(words, header) for words in rows[0][1:])]
    story.append(_grid(styles, rows, [40 * mm, *[29 * mm] * 8], numeric_from=1, total=True))

    story.append(_p("Fill and credit slips", styles.subheading))
    if custody.slips:
        rows = [["Slip", "Table", "Total", "Status", "Requested by", "Completed"]]
        for slip in custody.slips:
            status = (
                f"void. Reason: {slip.void_reason}"
                + (f" (voided by {slip.voided_by})" if slip.voided_by else "")
                if slip.is_void
                else slip.status
            )
            rows.append(
                [
                    slip.label,
                    _p(slip.table.name, styles.cell),
                    _money(slip.total),
                    _p(status, styles.cell),
                    _whos(styles, slip.requested_by, slip.requested_at),
                    local(slip.completed_at),
                ]
            )
        story.append(_grid(styles, rows, [34 * mm, 40 * mm, 26 * mm, 90 * mm, 42 * mm, 38 * mm]))
        for numbers in custody.series:
            void = f" ({numbers.void} void)" if numbers.void else ""
            unused = (
                "unused " + ", ".join(numbers.unused) if numbers.unused else "no unused number."
            )
            story.append(
                _p(
                    f"{numbers.title}: {numbers.first} to {numbers.last}, {numbers.count} "
                    f"slip{'' if numbers.count == 1 else 's'}{void}: {unused}",
                    styles.body,
                )
            )
    else:
        story.append(_none(styles, "fill or credit slip"))

    story.append(_p("Variances at close above the report line", styles.subheading))
    if custody.variances:
        rows = [
            [
                "Table",
                "Counted",
                "Expected",
                "Variance",
                "Regulator",
                "Reason",
                "Review",
                "Closer signed by",
            ]
        ]
        for item in custody.variances:
            review = [item.review_words.capitalize()]
            if item.reviewed_by:
                review[0] += f" by {item.reviewed_by}"
                review.append(local(item.reviewed_at))
            if item.note:
                review.append(f"“{item.note}”")
            rows.append(
                [
                    _p(item.table.name, styles.cell),
                    _money(item.counted),
                    _money(item.expected),
                    _money(item.variance),
                    "notify" if item.notify else "no",
                    _p(item.reason, styles.cell),
                    _lines(review, styles.cell),
                    _whos(styles, item.signed_by, item.signed_at),
                ]
            )
        story.append(
            _grid(
                styles,
                rows,
                [30 * mm, 24 * mm, 24 * mm, 24 * mm, 20 * mm, 58 * mm, 50 * mm, 38 * mm],
            )
        )
    else:
        story.append(
            _p(
                "No closer was further from its expected tray than the report line "
                f"({_money(custody.report_above)}).",
                styles.body,
            )
        )
    return story


def table_pdf(report: TableReport) -> bytes:
    styles = Styles()
    name = f"{report.table.name} ({report.game})"
    title = f"Table report, {name}"
    days = f"Gaming days {report.first.isoformat()} to {report.last.isoformat()}"
    subtitle = [f"{days}: {_bounds(report.start, report.end)}."]
    rows: list[list[Any]] = [["Gaming day", *FIGURE_HEADER]]
    rows += [[r.label, *_figure_cells(r)] for r in report.rows]
    rows.append([report.total.label, *_figure_cells(report.total)])
    story: list[Flowable] = [
        _p("Figures per gaming day", styles.heading),
        _grid(styles, rows, [40 * mm] + [28 * mm] * 6, numeric_from=1, total=True),
    ]
    return _build(title, subtitle, story, styles)


def download(filename: str, content: bytes) -> HttpResponse:
    """A PDF attachment named ``filename``."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
