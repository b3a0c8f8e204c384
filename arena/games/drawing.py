"""SVG building blocks for the games' ``Game.render_svg`` (pure: an element tree in, text out).

The games draw with ``xml.etree.ElementTree`` rather than by formatting strings, so every
picture is well-formed XML and text is escaped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
# ElementTree's escaping, reused; private, so typeshed does not declare them
from xml.etree.ElementTree import _escape_attrib, _escape_cdata  # type: ignore[attr-defined]
from collections.abc import Callable, Sequence

SVG_NS = "http://www.w3.org/2000/svg"


def svg_root(width: float, height: float, title: str, kind: str) -> ET.Element:
    """An ``<svg>`` element of ``width`` x ``height`` user units (pixels at scale 1) with a
    ``<title>`` (read by screen readers and shown as a tooltip) and class ``board <kind>``."""
    root = ET.Element("svg", {
        "xmlns": SVG_NS, "width": _fmt(width), "height": _fmt(height),
        "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}", "class": f"board {kind}",
        "font-family": "sans-serif",
    })
    ET.SubElement(root, "title").text = title
    return root


def add(parent: ET.Element, tag: str, text: str | None = None, **attrs: object) -> ET.Element:
    """A child element; ``class_`` gives ``class`` and ``_`` in names gives ``-``
    (``stroke_width`` -> ``stroke-width``); ``None`` values are left out."""
    el = ET.SubElement(parent, tag, {
        k.rstrip("_").replace("_", "-"): _fmt(v) for k, v in attrs.items() if v is not None
    })
    if text is not None:
        el.text = text
    return el


def coordinates(parent: ET.Element, files: Sequence[str], ranks: int, cell: float, margin: float,
                font_size: float = 12, rank_font_size: float | None = None) -> None:
    """A board's coordinates: ``files`` (letters) under its columns and the rank numbers 1 to
    ``ranks`` (1 at the bottom) left of its rows, for cells of ``cell`` pixels inside a ``margin``
    of pixels (the picture ``ranks * cell + 2 * margin`` pixels high); ``font_size`` in pixels
    (the ranks': ``rank_font_size`` when given)."""
    height = ranks * cell + 2 * margin
    for i, f in enumerate(files):
        add(parent, "text", f, x=margin + (i + 0.5) * cell, y=height - 6, text_anchor="middle", font_size=font_size)
    for r in range(ranks):
        add(parent, "text", str(r + 1), x=margin / 2, y=margin + (ranks - r - 0.5) * cell + 4, text_anchor="middle",
            font_size=font_size if rank_font_size is None else rank_font_size)


def points(coords: list[tuple[float, float]]) -> str:
    """``"x1,y1 x2,y2 ..."`` for ``<polyline>`` / ``<polygon>``."""
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in coords)


def to_text(root: ET.Element, static: str = "") -> str:
    """The SVG document as a string (no XML declaration, so it can be inlined in HTML).
    ``static``: markup of ``static_layer`` placed right after the ``<title>`` (the first
    children of the picture)."""
    out: list[str] = []
    _write(root, out)
    text = "".join(out)
    return text.replace("</title>", "</title>" + static, 1) if static else text


def _write(el: ET.Element, out: list[str]) -> None:
    """``ET.tostring(el, encoding="unicode")`` for the plain trees drawn here (no namespace
    prefixes, comments or processing instructions), appended to ``out``: the same escaping
    (ElementTree's own), without its per-call writer and namespace pass (a replay serializes
    hundreds of pictures)."""
    out.append("<" + el.tag)
    for key, value in el.attrib.items():
        out.append(f' {key}="{_escape_attrib(value)}"')
    if el.text or len(el):
        out.append(">")
        if el.text:
            out.append(_escape_cdata(el.text))
        for child in el:
            _write(child, out)
        out.append(f"</{el.tag}>")
    else:
        out.append(" />")
    if el.tail:
        out.append(_escape_cdata(el.tail))


_STATIC: dict[object, str] = {}


def static_layer(key: object, build: Callable[[ET.Element], None]) -> str:
    """The markup of the elements ``build(parent)`` adds to a parent, built and serialized
    once per ``key`` (a board's grid, pockets and coordinates are the same in every frame of a
    replay); pass it to ``to_text`` as ``static``, where it comes out exactly as if ``build``
    had added the elements to the root right after its title."""
    text = _STATIC.get(key)
    if text is None:
        holder = ET.Element("g")
        build(holder)
        out: list[str] = []
        for child in holder:
            _write(child, out)
        text = _STATIC[key] = "".join(out)
    return text


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


#: a text picture's character cell, user units (monospaced font of 14 px)
_CHAR_W, _LINE_H, _PAD = 8.4, 17.0, 10.0


def text_svg(lines: list[str], title: str, kind: str) -> str:
    """A text picture (a game's ``diagram()``) as an SVG document: each line in a monospaced
    font, spaces kept, on a white ground; the picture of a game that draws no board of its own
    (OpenSpiel's games, ``arena.games.openspiel``)."""
    lines = lines or [""]
    width = 2 * _PAD + _CHAR_W * max(len(line) for line in lines)
    root = svg_root(width, 2 * _PAD + _LINE_H * len(lines), title, kind)
    add(root, "rect", x=0, y=0, width=width, height=2 * _PAD + _LINE_H * len(lines), fill="#ffffff")
    text = add(root, "text", x=_PAD, y=_PAD, font_family="monospace", font_size=14, fill="#222222")
    text.set("xml:space", "preserve")
    for i, line in enumerate(lines):
        add(text, "tspan", line, x=_PAD, y=_PAD + _LINE_H * (i + 0.8))
    return to_text(root)
