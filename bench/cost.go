package main

import (
	"runtime"
	"syscall"
	"time"
)

// cost is what the whole bench process (the in-process runsvc and its
// clients) has spent so far: CPU time, user and system, and allocations.
type cost struct {
	cpu     time.Duration
	mallocs uint64
	gcs     uint32
}

// costNow reads the process's CPU time and allocation counts; it stops the
// world briefly (runtime.ReadMemStats), so call it between measurements.
func costNow() cost {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return cost{cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), mallocs: m.Mallocs, gcs: m.NumGC}
}

// perDelivery is the CPU and allocation cost of each of n deliveries
// since c: CPU time is what load on the machine changes least, so it
// compares builds where latency on a shared machine cannot.
type perDelivery struct {
	// CPUMicros is the process's CPU time per delivery, in µs.
	CPUMicros float64 `json:"cpuMicrosPerDelivery"`
	// Allocs is allocations per delivery, server and client together.
	Allocs float64 `json:"allocsPerDelivery"`
	// GCs is how many collections ran in the interval.
	GCs uint32 `json:"gcs"`
}

// since returns the cost per delivery of n deliveries from c to now.
func (c cost) since(n int) perDelivery {
	now := costNow()
	if n <= 0 {
		return perDelivery{}
	}
	return perDelivery{
		CPUMicros: float64(now.cpu-c.cpu) / float64(time.Microsecond) / float64(n),
		Allocs:    float64(now.mallocs-c.mallocs) / float64(n),
		GCs:       now.gcs - c.gcs,
	}
}
