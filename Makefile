# Pet Progress — build, test, run, install.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
# scripts/install.sh decides every installed directory from PREFIX (each can be set on its own:
# BINDIR, DATADIR, … — see its head), so that `make install`, the Debian package and the release
# tarball's install script lay files out by one rule. Variables given to make reach it exported.
export PREFIX DESTDIR
# The version, from its one place in the sources; the package and the tarball are named by it.
VERSION := $(shell sed -n 's/^ *public static let version = "\(.*\)"$$/\1/p' Sources/PetCore/Product.swift)
# The package is not Debian's own (native): its version carries a Debian revision.
DEB_VERSION = $(VERSION)-1
DEB = petprogress_$(DEB_VERSION)_$(shell dpkg --print-architecture 2>/dev/null || echo amd64).deb
DIST = petprogress-$(VERSION)-$(shell uname -m)-linux.tar.gz

# The shipped build: optimised, Swift runtime and FoundationEssentials linked in (no libswift*.so
# needed at run time, and no ICU: zones come from the system's tzdata; see docs/DECISIONS.md). Its
# own scratch directory, so it never fights the test build. `make install` strips it.
# With glibc >= 2.36 the link packs relative relocations (DT_RELR, through the toolchain's lld):
# 1.7 MB of relocations become 33 KB, which the loader no longer reads and applies at every start
# (start-up and resident memory in docs/BENCHMARKS.md). Older glibc cannot load such a binary.
GLIBC_MINOR := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
RELR := $(shell [ "$(GLIBC_MINOR)" -ge 36 ] 2>/dev/null && echo "-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs")
# With lld, the functions the daemon runs at start-up (and petctl's tray, watch and today) are also
# linked side by side: the kernel maps code 64 KiB around each page fault, so packed they keep about
# 2 MiB less of the binary resident; one list serves both links, which skip the names they lack
# (scripts/order-file.sh regenerates the list; a stale one only loses that). -function-sections
# gives every function its own section, so the linker can move closures, specialisations and other
# local functions too: without it 1.7 MB of our code stays in each object file's one .text, where
# the list cannot reach it (docs/BENCHMARKS.md).
ORDER := $(if $(RELR),-Xlinker --symbol-ordering-file=$(CURDIR)/scripts/petprogressd.order -Xlinker --no-warn-symbol-ordering)
RELEASE = $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-release -Xswiftc -Xfrontend -Xswiftc -function-sections $(RELR) $(ORDER)
DAEMON = .build-release/release/petprogressd
PETCTL = .build-release/release/petctl

GENERATED = .build-release/generated

# petctl's catalogues for the shipped build (beside it, where petctl looks: `make locale
# BIN=.build-release/release`), and the desktop entries with their translations (still templates:
# scripts/install.sh fills in the paths). Both follow po/*.po.
# (release/ is SwiftPM's link to the triple's directory: `..` is taken from where it points.)
LOCALE = .build-release/release/../share/locale
CATALOGUES = $(patsubst po/%.po,$(LOCALE)/%/LC_MESSAGES/petprogress.mo,$(wildcard po/*.po))
DESKTOP_ENTRIES = $(patsubst data/%,$(GENERATED)/desktop/%,$(wildcard data/*.desktop.in))
# The Plasma widget's catalogues (contrib/plasma/po), which install.sh puts in its package's
# contents/locale.
PLASMA_DOMAIN = plasma_applet_io.petprogress.plasmoid
PLASMA_CATALOGUES = $(patsubst contrib/plasma/po/%.po,$(GENERATED)/plasma/locale/%/LC_MESSAGES/$(PLASMA_DOMAIN).mo,$(wildcard contrib/plasma/po/*.po))
# The GNOME Shell extension's catalogues, compiled for the system-wide install of the extension.
SHELL_CATALOGUES = $(patsubst contrib/gnome-shell/po/%.po,$(GENERATED)/gnome-shell/locale/%/LC_MESSAGES/petprogress-shell.mo,$(wildcard contrib/gnome-shell/po/*.po))

# What `make install`, `make deb` and `make dist` ship: the builds are made when missing, never
# rebuilt by them (`make release` rebuilds); the catalogues and desktop entries when a .po changed.
SHIPPED = $(DAEMON) $(PETCTL) $(GENERATED)/completions/petctl.bash $(GENERATED)/completions/_petctl \
    $(GENERATED)/completions/petctl.fish $(GENERATED)/man/petctl.1 $(CATALOGUES) $(DESKTOP_ENTRIES) \
    $(PLASMA_CATALOGUES) $(SHELL_CATALOGUES)

.PHONY: all deps build locale check check-fresh check-debian test release reliability run bench pets screenshot install uninstall format clean completions man gnome-extension deb dist

all: build

# scripts/deps.sh keeps three lists: to build, to run, to test.
deps:
	@bash scripts/deps.sh build

build: deps
	$(SWIFT) build
	@$(MAKE) --no-print-directory locale

# petctl's catalogues, compiled beside the build where petctl looks (<bin>/../share/locale,
# Sources/petctl/Support/L10n.swift): the debug build's, and the shipped build's when BIN says so.
BIN ?= .build/debug
locale:
	@$(PYTHON) scripts/po.py compile $(BIN)/../share/locale

# Each test target runs in its own process: the bus suites wait on real processes, and sharing one
# cooperative thread pool with the CPU-heavy sweeps of another target starves their waits.
TEST_TARGETS = LinuxKitTests PetCoreTests PetSyncTests PetBusTests PetCtlTests PetStoreTests PetServiceTests DBusKitTests IntegrationTests
# The load, crash and soak suites of docs/RELIABILITY.md (fast sizes) run after the other
# integration suites, not beside them: 16 busy clients would slow the suites that race a scaled
# clock, and those them.
RELIABILITY_SUITES = IntegrationTests\.Reliability/
# Debian's interpreter, which has python3-pil from deps.sh (a python3 earlier on PATH may not).
PYTHON ?= /usr/bin/python3

# The GNOME Shell extension (contrib/gnome-shell) and the zip `gnome-extensions install` takes.
GNOME_EXTENSION = contrib/gnome-shell/petprogress@petprogress.io
GNOME_EXTENSION_ZIP = .build/petprogress@petprogress.io.shell-extension.zip

# The everyday loop, in a few minutes once built: every swift test target but the reliability
# suites (the unit suites, the in-process service tests, the integration suites on a private bus),
# the translations, the GNOME extension's gjs tests, the unit's confinement and the funnel's nm
# gate. No root, no network once the packages are resolved, no Debian root, no apt-get: a missing
# package is named, not installed. Tests that need root say so as they skip, and the skips are
# listed again at the end. `make test` is the whole thing (CI).
CHECK_LOG = .build/check.log
check:
	@bash scripts/deps.sh --no-install build run check
	$(SWIFT) build --build-tests
	@$(MAKE) --no-print-directory locale
	@$(PYTHON) scripts/po.py pseudo .build/debug/../share/locale
	@failed=""; : > $(CHECK_LOG); rm -f $(CHECK_LOG).failed; \
	echo "== petctl's translations"; $(PYTHON) scripts/po.py check || failed="$$failed translations"; \
	echo "== references to the documents' headings"; $(PYTHON) scripts/check-doc-refs.py || failed="$$failed doc-refs"; \
	for t in $(TEST_TARGETS); do \
	    echo "== $$t"; \
	    { $(SWIFT) test --skip-build --filter "$$t\\." --skip '$(RELIABILITY_SUITES)' 2>&1 || echo " $$t" >> $(CHECK_LOG).failed; } \
	        | tee -a $(CHECK_LOG); \
	done; \
	failed="$$failed$$(cat $(CHECK_LOG).failed 2>/dev/null | tr -d '\n')"; \
	echo "== the unit's confinement"; bash scripts/check-confinement.sh || failed="$$failed confinement"; \
	echo "== no file system call outside LinuxKit"; bash scripts/check-file-calls.sh .build/debug || failed="$$failed file-calls"; \
	echo "== no contract name outside PetBus"; $(PYTHON) scripts/check-contract-names.py . || failed="$$failed contract-names"; \
	echo "== GNOME Shell extension"; \
	bash contrib/gnome-shell/tests/run.sh .build/debug/petprogressd || failed="$$failed gnome-shell-extension"; \
	skipped=$$(grep -cE 'Test .* skipped(\.$$|: ")|^SKIP ' $(CHECK_LOG) || true); \
	if [ "$$skipped" -gt 0 ]; then echo "make check: $$skipped skipped here (they run in make test, as root):"; \
	    grep -E 'Test .* skipped(\.$$|: ")|^SKIP ' $(CHECK_LOG) | sed 's/^/  /'; fi; \
	if [ -n "$$failed" ]; then echo "make check: failed:$$failed"; exit 1; fi; echo "make check: passed"

# The README's commands on a pristine Debian 12 with the toolchain and nothing else, in a root of
# its own (scripts/check-fresh-machine.sh; as root, an hour or more: it builds everything twice and
# its own desktop roots). Run it whenever the set-up changes.
check-fresh:
	@bash scripts/deps.sh debootstrap zstd
	bash scripts/check-fresh-machine.sh

# What a Debian builder does (scripts/check-debian-build.sh): the source package built offline by
# Debian 13's own Swift in a pristine cached root, lintian, the autopkgtest, the extension in GNOME
# Shell 48. Not in `make test`: it passes end to end but takes 34 min with nocheck alone
# (PETPROGRESS_DEB_BUILD_OPTIONS=nocheck), more with the build's tests, where `make test` has about
# 4 min to spare (docs/DECISIONS.md, "The Debian builder's check is `make check-debian`").
check-debian:
	@bash scripts/deps.sh debootstrap zstd
	bash scripts/check-debian-build.sh .build/debian

test:
	@bash scripts/deps.sh build run test
	$(SWIFT) build --build-tests
	@$(MAKE) --no-print-directory locale
	@# The pseudo-language qps (every string ⟦marked⟧), for TranslationCoverageTests; never installed.
	@$(PYTHON) scripts/po.py pseudo .build/debug/../share/locale
	@failed=""; echo "== petctl's translations: the template is current, the catalogues complete"; \
	$(PYTHON) scripts/po.py check || failed="$$failed translations"; \
	echo "== references to the documents' headings"; $(PYTHON) scripts/check-doc-refs.py || failed="$$failed doc-refs"; \
	for t in $(TEST_TARGETS); do \
	    echo "== $$t"; $(SWIFT) test --skip-build --filter "$$t\\." --skip '$(RELIABILITY_SUITES)' || failed="$$failed $$t"; \
	done; \
	echo "== reliability at fast sizes"; \
	$(SWIFT) test --skip-build --filter '$(RELIABILITY_SUITES)' || failed="$$failed reliability"; \
	echo "== the unit's confinement"; bash scripts/check-confinement.sh || failed="$$failed confinement"; \
	echo "== no file system call outside LinuxKit"; bash scripts/check-file-calls.sh .build/debug || failed="$$failed file-calls"; \
	echo "== no contract name outside PetBus"; $(PYTHON) scripts/check-contract-names.py . || failed="$$failed contract-names"; \
	echo "== the pet art"; $(PYTHON) scripts/check-pets.py || failed="$$failed pets"; \
	$(PYTHON) scripts/tray-pixmaps.py --check || failed="$$failed tray-pixmaps"; \
	echo "== the AppStream metadata: appstreamcli validate --pedantic"; \
	bash scripts/check-metainfo.sh || failed="$$failed metainfo"; \
	echo "== make run's next steps, pasted into another shell"; \
	bash scripts/check-run.sh .build/debug || failed="$$failed run"; \
	echo "== waybar in a headless sway, clicked"; \
	bash scripts/check-panel-click.sh .build/debug || failed="$$failed panel-click"; \
	echo "== petctl tray in waybar's tray, clicked"; \
	bash scripts/check-tray-waybar.sh .build/debug || failed="$$failed tray-waybar"; \
	echo "== petctl tray in xfce4-panel under Xvfb"; \
	bash scripts/check-tray-xfce.sh .build/debug || failed="$$failed tray-xfce"; \
	echo "== GNOME Shell extension"; \
	bash contrib/gnome-shell/tests/run.sh .build/debug/petprogressd || failed="$$failed gnome-shell-extension"; \
	echo "== the GNOME Shell extension in GNOME Shell 48 (a Debian 13 root, built once and cached)"; \
	{ $(MAKE) --no-print-directory gnome-extension \
	    && bash scripts/check-gnome-shell.sh .build/debug $(GNOME_EXTENSION_ZIP) .build/desktops/gnome; } \
	    || failed="$$failed gnome-shell-48"; \
	echo "== petctl tray in Plasma 6's system tray (a Debian 13 root, built once and cached)"; \
	bash scripts/check-plasma.sh .build/debug .build/desktops/plasma || failed="$$failed plasma-6"; \
	echo "== the Plasma widget: its translations, then in Plasma 6 (plasmawindowed, then a plasmashell panel with the tray; the same root)"; \
	{ $(PYTHON) contrib/plasma/po.py check \
	    && bash scripts/check-plasma-widget.sh .build/debug .build/desktops/plasma-widget; } || failed="$$failed plasma-widget"; \
	echo "== petctl tray in GNOME Shell 48's top bar through the AppIndicator extension (the same root)"; \
	bash scripts/check-gnome-appindicator.sh .build/debug .build/desktops/gnome-appindicator || failed="$$failed gnome-appindicator"; \
	echo "== the shipped build"; \
	{ $(RELEASE) --product petprogressd && bash scripts/check-shipped-zones.sh $(DAEMON) \
	    && bash scripts/check-lean-binary.sh $(DAEMON); } || failed="$$failed shipped-build"; \
	echo "== petctl's completions and man page"; \
	{ $(MAKE) --no-print-directory completions man && bash scripts/check-generated.sh $(GENERATED); } || failed="$$failed generated"; \
	echo "== a second make release (a second make run) compiles nothing"; \
	{ $(MAKE) --no-print-directory release >.build-release/again.log 2>&1 \
	    && ! grep -E '(Compiling|Linking) ' .build-release/again.log; } || failed="$$failed release-again"; \
	echo "== make install and uninstall, the session around them"; \
	bash scripts/check-install.sh || failed="$$failed install"; \
	echo "== the Debian package and the release tarball: lintian, their files"; \
	{ $(MAKE) --no-print-directory deb dist && bash scripts/check-package.sh $(DEB) $(DIST); } || failed="$$failed package"; \
	echo "== the package and the tarball in pristine Debian 12 and 13 roots"; \
	bash scripts/check-package-roots.sh $(DEB) $(DIST) || failed="$$failed package-roots"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi; echo "make test: all test targets passed"

# The shipped build: both binaries, petctl's completions and man page.
release: deps
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petctl
	@$(MAKE) --no-print-directory completions man
	@$(MAKE) --no-print-directory locale BIN=.build-release/release

$(DAEMON):
	@bash scripts/deps.sh build
	$(RELEASE) --product petprogressd
$(PETCTL):
	@bash scripts/deps.sh build
	$(RELEASE) --product petctl
$(GENERATED)/completions/petctl.bash $(GENERATED)/completions/_petctl $(GENERATED)/completions/petctl.fish: | $(PETCTL)
	@$(MAKE) --no-print-directory completions
$(GENERATED)/man/petctl.1: | $(PETCTL)
	@$(MAKE) --no-print-directory man
$(CATALOGUES): $(LOCALE)/%/LC_MESSAGES/petprogress.mo: po/%.po
	@$(MAKE) --no-print-directory locale BIN=.build-release/release
$(GENERATED)/desktop/%.desktop.in: data/%.desktop.in $(wildcard po/*.po)
	$(PYTHON) scripts/po.py desktop $< $@
$(PLASMA_CATALOGUES): $(GENERATED)/plasma/locale/%/LC_MESSAGES/$(PLASMA_DOMAIN).mo: contrib/plasma/po/%.po
	$(PYTHON) contrib/plasma/po.py compile $(GENERATED)/plasma/locale
$(SHELL_CATALOGUES): $(GENERATED)/gnome-shell/locale/%/LC_MESSAGES/petprogress-shell.mo: contrib/gnome-shell/po/%.po
	$(PYTHON) contrib/gnome-shell/po.py compile $(CURDIR)/$(GENERATED)/gnome-shell/locale

# Reliability at full size (about 20 minutes): load, crashes, bus loss, soak, hostile input
# (10^6 calls), size bounds, loader fuzz, confinement… against the shipped build of the daemon and
# release builds of the two clients; writes docs/RELIABILITY.md. The fast sizes run in `make test`.
reliability:
	@bash scripts/deps.sh build run test
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petload
	$(RELEASE) --product hostile-client
	$(RELEASE) --product petctl
	$(SWIFT) build --build-tests
	PETPROGRESSD=$(CURDIR)/$(DAEMON) PETLOAD=$(CURDIR)/.build-release/release/petload \
	    HOSTILE_CLIENT=$(CURDIR)/.build-release/release/hostile-client \
	    PETCTL_RELEASE=$(CURDIR)/.build-release/release/petctl bash scripts/reliability.sh

# Shell completions and the man page, generated from petctl's command definitions (installing them
# is `make install`'s).
completions: deps
	$(RELEASE) --product petctl
	mkdir -p $(GENERATED)/completions
	@# bash sources a completion, never runs it: no #! line (Debian's policy for them).
	$(PETCTL) --generate-completion-script bash | sed '1{/^#!/d}' > $(GENERATED)/completions/petctl.bash
	$(PETCTL) --generate-completion-script zsh > $(GENERATED)/completions/_petctl
	$(PETCTL) --generate-completion-script fish > $(GENERATED)/completions/petctl.fish

# generate-manual is built in a scratch path of its own, as debug (a tool: its speed does not
# matter, its build time does). Built in .build-release, its plan (which lacks the project's
# modules) made the next build of petprogressd and petctl start over, so every `make run`
# recompiled both for minutes (make test checks that a second `make release` compiles nothing).
MANUAL_TOOL = .build-manual/debug/generate-manual
man: deps
	$(RELEASE) --product petctl
	$(SWIFT) build --scratch-path .build-manual --product generate-manual
	bash scripts/man-page.sh $(PETCTL) $(MANUAL_TOOL) $(GENERATED)/man

# Every package make run needs is asked for at once (one `sudo apt-get install` line for a user).
run:
	@bash scripts/deps.sh build run
	@$(MAKE) --no-print-directory release
	@bash scripts/run.sh $(DAEMON) $(PETCTL)

# BENCH_ARGS passes bench-daemon's options: `make bench BENCH_ARGS=--quick` (a few rounds of
# everything, to try it), `BENCH_ARGS="--startup-only --startup-rounds 30"` (sizes and start-up).
BENCH_ARGS ?=
bench:
	@bash scripts/deps.sh build run playerctl time gcc pkg-config tmux
	$(RELEASE) --product petprogressd
	$(RELEASE) --product petctl
	$(RELEASE) --product bench-daemon
	cc -O2 -Wall -o .build-release/rtt bench/rtt/rtt.c $$(pkg-config --cflags --libs dbus-1)
	cc -O2 -Wall -o .build-release/floor bench/floor/floor.c $$(pkg-config --cflags --libs dbus-1)
	@# Resident memory after start-up counts the pages the kernel maps around each fault, which are
	@# only those already in the page cache: read the binaries whole first, so a build compared with
	@# an older one (partly evicted) is measured in the same state (docs/BENCHMARKS.md).
	cat $(DAEMON) $(PETCTL) >/dev/null
	.build-release/release/bench-daemon --daemon $(DAEMON) --petctl $(PETCTL) --rtt .build-release/rtt \
		--floor .build-release/floor $(BENCH_ARGS)

# Re-renders data/pets/pet_<base>.png and the contact sheet docs/pets.png from the SVGs.
pets:
	@bash scripts/render-pets.sh

# docs/screenshot.png, the README's picture: waybar and petctl today in a headless sway.
screenshot:
	@bash scripts/deps.sh build run test foot fonts-dejavu-core fonts-noto-color-emoji
	$(SWIFT) build --product petctl
	$(SWIFT) build --product petprogressd
	bash scripts/screenshot.sh .build/debug docs/screenshot.png

# scripts/install.sh holds the one list of installed files that install, uninstall, the package
# and the tarball read. Installing needs the shipped build, not a toolchain: it is built only when
# missing.
INSTALL_ENV = DAEMON='$(DAEMON)' PETCTL='$(PETCTL)' GENERATED='$(GENERATED)' LOCALE='$(LOCALE)'

install: $(SHIPPED)
	@bash scripts/deps.sh run
	@$(INSTALL_ENV) bash scripts/install.sh install

uninstall:
	@$(INSTALL_ENV) bash scripts/install.sh uninstall

# The Debian package, petprogress_<version>_<arch>.deb, from the shipped build (scripts/deb.sh).
deb: $(SHIPPED)
	@bash scripts/deps.sh build
	@$(INSTALL_ENV) bash scripts/deb.sh $(DEB_VERSION) $(DEB)

# The release tarball, petprogress-<version>-<machine>-linux.tar.gz: the staged tree, its install
# script and INSTALL (scripts/dist.sh).
dist: $(SHIPPED)
	@$(INSTALL_ENV) bash scripts/dist.sh $(VERSION) $(DIST)

# The installable zip, in `gnome-extensions pack` layout, built without GNOME Shell's tools.
gnome-extension:
	python3 contrib/gnome-shell/pack.py $(GNOME_EXTENSION) $(GNOME_EXTENSION_ZIP)

# swift format, configured by .swift-format.
format:
	$(SWIFT) format format -i -r Sources Tests bench Package.swift

clean:
	rm -rf .build .build-release .build-manual petprogress_*.deb petprogress-*-linux.tar.gz
