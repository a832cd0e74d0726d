# make image: build/pilothouse-image.tar, an OCI image archive of pilothouse:<chart appVersion>, written
# without a container engine by scripts/image/build-image.mjs (docs/adr/0031-image-without-engine.md).
# Reproducible: SOURCE_DATE_EPOCH (default: the commit time) is every file's time.
IMAGE_ARCHIVE := $(ROOT)/build/pilothouse-image.tar

.PHONY: image
image: build tools
	node scripts/image/build-image.mjs $(IMAGE_ARCHIVE)

# make kind-demo: a kind cluster with the image loaded and the chart installed (scripts/kind-demo.sh);
# needs Docker or Podman, kind, kubectl and helm on PATH.
.PHONY: kind-demo
kind-demo: image
	bash scripts/kind-demo.sh
