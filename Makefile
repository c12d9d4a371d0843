# Pet Progress — build, test, run, install.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/petprogress
ICONDIR ?= $(DATADIR)/icons/hicolor
DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces
BASHCOMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPLETIONDIR ?= $(DATADIR)/fish/vendor_completions.d
# A prefix inside $HOME (make install PREFIX=$HOME/.local) is a per-user install: the files the
# session looks up go where it looks, in the user's own XDG directories — systemd --user does not
# search $(PREFIX)/lib/systemd/user there — and the handler becomes the default for petprogress://.
USER_INSTALL := $(if $(and $(HOME),$(filter $(HOME)/%,$(PREFIX))),yes)
ifeq ($(USER_INSTALL),yes)
USERDATADIR := $(or $(filter /%,$(XDG_DATA_HOME)),$(HOME)/.local/share)
USERCONFIGDIR := $(or $(filter /%,$(XDG_CONFIG_HOME)),$(HOME)/.config)
DBUSSERVICEDIR ?= $(USERDATADIR)/dbus-1/services
SYSTEMDUSERUNITDIR ?= $(USERDATADIR)/systemd/user
APPLICATIONSDIR ?= $(USERDATADIR)/applications
AUTOSTARTDIR ?= $(USERCONFIGDIR)/autostart
else
# petprogress(7) §8: nothing outside PREFIX. /usr's configuration lives in /etc (packaging); any other prefix
# keeps it under itself: XDG autostart reads $(PREFIX)/etc/xdg only when XDG_CONFIG_DIRS names it,
# so sessions without systemd install with SYSCONFDIR=/etc, or per user.
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
APPLICATIONSDIR ?= $(DATADIR)/applications
AUTOSTARTDIR ?= $(SYSCONFDIR)/xdg/autostart
endif

# The shipped build: optimised, Swift runtime and FoundationEssentials linked in (no libswift*.so
# needed at run time, and no ICU: zones come from the system's tzdata; see docs/DECISIONS.md). Its
# own scratch directory, so it never fights the test build. `make install` strips it.
# With glibc >= 2.36 the link packs relative relocations (DT_RELR, through the toolchain's lld):
# 1.7 MB of relocations become 33 KB, which the loader no longer reads and applies at every start
# (start-up and resident memory in docs/BENCHMARKS.md). Older glibc cannot load such a binary.
GLIBC_MINOR := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
RELR := $(shell [ "$(GLIBC_MINOR)" -ge 36 ] 2>/dev/null && echo "-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs")
# With lld, the functions the daemon runs at start-up are also linked side by side: the kernel maps
# code 64 KiB around each page fault, so packed they keep about 2 MiB less of the binary resident
# (scripts/order-file.sh regenerates the list; a stale one only loses that). -function-sections
# gives every function its own section, so the linker can move closures, specialisations and other
# local functions too: without it 1.7 MB of our code stays in each object file's one .text, where
# the list cannot reach it (docs/BENCHMARKS.md).
ORDER := $(if $(RELR),-Xlinker --symbol-ordering-file=$(CURDIR)/scripts/petprogressd.order -Xlinker --no-warn-symbol-ordering)
RELEASE = $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-release -Xswiftc -Xfrontend -Xswiftc -function-sections $(RELR) $(ORDER)
DAEMON = .build-release/release/petprogressd
PETCTL = .build-release/release/petctl

GENERATED = .build-release/generated

.PHONY: all deps build test release reliability run bench pets screenshot install uninstall format clean completions man gnome-extension

all: build

deps:
	@bash scripts/deps.sh

build: deps
	$(SWIFT) build

# Each test target runs in its own process: the bus suites wait on real processes, and sharing one
# cooperative thread pool with the CPU-heavy sweeps of another target starves their waits.
TEST_TARGETS = LinuxKitTests PetCoreTests PetBusTests PetCtlTests PetStoreTests PetServiceTests DBusKitTests IntegrationTests
# The load, crash and soak suites of docs/RELIABILITY.md (fast sizes) run after the other
# integration suites, not beside them: 16 busy clients would slow the suites that race a scaled
# clock, and those them.
RELIABILITY_SUITES = IntegrationTests\.Reliability/
# Debian's interpreter, which has python3-pil from deps.sh (a python3 earlier on PATH may not).
PYTHON ?= /usr/bin/python3

# The GNOME Shell extension (contrib/gnome-shell) and the zip `gnome-extensions install` takes.
GNOME_EXTENSION = contrib/gnome-shell/petprogress@petprogress.io
GNOME_EXTENSION_ZIP = .build/petprogress@petprogress.io.shell-extension.zip

test: deps
	$(SWIFT) build --build-tests
	@failed=""; for t in $(TEST_TARGETS); do \
	    echo "== $$t"; $(SWIFT) test --skip-build --filter "$$t\\." --skip '$(RELIABILITY_SUITES)' || failed="$$failed $$t"; \
	done; \
	echo "== reliability at fast sizes"; \
	$(SWIFT) test --skip-build --filter '$(RELIABILITY_SUITES)' || failed="$$failed reliability"; \
	echo "== the unit's confinement"; bash scripts/check-confinement.sh || failed="$$failed confinement"; \
	echo "== no file system call outside LinuxKit"; bash scripts/check-file-calls.sh .build/debug || failed="$$failed file-calls"; \
	echo "== the pet art"; $(PYTHON) scripts/check-pets.py || failed="$$failed pets"; \
	echo "== waybar in a headless sway, clicked"; \
	bash scripts/check-panel-click.sh .build/debug || failed="$$failed panel-click"; \
	echo "== GNOME Shell extension"; \
	bash contrib/gnome-shell/tests/run.sh .build/debug/petprogressd || failed="$$failed gnome-shell-extension"; \
	echo "== the shipped build"; \
	{ $(RELEASE) --product petprogressd && bash scripts/check-shipped-zones.sh $(DAEMON) \
	    && bash scripts/check-lean-binary.sh $(DAEMON); } || failed="$$failed shipped-build"; \
	echo "== petctl's completions and man page"; \
	{ $(MAKE) --no-print-directory completions man && bash scripts/check-generated.sh $(GENERATED); } || failed="$$failed generated"; \
	echo "== make install and uninstall, the session around them"; \
	bash scripts/check-install.sh || failed="$$failed install"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi; echo "make test: all test targets passed"

release: deps
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petctl

# Reliability at full size (about 20 minutes): load, crashes, bus loss, soak, hostile input
# (10^6 calls), size bounds, loader fuzz, confinement… against the shipped build of the daemon and
# release builds of the two clients; writes docs/RELIABILITY.md. The fast sizes run in `make test`.
reliability: deps
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petload
	$(RELEASE) --product hostile-client
	$(SWIFT) build --build-tests
	PETPROGRESSD=$(CURDIR)/$(DAEMON) PETLOAD=$(CURDIR)/.build-release/release/petload \
	    HOSTILE_CLIENT=$(CURDIR)/.build-release/release/hostile-client bash scripts/reliability.sh

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
	@# The single-page manual has no SEE ALSO (and no AUTHORS, which would come after it).
	printf '.Sh SEE ALSO\n.Xr petprogress 7\n' >> $(GENERATED)/man/petctl.1

run: release
	@bash scripts/run.sh $(DAEMON) $(PETCTL)

bench:
	@bash scripts/deps.sh playerctl time gcc pkg-config
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petctl
	$(RELEASE) --product bench-daemon
	cc -O2 -Wall -o .build-release/rtt bench/rtt/rtt.c $$(pkg-config --cflags --libs dbus-1)
	@# Resident memory after start-up counts the pages the kernel maps around each fault, which are
	@# only those already in the page cache: read the binaries whole first, so a build compared with
	@# an older one (partly evicted) is measured in the same state (docs/BENCHMARKS.md).
	cat $(DAEMON) $(PETCTL) >/dev/null
	.build-release/release/bench-daemon --daemon $(DAEMON) --petctl $(PETCTL) --rtt .build-release/rtt

# Re-renders data/pets/pet_<base>.png and the contact sheet docs/pets.png from the SVGs.
pets:
	@bash scripts/render-pets.sh

# docs/screenshot.png, the README's picture: waybar and petctl today in a headless sway.
screenshot:
	@bash scripts/deps.sh foot fonts-dejavu-core fonts-noto-color-emoji
	$(SWIFT) build --product petctl
	$(SWIFT) build --product petprogressd
	bash scripts/screenshot.sh .build/debug docs/screenshot.png

# scripts/install.sh holds the one list of installed files that both targets read.
INSTALL_ENV = DESTDIR='$(DESTDIR)' BINDIR='$(BINDIR)' MANDIR='$(MANDIR)' DOCDIR='$(DOCDIR)' ICONDIR='$(ICONDIR)' \
    APPLICATIONSDIR='$(APPLICATIONSDIR)' AUTOSTARTDIR='$(AUTOSTARTDIR)' DBUSSERVICEDIR='$(DBUSSERVICEDIR)' \
    DBUSINTERFACEDIR='$(DBUSINTERFACEDIR)' SYSTEMDUSERUNITDIR='$(SYSTEMDUSERUNITDIR)' \
    BASHCOMPLETIONDIR='$(BASHCOMPLETIONDIR)' ZSHCOMPLETIONDIR='$(ZSHCOMPLETIONDIR)' \
    FISHCOMPLETIONDIR='$(FISHCOMPLETIONDIR)' USER_INSTALL='$(USER_INSTALL)' MIMEAPPS='$(USERCONFIGDIR)/mimeapps.list' \
    DAEMON='$(DAEMON)' PETCTL='$(PETCTL)' GENERATED='$(GENERATED)'

install: release completions man
	@$(INSTALL_ENV) bash scripts/install.sh install

uninstall:
	@$(INSTALL_ENV) bash scripts/install.sh uninstall

# The installable zip, in `gnome-extensions pack` layout, built without GNOME Shell's tools.
gnome-extension:
	python3 contrib/gnome-shell/pack.py $(GNOME_EXTENSION) $(GNOME_EXTENSION_ZIP)

# swift format, configured by .swift-format.
format:
	$(SWIFT) format format -i -r Sources Tests bench Package.swift

clean:
	rm -rf .build .build-release
