"""The league's report as one self-contained page (docs/league.md#the-page).

Built in Python from the report the league writes as JSON, so the page
shows the same numbers: per game the table, an SVG plot of each
matchup's mean score with its 95% interval, and the kinds' ratings, each
table and plot in a box that scrolls sideways in a narrow window. Every
number sits in a cell whose `data-value` holds the JSON's own value, and
the report itself is embedded (with "<" escaped), so a reader or a test
can check one against the other. Every name is escaped (html.escape): a
bot kind's name reaches the page as text.
"""

from __future__ import annotations

import html
import json
import os
from urllib.parse import quote

from fogboard_games.league.table import BOARDS_LEGEND, interval_text
from fogboard_games.pages.review import page_beside

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:72em;color:#222}
h1,p{overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.5em 0}
th,td{padding:.15em .6em;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}
tr.lit td{background:#fff3c4}
.undefined{color:#775;font-style:italic}
svg text{font:12px system-ui,sans-serif}
details a{margin-right:.6em}
"""

# Highlights a matchup's row and its bar in the plot together.
SCRIPT = """
document.querySelectorAll('[data-row]').forEach(function (el) {
  el.addEventListener('mouseenter', function () { light(el.dataset.row, true); });
  el.addEventListener('mouseleave', function () { light(el.dataset.row, false); });
});
function light(row, on) {
  document.querySelectorAll('[data-row="' + row + '"]').forEach(function (el) {
    el.classList.toggle('lit', on);
  });
}
"""


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _cell(value, shown: str, name: str) -> str:
    raw = "null" if value is None else repr(value)
    return f'<td class="{name}" data-value="{_e(raw)}">{_e(shown)}</td>'


def embedded_json(value) -> str:
    """JSON to sit inside a <script> element: '<' escaped, so no '</script>' ends it early."""
    return json.dumps(value).replace("<", "\\u003c")


def _matchups(preset: str, rows: list, links: dict, base: str) -> str:
    boards = any("mean_probes" in r for r in rows)
    head = ["bot", "against", "games", "mean score", "95% CI", "win", "draw", "loss", "length"]
    if boards:
        head += ["probes", "distToWin", "noRoute"]
    if links:
        head.append("saved games")
    out = ['<div class="scroll"><table class="matchups"><thead><tr>']
    out += [f"<th>{h}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for i, r in enumerate(rows):
        row_id = _e(f"{preset}/{i}")
        out.append(
            f'<tr data-row="{row_id}" data-kind="{_e(r["kind"])}" data-against="{_e(r["against"])}">'
        )
        out.append(
            f'<td class="kind">{_e(r["kind"])}</td><td class="against">{_e(r["against"])}</td>'
        )
        out.append(_cell(r["games"], str(r["games"]), "games"))
        out.append(_cell(r["mean_score"], f"{r['mean_score']:+.3f}", "mean_score"))
        out.append(_cell(r["ci95"], f"{r['ci95']:.3f}", "ci95"))
        for key in ("wins", "draws", "losses"):
            out.append(_cell(r[key], str(r[key]), key))
        out.append(_cell(r["mean_length"], f"{r['mean_length']:.1f}", "mean_length"))
        if boards:
            dist = r["mean_distToWin"]
            out.append(_cell(r["mean_probes"], f"{r['mean_probes']:.2f}", "mean_probes"))
            out.append(_cell(dist, "-" if dist is None else f"{dist:.2f}", "mean_distToWin"))
            out.append(_cell(r["no_route"], str(r["no_route"]), "no_route"))
        if links:
            paths = links.get((r["kind"], r["against"]), [])
            # Each game: its review page, and the review it is drawn from.
            anchors = " ".join(
                f'<span class="game"><a class="replay" href="{_e(_href(page_beside(p), base))}">'
                f"{_e(os.path.basename(p)[:-5])}</a> "
                f'(<a class="review" href="{_e(_href(p, base))}">json</a>)</span>'
                for p in paths
            )
            out.append(
                f'<td class="saved"><details><summary>{len(paths)} games</summary>'
                f"{anchors}</details></td>"
            )
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _href(path: str, base: str) -> str:
    """A saved review's link, relative to the page's folder, each part URL-quoted."""
    rel = os.path.relpath(os.path.abspath(path), base)
    return "/".join(quote(p) for p in rel.split(os.sep))


def _plot(preset: str, rows: list) -> str:
    """Each matchup's mean score as a dot, its 95% interval as a bar, on one axis with 0 marked."""
    left, width, step, top = 230, 400, 22, 10
    lows = [r["mean_score"] - r["ci95"] for r in rows] + [0.0]
    highs = [r["mean_score"] + r["ci95"] for r in rows] + [0.0]
    lo, hi = min(lows), max(highs)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * 0.05
    lo, hi = lo - pad, hi + pad

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * width

    height = top + step * len(rows) + 30
    out = [
        f'<div class="scroll"><svg class="plot" width="{left + width + 20}" height="{height}" '
        f'role="img" aria-label="mean score and 95% interval per matchup">'
    ]
    out.append(
        f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{top}" y2="{height - 25}" stroke="#999" '
        'stroke-dasharray="3,3"/>'
    )
    for i, r in enumerate(rows):
        y = top + step * i + step / 2
        m, ci = r["mean_score"], r["ci95"]
        out.append(
            f'<g class="interval" data-row="{_e(f"{preset}/{i}")}" data-mean="{m!r}" '
            f'data-low="{m - ci!r}" data-high="{m + ci!r}">'
            f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">'
            f"{_e(r['kind'])} vs {_e(r['against'])}</text>"
            f'<line x1="{x(m - ci):.1f}" x2="{x(m + ci):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="#36c" stroke-width="3"/>'
            f'<circle cx="{x(m):.1f}" cy="{y:.1f}" r="4" fill="#124"/></g>'
        )
    axis = height - 22
    out.append(f'<line x1="{left}" x2="{left + width}" y1="{axis}" y2="{axis}" stroke="#444"/>')
    ticks = [lo + pad, 0.0, hi - pad]
    # (a tick close to another, 0 on an axis ending at 0, is left out)
    ticks = [v for i, v in enumerate(ticks) if all(abs(v - t) > pad for t in ticks[:i])]
    for v in ticks:
        out.append(f'<text x="{x(v):.1f}" y="{axis + 15}" text-anchor="middle">{v:+.2f}</text>')
    out.append("</svg></div>")
    return "".join(out)


def _ratings(rating: dict | None) -> str:
    if rating is None:
        return ""
    out = ["<h3>Ratings</h3>"]
    if rating["undefined"]:
        out.append(f'<p class="undefined">undefined: {_e(rating["undefined"])}</p>')
        return "".join(out)
    out.append(
        f"<p>from {rating['games']} games between kinds; Elo centred on the kinds' mean, "
        "its 95% interval from a bootstrap over the games (an end at infinity when the "
        "resamples that decide it have a kind winning, or losing, every game); alpha-rank in "
        "the infinite-alpha limit (docs/league.md#ratings)</p>"
    )
    if rating["elo_undefined"]:
        out.append(
            f'<p class="undefined elo-undefined">Elo undefined: {_e(rating["elo_undefined"])}</p>'
        )
    out.append(
        '<div class="scroll"><table class="ratings"><thead><tr><th>kind</th><th>Elo</th>'
        "<th>95% interval</th><th>alpha-rank mass</th><th>alpha-rank</th></tr></thead><tbody>"
    )
    for elo, alpha in zip(rating["elo"] or [None] * len(rating["alpharank"]), rating["alpharank"]):
        if elo is None:
            shown = _cell(None, "-", "elo") + (
                '<td class="interval" data-low="null" data-high="null">-</td>'
            )
        else:
            bounds = ["null" if v is None else repr(v) for v in (elo["low"], elo["high"])]
            shown = _cell(elo["elo"], f"{elo['elo']:+.1f}", "elo") + (
                f'<td class="interval" data-low="{bounds[0]}" data-high="{bounds[1]}">'
                f"{interval_text(elo['low'], elo['high'])}</td>"
            )
        out.append(
            f'<tr data-kind="{_e(alpha["kind"])}"><td class="kind">{_e(alpha["kind"])}</td>'
            + shown
            + _cell(alpha["mass"], f"{alpha['mass']:.3f}", "mass")
            + _cell(alpha["rank"], str(alpha["rank"]), "rank")
            + "</tr>"
        )
    out.append("</tbody></table></div>")
    return "".join(out)


def _usage(usage: dict | None) -> str:
    """What the language-model seats spent, per kind (docs/league.md#language-model-seats)."""
    if not usage:
        return ""
    out = [
        '<section class="usage"><h2>Tokens</h2><p>as the endpoints reported them, '
        "over every game of the league</p>",
        '<table class="usage"><thead><tr><th>kind</th><th>games</th><th>prompt tokens</th>'
        "<th>completion tokens</th><th>fallbacks</th></tr></thead><tbody>",
    ]
    for kind, spent in usage.items():
        out.append(
            f'<tr data-kind="{_e(kind)}"><td class="kind">{_e(kind)}</td>'
            + "".join(
                _cell(spent[key], f"{spent[key]:,}", key)
                for key in ("games", "prompt_tokens", "completion_tokens", "fallbacks")
            )
            + "</tr>"
        )
    out.append("</tbody></table></section>")
    return "".join(out)


def league_page(report: dict, saved: dict | None = None, folder: str = ".") -> str:
    """The page of a league report (fogboard_games.league.run's); `saved`
    (league.saved_games) links each row to its reviews, relative to `folder`,
    where the page is written."""
    saved = saved or {}
    base = os.path.abspath(folder)
    title = f"League: {', '.join(report['games'])}"
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="request">bots {_e(", ".join(report["bots"]))}; '
        f"{_e(report['episodes'])} episodes per seat assignment; seed {_e(report['seed'])}</p>",
    ]
    for skip in report.get("skipped", []):
        parts.append(f"<p>({_e(skip['bot'])} does not play {_e(skip['game'])})</p>")
    for preset, rows in report["table"].items():
        parts.append(f'<section class="game" data-preset="{_e(preset)}"><h2>{_e(preset)}</h2>')
        parts.append(_matchups(preset, rows, saved.get(preset, {}), base))
        if any("mean_probes" in r for r in rows):
            parts.append(f'<p class="legend">{_e(BOARDS_LEGEND)}</p>')
        parts.append(_plot(preset, rows))
        parts.append(_ratings(report.get("ratings", {}).get(preset)))
        parts.append("</section>")
    parts.append(_usage(report.get("usage")))
    parts.append(
        f'<script type="application/json" id="report">{embedded_json(report)}</script>'
        f"<script>{SCRIPT}</script></body></html>\n"
    )
    return "\n".join(parts)
