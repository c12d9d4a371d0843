#!/usr/bin/env python3
"""Reads what the Plasma widget logged of its popup (main.qml's logView, enabled by
QT_LOGGING_RULES="io.petprogress.plasmoid.debug=true", lines "<type> <category>: view {json}" under
QT_MESSAGE_PATTERN="%{type} %{category}: %{message}"), for scripts/check-plasma-widget.sh.

  view.py count LOG            how many views were logged
  view.py last LOG [N]         the Nth view (default: the last) as JSON
  view.py where LOG NAME       "x y" of the first item whose accessible name starts with NAME
  view.py has LOG TEXT [N]     exit 0 when an item's text or name in view N (default last) holds TEXT
  view.py names LOG [N]        every control of view N without an accessible name (exit 1 if any)
  view.py escaped LOG WORD…    letters outside ⟦…⟧ in the last view (the pseudo-language qps),
                               less the WORDs (task titles: data, not the widget's words)
  view.py warnings LOG         the QML warnings and errors in the log (exit 1 if any)
"""
import json
import re
import sys

PREFIX = "io.petprogress.plasmoid: view "


def views(log):
    found = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            at = line.find(PREFIX)
            if at >= 0:
                try:
                    found.append(json.loads(line[at + len(PREFIX):]))
                except ValueError:
                    pass
    return found


def pick(log, n=None):
    found = views(log)
    if not found:
        sys.exit(1)
    return found[int(n)] if n is not None else found[-1]


def texts(view):
    return [t for item in view["items"] for t in (item["text"], item["name"]) if t] + [view["tooltip"], view["count"]]


def main():
    cmd, log, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if cmd == "count":
        print(len(views(log)))
    elif cmd == "last":
        print(json.dumps(pick(log, *args[:1]), ensure_ascii=False))
    elif cmd == "where":
        for item in pick(log)["items"]:
            if item["name"].startswith(args[0]):
                print(item["x"], item["y"])
                return
        sys.exit(1)
    elif cmd == "has":
        sys.exit(0 if any(args[0] in t for t in texts(pick(log, *args[1:2]))) else 1)
    elif cmd == "names":
        view = pick(log, *args[:1])
        bad = [i for i in view["items"] if (i["button"] or i["field"]) and not i["name"]]
        for i in bad:
            print(f"no accessible name: {i}")
        sys.exit(1 if bad else 0)
    elif cmd == "escaped":
        left = []
        for t in texts(pick(log)):
            for word in args:
                t = t.replace(word, " ")
            while True:  # marks nest: a translated sentence holds translated words
                inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", t)
                if inner == t:
                    break
                t = inner
            left += [w for w in re.split(r"[^A-Za-z]+", t) if w]
        print(" ".join(sorted(set(left))))
        sys.exit(1 if left else 0)
    elif cmd == "warnings":
        bad = []
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                kind = line.split(" ", 1)[0]
                qml = re.search(r"\bqml\b|\.qml:\d+|\.js:\d+|TypeError|ReferenceError|Binding loop|io\.petprogress", line)
                if kind in ("warning", "critical", "fatal") and qml:
                    bad.append(line.rstrip())
        print("\n".join(bad))
        sys.exit(1 if bad else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
