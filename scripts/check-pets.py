#!/usr/bin/python3
"""Checks the pet art; run by `make test`.

For each of the 20 forms of the built-in stage table (cross-checked against petprogress(7) §2's list in
petsdata.py) and its symbolic icon: the file exists under the expected name, is plain SVG (a
whitelist of shape elements, no scripts, text, images, external references or event attributes),
renders with rsvg-convert at 24 and 512 px with transparent corners and the drawing inside the
24 px margin, and the committed PNG matches a fresh render. The contact sheet docs/pets.png numbers
the forms 1–20 as petctl does, and matches what scripts/pets-sheet.py draws now. Across forms: no two 24 px renders are
near-identical. Symbolic icons: a 16×16 design in exactly one colour, filled shapes only.
Prints the measured distances so the thresholds below can be judged against them.
"""
import importlib.util
import itertools
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from PIL import Image, ImageChops, ImageStat

from petsdata import BASES, NAMES, ROOT, STAGES

SVG_NS = "{http://www.w3.org/2000/svg}"
SHAPES = {"svg", "g", "defs", "clipPath", "path", "circle", "ellipse", "rect", "polygon", "polyline", "line"}
MARGIN = 24  # px at 512: the minimum margin; the drawings are laid out at 32
# Distinctness. Two renders are compared as the relative difference Σ|a−b| / Σmax(a,b) (0 the same,
# 1 nothing in common), minimised over re-rendering one of them 2 px smaller to 2 px larger and
# moving it by up to 1 px: the same picture slightly resized or nudged measures ~0, which raw pixel
# differences at 24 px do not (one drawing 4% smaller differed from itself by up to 0.28).
# Measured on these drawings: a form recoloured into a neighbour's palette 0.06–0.09 in colour and
# 0 in silhouette; a form with its eye removed 0.002. The closest distinct forms sit near 0.30 in
# colour and 0.17 in silhouette. The thresholds sit between: below them a pair is near-identical.
NEAR_IDENTICAL = 0.15  # premultiplied RGBA at 24 px
NEAR_IDENTICAL_SILHOUETTE = 0.10  # alpha only at 24 px: a recoloured copy measures 0
SYMBOLIC_NEAR_IDENTICAL = 0.10  # the silhouette measure on the 16 px symbolic renders
# A committed PNG may differ from a fresh render by antialiasing noise only (another librsvg or
# cairo version shifts edge pixels by a few levels): mean |Δ| per channel ≤ 0.5 of 255 and at most
# 0.05% of pixels (131) off by more than 32. With the same librsvg the difference is 0. Small real
# edits exceed it: one of the frog's pupils moved 4 px puts 0.16% of pixels off, both moved 8 px 0.59%.
PNG_MEAN, PNG_BAD_SHARE, PNG_BAD_DELTA = 0.5, 0.0005, 32
SYMBOLIC_MIN_COVER = 0.18  # share of the 16×16 pixels a symbolic icon covers at alpha ≥ 128

failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


def stage_table():
    """(name, base) rows of PetCore's built-in table, read from its Swift source."""
    src = open(os.path.join(ROOT, "Sources", "PetCore", "Stages", "StageTable.swift")).read()
    rows = re.findall(r'\("([^"]+)",\s*\d+,\s*"([a-z]+)"\)', src)
    if 'asset: "pet_\\(row.2).png"' not in src:
        fail("StageTable.swift no longer names assets pet_<base>.png; update this check")
    return rows


def check_plain_svg(path, size):
    """Parses path as SVG of size×size made only of plain shapes; returns its root or None."""
    text = open(path, encoding="utf-8").read()
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        return fail(f"{path}: has a DOCTYPE or ENTITY declaration")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        return fail(f"{path}: not well-formed XML: {error}")
    want = {"width": str(size), "height": str(size), "viewBox": f"0 0 {size} {size}"}
    if root.tag != SVG_NS + "svg" or any(root.get(k) != v for k, v in want.items()):
        return fail(f"{path}: root is not <svg width={size} height={size} viewBox='0 0 {size} {size}'>")
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    for element in root.iter():
        tag = element.tag.replace(SVG_NS, "")
        if tag not in SHAPES:
            fail(f"{path}: forbidden element <{tag}> (only plain shapes: {', '.join(sorted(SHAPES))})")
        for name, value in element.attrib.items():
            if name.startswith("{") or name.lower().startswith("on") or name in ("href", "style"):
                fail(f"{path}: forbidden attribute {name} on <{tag}>")
            for ref in re.findall(r"url\(([^)]*)\)", value):
                if not ref.startswith("#") or ref[1:] not in ids:
                    fail(f"{path}: {name} refers outside the file: url({ref})")
    return root


def render(path, size, tmp):
    """path rendered by rsvg-convert at size×size, as RGBA, or None. Each render is made once."""
    out = os.path.join(tmp, f"{os.path.basename(path)}.{size}.png")
    if os.path.exists(out):
        return Image.open(out).convert("RGBA")
    run = subprocess.run(["rsvg-convert", "-w", str(size), "-h", str(size), "-o", out, path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return fail(f"{path}: rsvg-convert at {size} px failed: {run.stderr.strip()}")
    image = Image.open(out)
    image.load()
    if image.size != (size, size):
        return fail(f"{path}: rendered {image.size}, not {size}×{size}")
    return image.convert("RGBA")


def premultiplied(image):
    """RGB composited over black (colour weighted by coverage) with the alpha as a fourth band."""
    black = Image.new("RGBA", image.size, (0, 0, 0, 255))
    r, g, b, _ = Image.alpha_composite(black, image).split()
    return Image.merge("RGBA", (r, g, b, image.getchannel("A")))


def relative_difference(a, b):
    diff = sum(ImageChops.difference(a, b).tobytes())
    return diff / max(1, sum(ImageChops.lighter(a, b).tobytes()))


def variants(path, size, tmp):
    """path rendered 2 px smaller to 2 px larger, each centred on size×size and moved by ≤ 1 px."""
    out = []
    for scaled in range(size - 2, size + 3):
        image = render(path, scaled, tmp)
        if image is None:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                canvas = Image.new("RGBA", (size, size), (0, 0, 0, 0))
                canvas.paste(image, ((size - scaled) // 2 + dx, (size - scaled) // 2 + dy))
                out.append(premultiplied(canvas))
    return out


class Renders:
    """One set of forms at one size: each render, and its resized and nudged variants."""

    def __init__(self, paths, size, tmp):
        self.plain = {b: premultiplied(render(p, size, tmp)) for b, p in paths.items()}
        self.variants = {b: variants(p, size, tmp) for b, p in paths.items()}

    def distance(self, a, b, band=None):
        """The smallest relative difference between a and b over the variants of either."""
        pick = (lambda im: im.getchannel(band)) if band else (lambda im: im)
        return min(relative_difference(pick(self.plain[x]), pick(v)) for x, y in ((a, b), (b, a))
                   for v in self.variants[y])


def check_form(base, tmp):
    """Checks the colour drawing of one form; returns its 24 px render, or None if it failed."""
    svg = os.path.join(ROOT, "data", "pets", f"pet_{base}.svg")
    png = os.path.join(ROOT, "data", "pets", f"pet_{base}.png")
    for path in (svg, png):
        if not os.path.isfile(path):
            return fail(f"missing {os.path.relpath(path, ROOT)}")
    if check_plain_svg(svg, 512) is None:
        return None
    big, small = render(svg, 512, tmp), render(svg, 24, tmp)
    if big is None or small is None:
        return None
    name = f"pet_{base}"
    box = big.getchannel("A").getbbox()
    if box is None:
        return fail(f"{name}: renders empty")
    if min(box[:2]) < MARGIN or max(box[2:]) > 512 - MARGIN:
        fail(f"{name}: drawing reaches {box}, outside the {MARGIN} px margin")
    for image, size in ((big, 512), (small, 24)):
        corners = [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)]
        if any(image.getpixel(c)[3] != 0 for c in corners):
            fail(f"{name}: a corner of the {size} px render is not transparent")
    opaque = sum(big.getchannel("A").point(lambda a: 1 if a >= 128 else 0).getdata())
    if opaque < 0.1 * 512 * 512:
        fail(f"{name}: covers only {opaque / 512 / 512:.0%} of the canvas; too small to read on a panel")
    check_committed_png(name, png, big)
    return small


def check_committed_png(name, png, fresh):
    committed = Image.open(png)
    if committed.size != (512, 512) or committed.mode != "RGBA":
        return fail(f"{name}.png: {committed.size} {committed.mode}, not 512×512 RGBA")
    diff = ImageChops.difference(committed.convert("RGBA"), fresh)
    mean = sum(ImageStat.Stat(diff).mean) / 4
    peak = diff.getchannel("A")  # each pixel's largest channel difference
    for band in diff.split()[:3]:
        peak = ImageChops.lighter(peak, band)
    bad = peak.point(lambda v: 255 if v > PNG_BAD_DELTA else 0).histogram()[255] / (512 * 512)
    if mean > PNG_MEAN or bad > PNG_BAD_SHARE:
        fail(f"{name}.png differs from its SVG (mean {mean:.2f}, {bad:.2%} of pixels off by >{PNG_BAD_DELTA}); "
             "run scripts/render-pets.sh")
    return mean, bad


def check_contact_sheet(tmp):
    """docs/pets.png: the forms numbered 1–20 ("stage 1 of 20" in petctl), and the picture what
    scripts/pets-sheet.py draws from the SVGs now (the same tolerance as the 512 px PNGs)."""
    path = os.path.join(ROOT, "scripts", "pets-sheet.py")
    spec = importlib.util.spec_from_file_location("pets_sheet", path)
    sheet = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sheet)
    labels = [sheet.number(n) for n in range(len(BASES))]
    if labels != [str(n) for n in range(1, len(BASES) + 1)]:
        fail(f"docs/pets.png numbers the forms {labels[0]}–{labels[-1]}, petctl 1–{len(BASES)} ({NAMES[0]} is stage 1)")
    fresh = os.path.join(tmp, "pets.png")
    subprocess.run([sys.executable, path, fresh], check=True)
    committed, drawn = Image.open(os.path.join(ROOT, "docs", "pets.png")), Image.open(fresh)
    if committed.size != drawn.size:
        return fail(f"docs/pets.png is {committed.size}, scripts/pets-sheet.py draws {drawn.size}; run scripts/render-pets.sh")
    diff = ImageChops.difference(committed.convert("RGB"), drawn.convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    peak = ImageChops.lighter(ImageChops.lighter(*diff.split()[:2]), diff.split()[2])
    bad = peak.point(lambda v: 255 if v > PNG_BAD_DELTA else 0).histogram()[255] / (drawn.width * drawn.height)
    if mean > PNG_MEAN or bad > PNG_BAD_SHARE:
        fail(f"docs/pets.png differs from what scripts/pets-sheet.py draws (mean {mean:.2f}, {bad:.2%} of pixels "
             f"off by >{PNG_BAD_DELTA}); run scripts/render-pets.sh")


def check_symbolic(base, tmp):
    """Checks the symbolic icon of one form; returns its 16 px render, or None if it failed."""
    path = os.path.join(ROOT, "data", "pets", "symbolic", f"petprogress-{base}-symbolic.svg")
    name = os.path.basename(path)
    if not os.path.isfile(path):
        return fail(f"missing {os.path.relpath(path, ROOT)}")
    root = check_plain_svg(path, 16)
    if root is None:
        return None
    colours = set()
    for element in root.iter():
        for key in ("stroke", "stroke-width", "opacity", "fill-opacity", "stroke-opacity"):
            if key in element.attrib and element.get(key) != "none":
                tag = element.tag.replace(SVG_NS, "")
                fail(f"{name}: {key}= on <{tag}>: symbolic icons are filled shapes in one solid colour")
        if element.get("fill") not in (None, "none"):
            colours.add(element.get("fill").lower())
    if len(colours) != 1:
        return fail(f"{name}: uses {len(colours)} colours {sorted(colours)}, not exactly one")
    colour = colours.pop()
    if not re.fullmatch(r"#[0-9a-f]{6}", colour):
        return fail(f"{name}: colour {colour} is not #rrggbb")
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    icon = render(path, 16, tmp)
    if icon is None:
        return None
    solid = [p for p in icon.getdata() if p[3] >= 128]
    if any(max(abs(p[i] - rgb[i]) for i in range(3)) > 3 for p in solid):
        fail(f"{name}: renders pixels in a colour other than {colour}")
    if len(solid) < SYMBOLIC_MIN_COVER * 256:
        fail(f"{name}: only {len(solid)} of 256 pixels solid at 16 px; shapes vanish at panel size")
    return icon


def check_pairs(label, renders, threshold, band=None):
    """Fails every pair of forms closer than threshold; prints the closest four."""
    pairs = sorted((renders.distance(a, b, band), a, b) for a, b in itertools.combinations(renders.plain, 2))
    closest = ", ".join(f"{a}/{b} {d:.3f}" for d, a, b in pairs[:4])
    print(f"{label}: closest pairs {closest}; near-identical below {threshold}")
    for d, a, b in pairs:
        if d < threshold:
            fail(f"{label}: {a} and {b} are near-identical ({d:.3f} < {threshold})")


def main():
    table = stage_table()
    for row, (found, wanted) in enumerate(itertools.zip_longest(table, STAGES)):
        if found != wanted:
            fail(f"stage {row}: the built-in table has {found}, petprogress(7) §2 (petsdata.py) has {wanted}")
    pets = os.path.join(ROOT, "data", "pets")
    expected = {f"pet_{b}.{e}" for b in BASES for e in ("svg", "png")} | {"LICENSE", "symbolic"}
    for extra in sorted(set(os.listdir(pets)) - expected):
        fail(f"data/pets/{extra} is not one of the stage table's assets")
    symbolic_names = {f"petprogress-{b}-symbolic.svg" for b in BASES}
    for extra in sorted(set(os.listdir(os.path.join(pets, "symbolic"))) - symbolic_names):
        fail(f"data/pets/symbolic/{extra} is not one of the stage table's icons")
    with tempfile.TemporaryDirectory() as tmp:
        forms = {b: check_form(b, tmp) for b in BASES}
        symbolic = {b: check_symbolic(b, tmp) for b in BASES}
        forms = {b: os.path.join(pets, f"pet_{b}.svg") for b, ok in forms.items() if ok is not None}
        symbolic = {b: os.path.join(pets, "symbolic", f"petprogress-{b}-symbolic.svg")
                    for b, ok in symbolic.items() if ok is not None}
        colour = Renders(forms, 24, tmp)
        check_pairs("24 px forms, colour", colour, NEAR_IDENTICAL)
        check_pairs("24 px forms, silhouette", colour, NEAR_IDENTICAL_SILHOUETTE, band="A")
        check_pairs("16 px symbolic, silhouette", Renders(symbolic, 16, tmp), SYMBOLIC_NEAR_IDENTICAL, band="A")
        check_contact_sheet(tmp)
    if failures:
        print(f"check-pets: {len(failures)} failure(s)")
        return 1
    print(f"check-pets: {len(BASES)} forms and {len(BASES)} symbolic icons pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
