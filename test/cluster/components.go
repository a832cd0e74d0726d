package main

// Each Kubernetes component keeps global state (flags, klog, prometheus
// registries, signal handlers), so `up` runs every component as a child
// process of this same binary: `testcluster component NAME ARGS...`.

import (
	"fmt"
	"os"
	"runtime"

	"github.com/spf13/pflag"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
	metricsserver "sigs.k8s.io/metrics-server/cmd/metrics-server/app"

	kwokconfig "sigs.k8s.io/kwok/pkg/config"
	kwokcmd "sigs.k8s.io/kwok/pkg/kwok/cmd"
	kwoklog "sigs.k8s.io/kwok/pkg/log"
	kwoksignals "sigs.k8s.io/kwok/pkg/utils/signals"
)

func runComponent(name string, args []string) int {
	// Upstream mains read os.Args directly in places (kwok's config flags).
	os.Args = append([]string{name}, args...)
	switch name {
	case "etcd":
		return runEtcd(args)
	case "kube-apiserver":
		return cli.Run(apiserver.NewAPIServerCommand())
	case "kube-controller-manager":
		return cli.Run(controllermanager.NewControllerManagerCommand())
	case "kube-scheduler":
		return cli.Run(scheduler.NewSchedulerCommand())
	case "kwok":
		return runKwok()
	case "metrics-server":
		return runMetricsServer()
	default:
		fmt.Fprintf(os.Stderr, "unknown component %q\n", name)
		return 2
	}
}

// runKwok mirrors sigs.k8s.io/kwok/cmd/kwok/main.go.
func runKwok() int {
	// kube-apiserver's packages (linked into this binary) register a global
	// --version flag of another type than cobra's; kwok must not inherit it.
	pflag.CommandLine = pflag.NewFlagSet(os.Args[0], pflag.ExitOnError)
	flagset := pflag.NewFlagSet("global", pflag.ContinueOnError)
	flagset.ParseErrorsAllowlist.UnknownFlags = true
	flagset.Usage = func() {}

	ctx := kwoksignals.SetupSignalContext()
	ctx, logger := kwoklog.InitFlags(ctx, flagset)
	ctx, err := kwokconfig.InitFlags(ctx, flagset)
	if err != nil {
		logger.Error("Init config flags", "err", err)
		return 1
	}
	command := kwokcmd.NewCommand(ctx)
	command.PersistentFlags().AddFlagSet(flagset)
	if err := command.ExecuteContext(ctx); err != nil {
		logger.Error("Execute exit", "err", err)
		return 1
	}
	return 0
}

// runMetricsServer mirrors sigs.k8s.io/metrics-server/cmd/metrics-server.
func runMetricsServer() int {
	logs.InitLogs()
	defer logs.FlushLogs()
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.NumCPU())
	}
	cmd := metricsserver.NewMetricsServerCommand(genericapiserver.SetupSignalHandler())
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
