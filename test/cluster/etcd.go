package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// runEtcd runs an embedded single-member etcd on loopback (plain HTTP).
func runEtcd(args []string) int {
	fs := flag.NewFlagSet("etcd", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "", "data directory")
	clientPort := fs.Int("client-port", 0, "client port on 127.0.0.1")
	peerPort := fs.Int("peer-port", 0, "peer port on 127.0.0.1")
	if err := fs.Parse(args); err != nil {
		return 2
	}

	cfg := embed.NewConfig()
	cfg.Name = "testcluster"
	cfg.Dir = *dataDir
	cfg.LogLevel = "error"   // "warn" logs every request
	cfg.UnsafeNoFsync = true // test data only: much faster on slow disks
	cu, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", *clientPort))
	pu, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", *peerPort))
	cfg.ListenClientUrls = []url.URL{*cu}
	cfg.AdvertiseClientUrls = []url.URL{*cu}
	cfg.ListenPeerUrls = []url.URL{*pu}
	cfg.AdvertisePeerUrls = []url.URL{*pu}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.AutoCompactionMode = "periodic"
	cfg.AutoCompactionRetention = "5m"
	cfg.QuotaBackendBytes = 2 << 30

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd:", err)
		return 1
	}
	select {
	case <-e.Server.ReadyNotify():
		fmt.Fprintln(os.Stderr, "etcd: ready on", cu.String())
	case <-time.After(60 * time.Second):
		fmt.Fprintln(os.Stderr, "etcd: not ready after 60s")
		e.Close()
		return 1
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case s := <-sig:
		fmt.Fprintln(os.Stderr, "etcd: stopping on", s)
		e.Close()
		return 0
	case err := <-e.Err():
		fmt.Fprintln(os.Stderr, "etcd:", err)
		e.Close()
		return 1
	}
}
