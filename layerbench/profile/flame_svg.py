"""Flame graphs as self-contained SVG: no script, no style sheet, no font to fetch.

A flame graph (Brendan Gregg's) draws the tree of :mod:`layerbench.profile.flame_tree`: the
root at the bottom, each frame a box above its caller, as wide as the share of the samples
whose stack passes through it. Boxes are sorted by name, so the x-axis is not time. A box is
labelled with its function's name where the name fits (cut short with ``..`` otherwise), and
carries a ``<title>``, which a browser shows on hover: the frame in full (file and line), its
samples and share, and its layer. Boxes are coloured by layer, with a legend at the top; the
graphs of one report share their colours (``layer_order``).

The difference graph has the shape of the newer profile, and colours each box by the sign of
the change of its share of all samples from the older profile to the newer, along the same
path: red where the newer spends more of its samples, blue where it spends less; the larger
the change (against the largest in the graph), the deeper the colour. A path the newer profile
never took is not drawn. Both profiles are normalised to their own totals, so their sample
counts need not match.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape

from layerbench.profile.collapsed_stacks import Stack, parse_frame
from layerbench.profile.flame_tree import FlameNode, flame_tree

WIDTH_PX = 1200
FRAME_HEIGHT_PX = 17
FONT_PX = 11
CHAR_PX = 6.6
HEADER_PX = 44
# Narrower boxes are not drawn (nor what they call): they would not be seen.
MIN_WIDTH_PX = 0.3
UNKNOWN_COLOUR = "#c8c8c8"
# Distinct colours, light enough for black labels, one per layer in ``layer_order``'s order;
# past the twelfth they repeat.
PALETTE = (
    "#f4a261",
    "#8ecae6",
    "#e9c46a",
    "#b5e48c",
    "#f28482",
    "#cdb4db",
    "#90be6d",
    "#ffd6a5",
    "#a0c4ff",
    "#e5989b",
    "#d4a373",
    "#9bf6ff",
)

Describe = Callable[[Stack, FlameNode], tuple[str, str]]


def layer_colours(layers: Iterable[str]) -> dict[str, str]:
    """A colour per layer, in order."""
    return {layer: PALETTE[i % len(PALETTE)] for i, layer in enumerate(dict.fromkeys(layers))}


def flame_graph_svg(
    stacks: Mapping[Stack, int],
    *,
    title: str,
    layer_of: Callable[[str], str | None] = lambda frame: None,
    layer_order: Sequence[str] = (),
) -> str:
    """The flame graph of ``stacks``; ``layer_of`` names a frame's layer (None: its
    caller's). The layers take their colours in ``layer_order``'s order, then the others' in
    alphabetical order."""
    root = flame_tree(stacks)
    layers: dict[Stack, str | None] = {(): None}
    for path, _ in root.walk():
        layers[path] = layer_of(path[-1]) or layers[path[:-1]]

    seen = sorted({layer for layer in layers.values() if layer})
    colours = layer_colours([*layer_order, *seen])

    def describe(path: Stack, node: FlameNode) -> tuple[str, str]:
        layer = layers.get(path)
        share = 100 * node.count / root.count if root.count else 0.0
        text = f"{node.frame}\n{node.count:,} samples, {share:.1f} %"
        if layer:
            text += f", {layer}"
        return colours.get(layer or "", UNKNOWN_COLOUR), text

    keys = [(colours[layer], layer) for layer in colours if layer in seen]
    return _render(root, title, describe, keys)


def difference_graph_svg(
    base: Mapping[Stack, int],
    new: Mapping[Stack, int],
    *,
    title: str,
    base_name: str,
    new_name: str,
) -> str:
    """``new``'s flame graph coloured by each path's change of share from ``base``."""
    old_root, root = flame_tree(base), flame_tree(new)
    changes: dict[Stack, tuple[float, float]] = {}
    for path, node in root.walk():
        before = old_root.find(path)
        old_share = before.count / old_root.count if before and old_root.count else 0.0
        changes[path] = (old_share, node.count / root.count)
    largest = max((abs(new - old) for old, new in changes.values()), default=0.0) or 1.0

    def describe(path: Stack, node: FlameNode) -> tuple[str, str]:
        old, now = changes.get(path, (0.0, 0.0))
        text = (
            f"{node.frame}\n{new_name}: {100 * now:.1f} % of its samples, "
            f"{base_name}: {100 * old:.1f} %, change {100 * (now - old):+.1f} points"
        )
        return _change_colour((now - old) / largest), text

    keys = [
        (_change_colour(1.0), f"more of {new_name}'s samples than {base_name}'s"),
        (_change_colour(-1.0), "fewer"),
    ]
    return _render(root, title, describe, keys, outline="#bbb")


def _change_colour(change: float) -> str:
    """Red for a growth, blue for a drop, white for none; ``change`` in [-1, 1]."""
    depth = min(1.0, abs(change))
    fade = round(255 - 175 * depth)
    return f"rgb(255,{fade},{fade})" if change > 0 else f"rgb({fade},{fade},255)"


def _render(
    root: FlameNode,
    title: str,
    describe: Describe,
    keys: list[tuple[str, str]],
    outline: str = "none",
) -> str:
    depth = max((len(path) for path, _ in root.walk()), default=0)
    height = HEADER_PX + (depth + 1) * FRAME_HEIGHT_PX + 4
    scale = WIDTH_PX / root.count if root.count else 0.0
    boxes: list[str] = []

    def draw(path: Stack, node: FlameNode, x: float, level: int) -> None:
        width = node.count * scale
        if width < MIN_WIDTH_PX:
            return
        y = height - 4 - (level + 1) * FRAME_HEIGHT_PX
        if path:
            colour, text = describe(path, node)
        else:
            colour, text = UNKNOWN_COLOUR, f"all\n{root.count:,} samples"
        boxes.append(
            _box(
                x,
                y,
                width,
                colour=colour,
                outline=outline,
                text=text,
                label=_label(node.frame, width),
            )
        )
        for child in node.ordered():
            draw((*path, child.frame), child, x, level + 1)
            x += child.count * scale

    draw((), root, 0.0, 0)
    legend = _legend(keys)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="flame" width="{WIDTH_PX}" '
        f'height="{height}" viewBox="0 0 {WIDTH_PX} {height}" role="img" '
        f'font-family="monospace" font-size="{FONT_PX}">'
        f"<title>{escape(title)}</title>"
        f'<rect width="{WIDTH_PX}" height="{height}" fill="#fdfdf6"/>'
        f'<text x="4" y="14" font-size="13" font-weight="bold">{escape(title)}</text>'
        f"{legend}{''.join(boxes)}</svg>"
    )


def _legend(keys: list[tuple[str, str]]) -> str:
    parts: list[str] = []
    x = 4.0
    for colour, name in keys:
        if x > WIDTH_PX - 40:
            break
        parts.append(
            f'<rect x="{x:.1f}" y="22" width="12" height="12" fill="{colour}" stroke="#999"/>'
            f'<text x="{x + 16:.1f}" y="32">{escape(name)}</text>'
        )
        x += 16 + CHAR_PX * len(name) + 14
    return "".join(parts)


def _label(frame: str, width: float) -> str:
    """The function's name, as much of it as fits in ``width`` (none below 3 characters)."""
    name = parse_frame(frame).name
    fits = int((width - 6) / CHAR_PX)
    if fits < 3:
        return ""
    return name if len(name) <= fits else name[: fits - 2] + ".."


def _box(
    x: float, y: float, width: float, *, colour: str, outline: str, text: str, label: str
) -> str:
    shown = (
        f'<text x="{x + 3:.1f}" y="{y + FRAME_HEIGHT_PX - 5:.1f}">{escape(label)}</text>'
        if label
        else ""
    )
    return (
        f"<g><title>{escape(text)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{FRAME_HEIGHT_PX - 1}" '
        f'fill="{colour}" stroke="{outline}" stroke-width="0.5" rx="2"/>{shown}</g>'
    )
