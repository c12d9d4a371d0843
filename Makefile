# Pet Progress — build, test, run, install.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user

# The shipped build: optimised, Swift runtime and Foundation linked in (no libswift*.so needed at
# run time; see docs/DECISIONS.md). Its own scratch directory, so it never fights the test build.
# With glibc >= 2.36 the link packs relative relocations (DT_RELR, through the toolchain's lld):
# 1.7 MB of relocations become 33 KB, which the loader no longer reads and applies at every start
# (start-up and resident memory in docs/BENCHMARKS.md). Older glibc cannot load such a binary.
GLIBC_MINOR := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
RELR := $(shell [ "$(GLIBC_MINOR)" -ge 36 ] 2>/dev/null && echo "-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs")
RELEASE = $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-release $(RELR)
DAEMON = .build-release/release/petprogressd
PETCTL = .build-release/release/petctl

GENERATED = .build-release/generated

.PHONY: all deps build test release run bench pets screenshot install uninstall format clean completions man gnome-extension

all: build

deps:
	@bash scripts/deps.sh

build: deps
	$(SWIFT) build

# Each test target runs in its own process: the bus suites wait on real processes, and sharing one
# cooperative thread pool with the CPU-heavy sweeps of another target starves their waits.
TEST_TARGETS = PetCoreTests PetBusTests PetStoreTests DBusKitTests IntegrationTests
# Debian's interpreter, which has python3-pil from deps.sh (a python3 earlier on PATH may not).
PYTHON ?= /usr/bin/python3

# The GNOME Shell extension (contrib/gnome-shell) and the zip `gnome-extensions install` takes.
GNOME_EXTENSION = contrib/gnome-shell/petprogress@petprogress.io
GNOME_EXTENSION_ZIP = .build/petprogress@petprogress.io.shell-extension.zip

test: deps
	$(SWIFT) build --build-tests
	@failed=""; for t in $(TEST_TARGETS); do \
	    echo "== $$t"; $(SWIFT) test --skip-build --filter "$$t\\." || failed="$$failed $$t"; \
	done; \
	echo "== the pet art"; $(PYTHON) scripts/check-pets.py || failed="$$failed pets"; \
	echo "== waybar in a headless sway, clicked"; \
	bash scripts/check-panel-click.sh .build/debug || failed="$$failed panel-click"; \
	echo "== GNOME Shell extension"; \
	bash contrib/gnome-shell/tests/run.sh .build/debug/petprogressd || failed="$$failed gnome-shell-extension"; \
	echo "== the shipped build"; \
	{ $(RELEASE) --product petprogressd && bash scripts/check-shipped-zones.sh $(DAEMON); } || failed="$$failed shipped-build"; \
	echo "== petctl's completions and man page"; \
	{ $(MAKE) --no-print-directory completions man && bash scripts/check-generated.sh $(GENERATED); } || failed="$$failed generated"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi; echo "make test: all test targets passed"

release: deps
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petctl

# Shell completions and the man page, generated from petctl's command definitions (installing them
# is `make install`'s).
completions: deps
	$(RELEASE) --product petctl
	mkdir -p $(GENERATED)/completions
	$(PETCTL) --generate-completion-script bash > $(GENERATED)/completions/petctl.bash
	$(PETCTL) --generate-completion-script zsh > $(GENERATED)/completions/_petctl
	$(PETCTL) --generate-completion-script fish > $(GENERATED)/completions/petctl.fish

man: deps
	$(RELEASE) --product petctl
	$(RELEASE) --product generate-manual
	mkdir -p $(GENERATED)/man
	.build-release/release/generate-manual $(PETCTL) --output-directory $(GENERATED)/man
	@# A blank line in a command's discussion is a paragraph break; mdoc wants it spelled .Pp.
	sed -i 's/^$$/.Pp/' $(GENERATED)/man/petctl.1

run: release
	@bash scripts/run.sh $(DAEMON) $(PETCTL)

bench:
	@bash scripts/deps.sh playerctl time
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petctl
	$(RELEASE) --product bench-daemon
	.build-release/release/bench-daemon --daemon $(DAEMON) --petctl $(PETCTL)

# Re-renders data/pets/pet_<base>.png and the contact sheet docs/pets.png from the SVGs.
pets:
	@bash scripts/render-pets.sh

# docs/screenshot.png, the README's picture: waybar and petctl today in a headless sway.
screenshot:
	@bash scripts/deps.sh foot fonts-dejavu-core fonts-noto-color-emoji
	$(SWIFT) build --product petctl
	$(SWIFT) build --product petprogressd
	bash scripts/screenshot.sh .build/debug docs/screenshot.png

install: release
	install -D -m 0755 $(DAEMON) $(DESTDIR)$(BINDIR)/petprogressd
	install -D -m 0644 dbus/io.petprogress.PetProgress1.xml $(DESTDIR)$(DBUSINTERFACEDIR)/io.petprogress.PetProgress1.xml
	mkdir -p $(DESTDIR)$(DBUSSERVICEDIR) $(DESTDIR)$(SYSTEMDUSERUNITDIR)
	sed 's|@bindir@|$(BINDIR)|g' dbus/io.petprogress.PetProgress1.service.in > $(DESTDIR)$(DBUSSERVICEDIR)/io.petprogress.PetProgress1.service
	sed 's|@bindir@|$(BINDIR)|g' systemd-user/petprogress.service.in > $(DESTDIR)$(SYSTEMDUSERUNITDIR)/petprogress.service
	chmod 0644 $(DESTDIR)$(DBUSSERVICEDIR)/io.petprogress.PetProgress1.service $(DESTDIR)$(SYSTEMDUSERUNITDIR)/petprogress.service

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/petprogressd
	rm -f $(DESTDIR)$(DBUSINTERFACEDIR)/io.petprogress.PetProgress1.xml
	rm -f $(DESTDIR)$(DBUSSERVICEDIR)/io.petprogress.PetProgress1.service
	rm -f $(DESTDIR)$(SYSTEMDUSERUNITDIR)/petprogress.service

# The installable zip, in `gnome-extensions pack` layout, built without GNOME Shell's tools.
gnome-extension:
	python3 contrib/gnome-shell/pack.py $(GNOME_EXTENSION) $(GNOME_EXTENSION_ZIP)

# swift format, configured by .swift-format (DESIGN.md §3.10).
format:
	$(SWIFT) format format -i -r Sources Tests bench Package.swift

clean:
	rm -rf .build .build-release
