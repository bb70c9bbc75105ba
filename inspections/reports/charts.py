"""Small SVG bar charts for the reports: drawn here, so WeasyPrint embeds them as vectors."""

from __future__ import annotations

from xml.sax.saxutils import escape

WIDTH, HEIGHT = 640, 200
LEFT, BOTTOM, TOP = 40, 36, 14


def bars(points: list[tuple[str, int]], *, unit: str) -> str:
    """A labelled bar per point, with its value above it; the axis is scaled to the largest."""
    top = max((value for _, value in points), default=0) or 1
    step = (WIDTH - LEFT) / max(len(points), 1)
    width = max(step * 0.7, 1)
    plot = HEIGHT - BOTTOM - TOP
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(unit)}">',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH}" y2="{HEIGHT - BOTTOM}" stroke="#444"/>',
        f'<text x="4" y="{TOP + 4}" font-size="10" fill="#444">{top}</text>',
        f'<text x="4" y="{HEIGHT - BOTTOM}" font-size="10" fill="#444">0</text>',
    ]
    label_every = max(1, len(points) // 16)  # at most about 16 labels under the axis
    for index, (label, value) in enumerate(points):
        x = LEFT + index * step + (step - width) / 2
        height = plot * value / top
        y = HEIGHT - BOTTOM - height
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" fill="#17324d"/>')
        if value and len(points) <= 31:
            parts.append(
                f'<text x="{x + width / 2:.1f}" y="{y - 2:.1f}" font-size="9" text-anchor="middle">{value}</text>'
            )
        if index % label_every == 0:
            parts.append(
                f'<text x="{x + width / 2:.1f}" y="{HEIGHT - BOTTOM + 14}" font-size="9" text-anchor="middle">'
                f"{escape(label)}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)
