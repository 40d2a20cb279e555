//go:build !linux && !darwin

package gitops

// bootID is unknown here: no lock is presumed dead automatically.
func bootID() string { return "" }

// pidNamespace is unknown here.
func pidNamespace() string { return "" }
