"""The site's charts, drawn into its page. A run or comparison page leaves each chart as an
empty element (``<div class="runsite-chart">``, or one a check with ``data-of``) beside its
data (``<script type="application/json" data-chart>``), for ``charts.js`` to draw with
plotly.js and to write the interval chart's table from. A report draws each chart here as SVG
(``svg``), writes that table, and leaves the data out: with no data on the page, the site's
script never asks for plotly.js.

The page's markup is jinja2's, autoescaped: no attribute value holds a quote, and chart data
holds no ``<``, so the patterns below read it whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from html import unescape
from typing import Any

from markupsafe import escape

from generator.reading.formats import Formats
from generator.report.svg import compare, interval_table, intervals
from generator.site.charts import from_page

_DATA = re.compile(r'<script type="application/json" data-chart="([^"]+)">(.*?)</script>\n?', re.S)
_PLACE = re.compile(r'<div class="runsite-chart"((?: [a-z-]+="[^"]*")*)></div>')
_ATTRIBUTE = re.compile(r' ([a-z-]+)="([^"]*)"')
_TABLE = re.compile(r'(<table data-rows-of="([^"]+)">.*?<tbody>\n?)(</tbody>)', re.S)


def drawn(html: str, figures: Formats) -> str:
    """``html`` (a page's body) with every chart drawn and its data left out."""
    charts: dict[str, Mapping[str, Any]] = {
        unescape(name): from_page(json.loads(text)) for name, text in _DATA.findall(html)
    }
    used: set[str] = set()

    def place(found: re.Match[str]) -> str:
        attributes = dict(_ATTRIBUTE.findall(found[1]))
        part_of = attributes.get("data-of")
        name = unescape(part_of or attributes["id"])
        data = charts[name]
        used.add(name)
        if data["kind"] == "intervals":
            check = int(attributes["data-check"]) if part_of else None
            pieces = intervals(data, check, figures)
        elif data["kind"] == "compare":
            pieces = compare(data, figures)
        else:
            raise ValueError(f"a report draws no {data['kind']} chart")
        kept = "".join(f' {key}="{value}"' for key, value in attributes.items() if key != "style")
        return f'<div class="runsite-chart"{kept}>\n' + "\n".join(pieces) + "\n</div>"

    def table(found: re.Match[str]) -> str:
        data = charts[unescape(found[2])]
        if data["kind"] != "intervals":
            return found[0]
        rows = "".join(
            "<tr>" + "".join(f"<td>{escape(cell)}" for cell in row) + "\n"
            for row in interval_table(data, figures)
        )
        return found[1] + rows + found[3]

    html = _TABLE.sub(table, _PLACE.sub(place, html))
    if used != charts.keys():
        unused = ", ".join(sorted(charts.keys() - used))
        raise ValueError(f"the page has data of charts a report does not draw: {unused}")
    return _DATA.sub("", html)
