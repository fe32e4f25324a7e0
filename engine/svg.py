"""Small SVG pieces the games' drawings share: text, boxes, circles and the
document around them.  Every piece escapes its words; nothing here runs
script, so a drawing can go inline in a page."""

from __future__ import annotations

from html import escape


def text(
    x: float,
    y: float,
    words: str,
    size: int = 11,
    anchor: str = "start",
    fill: str = "#222",
    weight: str = "normal",
) -> str:
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}" font-weight="{weight}">{escape(words)}</text>'
    )


def rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "#555") -> str:
    return (
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="4" '
        f'fill="{fill}" stroke="{stroke}"/>'
    )


def circles(x: float, y: float, total: int, filled: int, ink: str = "#222") -> str:
    return "".join(
        f'<circle cx="{x + 9 * i:.0f}" cy="{y:.0f}" r="3.5" stroke="{ink}" '
        f'fill="{ink if i < filled else "none"}"/>'
        for i in range(total)
    )


def document(width: float, height: float, title: str, parts: list[str]) -> str:
    """The drawing as one inline SVG that scales to the page's width."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="100%" role="img" aria-labelledby="board-title" class="board-svg">'
        f'<title id="board-title">{escape(title)}</title>{"".join(parts)}</svg>'
    )
