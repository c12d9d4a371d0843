#!/usr/bin/env bash
# Renders the pet art from its SVG sources: data/pets/pet_<base>.png (512×512, transparent) for
# each drawing, then the contact sheet docs/pets.png. Rerun after editing any drawing and commit
# the results; `make test` (scripts/check-pets.py) fails while a PNG differs from its SVG.
#   bash scripts/render-pets.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh fonts-dejavu-core # the contact sheet's labels
for svg in data/pets/pet_*.svg; do
    rsvg-convert --width 512 --height 512 --output "${svg%.svg}.png" "$svg"
done
/usr/bin/python3 scripts/pets-sheet.py docs/pets.png
/usr/bin/python3 scripts/tray-pixmaps.py # the tray item's IconPixmap, from the PNGs
echo "render-pets: $(ls data/pets/pet_*.png | wc -l) PNGs and docs/pets.png"
