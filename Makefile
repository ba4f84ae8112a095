# euroexec build helpers.
#
#   make assets   fetch ECharts 5.4.3 (npm ci, pinned by package-lock.json) and copy
#                 echarts.min.js into report/site/assets/, where the site writer embeds it
#   make build    assets, then the binary (bin/euroexec) with the embedded chart library
#   make test     assets, then every test
#
# A plain `go build` works without `make assets`: the site is then written without
# charts, with a banner on every page saying how to get them.

GO      ?= go
TAGS    ?= duckdb_arrow
ECHARTS := report/site/assets/echarts.min.js

.PHONY: all assets build test clean-assets run

all: build

assets: $(ECHARTS)

$(ECHARTS): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	grep -q 'version="5.4.3"' node_modules/echarts/dist/echarts.min.js
	cp node_modules/echarts/dist/echarts.min.js $@

build: assets
	$(GO) build -tags $(TAGS) -o bin/euroexec ./cmd/euroexec

test: assets
	$(GO) test -tags $(TAGS) -timeout 30m ./...

clean-assets:
	rm -rf node_modules $(ECHARTS)

# run: the main job on the bundled sample study (report in ./euroexec-report/).
.PHONY: run
run: build
	./bin/euroexec run
