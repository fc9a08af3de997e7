"""The page's stylesheet: system fonts, cards on a light background, tabular figures.

Kept as a constant (not a file) so the report stays one self-contained HTML page.
"""

from __future__ import annotations

PAGE_CSS = """
:root {
  --ink: #1f2933; --muted: #616e7c; --line: #e4e7eb; --page: #f5f7fa; --card: #ffffff;
  --accent: #2f6f4f;
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--page); color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    sans-serif;
}
header.page-head { background: var(--accent); color: #fff; padding: 22px 32px 18px; }
header.page-head h1 { margin: 0 0 4px; font-size: 26px; font-weight: 650; }
header.page-head .meta { margin: 0; opacity: .88; font-size: 14px; }
header.page-head code { color: #fff; background: rgba(255,255,255,.14); }
main { max-width: 1280px; margin: 0 auto; padding: 20px 24px 40px; }
.headline {
  display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 14px;
  margin-bottom: 18px;
}
.stat { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: 14px 16px; }
.stat .label { color: var(--muted); font-size: 13px; text-transform: uppercase;
  letter-spacing: .04em; }
.stat .value { font-size: 28px; font-weight: 650; margin: 2px 0; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
.stat .sub { color: var(--muted); font-size: 13px; font-variant-numeric: tabular-nums; }
.stat .value.range { font-size: 20px; padding: 5px 0 3px; white-space: normal; }
/* Two fixed columns: a chart drawn before its neighbour is parsed already has its final width. */
.grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 18px; }
@media (max-width: 960px) { .grid { grid-template-columns: minmax(0, 1fr); } }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: 16px 18px; margin-bottom: 18px; min-width: 0; }
section.card h2 { margin: 0 0 2px; font-size: 18px; font-weight: 620; }
section.card .hint { margin: 0 0 10px; color: var(--muted); font-size: 13px; }
.empty { color: var(--muted); font-style: italic; margin: 8px 0; }
.nothing { text-align: center; padding: 48px 18px; }
.nothing h2 { font-size: 22px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12.5px; text-transform: uppercase;
  letter-spacing: .03em; white-space: nowrap; }
.when { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:hover { background: #f0f4f8; }
table.runs tbody tr { border-left: 4px solid transparent; }
table.inventory tr.line-scope_3_category td:first-child { padding-left: 30px; }
table.inventory tr.line-total_location td, table.inventory tr.line-total_market td {
  font-weight: 650; border-top: 2px solid var(--ink); }
table.inventory tr.line-not_classified td, table.inventory tr.line-activity td,
table.inventory tr.line-scope_2_market td, table.inventory tr.line-total_market td {
  color: var(--muted); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px;
  background: #eef2f6; padding: 1px 5px; border-radius: 4px; }
.badge { display: inline-block; color: #fff; border-radius: 999px; padding: 1px 9px;
  font-size: 12px; font-weight: 600; white-space: nowrap; }
.badges { margin: 0 0 10px; display: flex; gap: 6px; flex-wrap: wrap; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  margin-right: 6px; vertical-align: baseline; }
table.coverage td.cov { text-align: center; padding: 4px 2px; min-width: 26px; }
table.coverage th.num { text-align: center; }
td.cov-received { background: #d8eedf; color: #1e6b3c; }
td.cov-overdue { background: #f6d5d1; color: #a4262c; font-weight: 700; }
td.cov-missing { background: #fdf0c9; color: #8a5a00; }
td.cov-none { color: #b0b8c1; }
footer { color: var(--muted); font-size: 12.5px; text-align: center; padding: 0 0 28px; }
"""
