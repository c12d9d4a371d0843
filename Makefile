# Pet Progress — build, test, run, install.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user

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
# (scripts/order-file.sh regenerates the list; a stale one only loses that).
ORDER := $(if $(RELR),-Xlinker --symbol-ordering-file=$(CURDIR)/scripts/petprogressd.order -Xlinker --no-warn-symbol-ordering)
RELEASE = $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-release $(RELR) $(ORDER)
DAEMON = .build-release/release/petprogressd

.PHONY: all deps build test release run bench install uninstall format clean

all: build

deps:
	@bash scripts/deps.sh

build: deps
	$(SWIFT) build

# Each test target runs in its own process: the bus suites wait on real processes, and sharing one
# cooperative thread pool with the CPU-heavy sweeps of another target starves their waits.
TEST_TARGETS = PetCoreTests PetStoreTests DBusKitTests IntegrationTests

test: deps
	$(SWIFT) build --build-tests
	@failed=""; for t in $(TEST_TARGETS); do \
	    echo "== $$t"; $(SWIFT) test --skip-build --filter "$$t\\." || failed="$$failed $$t"; \
	done; \
	echo "== the shipped build"; \
	{ $(RELEASE) --product petprogressd && bash scripts/check-shipped-zones.sh $(DAEMON) \
	    && bash scripts/check-lean-binary.sh $(DAEMON); } || failed="$$failed shipped-build"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi; echo "make test: all test targets passed"

release: deps
	$(RELEASE) --product petprogressd

run: release
	@bash scripts/run.sh $(DAEMON)

bench:
	@bash scripts/deps.sh playerctl
	$(RELEASE) --product petprogressd
	$(RELEASE) --product bench-daemon
	.build-release/release/bench-daemon --daemon $(DAEMON)

install: release
	install -D -s -m 0755 $(DAEMON) $(DESTDIR)$(BINDIR)/petprogressd
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

# swift format, configured by .swift-format (DESIGN.md §3.10).
format:
	$(SWIFT) format format -i -r Sources Tests bench Package.swift

clean:
	rm -rf .build .build-release
