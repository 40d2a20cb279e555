//go:build !linux

package main

import "os"

// peakRSS is not measured here (ru_maxrss has other units elsewhere).
func peakRSS(*os.ProcessState) int64 { return 0 }
