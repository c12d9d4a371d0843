#!/usr/bin/env python3
"""Packs the extension the way `gnome-extensions pack` does: a zip with metadata.json and the
other files at its top level, ready for `gnome-extensions install`. Written in Python so that
neither gnome-extensions (GNOME Shell) nor zip is needed to build it. The zip is reproducible:
sorted names, one fixed date, mode 0644. The translations (po/<ll>.po beside this script) go in
compiled, as locale/<ll>/LC_MESSAGES/<gettext-domain>.mo: where `gnome-extensions pack --podir`
puts them, and where the Shell binds metadata.json's "gettext-domain".

usage: pack.py EXTENSION-DIR OUTPUT.zip"""

import json
import os
import sys
import tempfile
import zipfile

import po

FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def pack(directory: str, output: str) -> None:
    with open(os.path.join(directory, "metadata.json"), encoding="utf-8") as f:
        uuid = json.load(f)["uuid"]
    if uuid != os.path.basename(os.path.normpath(directory)):
        sys.exit(f"pack.py: metadata.json's uuid {uuid} is not the directory's name")
    files = {n: os.path.join(directory, n) for n in os.listdir(directory)
             if os.path.isfile(os.path.join(directory, n))}
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    partial = output + ".partial"
    with tempfile.TemporaryDirectory() as locale:
        po.compile_to(locale)
        for folder, _, found in os.walk(locale):
            for name in found:
                path = os.path.join(folder, name)
                files["locale/" + os.path.relpath(path, locale)] = path
        names = sorted(files)
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            for name in names:
                info = zipfile.ZipInfo(name, FIXED_DATE)
                info.external_attr = 0o100644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(files[name], "rb") as f:
                    z.writestr(info, f.read())
    os.replace(partial, output)
    print(f"{output}: {uuid}, {len(names)} files")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.splitlines()[-1])
    pack(sys.argv[1], sys.argv[2])
