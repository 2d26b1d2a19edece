// Command kas is a test-only Kubernetes control plane in one binary.
//
// Default mode: kube-apiserver (upstream k8s.io/kubernetes/cmd/kube-apiserver/app).
// When KAS_ETCD_DIR is set, a throwaway single-member etcd 3.6 is started
// in-process first, listening on 127.0.0.1 only (ports from KAS_ETCD_PORT and
// KAS_ETCD_PEER_PORT), with fsync disabled. All arguments go unchanged to
// kube-apiserver, so --etcd-servers must point at http://127.0.0.1:$KAS_ETCD_PORT.
//
// "kas controller-manager [flags]": kube-controller-manager
// (upstream k8s.io/kubernetes/cmd/kube-controller-manager/app).
//
// KAS_EXIT_WITH_PARENT=1 (both modes): terminate when the parent process goes
// away (the process gets re-parented), so a crashed or SIGKILLed test runner
// leaves no control plane behind.
//
// Never use this outside tests: etcd runs without fsync and without TLS.
package main

import (
	"fmt"
	"net/url"
	"os"
	"syscall"
	"time"
	_ "time/tzdata" // for timeZone support in CronJob

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // JSON log format registration
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go prometheus plugins
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric registration
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func getenv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// startEtcd runs an embedded single-member etcd bound to 127.0.0.1 and blocks
// until it serves clients. The server lives as long as the process.
func startEtcd(dir string) error {
	cfg := embed.NewConfig()
	cfg.Name = "kas-etcd"
	cfg.Dir = dir
	cfg.UnsafeNoFsync = true // test-only single member; data is thrown away
	cfg.LogLevel = getenv("KAS_ETCD_LOG_LEVEL", "warn")
	cfg.LogOutputs = []string{"stderr"}
	client := url.URL{Scheme: "http", Host: "127.0.0.1:" + getenv("KAS_ETCD_PORT", "23790")}
	peer := url.URL{Scheme: "http", Host: "127.0.0.1:" + getenv("KAS_ETCD_PEER_PORT", "23800")}
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	// No metrics listener, no pprof: nothing but the client and peer ports.
	cfg.ListenMetricsUrls = nil

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("start embedded etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
		return nil
	case err := <-e.Err():
		return fmt.Errorf("embedded etcd failed: %w", err)
	case <-time.After(60 * time.Second):
		e.Close()
		return fmt.Errorf("embedded etcd not ready after 60s")
	}
}

// exitWithParent polls the parent pid; when it changes, it sends SIGTERM to
// this process (graceful shutdown) and hard-exits 15 s later.
func exitWithParent() {
	parent := os.Getppid()
	go func() {
		for range time.Tick(time.Second) {
			if os.Getppid() != parent {
				fmt.Fprintln(os.Stderr, "kas: parent process exited; shutting down")
				_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
				time.Sleep(15 * time.Second)
				os.Exit(1)
			}
		}
	}()
}

func main() {
	if os.Getenv("KAS_EXIT_WITH_PARENT") == "1" {
		exitWithParent()
	}
	if len(os.Args) > 1 && os.Args[1] == "controller-manager" {
		// Strip the mode argument so cobra sees only kube-controller-manager flags.
		os.Args = append(os.Args[:1], os.Args[2:]...)
		os.Exit(cli.Run(controllermanager.NewControllerManagerCommand()))
	}

	if dir := os.Getenv("KAS_ETCD_DIR"); dir != "" {
		if err := startEtcd(dir); err != nil {
			fmt.Fprintln(os.Stderr, "kas:", err)
			os.Exit(1)
		}
	}
	os.Exit(cli.Run(apiserver.NewAPIServerCommand()))
}
