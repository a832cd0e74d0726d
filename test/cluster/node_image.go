package main

// The sandbox ("pause") image of the node's containerd, written without a
// container engine: an OCI image layout in a tar (what `ctr images import`
// reads) with one layer holding the static pause binary (pause/main.go).
// Fixed timestamps and order, so the same binary gives the same digest.

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"time"
)

type ociDescriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func tarFiles(files []tarEntry) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		hdr := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type tarEntry struct {
	name string
	mode int64
	data []byte
}

// writePauseImage writes an OCI archive of image nodePauseImage whose
// entrypoint is /pause (the binary at bin).
func writePauseImage(bin, out string) error {
	pause, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	layer, err := tarFiles([]tarEntry{{"pause", 0o755, pause}})
	if err != nil {
		return err
	}
	config, _ := json.Marshal(map[string]any{
		"architecture": "amd64",
		"os":           "linux",
		"config":       map[string]any{"Entrypoint": []string{"/pause"}, "User": "65535:65535"},
		"rootfs":       map[string]any{"type": "layers", "diff_ids": []string{digestOf(layer)}},
	})
	manifest, _ := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.manifest.v1+json",
		"config":        ociDescriptor{MediaType: "application/vnd.oci.image.config.v1+json", Digest: digestOf(config), Size: int64(len(config))},
		"layers":        []ociDescriptor{{MediaType: "application/vnd.oci.image.layer.v1.tar", Digest: digestOf(layer), Size: int64(len(layer))}},
	})
	index, _ := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.index.v1+json",
		"manifests": []ociDescriptor{{MediaType: "application/vnd.oci.image.manifest.v1+json", Digest: digestOf(manifest), Size: int64(len(manifest)),
			Annotations: map[string]string{"io.containerd.image.name": nodePauseImage, "org.opencontainers.image.ref.name": "1"}}},
	})
	blob := func(b []byte) tarEntry { return tarEntry{"blobs/sha256/" + digestOf(b)[len("sha256:"):], 0o644, b} }
	archive, err := tarFiles([]tarEntry{
		{"oci-layout", 0o644, []byte(`{"imageLayoutVersion":"1.0.0"}`)},
		{"index.json", 0o644, index},
		blob(config), blob(manifest), blob(layer),
	})
	if err != nil {
		return err
	}
	return os.WriteFile(out, archive, 0o644)
}
