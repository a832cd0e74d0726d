// Command pause is the real node's sandbox ("pause") container: it holds a
// pod's namespaces until it is told to stop. Built static (CGO_ENABLED=0)
// into a one-file image by `testcluster node` (node_image.go).
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
}
