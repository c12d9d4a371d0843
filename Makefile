# Pet Progress — build, test, run.
SWIFT ?= swift
PREFIX ?= /usr/local
CONFIG ?= debug

.PHONY: all deps build test release clean run

all: build

deps:
	@bash scripts/deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

release: deps
	$(SWIFT) build -c release

run:
	@echo "make run arrives with the daemon (issue: petprogressd). For now: make test." >&2
	@exit 1

clean:
	rm -rf .build
