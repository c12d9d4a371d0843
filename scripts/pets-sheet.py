#!/usr/bin/python3
"""Draws the pet contact sheet (docs/pets.png) from the SVGs in data/pets.

All 20 forms large, then each at 16, 24 and 32 px on a light and a dark panel strip (rendered at
that size by rsvg-convert, as an icon theme would), the symbolic set at 16 px in each panel's text
colour, and the 24 px renders blown up 4x so single pixels can be judged.
Usage: pets-sheet.py OUT.png   (run by scripts/render-pets.sh)
"""
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw, ImageFont

from petsdata import BASES, NAMES, ROOT

LIGHT, DARK = (246, 245, 244), (36, 36, 36)
LIGHT_FG, DARK_FG = (46, 52, 54), (238, 238, 236)
PITCH, MARGIN, WIDTH = 64, 20, 20 * 64 + 40
FONT_FILE = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def font(size):
    """DejaVu Sans when installed (deps: fonts-dejavu-core), else Pillow's own bitmap font."""
    try:
        return ImageFont.truetype(FONT_FILE, size)
    except OSError:
        return ImageFont.load_default()


def render(svg, size, tmp):
    """The SVG rendered by rsvg-convert at size×size, as RGBA."""
    out = os.path.join(tmp, f"{os.path.basename(svg)}-{size}.png")
    subprocess.run(["rsvg-convert", "-w", str(size), "-h", str(size), "-o", out, svg], check=True)
    return Image.open(out).convert("RGBA")


def tinted(icon, rgb):
    """A symbolic icon recoloured to a panel's text colour, as GTK does."""
    solid = Image.new("RGBA", icon.size, rgb + (255,))
    solid.putalpha(icon.getchannel("A"))
    return solid


def number(n):
    """The form's number as petctl says it ("stage 1 of 20"): 1 to 20, not the 0-based index."""
    return str(n + 1)


def big_grid(sheet, draw, y, tmp):
    """All 20 forms at 240 px, five to a row, each labelled with its number and name."""
    tile = 256
    for n, base in enumerate(BASES):
        x0, y0 = MARGIN + (n % 5) * tile, y + (n // 5) * (tile + 24)
        draw.rectangle([x0 + 4, y0, x0 + tile - 4, y0 + tile - 8], fill=(232, 236, 240))
        sheet.alpha_composite(render(svg_path(base), 240, tmp), (x0 + 8, y0 + 4))
        draw.text((x0 + 8, y0 + tile - 6), f"{number(n)} {NAMES[n]}", fill=(30, 30, 30), font=font(16))
    return y + 4 * (tile + 24)


def panel_strips(sheet, draw, y, tmp):
    """Each size on a light and a dark panel-coloured strip, the forms side by side."""
    for bg, fg, label in ((LIGHT, LIGHT_FG, "light panel"), (DARK, DARK_FG, "dark panel")):
        rows = [(s, lambda b, s=s: render(svg_path(b), s, tmp), f"{s} px") for s in (16, 24, 32)]
        rows.append((16, lambda b: tinted(render(symbolic_path(b), 16, tmp), fg), "symbolic"))
        for size, icon, name in rows:
            height = size + 16
            draw.rectangle([MARGIN, y, WIDTH - MARGIN, y + height], fill=bg)
            for n, base in enumerate(BASES):
                cx = MARGIN + n * PITCH + PITCH // 2
                sheet.alpha_composite(icon(base), (cx - size // 2, y + 8))
            draw.text((MARGIN, y + height + 2), f"{name}, {label}", fill=(90, 90, 90), font=font(12))
            y += height + 18
    return y


def blown_up(sheet, draw, y, tmp):
    """The 24 px renders enlarged 4x without smoothing, on both panel colours."""
    for bg, label in ((LIGHT, "light"), (DARK, "dark")):
        draw.text((MARGIN, y), f"24 px renders at 4x, {label} panel", fill=(90, 90, 90), font=font(14))
        y += 20
        for n, base in enumerate(BASES):
            x0, y0 = MARGIN + (n % 10) * 128, y + (n // 10) * 104
            draw.rectangle([x0, y0, x0 + 120, y0 + 100], fill=bg)
            icon = render(svg_path(base), 24, tmp).resize((96, 96), Image.NEAREST)
            sheet.alpha_composite(icon, (x0 + 12, y0 + 2))
        y += 2 * 104 + 8
    return y


def svg_path(base):
    return os.path.join(ROOT, "data", "pets", f"pet_{base}.svg")


def symbolic_path(base):
    return os.path.join(ROOT, "data", "pets", "symbolic", f"petprogress-{base}-symbolic.svg")


def column_numbers(draw, y):
    for n in range(len(BASES)):
        label = number(n)
        draw.text((MARGIN + n * PITCH + PITCH // 2 - 4 * len(label), y), label, fill=(90, 90, 90), font=font(12))
    return y + 18


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "pets.png")
    sheet = Image.new("RGBA", (WIDTH, 2200), (255, 255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((MARGIN, 12), "Pet Progress: the 20 forms", fill=(20, 20, 20), font=font(24))
    with tempfile.TemporaryDirectory() as tmp:
        y = big_grid(sheet, draw, 52, tmp)
        y = panel_strips(sheet, draw, column_numbers(draw, y + 8), tmp)
        y = blown_up(sheet, draw, y + 12, tmp)
    sheet.crop((0, 0, WIDTH, y + 12)).convert("RGB").save(out, optimize=True)


if __name__ == "__main__":
    main()
