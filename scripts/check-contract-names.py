#!/usr/bin/env python3
"""No member name or reply key of the D-Bus contract is spelled outside PetBus (issue 43).

The names come from the contract itself: the methods, signals and properties of
dbus/io.petprogress.PetProgress1.xml, and the reply keys of PetBus's `enum Key` tables
(Sources/PetBus/Values). In the Swift sources outside Sources/PetBus, code (not comments) must
not hold a member name or a many-word key as a whole string literal ("GetStatus", "due_at"), nor
read a one-word key by subscript (`entry["upcoming"]`, `status["now"]`): one-word keys ("done",
"title") are also ordinary words of the output and the state file. Clients go through PetClient
and its typed table. Tests spell the names on purpose (black-box contract tests)
and are not searched; nor are the GNOME extension and the Plasma widget (JavaScript and QML, which
cannot import PetBus: they check themselves against the XML and the shared fixtures).

Usage: check-contract-names.py [REPO]   (exit 1 and one line per spelling found)
"""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

# Files whose literals are another format's own keys that happen to match, with the reason.
EXEMPT = {
    # The export document's and CSV's own top-level fields and columns (petprogress(7) §7), a
    # file format of its own: its records are PetBus's encodings (EntryJSON of the `dbus` values).
    "Sources/petctl/Output/ExportDocument.swift",
}


def names(repo: Path) -> tuple[set[str], set[str]]:
    """The member names, and the reply keys."""
    tree = ET.parse(repo / "dbus" / "io.petprogress.PetProgress1.xml")
    members = {
        element.get("name")
        for interface in tree.iter("interface")
        if interface.get("name") == "io.petprogress.PetProgress1"
        for element in interface
        if element.tag in ("method", "signal", "property")
    }
    keys = set()
    for path in sorted((repo / "Sources" / "PetBus" / "Values").glob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"enum Key: String \{(.*?)\n    \}", text, re.S):
            for line in block.splitlines():
                line = line.strip()
                if not line.startswith("case "):
                    continue
                for case in line[len("case "):].split(","):
                    case = case.strip()
                    raw = re.fullmatch(r'\w+\s*=\s*"([^"]+)"', case)
                    keys.add(raw.group(1) if raw else case)
    return {m for m in members if m}, {k for k in keys if k}


def alternatives(words) -> str:
    return "(" + "|".join(sorted(re.escape(w) for w in words)) + ")"


def main() -> int:
    repo = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    members, keys = names(repo)
    if len(members) < 25 or len(keys) < 60 or not {"GetWidgetEntry", "MarkNextDone"} <= members \
            or not {"upcoming", "now", "due_at"} <= keys:
        print(f"check-contract-names: the contract read as {len(members)} members and {len(keys)} keys",
              file=sys.stderr)
        return 1
    literal = '"' + alternatives(members | {k for k in keys if "_" in k}) + '"'
    # POSIX ERE (git grep -E): an identifier, `)`, `]`, `?` or `!` right before the bracket.
    subscript = '[]A-Za-z0-9_)?!]\\[[[:space:]]*"' + alternatives(k for k in keys if "_" not in k) + '"[[:space:]]*]'
    result = subprocess.run(
        ["git", "-C", str(repo), "grep", "-n", "-E", "-e", literal, "-e", subscript,
         "--", "Sources/*.swift", ":!Sources/PetBus"],
        capture_output=True, text=True)
    if result.returncode > 1:
        print(f"check-contract-names: git grep failed: {result.stderr.strip()}", file=sys.stderr)
        return 1
    hits = []
    for line in result.stdout.splitlines():
        path, _, code = line.split(":", 2)
        if path not in EXEMPT and not code.lstrip().startswith("//"):
            hits.append(line)
    for line in hits:
        print(f"check-contract-names: a contract name spelled outside PetBus: {line}")
    if hits:
        print("check-contract-names: use PetClient and PetBus's table (PetBus.Methods, the values' coding)")
        return 1
    print(f"check-contract-names: none of the contract's {len(members)} members and {len(keys)} reply keys "
          "is spelled outside Sources/PetBus")
    return 0


if __name__ == "__main__":
    sys.exit(main())
