"""WeasyPrint's collapsed table borders, resolved with less work and the same outcome.

Every table of the printed documents collapses its borders. WeasyPrint (70) resolves the
border of every grid line from each cell, row, row group, column, column group and the table
(CSS 2.1, 17.6.2.1), and for each box it read the box's style, width and colour once for each
grid cell the box covers: a row of a seven-column table was read seven times over, once per
side, though its borders are the same everywhere and nearly all of them are "none". That was
half the building of a one-game sheet's boxes (6 of 11 ms; issue 42).

``collapse_table_borders`` below resolves the same grid: each box's side is read once; a side
whose style is "none" is skipped (its width is 0, so its score, (0, 0, 0), is the least there
is and can never replace what is already in the grid: WeasyPrint's own comparison is strict);
every other side is compared with the grid in the same order as WeasyPrint's, strictly, so
that the earlier box wins a tie as before. What follows (the used widths of the cells) is
WeasyPrint's code as it was. A right-to-left table goes to WeasyPrint's own function.
"""

from __future__ import annotations

from contextlib import contextmanager

_SIDES = {side: (f"border_{side}_style", f"border_{side}_width", f"border_{side}_color")
          for side in ("top", "right", "bottom", "left")}
#: the WeasyPrint version whose function this one replaces (another keeps its own)
VERSION = "70.0"


def _make(original, transparent):
    styles = reversed([
        'hidden', 'double', 'solid', 'dashed', 'dotted', 'ridge', 'outset',
        'groove', 'inset', 'none'])
    style_scores = {style: score for score, style in enumerate(styles)}
    style_map = {'inset': 'ridge', 'outset': 'groove'}
    weak_null_border = ((0, 0, style_scores['none']), ('none', 0, transparent))
    strong_null_border = ((1, 0, style_scores['hidden']), ('hidden', 0, transparent))

    def side_border(style, side):
        """(score, (style, width, colour)) of one side of a box; None for "none"."""
        style_key, width_key, color_key = _SIDES[side]
        border_style = style[style_key]
        if border_style == 'none':
            return None
        width = style[width_key]
        color = style[color_key]
        if color == 'currentcolor':
            color = style['color']
        score = ((1 if border_style == 'hidden' else 0), width, style_scores[border_style])
        return score, (style_map.get(border_style, border_style), width, color)

    def collapse_table_borders(table, grid_width, grid_height):
        if table.style['direction'] != 'ltr':
            return original(table, grid_width, grid_height)
        if not (grid_width and grid_height):
            return [], []

        vertical_borders = [
            [weak_null_border] * (grid_width + 1) for _ in range(grid_height)]
        horizontal_borders = [
            [weak_null_border] * grid_width for _ in range(grid_height + 1)]

        def set_borders(box, x, y, w, h):
            # WeasyPrint's order (left and right of each row, then top and bottom of each
            # column): the sides write to different grid lines, so only the order of the
            # boxes matters, and it is kept
            style = box.style
            left = side_border(style, 'left')
            right = side_border(style, 'right')
            if left is not None or right is not None:
                for yy in range(y, y + h):
                    row = vertical_borders[yy]
                    if left is not None and row[x][0] < left[0]:
                        row[x] = left
                    if right is not None and row[x + w][0] < right[0]:
                        row[x + w] = right
            top = side_border(style, 'top')
            if top is not None:
                row = horizontal_borders[y]
                for xx in range(x, x + w):
                    if row[xx][0] < top[0]:
                        row[xx] = top
            bottom = side_border(style, 'bottom')
            if bottom is not None:
                row = horizontal_borders[y + h]
                for xx in range(x, x + w):
                    if row[xx][0] < bottom[0]:
                        row[xx] = bottom

        # "A style set on a cell wins over one on a row, which wins over a row group,
        # column, column group and, lastly, table"
        grid_y = 0
        for row_group in table.children:
            for row in row_group.children:
                for cell in row.children:
                    # Force null border inside of a cell with rowspan or colspan.
                    grid_x, colspan, rowspan = cell.grid_x, cell.colspan, cell.rowspan
                    for xx in range(grid_x + 1, grid_x + colspan):
                        for yy in range(grid_y, grid_y + rowspan):
                            vertical_borders[yy][xx] = strong_null_border
                    for xx in range(grid_x, grid_x + colspan):
                        for yy in range(grid_y + 1, grid_y + rowspan):
                            horizontal_borders[yy][xx] = strong_null_border
                    set_borders(cell, grid_x, grid_y, colspan, rowspan)
                grid_y += 1

        grid_y = 0
        for row_group in table.children:
            for row in row_group.children:
                set_borders(row, 0, grid_y, grid_width, 1)
                grid_y += 1

        grid_y = 0
        for row_group in table.children:
            rowspan = len(row_group.children)
            set_borders(row_group, 0, grid_y, grid_width, rowspan)
            grid_y += rowspan

        for column_group in table.column_groups:
            for column in column_group.children:
                set_borders(column, column.grid_x, 0, 1, grid_height)

        for column_group in table.column_groups:
            set_borders(
                column_group, column_group.grid_x, 0, column_group.span, grid_height)

        set_borders(table, 0, 0, grid_width, grid_height)

        # WeasyPrint's: transparent borders of the resolved widths on each box (the grid is
        # painted on its own)
        def remove_borders(box):
            box.border_top_width = box.border_right_width = 0.0  # (0 / 2, as WeasyPrint's)
            box.border_bottom_width = box.border_left_width = 0.0

        def max_vertical_width(x, y1, y2):
            return max(grid_row[x][1][1] for grid_row in vertical_borders[y1:y2])

        def max_horizontal_width(x1, y, x2):
            return max(width for _, (_, width, _) in horizontal_borders[y][x1:x2])

        grid_y = 0
        for row_group in table.children:
            remove_borders(row_group)
            for row in row_group.children:
                remove_borders(row)
                for cell in row.children:
                    x, y = cell.grid_x, grid_y
                    colspan, rowspan = cell.colspan, cell.rowspan
                    cell.border_top_width = max_horizontal_width(x, y, x + colspan) / 2
                    cell.border_bottom_width = max_horizontal_width(
                        x, y + rowspan, x + colspan) / 2
                    cell.border_left_width = max_vertical_width(x, y, y + rowspan) / 2
                    cell.border_right_width = max_vertical_width(
                        x + colspan, y, y + rowspan) / 2
                grid_y += 1

        for column_group in table.column_groups:
            remove_borders(column_group)
            for column in column_group.children:
                remove_borders(column)

        table.border_top_width = max_horizontal_width(0, 0, grid_width) / 2
        table.border_bottom_width = max_horizontal_width(0, grid_height, grid_width) / 2
        # "UAs must compute an initial left and right border width for the table by
        # examining the first and last cells in the first row of the table."
        table.border_left_width = max_vertical_width(0, 0, 1) / 2
        table.border_right_width = max_vertical_width(grid_width, 0, 1) / 2

        return vertical_borders, horizontal_borders

    collapse_table_borders.original = original
    return collapse_table_borders


class _Segments:
    """What WeasyPrint's ``draw_collapsed_borders`` paints, taken down instead of painted:
    each segment of a grid line as (x1, y1, x2, y2, width, style, colour), in its order."""

    def __init__(self):
        self.lines: list[tuple] = []

    @contextmanager
    def artifact(self):
        yield

    @contextmanager
    def stacked(self):
        yield


def _runs(lines: list[tuple]):
    """The segments in their order, those next to each other in it that are solid, opaque
    and of one width and colour gathered in one run: (width, colour, [(x1, y1, x2, y2)]),
    or (None, segment) for any other segment. Within a run a segment that touches or
    overlaps the one before it on the same line is one line with it."""
    run = None
    for line in lines:
        x1, y1, x2, y2, width, style, color = line
        if style != "solid" or color.alpha != 1:
            if run:
                yield run
                run = None
            yield None, line
            continue
        if run is None or run[0] != width or run[1] != color:
            if run:
                yield run
            run = (width, color, [])
        same = run[2]
        if same:
            a1, b1, a2, b2 = same[-1]
            if b1 == b2 == y1 == y2 and x1 <= a2 + 1e-6 and a1 <= x1:  # along a row
                same[-1] = (a1, b1, max(a2, x2), b2)
                continue
            if a1 == a2 == x1 == x2 and y1 <= b2 + 1e-6 and b1 <= y1:  # down a column
                same[-1] = (a1, b1, a2, max(b2, y2))
                continue
        same.append((x1, y1, x2, y2))
    if run:
        yield run


def _paint_in_runs(original, draw_line):
    """``draw_collapsed_borders`` that paints each run of solid segments of one width and
    colour as one path: one colour, one width and one stroke for a table's thin grey rules
    instead of a saved state, a colour, a width and a stroke for every cell's side (a
    one-game sheet: 105 segments in 5 runs; a third of its PDF's drawing operators). The
    order of painting is WeasyPrint's: only segments next to each other in it, of the same
    opaque colour and width, share a path, where painting one over the other or both at once
    leaves the same marks. Dashed, dotted, double, inset and the like: WeasyPrint's own."""

    def draw_collapsed_borders(stream, table):
        taken = _Segments()
        original(taken, table)
        for run in _runs(taken.lines):
            if run[0] is None:
                x1, y1, x2, y2, width, style, color = run[1]
                with stream.artifact(), stream.stacked():
                    draw_line(stream, x1, y1, x2, y2, width, style, color)
                continue
            width, color, lines = run
            with stream.artifact(), stream.stacked():
                stream.set_color(color, stroke=True)
                stream.set_line_width(width)
                for x1, y1, x2, y2 in lines:
                    stream.move_to(x1, y1)
                    stream.line_to(x2, y2)
                stream.stroke()

    def take_down(stream, x1, y1, x2, y2, thickness, style, color, offset=0):
        if isinstance(stream, _Segments) and not offset:
            stream.lines.append((x1, y1, x2, y2, thickness, style, color))
        else:
            draw_line(stream, x1, y1, x2, y2, thickness, style, color, offset)

    draw_collapsed_borders.original = original
    return draw_collapsed_borders, take_down


def mend_collapsed_borders() -> None:
    """Put ``collapse_table_borders`` where WeasyPrint's box builder calls it and
    ``draw_collapsed_borders`` where its painter calls it (once; only in the version they
    were written against)."""
    try:
        import weasyprint
        from weasyprint import draw
        from weasyprint.formatting_structure import build
        from weasyprint.layout import table
    except ImportError:
        return
    if weasyprint.__version__ != VERSION:
        return
    current = getattr(build, "collapse_table_borders", None)
    if current is not None and not hasattr(current, "original"):
        build.collapse_table_borders = _make(current, table.TRANSPARENT)
    painter = getattr(draw, "draw_collapsed_borders", None)
    if painter is not None and not hasattr(painter, "original") \
            and getattr(draw, "draw_line", None) is not None:
        draw.draw_collapsed_borders, draw.draw_line = _paint_in_runs(painter, draw.draw_line)
