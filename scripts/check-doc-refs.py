#!/usr/bin/env python3
"""Every reference to a heading of the repository's Markdown documents still names one.

A comment, script or document may point a reader at a place in docs/*.md or README.md by quoting
it: `docs/DECISIONS.md, "Which zone is local"`, `docs/RELIABILITY.md "Hostile input"`, or by number:
`docs/SYNC.md §3`. This check reads every tracked text file and fails on a quote that is not the
start (at a word boundary) of a heading of that document — or, for docs/DECISIONS.md, of an
entry's bold title — and on a § number that no numbered heading carries. A reference may break
across comment lines (`///`, `//`, `#`, ` * `) and sit in a string (`\\"…\\"`).

Usage: python3 scripts/check-doc-refs.py [ROOT]   (exit 1 naming each broken reference)
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))

# A quoted reference: NAME.md, then an optional comma, white space, and a quote (or an escaped one).
QUOTED = re.compile(r'\b([A-Za-z][\w-]*)\.md,?\s+\\?"([^"\\]{2,200}?)\\?"')
# A numbered one: NAME.md §N or §N.M.
NUMBERED = re.compile(r"\b([A-Za-z][\w-]*)\.md,?\s+§(\d+(?:\.\d+)*)")
# What starts a continued comment line.
LEADER = re.compile(r"^\s*(?:///?|#|\*|/\*\*?|--)?\s?")


def document(name):
    """The path of the document a reference names, or None when it is not in the repository."""
    for candidate in (f"docs/{name}.md", f"{name}.md"):
        path = os.path.join(ROOT, candidate)
        if os.path.isfile(path):
            return candidate
    return None


def normal(text):
    return re.sub(r"\s+", " ", text).strip()


TARGETS = {}


def targets(doc):
    """Headings (and, for DECISIONS.md, entry titles), white space normalised, and § numbers."""
    if doc not in TARGETS:
        names, numbers = [], set()
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"^#+\s+(.+?)\s*$", text, re.M):
            names.append(normal(m.group(1)))
            n = re.match(r"(\d+(?:\.\d+)*)\.?\s", m.group(1))
            if n:
                numbers.add(n.group(1))
        if doc.endswith("DECISIONS.md"):
            for m in re.finditer(r"^- \*\*(.+?)\*\*", re.sub(r"\n  +", " ", text), re.M):
                names.append(normal(m.group(1)))
        TARGETS[doc] = (names, numbers)
    return TARGETS[doc]


def names_one(quote, names):
    quote = normal(quote).rstrip(".:,;")
    for name in names:
        if name == quote or (name.startswith(quote) and not name[len(quote)].isalnum()):
            return True
    return False


def joined(text):
    """The file's lines without comment leaders or a string's trailing backslash, joined by spaces,
    so that a reference broken across lines reads as one."""
    return " ".join(LEADER.sub("", line).rstrip("\\").rstrip() for line in text.split("\n"))


def tracked():
    """The repository's files: git's list, or the tree without build output where git is absent."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
        return out.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for top, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            paths += [os.path.relpath(os.path.join(top, n), ROOT) for n in names]
        return paths


def main():
    broken, checked = [], 0
    for path in tracked():
        if not path or not os.path.isfile(os.path.join(ROOT, path)):
            continue
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if ".md" not in text:
            continue
        flat = joined(text)
        for m in QUOTED.finditer(flat):
            doc = document(m.group(1))
            if doc is None:
                continue
            checked += 1
            if not names_one(m.group(2), targets(doc)[0]):
                broken.append(f'{path}: {doc}, "{normal(m.group(2))}" names no heading there')
        for m in NUMBERED.finditer(flat):
            doc = document(m.group(1))
            if doc is None:
                continue
            checked += 1
            if m.group(2) not in targets(doc)[1]:
                broken.append(f"{path}: {doc} §{m.group(2)} names no numbered heading there")
    for line in broken:
        print(f"check-doc-refs: {line}")
    if broken:
        print(f"check-doc-refs: {len(broken)} of {checked} references to the documents' headings are broken")
        return 1
    print(f"check-doc-refs: {checked} references to the documents' headings, all found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
